#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# README's picture of the console (docs/console.svg) is the console as it draws now: the results
# of a stored run compared with another (tests/fixtures/console-picture), opened from the history
# screen at 80x24 in the default theme, captured with its colours and drawn as SVG by
# tests/tools/screen_svg.py. UPDATE_GOLDEN=1 writes the picture anew (look at it before committing).
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

PICTURE="$KBENCH_TOP/docs/console.svg"
TITLE="The kbench console at 80x24: a run compared with the run of another kernel, a verdict per test"
mkdir -p "$KBENCH_HOME"
cp "$KBENCH_TOP"/tests/fixtures/console-picture/*.json "$KBENCH_HOME/"

ui_start "$KBENCH" console
ui_wait 'Setup' 10
ui_keys H
ui_wait 'quota-60pct' 10
ui_keys Enter
ui_wait 'vs baseline \(ed640f06\)' 10
grep -q 'slower' "$T/screen" || die "the picture's comparison shows no verdict"
ui capture-pane -e -p -t "$UI_PANE" >"$T/screen.ansi"
python3 "$KBENCH_TOP/tests/tools/screen_svg.py" 80 24 "$TITLE" <"$T/screen.ansi" >"$T/console.svg" ||
	die "screen_svg.py could not draw the screen"
# The picture draws the words the screen shows, each at its column.
for w in Results Dhrystone 'vs baseline' '▼ slower'; do
	grep -qF ">${w##* }<" "$T/console.svg" || die "the picture lacks '$w'"
done
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	cp "$T/console.svg" "$PICTURE"
	echo "updated $PICTURE"
else
	[ -f "$PICTURE" ] || die "no $PICTURE (UPDATE_GOLDEN=1 makes it)"
	cmp -s "$PICTURE" "$T/console.svg" ||
		die "the console draws other than docs/console.svg shows: UPDATE_GOLDEN=1 make test TESTS=ui_docs_picture, and look at it ($(diff "$PICTURE" "$T/console.svg" | head -5))"
fi
ui_keys q
ui_exited 10
echo "docs/console.svg: the console's results screen as it draws now"
