#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memlat end to end on a small size range: kbench list names it; a size list
# that makes no sense is one line and exit 2; a run prints its points table
# and the "Memory latencies in nanoseconds" table, stores the points (show,
# export json and csv), and two runs compare with a verdict on every
# headline point; a run interrupted mid-sweep keeps the sizes it finished.
# requires: python3
# cost: 13
. "$KBENCH_TOP/tests/system/lib.inc"
# its plateau rows (rnd L1, rnd L2) and steps are named by the caches sysfs gives: a fake cache
# tree gives them (lib.inc's fake_caches; KBENCH_TEST_CACHES picks a netbook's, a laptop's or
# this host's), whatever this machine's sysfs says or lacks
fake_caches "$T/caches"
export KBENCH_SYSFS_ROOT="$T/caches"

"$KBENCH" list >"$T/list" || die "kbench list failed"
grep -A1 '^memlat ' "$T/list" | grep -q 'ns per load, 512 B to 4x the last cache' || { cat "$T/list"; die "kbench list lacks memlat and what it measures"; }
grep -Eq '^ *memory ' "$T/list" || die "kbench list lacks the memory group"

for bad in 0:1M 1M:512K 4K:8K:0 4K abc 512:1M:99 512:1T; do
	expect_exit 2 "$KBENCH" run memlat --sizes "$bad" --no-save
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "--sizes $bad: not one line"; }
	grep -q -- '--sizes' "$T/err" || die "--sizes $bad: the error does not name the option"
done

small="--sizes 512:256K:2 --duration 0.5 --samples 2 --pause 0 -c 1 --no-telemetry"
expect_exit 0 "$KBENCH" run memlat $small --name one
grep -q '^Memory latency (dependent loads): 7 of its points, mean of 2 samples' "$T/out" ||
	{ cat "$T/out"; die "no points table"; }
# its notes wrap to 80 columns, as the tables fit them
sed -n '/^Memory latency (dependent loads)/,/^$/p' "$T/out" |
	awk 'length($0) > 79 { print; bad = 1 } END { exit bad }' || die "the memlat section is wider than 79 columns"
grep -Eq "^  rnd L1 +$L1HALF +[0-9.]+ ns" "$T/out" || die "no L1 plateau row read at half of L1 ($L1HALF)"
grep -q '^Memory latencies in nanoseconds' "$T/out" || die "no latency table to paste"
grep -Eq '^Host +OS +Mhz +L1 \$ +L2 \$ +L3 \$ +Main mem' "$T/out" || die "the latency table's columns"
grep -q 'an L1 load takes [0-9.]* cycles' "$T/out" || die "no clock estimate"
grep -q 'MADV_NOHUGEPAGE); 0 B of the 256 KiB buffer in huge pages' "$T/out" || die "the pages used are not said"
grep -q 'System Benchmarks Index' "$T/out" && die "a memlat run printed an index table"
expect_exit 0 "$KBENCH" run memlat $small --name two
# --huge asks for huge pages and says what it got (none, or some, as THP allows)
expect_exit 0 "$KBENCH" run memlat --sizes 2M:4M:1 --duration 0.2 --samples 1 --pause 0 -c 1 --no-telemetry --no-save --huge
tr -s ' \n' ' ' <"$T/out" | grep -Eq 'Pages: huge pages asked \(MADV_HUGEPAGE\); .* of the 4 MiB buffer in huge pages' ||
	{ cat "$T/out"; die "--huge: the pages are not said"; }

expect_exit 0 "$KBENCH" show one
grep -q '^Memory latencies in nanoseconds' "$T/out" || die "show lacks the latency table"
expect_exit 0 "$KBENCH" export one --format json
python3 - "$T/out" <<'EOF' || die "the run file's points"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"]["minor"] == 2
t = d["blocks"][0]["tests"][0]
assert t["kind"] == "points"
pts = {p["name"]: p for p in t["points"]}
curve = [p for p in t["points"] if not p["summary"]]
assert len([p for p in curve if p["name"].startswith("rnd ")]) == 19, len(curve)
for p in t["points"]:
    assert len(p["values"]) == 2, p
assert pts["rnd L1"]["better"] == "lower" and pts["clock"]["better"] == "higher"
keys = {k["key"] for k in t["summary"]}
assert "cache.L1" in keys and "step.L1" in keys, keys
EOF
expect_exit 0 "$KBENCH" export one --format csv
[ "$(grep -c ',memlat,"rnd 4096",ns,done,' "$T/out")" = 2 ] || die "csv: not a line per sample of a point"

expect_exit 0 "$KBENCH" compare one two
for p in clock "fwd L1" "rnd L1" "rnd L2" "rnd mem"; do
	grep -Eq "^memlat $p .*(no significant change|faster|slower)" "$T/out" ||
		{ cat "$T/out"; die "compare: no verdict on $p"; }
done
grep -q '^Curve points (not in the table; --csv lists each): 38,' "$T/out" || die "compare: the curve points are not counted"
expect_exit 0 "$KBENCH" compare one two --csv
[ "$(grep -c '^1,"memlat:' "$T/out")" = 45 ] || die "compare --csv: not a row per point"
grep -q '^[0-9]*,"index",' "$T/out" && die "compare --csv of runs without an index has an index row: $(grep index "$T/out")"
expect_exit 0 "$KBENCH" compare one two --json
python3 -c 'import json, sys; assert all(b["index"] is None for b in json.load(open(sys.argv[1]))["blocks"])' "$T/out" ||
	die "compare --json of runs without an index has an index"
# kbench runs: a run without an index says which tests it was
expect_exit 0 "$KBENCH" runs
grep -Eq '^[0-9a-f]{8} +one .* 1 +memlat$' "$T/out" || { cat "$T/out"; die "runs: the index-less run does not name its test"; }

# Interrupted in the middle of its first sweep: the sizes done are stored.
rm -rf "$KBENCH_HOME"
"$KBENCH" run memlat --sizes 512:64M:4 --duration 20 --samples 1 --pause 0 -c 1 --no-telemetry \
	--name cut >"$T/out" 2>"$T/err" &
pid=$!
# 4 s of its CPU time (kbench and its worker), not of the wall clock: on a machine others load
# 4 s of wall time was two sizes' worth
t=0
while [ $t -lt 120 ]; do
	sleep 0.5
	t=$((t + 1))
	cpu=$(ps --no-headers -o times= -p $pid --ppid $pid 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	[ "$cpu" -ge 4 ] && break
done
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat "$T/err"; die "interrupted: exit $rc, wanted 130"; }
grep -q 'marked incomplete' "$T/err" || { cat "$T/err"; die "the interrupted run was not stored"; }
expect_exit 0 "$KBENCH" export cut --format json
python3 - "$T/out" <<'EOF' || die "the interrupted run's points"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["incomplete"]
t = d["blocks"][0]["tests"][0]
assert t["status"] == "skipped", t["status"]
rnd = [p for p in t["points"] if p["name"].startswith("rnd ") and not p["summary"]]
assert 3 <= len(rnd) < 69, len(rnd)
EOF
exit 0
