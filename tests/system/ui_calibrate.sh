#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Calibrating from the console, end to end: C on the results of a live run, y, five runs of the
# same tests and settings on the run screen, stored as A/A runs; the results come back judged on
# the learned floors, and kbench compare of two later runs with these settings says the same.
# The runs' samples are set with -i, which a calibration like the shown run carries over: with
# --samples it runs each test's own count (10 for these two), 30 s of ui_calibrate's 40.
# Every run is made without telemetry: with no measure of what others used, no calibration run
# is left out of the learning as busy, so the floors rest on all 5 however busy the machine.
# Nothing here hangs on the machine's load: an ordinary test.
# requires: tmux python3
# cost: 16
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

S="-i 2 --duration 0.3 --pause 0 --no-telemetry"
"$KBENCH" run -q $S -c 1 --name base dhry2reg syscall >"$T/base.out" 2>&1 ||
	{ cat "$T/base.out"; die "could not prepare a stored run"; }

ui_start "$KBENCH" console $S --copies 1 --compare base dhry2reg syscall
ui_wait 'Setup'
ui_keys r
ui_wait 'vs base' 40
grep -q 'Verdicts: default noise floors, not calibrated (0.3 s samples, -i 2)' "$T/screen" ||
	die "an uncalibrated comparison does not say so"
ui_keys C
ui_wait 'Calibrate: 5 runs of these 2 tests, 1 copy, ~.*\(saves this run first\)\? y/n' 5
ui_keys y
ui_wait 'Calibration run [1-5] of 5' 20
ui_wait 'Calibrated: 5 runs stored' 90
ui_wait 'vs base' 5
grep -q 'Verdicts: noise floors learned from 5 runs here (0.3 s samples, -i 2)' "$T/screen" ||
	die "after calibrating, the results do not rest on the learned floors"
grep -q 'C calibrates' "$T/screen" && die "a calibrated comparison still offers to calibrate"
ui_keys q
ui_exited 10
[ "$UI_RC" = 0 ] || die "the console exited $UI_RC"

"$KBENCH" runs >"$T/runs"
[ "$(grep -c ' calibration ' "$T/runs")" = 5 ] || die "not 5 calibration runs stored: $(cat "$T/runs")"
[ "$(ls "$KBENCH_HOME"/*.json | wc -l)" = 7 ] || die "base, the run calibrated from and 5 runs should be stored"
expect_exit 0 "$KBENCH" noise
grep -q '^0.3 s samples, -i 2 runs:' "$T/out" || die "kbench noise does not list the calibrated setting"

# The headless side sees the same calibration.
expect_exit 0 "$KBENCH" run -q $S -c 1 --name later dhry2reg syscall
expect_exit 0 "$KBENCH" compare --width 80 base later
grep -Eq '^Verdicts: noise floors learned from [56] runs here \(0\.3 s samples, -i 2\)' "$T/out" ||
	die "kbench compare does not use the console's calibration: $(grep '^Verdicts' "$T/out")"
echo ok
