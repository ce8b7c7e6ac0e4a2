#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memcheck on a short headless run (the coordinator, telemetry, report and save, and the
# forked workers, which valgrind follows; exec'd children run natively): no definite leak,
# no read of uninitialised memory, no invalid access. Then the same run read back, shown
# and compared with itself.
# requires: valgrind
# cost: 19
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/valgrind_lib.inc"
mkdir -p "$T/scratch"

# Tests whose workers valgrind can run (some others use instructions it lacks).
vg "a headless run with telemetry" run --samples 1 --duration 0.2 --pause 0 -c 1 --tmpdir "$T/scratch" \
	--name vg syscall spawn execl shell1
grep -Eq '^System Call Overhead +[0-9.]+ lps' "$T/vg.out" || { cat "$T/vg.out"; die "no report from the run"; }
vg "a run of two samples without telemetry" run --samples 2 --duration 0.1 --pause 0 -c 1 --no-telemetry \
	--tmpdir "$T/scratch" --name vg2 syscall hanoi
vg "runs" runs
vg "show" show last
vg "compare the two runs" compare last last~1
grep -Eq '^(System Call|Tower of Hanoi) +[0-9]' "$T/vg.out" || { cat "$T/vg.out"; die "compare printed no table"; }
echo ok
