#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# buildload end to end on a one-unit tree with short loads: a bad --loads or
# --hog is one line and exit 2; a run prints contest's blocks (a header of
# Kernel [runs] Time CPU% Loads LCPU% Ratio, one row per load, no_load's
# Ratio 1.00) and stores a headline point per load with the others beside
# it; the loads' units and CPU are measured; two runs compare with a verdict
# per load in contest's layout; a machine too small (faked with
# KBENCH_MEM_AVAILABLE_KIB and KBENCH_DISK_FREE_KIB) makes mem_load and
# io_load refuse with one line each, nothing written; a contest table
# imports and compares n/a; Ctrl-C, a killed
# worker and a killed build leave no load process and no file behind.
# requires: make cc python3
# cost: 15
. "$KBENCH_TOP/tests/system/lib.inc"
# processes working in the scratch directory (the worker, its loads, make, cc1)
export KBENCH_BUILDLOAD_LEAD=0.3 KBENCH_DISK_FREE_KIB=400000 KBENCH_BUILDLOAD_FLUSH=0

"$KBENCH" list >"$T/list" || die "kbench list failed"
grep -q '^buildload ' "$T/list" || { cat "$T/list"; die "kbench list lacks buildload"; }
for bad in "--loads no_load,bogus" "--loads ,," "--hog 0" "--hog 99"; do
	expect_exit 2 "$KBENCH" run buildload $bad --no-save
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "$bad: not one line"; }
	grep -q -- "${bad%% *}" "$T/err" || die "$bad: the error does not name the option"
done

mkdir "$T/scratch"
small="--tree 1 --samples 1 --pause 0 --no-telemetry --tmpdir $T/scratch"
expect_exit 0 "$KBENCH" run buildload $small --loads no_load,process_load,io_load,mem_load --hog 1 --name one
grep -q '^Build under load (contest-style): 1 units, 2 objects, hash ' "$T/out" || { cat "$T/out"; die "no title"; }
for l in no_load process_load io_load mem_load; do
	grep -A2 "^$l:\$" "$T/out" >"$T/block"
	grep -Eq '^Kernel +\[runs\] +Time +CPU% +Loads +LCPU% +Ratio$' "$T/block" || { cat "$T/out"; die "$l: header"; }
	grep -Eq '^one +1 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$T/block" || { cat "$T/out"; die "$l: row"; }
done
grep -A2 '^no_load:$' "$T/out" | grep -Eq ' 0\.0 +0\.0 +1\.00$' || { cat "$T/out"; die "no_load: no load, ratio 1.00"; }
grep -q 'block layer' "$T/out" || die "the I/O caveat is not said"
[ -z "$(ls -A "$T/scratch")" ] || die "left in scratch after the run: $(ls -A "$T/scratch")"
expect_exit 0 "$KBENCH" export one --format json
python3 - "$T/out" <<'EOF' || die "the run file's points"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["blocks"][0]["tests"][0]
assert t["kind"] == "points" and t["id"] == "buildload"
pts = {p["name"]: p for p in t["points"]}
for l in ("no_load", "process_load", "io_load", "mem_load"):
    p = pts[l]
    assert p["summary"] and p["better"] == "lower" and p["unit"] == "s" and p["values"][0] > 0, p
    for f in ("cpu", "loads", "lcpu", "ratio"):
        assert not pts[l + " " + f]["summary"], f
assert pts["no_load loads"]["values"] == [0] and pts["no_load ratio"]["values"] == [1]
for l in ("process_load", "io_load", "mem_load"):
    assert pts[l + " loads"]["values"][0] > 0, l    # it worked during the build
    assert pts[l + " lcpu"]["values"][0] > 0, l     # and used CPU doing it
r = pts["io_load ratio"]["values"][0]
assert abs(r - pts["io_load"]["values"][0] / pts["no_load"]["values"][0]) < 1e-6, r
EOF

expect_exit 0 "$KBENCH" run buildload $small --loads no_load,process_load --name two
expect_exit 0 "$KBENCH" compare one two
grep -q "^Build under load, in contest's layout" "$T/out" || { cat "$T/out"; die "compare: no contest blocks"; }
grep -A3 '^process_load:$' "$T/out" >"$T/block"
grep -Eq '^Kernel +\[runs\] +Time +CPU% +Loads +LCPU% +Ratio +\+- +verdict$' "$T/block" || { cat "$T/out"; die "compare header"; }
grep -Eq '^one \([0-9a-f]+\) +1 +[0-9.]+ ' "$T/block" || { cat "$T/out"; die "compare: A's row"; }
grep -Eq '^two \([0-9a-f]+\) +1 +[0-9.]+ .* [0-9.]+% +(no significant change|faster|slower)' "$T/block" ||
	{ cat "$T/out"; die "compare: B's row with its verdict"; }
grep -Eq '^buildload +no_load .*(no significant change|faster|slower)' "$T/out" ||
	grep -Eq 'no_load .*(no significant change|faster|slower)' "$T/out" || { cat "$T/out"; die "no verdict row"; }

