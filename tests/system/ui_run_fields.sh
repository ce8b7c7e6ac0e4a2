#!/bin/sh
# The run screen at 80x24 keeps every value in its own field: a long telemetry reason is cut with
# a '~' inside its field and never runs into the next one. A copy's count is a whole number. A test
# that times itself (Whetstone, the file copies) has no live rate: the screen says it is timing
# itself, and shows the rate once a sample has ended.
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# An empty sysfs root: no cpufreq, no RAPL; their reasons name the (long) missing paths.
mkdir -p "$T/empty/with/a/long/enough/path"
ui_start env KBENCH_SYSFS_ROOT="$T/empty/with/a/long/enough/path" "$KBENCH" console --samples 3 \
	--duration 2 --pause 0 --copies 1 dhry2reg
ui_wait 'Setup'
ui_keys r
ui_wait '^ power n/a' 20
power=$(grep '^ power ' "$T/screen")
case $power in
*'~ throttle '*) ;;
*) cat "$T/screen"; die "the power reason is not cut inside its field: '$power'" ;;
esac
[ "$(echo "$power" | sed 's/ throttle .*//' | wc -m)" -le 40 ] || die "the power field is wider than half the screen: '$power'"
grep -Eq '^ freq n/a: .*~$' "$T/screen" || { cat "$T/screen"; die "the frequency reason is not cut with a marker"; }
echo "long reasons cut in their fields"
ui_wait '^ #1 +[0-9]{4,}' 10
grep -Eq '^ #1 +[0-9]+\.[0-9]' "$T/screen" && { cat "$T/screen"; die "a copy's count has a fraction"; }
echo "whole counts: $(grep '^ #1 ' "$T/screen")"
ui kill-session -t "$UI_PANE"

ui_start "$KBENCH" console --samples 3 --duration 1 --pause 0 --copies 1 whetstone-double
ui_wait 'Setup'
ui_keys r
ui_wait '^ sample 1 of 3 .* timing itself *$' 20
grep -q ' live ~' "$T/screen" && { cat "$T/screen"; die "a self-timed test shows a live rate"; }
ui_wait '^ sample [23] of 3 .* timing itself, last ~[0-9.]+[kMG]? MWIPS' 30
grep -Eq '^ #1 +[0-9-]+ +[0-9.]+[kMG]? ' "$T/screen" || { cat "$T/screen"; die "no rate on the copy's row after its sample"; }
grep -Eq 'Whetstone .* ~[0-9.]+[kMG]?( |$)' "$T/screen" || { cat "$T/screen"; die "the test's row shows no rate after a sample"; }
echo "a self-timed test: $(grep '^ sample' "$T/screen")"
ui kill-session -t "$UI_PANE"
echo ok
