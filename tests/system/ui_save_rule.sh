#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One rule for saving an interrupted run, in both faces (store_worth_saving): `kbench run`
# stopped by SIGINT and the console left mid-run (F10, yes) store the run, marked incomplete,
# once a sample has finished, and store nothing when none has; a calibration run too.
# requires: tmux python3 pgrep
# cost: 16
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

stored() { ls "$KBENCH_HOME"/*.json 2>/dev/null | wc -l; }
# wait_file FILE REGEX SECONDS
wait_file() {
	n=$(( $3 * 5 ))
	while [ $n -gt 0 ]; do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.2; n=$((n - 1))
	done
	cat "$1"; die "waited $3 s for '$2' in $1"
}
# screen_has REGEX SECONDS: true once the console's screen matches, false after SECONDS
screen_has() {
	n=$(( $2 * 5 ))
	while [ $n -gt 0 ]; do
		ui_cap 2>/dev/null | grep -Eq -- "$1" && return 0
		sleep 0.2; n=$((n - 1))
	done
	return 1
}
# cli_stop WHEN ARGS...: `kbench run ARGS`, SIGINT once WHEN is true, exit 130 expected
cli_stop() {
	when=$1; shift
	# empty before the run starts: the last run's lines must not stand for this one's
	: >"$T/err"
	"$KBENCH" run --pause 0 -c 1 --no-telemetry "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	case $when in
	worker) # a worker runs: the first sample has begun, none has finished
		n=100
		while [ $n -gt 0 ] && [ -z "$(pgrep -P $pid)" ]; do sleep 0.1; n=$((n - 1)); done
		[ -n "$(pgrep -P $pid)" ] || die "no worker appeared"
		sleep 0.5 ;;
	sample) wait_file "$T/err" ': sample 1/' 30 ;;
	esac
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc = 130 ] || { cat "$T/err"; die "kbench run after SIGINT exited $rc, wanted 130"; }
}
# console_quit WHEN ARGS...: the console runs ARGS; F10 and yes once WHEN shows on the screen
console_quit() {
	when=$1; shift
	ui_start "$KBENCH" console --pause 0 --copies 1 "$@" "2>'$T/console.err'"
	ui_wait 'Setup'
	ui_keys r
	ui_wait "$when" 30
	ui_keys F10
	ui_wait 'quit\?' 5
	ui_keys y
	ui_exited 20
	ui kill-session -t "$UI_PANE"
}

# 1. Stopped before any sample finished: nothing measured, nothing stored, by either face.
rm -rf "$KBENCH_HOME"
cli_stop worker --samples 1 --duration 30 dhry2reg
grep -q '^not saved: nothing was measured' "$T/err" || { cat "$T/err"; die "kbench run does not say it saved nothing"; }
[ "$(stored)" = 0 ] || die "kbench run stored a run with nothing measured"
console_quit '#1 +[0-9.]+' --samples 1 --duration 30 dhry2reg
grep -q 'not saved: nothing was measured' "$T/console.err" || { cat "$T/console.err"; die "the console does not say it saved nothing"; }
[ "$(stored)" = 0 ] || die "the console stored a run with nothing measured"
echo "nothing measured: neither face stores the run"

# 2. Stopped after a sample finished, before any test did: both store the samples, incomplete.
rm -rf "$KBENCH_HOME"
cli_stop sample --samples 20 --duration 0.5 dhry2reg
grep -q 'marked incomplete' "$T/err" || { cat "$T/err"; die "kbench run did not save its finished samples"; }
[ "$(stored)" = 1 ] || die "kbench run: $(stored) runs stored, wanted 1"
rm -rf "$KBENCH_HOME"
console_quit 'sample ([2-9]|1[0-9]) of 20' --samples 20 --duration 0.5 dhry2reg
id=$(sed -n 's/.*saved as \([0-9a-f]*\) (incomplete).*/\1/p' "$T/console.err")
[ -n "$id" ] || { cat "$T/console.err"; die "the console did not save its finished samples"; }
[ "$(stored)" = 1 ] || die "the console: $(stored) runs stored, wanted 1"
"$KBENCH" show "$id" 2>&1 | grep -qi incomplete || die "the console's run $id is not stored as incomplete"
echo "a sample measured: both faces store the run, incomplete"

# 3. A calibration stopped mid-run keeps that run by the same rule, in both faces:
# `kbench calibrate` (SIGINT) and the console's C (F10, yes). Only its finished
# tests teach a floor (noise.c learns from finished tests).
rm -rf "$KBENCH_HOME"
# empty first: the lines of the run before are in it until the shell redirects
: >"$T/err"
"$KBENCH" calibrate --pause 0 -c 1 --samples 20 --duration 0.5 -n 2 dhry2reg >"$T/out" 2>"$T/err" &
pid=$!
wait_file "$T/err" ': sample 1/' 30
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/err"; die "kbench calibrate after SIGINT exited $rc, wanted 130"; }
[ "$(stored)" = 1 ] || { cat "$T/err"; die "kbench calibrate: $(stored) runs stored, wanted the interrupted one"; }
"$KBENCH" runs | grep -q ' calibration ' || die "the interrupted calibration run is not named calibration"
rm -rf "$KBENCH_HOME"
ui_start "$KBENCH" console --pause 0 --copies 1 --samples 6 --duration 0.3 --compare none dhry2reg "2>'$T/console.err'"
ui_wait 'Setup'
ui_keys r
ui_wait 'H history' 40
for try in 1 2 3; do # a key pressed as the results come up can be taken by the run screen
	ui_keys C
	screen_has 'Calibrate: 5 runs .* y/n' 3 && break
done
ui_wait 'Calibrate: 5 runs .* y/n' 1
ui_keys y
ui_wait 'sample [2-9] of [0-9]+' 30
grep -q 'Calibration run 1 of 5' "$T/screen" || die "not in the first calibration run: $(cat "$T/screen")"
ui_keys F10
ui_wait 'quit\?' 5
ui_keys y
ui_exited 20
ui kill-session -t "$UI_PANE"
[ "$(stored)" = 2 ] || { cat "$T/console.err"; "$KBENCH" runs; die "the console: $(stored) runs stored, wanted the run calibrated from and the interrupted calibration run"; }
[ "$("$KBENCH" runs | grep -c ' calibration ')" = 1 ] || die "the console did not keep its interrupted calibration run"
echo "a calibration stopped mid-run: both faces keep that run"
echo ok
