#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbuild end to end on the tiny tree: kbench list names it; a -j list or a
# tree size that makes no sense is one line and exit 2; a run prints the
# kernbench-like table (one row per -j, elapsed mean (sd), builds per hour),
# stores a point per -j with a value per timed build plus the tree's hash,
# the compiler and the flags (show, export json and csv); two runs compare
# with a verdict per -j; a run interrupted mid-build or killed outright
# leaves no make, no compiler and nothing in the scratch directory; a
# kernbench log and kcbench reports import and compare n/a.
# requires: make cc python3
# cost: 24
. "$KBENCH_TOP/tests/system/lib.inc"
# how many processes work in the scratch directory (make, the shells, cc1, as)

"$KBENCH" list >"$T/list" || die "kbench list failed"
grep -A1 '^kbuild ' "$T/list" | grep -q 'generated C tree' || { cat "$T/list"; die "kbench list lacks kbuild"; }
grep -Eq '^ *build ' "$T/list" || die "kbench list lacks the build group"

for bad in "--make-jobs 0" "--make-jobs 2,x" "--make-jobs -1" "--make-jobs 1,2,3,4,5,6,7,8,9" "--tree 0" "--tree huge"; do
	expect_exit 2 "$KBENCH" run kbuild $bad --no-save
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "$bad: not one line"; }
	grep -q -- "${bad%% *}" "$T/err" || die "$bad: the error does not name the option"
done

mkdir "$T/scratch"
tiny="--tree tiny --make-jobs 1,2 --samples 2 --pause 0 --no-telemetry --tmpdir $T/scratch"
expect_exit 0 "$KBENCH" run kbuild $tiny --name one
grep -q '^== 1 parallel copy ==' "$T/err" || { cat "$T/err"; die "kbuild ran more than one copy by default"; }
grep -q '^Build time (make, generated C tree): 8 units, 9 objects, hash 69c4eb1801fd3944' "$T/out" ||
	{ cat "$T/out"; die "no table naming the tree and its hash"; }
grep -Eq '^  +Elapsed Time +User +System +CPU% +Ctx vol +Ctx inv +MaxRSS +Builds/h' "$T/out" || die "the table's columns"
grep -Eq '^  -j1 +[0-9.]+ \([0-9.]+\) +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+MB +[0-9.]+$' "$T/out" ||
	{ cat "$T/out"; die "no -j1 row"; }
grep -Eq '^  -j2 ' "$T/out" || die "no -j2 row"
grep -q 'of 2 timed builds per -j after one untimed warm-up' "$T/out" || die "the protocol is not said"
grep -q 'System Benchmarks Index' "$T/out" && die "a kbuild run printed an index table"
[ -z "$(ls -A "$T/scratch")" ] || die "left in scratch after the run: $(ls -A "$T/scratch")"
expect_exit 0 "$KBENCH" run kbuild $tiny --name two

expect_exit 0 "$KBENCH" show one
grep -q '^Build time (make, generated C tree): 8 units' "$T/out" || die "show lacks the table"
expect_exit 0 "$KBENCH" export one --format json
python3 - "$T/out" <<'EOF' || die "the run file's points"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["blocks"][0]["tests"][0]
assert t["kind"] == "points" and t["id"] == "kbuild"
pts = {p["name"]: p for p in t["points"]}
for j in ("-j1", "-j2"):
    p = pts[j]
    assert p["summary"] and p["better"] == "lower" and p["unit"] == "s", p
    assert len(p["values"]) == 2 and all(v > 0 for v in p["values"]), p
    for f in ("user", "sys", "cpu", "vcsw", "ivcsw", "maxrss"):
        q = pts[j + " " + f]
        assert not q["summary"] and len(q["values"]) == 2, q
summ = {k["key"]: k for k in t["summary"]}
assert "hash 69c4eb1801fd3944" in summ["tree"]["text"], summ["tree"]
assert summ["flags"]["text"].startswith("-O2"), summ["flags"]
assert summ["jobs"]["text"] == "1,2", summ["jobs"]
assert "compiler" in summ
EOF
expect_exit 0 "$KBENCH" export one --format csv
[ "$(grep -c ',kbuild,"-j1",s,done,' "$T/out")" = 2 ] || { head "$T/out"; die "csv: not a line per timed build"; }

