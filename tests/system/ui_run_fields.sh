#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The run screen at 80x24 keeps every value in its own field: a long telemetry reason is cut with
# a '~' inside its field and never runs into the next one. A copy's count is a whole number. A test
# that times itself (Whetstone, the file copies) has no live rate: the screen says it is timing
# itself, and shows the rate once a sample has ended.
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# ui_quit_run: leaves the console mid-run (F10, yes) and waits for it to end, so nothing
# is still writing to the store when the test's files go
ui_quit_run() {
	ui_keys F10
	ui_wait 'quit\?' 5
	ui_keys y
	ui_exited 20
	ui kill-session -t "$UI_PANE"
}

# An empty sysfs root: no cpufreq, no RAPL; the frequency reason names the (long) missing path.
mkdir -p "$T/empty/with/a/long/enough/path"
ui_start env KBENCH_SYSFS_ROOT="$T/empty/with/a/long/enough/path" "$KBENCH" console --samples 3 \
	--duration 2 --pause 0 --copies 1 dhry2reg
ui_wait 'Setup'
ui_keys r
ui_wait '^ power n/a' 20
grep -Eq '^ freq n/a: .*~$' "$T/screen" || { cat "$T/screen"; die "the frequency reason is not cut with a marker"; }
# power is half a line: its field ends a blank before "throttle", and a reason that fills it is cut with '~'
power=$(grep '^ power ' "$T/screen")
case $power in
*' throttle '*) ;;
*) cat "$T/screen"; die "no throttle field after the power field: '$power'" ;;
esac
field=$(printf "%s" "${power%% throttle *}" | sed "s/ *$//")
width=$(printf '%s' "$field" | wc -m)
[ "$width" -le 39 ] || die "the power field runs into the throttle field: '$power'"
[ "$width" -lt 39 ] || case $field in *'~') ;; *) die "the power reason is cut without a marker: '$power'" ;; esac
# Nothing under that root can show throttling (no counters, no cooling devices): n/a, not "none seen".
grep -q ' throttle n/a: nothing here can show it' "$T/screen" || { cat "$T/screen"; die "the throttle field does not say nothing can show it"; }
echo "long reasons cut in their fields"
ui_wait '^ #1 +[0-9]{4,}' 10
grep -Eq '^ #1 +[0-9]+\.[0-9]' "$T/screen" && { cat "$T/screen"; die "a copy's count has a fraction"; }
echo "whole counts: $(grep '^ #1 ' "$T/screen")"
ui_quit_run

ui_start "$KBENCH" console --samples 3 --duration 1 --pause 0 --copies 1 whetstone-double
ui_wait 'Setup'
ui_keys r
ui_wait '^ sample 1 of 3 .* timing itself *$' 20
grep -q ' live ~' "$T/screen" && { cat "$T/screen"; die "a self-timed test shows a live rate"; }
ui_wait '^ sample [23] of 3 .* timing itself, last ~[0-9.]+[kMG]? MWIPS' 30
grep -Eq '^ #1 +[0-9-]+ +[0-9.]+[kMG]? ' "$T/screen" || { cat "$T/screen"; die "no rate on the copy's row after its sample"; }
grep -Eq 'Whetstone .* ~[0-9.]+[kMG]?( |$)' "$T/screen" || { cat "$T/screen"; die "the test's row shows no rate after a sample"; }
echo "a self-timed test: $(grep '^ sample' "$T/screen")"
ui_quit_run
echo ok
