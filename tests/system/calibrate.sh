# SPDX-License-Identifier: GPL-2.0-or-later
# kbench calibrate: N runs stored as A/A runs, the learned floors printed beside the defaults,
# and comparisons with the same settings then say their verdicts rest on them.
# tier: load (busy calibration runs teach no floor: it skips, or learns from fewer runs)
. "$KBENCH_TOP/tests/system/lib.inc"
# Two samples a test: the floors are learned from the runs' scores (3 runs, 2 degrees of freedom),
# whatever the samples behind each.
S="--samples 2 --duration 0.3 --pause 0"
W="dhry2reg syscall"

expect_exit 2 "$KBENCH" calibrate -n 1 $S $W
grep -q '^kbench: -n wants a number of runs from 2' "$T/err" || die "-n 1 not refused: $(cat "$T/err")"
expect_exit 2 "$KBENCH" calibrate --bogus
expect_exit 2 "$KBENCH" calibrate -n 2 $S nosuchtest
[ -z "$(ls "$KBENCH_HOME" 2>/dev/null)" ] || die "a refused calibration stored something"

# Busy tests teach no floor, rightly: a calibration that left runs out as busy is tried again,
# and after three the test's own measure must agree (busy_said).
for try in 1 2 3; do
	rm -rf "$KBENCH_HOME" # a try before this one stored its runs
	expect_exit 0 "$KBENCH" calibrate -n 3 $S $W
	cat "$T/out"
	grep -q 'other processes used the CPUs' "$T/out" || break
	[ $try = 3 ] && busy_said "calibration runs were left out of the learning as busy, three times"
done
[ "$(grep -c 'calibration run [0-9] of 3' "$T/err")" = 3 ] || die "calibrate did not say which run it was on"
"$KBENCH" runs >"$T/runs"
[ "$(grep -c ' calibration ' "$T/runs")" = 3 ] || die "not 3 runs named calibration: $(cat "$T/runs")"
grep -q '^Noise floors for 0.3 s samples runs' "$T/out" || die "no floors heading"
grep -Eq '^TEST +FLOOR +DEFAULT +LEARNED +DF +RUNS' "$T/out" || die "no floor table"
for id in dhry2reg syscall index; do
	grep -Eq "^$id +[0-9.]+% +[0-9.]+% +[0-9.]+% +2 +3$" "$T/out" ||
		die "$id has no floor learned from 3 runs (2 degrees of freedom)"
done
grep -q '^3 calibration runs stored' "$T/out" || die "calibrate does not say what it stored"
grep -q "UnixBench" "$T/out" && die "calibrate printed the runs' reports"

# Two runs of a kernel with the same settings: their comparison rests on the calibration.
expect_exit 0 "$KBENCH" run $S --name mine $W
expect_exit 0 "$KBENCH" run $S --name mine2 $W
expect_exit 0 "$KBENCH" compare --width 80 mine mine2
cat "$T/out"
grep -q '^Verdicts: noise floors learned from 3 runs here (0.3 s samples)' "$T/out" ||
	die "the comparison does not rest on the calibration"
grep -q 'kbench calibrate' "$T/out" && die "a calibrated comparison still asks to calibrate"
# Other settings are not calibrated by it.
expect_exit 0 "$KBENCH" run --samples 2 --duration 0.2 --pause 0 --name other $W
expect_exit 0 "$KBENCH" compare --width 80 mine other
grep -q '^Verdicts: default noise floors' "$T/out" || die "a run of other settings borrowed the calibration"
expect_exit 0 "$KBENCH" noise
grep -q '^0.3 s samples runs:' "$T/out" || die "kbench noise does not list the calibrated setting"
grep -q '^quick runs:' "$T/out" || die "kbench noise does not list the quick defaults"

# --minutes: as many runs as fit, at least two.
expect_exit 0 "$KBENCH" calibrate --minutes 1 -n 2 $S dhry2reg
[ "$(grep -c 'calibration run [0-9] of 2' "$T/err")" = 2 ] || die "--minutes with -n 2 ran $(grep -c 'calibration run' "$T/err") runs"
exit 0
