#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A build slowed on purpose reads slower: the same small tree built at -j2
# alone and then beside a CPU hog pinned to CPU 0 (started once the run is
# under way, so the preflight does not call the machine busy; telemetry off,
# since it would rightly withhold the verdict of a run that shared its CPUs).
# The slowed run's -j2 row must say "slower", and the other way round "faster".
# tier: load (a known slowdown must stand out of both runs' noise; skipped when the machine is busy)
# requires: make cc taskset cpus2
. "$KBENCH_TOP/tests/system/lib.inc"
b=$(busy)
[ "$b" -lt 25 ] || skip "the machine is busy: other processes use ${b}% of the CPUs"
hog=""
trap '[ -n "$hog" ] && kill $hog 2>/dev/null; rm -rf "$T"' EXIT
R="run kbuild --tree 16 --make-jobs 2 --samples 3 --pause 0 --no-telemetry"

expect_exit 0 "$KBENCH" $R --name plain
: >"$T/err" # the plain run's lines must not stand for this one's
"$KBENCH" $R --name slowed >"$T/out" 2>"$T/err" &
pid=$!
i=0
until grep -q '^== 1 parallel copy ==' "$T/err" || [ $i -gt 100 ]; do sleep 0.1; i=$((i + 1)); done
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
wait $pid || { cat "$T/err"; die "the slowed run failed"; }
kill $hog
hog=""

expect_exit 0 "$KBENCH" compare plain slowed
cat "$T/out"
grep -Eq '^kbuild -j2 .* slower' "$T/out" || die "the build beside a hog is not reported slower"
expect_exit 0 "$KBENCH" compare slowed plain
grep -Eq '^kbuild -j2 .* faster' "$T/out" || die "reversed comparison not faster"
exit 0
