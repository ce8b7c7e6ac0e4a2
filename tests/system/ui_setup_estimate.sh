#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The setup screen's estimate says what it counts in full at 80x24: "12 tests x 2 copy counts",
# not cut at the screen's edge ("12 tests x 2 block"); a test that runs its own tasks
# (scaling) is measured once, in the 1-copy block: "1 test x 1 copy count", not 2, and
# beside others on a line of its own; its estimate is one block's.
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# estimate_says WANT [WANT2] -- ARGS: the console with ARGS shows WANT (and WANT2 on
# the next line, or none there) whole under the estimate; the estimate in $T/est
estimate_says() {
	want=$1; shift
	want2=
	[ "$1" = -- ] || { want2=$1; shift; }
	shift
	ui_start "$KBENCH" console "$@"
	ui_wait 'Estimate +[0-9]'
	grep -Eq " $want\$" "$T/screen" || { cat "$T/screen"; die "the estimate does not say '$want' in full"; }
	# the line under it, in the right pane (from column 50 at 80 columns)
	next=$(grep -EA1 " $want\$" "$T/screen" | sed -n 2p | LC_ALL=C.UTF-8 sed 's/^.\{1,49\}//; s/^ *//; s/ *$//')
	[ "$next" = "$want2" ] || { cat "$T/screen"; die "under '$want': '$next', not '$want2'"; }
	sed -n 's/.*Estimate  *\([0-9][^ ]*\).*/\1/p' "$T/screen" >"$T/est"
	echo "$*: $want${want2:+ / $want2} (estimate $(cat "$T/est"))"
	ui_keys q # quit, not a hang-up: the next console must not share the CPUs with this one
	ui_exited 10
	ui kill-session -t "$UI_PANE"
}
estimate_says '12 tests x 2 copy counts' -- --copies 1,2 index
estimate_says '1 test x 1 copy count' -- --copies 1 pipe
estimate_says "[0-9]+ tests x 4 copy counts" "+ 3 tests x 1 copy count" -- --copies 1,2,3,4 all
# scaling runs once, in the 1-copy block: the same line and estimate with or without a 2-copy block
estimate_says '1 test x 1 copy count' -- --copies 1 --tasks 1,2 --duration 2 scaling
one=$(cat "$T/est")
estimate_says '1 test x 1 copy count' -- --copies 1,2 --tasks 1,2 --duration 2 scaling
[ "$(cat "$T/est")" = "$one" ] || die "scaling's estimate with 1 and 2 copies is $(cat "$T/est"), not its 1-copy $one"
estimate_says '1 test x 2 copy counts' '+ 1 test x 1 copy count' -- --copies 1,2 --duration 2 pipe scaling
echo ok