# Too little memory and disk: the two loads refuse, each with one line, and
# the run goes on with the others; nothing of theirs is written.
KBENCH_MEM_AVAILABLE_KIB=100000 KBENCH_DISK_FREE_KIB=100000 \
	expect_exit 0 "$KBENCH" run buildload $small --loads no_load,io_load,mem_load --name small
grep -Eq '^small +mem_load refused: needs .* of memory and swap, 98 MiB there$' "$T/out" ||
	{ cat "$T/out"; die "mem_load did not refuse"; }
grep -Eq '^small +io_load refused: needs 256 MiB free on disk, 98 MiB there$' "$T/out" ||
	{ cat "$T/out"; die "io_load did not refuse"; }
expect_exit 0 "$KBENCH" show small
grep -q '^note: buildload: mem_load refused' "$T/out" || { cat "$T/out"; die "the refusal is not in the run's notes"; }
grep -q '^note: buildload: page cache not flushed before the loads (KBENCH_BUILDLOAD_FLUSH=0)' "$T/out" ||
	{ cat "$T/out"; die "an unflushed cache is not in the run's notes"; }

# wait_for N: until N processes work in the scratch directory (the ring is up)
wait_for() {
	i=0
	until [ "$(in_scratch)" -ge "$1" ] || [ $i -gt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ $i -le 200 ] || die "the load did not start in 10 s"
}
gone() {
	i=0
	until [ "$(in_scratch)" = 0 ] || [ $i -gt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(in_scratch)" = 0 ] || die "$1: a load or build outlived it"
	[ -z "$(ls -A "$T/scratch")" ] || die "$1: left in scratch: $(ls -A "$T/scratch")"
}
# contest's published tables import as one run per kernel, shown in the
# same blocks, n/a against a measured run (no samples behind the means).
expect_exit 0 "$KBENCH" import "$KBENCH_TOP/tests/fixtures/contest-2.6.txt" --name c
expect_exit 0 "$KBENCH" show "c 2.6.0-test9"
grep -A2 '^process_load:$' "$T/out" | grep -Eq '^c 2.6.0-test9 +2 +127 +58.3 +95.5 +39.0 +1.59$' ||
	{ cat "$T/out"; die "the imported contest block"; }
expect_exit 0 "$KBENCH" compare "c 2.6.0-test9" two
grep -A3 '^process_load:$' "$T/out" | grep -Eq '^two .* n/a \(no samples\)$' || { cat "$T/out"; die "imported vs measured: not n/a"; }

# Ctrl-C while the pipe ring and a streaming writer run: exit 130, nothing left.
KBENCH_BUILDLOAD_LEAD=3 "$KBENCH" run buildload $small --loads process_load --name cut >"$T/out" 2>"$T/err" &
pid=$!
wait_for 9
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat "$T/err"; die "interrupted: exit $rc, wanted 130"; }
gone "Ctrl-C"

# The worker killed outright: the runner kills its group, the test fails.
KBENCH_BUILDLOAD_LEAD=3 "$KBENCH" run buildload $small --loads io_load,process_load --no-save >"$T/out" 2>"$T/err" &
pid=$!
i=0
until ls "$T"/scratch/kbench-*/copy0/io_load.dat >/dev/null 2>&1 || [ $i -gt 200 ]; do sleep 0.05; i=$((i + 1)); done
worker=$(ps -eo pid=,pgid=,comm= | awk '$1 == $2 && $3 == "kbench" { print $1 }' | while read p; do
	ls -l /proc/$p/cwd 2>/dev/null | grep -q "$T/scratch" && echo $p; done | head -1)
[ -n "$worker" ] || die "no worker found"
ls "$T"/scratch/kbench-*/copy0/io_load.dat >/dev/null 2>&1 || die "io_load wrote no file"
kill -KILL "$worker"
wait $pid
rc=$?
[ "$rc" = 1 ] || { cat "$T/err"; die "worker killed: exit $rc, wanted 1"; }
gone "a killed worker"

# The build killed: the load is stopped and its file removed, the test fails.
KBENCH_BUILDLOAD_LEAD=0.5 "$KBENCH" run buildload $small --tree tiny --loads io_load --no-save >"$T/out" 2>"$T/err" &
pid=$!
i=0
until ls "$T"/scratch/kbench-*/copy0/io_load.dat >/dev/null 2>&1 || [ $i -gt 400 ]; do sleep 0.05; i=$((i + 1)); done
# after the load started, a make in the tree is the timed build
i=0
mk=
until [ -n "$mk" ] || [ $i -gt 200 ]; do
	mk=$(ps -eo pid=,comm= | awk '$2 == "make" { print $1 }' | while read p; do
		ls -l /proc/$p/cwd 2>/dev/null | grep -q "$T/scratch" && echo $p; done | head -1)
	[ -n "$mk" ] || sleep 0.05
	i=$((i + 1))
done
[ -n "$mk" ] || die "no make found beside io_load"
kill -KILL "$mk"
wait $pid
rc=$?
[ "$rc" = 1 ] || { cat "$T/err"; die "build killed: exit $rc, wanted 1"; }
grep -q 'make -j[0-9]* kbprog failed' "$T/out" "$T/err" || { cat "$T/out" "$T/err"; die "the failed build is not said"; }
gone "a killed build"
exit 0