expect_exit 0 "$KBENCH" compare one two
for j in -j1 -j2; do
	grep -Eq "^kbuild $j .*(no significant change|faster|slower)" "$T/out" ||
		{ cat "$T/out"; die "compare: no verdict on $j"; }
done

# A kernbench log imports as a kbuild run: its table, and n/a against a
# measured run (the builds behind its means are not in the log).
expect_exit 0 "$KBENCH" import "$KBENCH_TOP/tests/fixtures/kernbench-old.log" --name kb
expect_exit 0 "$KBENCH" show kb
grep -Eq '^  -j2 +97.40 \(0.57\) +172.07 +13.37 +190 ' "$T/out" || { cat "$T/out"; die "the imported kernbench table"; }
expect_exit 0 "$KBENCH" compare kb two
grep -Eq '^kbuild -j2 .* n/a \(no samples\)' "$T/out" || { cat "$T/out"; die "imported vs measured: not n/a"; }

# kcbench reports (two quoted in a mail) import as two kbuild runs, the
# mean of each -j's builds, and compare n/a with each other.
expect_exit 0 "$KBENCH" import "$KBENCH_TOP/tests/fixtures/kcbench-mail.txt"
grep -c '^imported .* as ' "$T/out" | grep -qx 2 || { cat "$T/out"; die "kcbench: not two runs"; }
expect_exit 0 "$KBENCH" show 5.10.0-rc3-patched
grep -q '^Build time (make, kernel tree): Linux 5.4.0, defconfig (kcbench)' "$T/out" || { cat "$T/out"; die "the kcbench run's title"; }
grep -Eq '^  -j4 +600.00 \(1.84\) +- +- +- ' "$T/out" || { cat "$T/out"; die "the imported kcbench table"; }
expect_exit 0 "$KBENCH" compare 5.10.0-rc3 5.10.0-rc3-patched
grep -Eq '^kbuild -j4 +611.20 .* 600.00 .* n/a \(no samples\)' "$T/out" || { cat "$T/out"; die "kcbench vs kcbench: not n/a"; }

# Interrupted in the middle of a build: make and its compilers go with the
# worker, the tree goes with the scratch directory, the finished builds stay,
# and the compilers' temporary files (cc*.s, in TMPDIR) go with the scratch too.
rm -rf "$KBENCH_HOME"
mkdir "$T/tmp"
export TMPDIR="$T/tmp"
"$KBENCH" run kbuild --tree 96 --make-jobs 2 --samples 2 --pause 0 --no-telemetry --tmpdir "$T/scratch" \
	--name cut >"$T/out" 2>"$T/err" &
pid=$!
i=0
until ls "$T"/scratch/kbench-*/kbuild0/obj/*.o >/dev/null 2>&1 || [ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ $i -le 300 ] || die "no object compiled in 30 s"
stop_leaves_nothing $pid
[ -z "$(ls -A "$T/tmp")" ] || die "the compilers' files left in TMPDIR after Ctrl-C: $(ls -A "$T/tmp" | head -3)"

# Killed outright: the next run sweeps the dead run's directory away.
"$KBENCH" run kbuild --tree 96 --make-jobs 2 --samples 1 --pause 0 --no-telemetry --tmpdir "$T/scratch" \
	--no-save >/dev/null 2>&1 &
pid=$!
i=0
until ls "$T"/scratch/kbench-*/kbuild0/obj/*.o >/dev/null 2>&1 || [ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -KILL $pid
wait $pid 2>/dev/null
# make gets SIGTERM when its worker dies and stops its compilers
i=0
until [ "$(in_scratch)" = 0 ] || [ $i -gt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(in_scratch)" = 0 ] || die "make or a compiler outlived a killed run: $(scratch_procs)"
expect_exit 2 "$KBENCH" run kbuild --make-jobs 0 --tmpdir "$T/scratch" --no-save
expect_exit 0 "$KBENCH" run kbuild --tree 1 --make-jobs 1 --samples 1 --pause 0 --no-telemetry \
	--tmpdir "$T/scratch" --no-save
[ -z "$(ls -A "$T/scratch")" ] || die "left in scratch after a killed run and the next: $(ls -A "$T/scratch")"
[ -z "$(ls -A "$T/tmp")" ] || die "the compilers' files left in TMPDIR after a killed run: $(ls -A "$T/tmp" | head -3)"
exit 0
