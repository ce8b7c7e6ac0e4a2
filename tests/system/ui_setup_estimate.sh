#!/bin/sh
# The setup screen's estimate says what it counts in full at 80x24: "12 tests x 2 copy counts",
# not cut at the screen's edge ("12 tests x 2 block").
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# estimate_says ARGS -- WANT: the console with ARGS shows WANT whole under the estimate
estimate_says() {
	want=$1; shift
	ui_start "$KBENCH" console "$@"
	ui_wait 'Estimate +[0-9]'
	grep -Eq " $want\$" "$T/screen" || { cat "$T/screen"; die "the estimate does not say '$want' in full"; }
	echo "$*: $want"
	ui_keys q # quit, not a hang-up: the next console must not share the CPUs with this one
	ui_exited 10
	ui kill-session -t "$UI_PANE"
}
estimate_says '12 tests x 2 copy counts' --copies 1,2 index
estimate_says '1 test x 1 copy count' --copies 1 pipe
estimate_says "[0-9]+ tests x 4 copy counts" --copies 1,2,3,4 all
echo ok
