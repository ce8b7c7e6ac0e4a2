#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbuild in the console at 80x24, mono theme: while it runs, which build of
# the sample (the warm-up, then -jN), objects compiled of the tree's with a
# bar, the build's elapsed time and an estimate, and the finished builds'
# mean times; then the results show a verdict row per -j against a stored run.
# requires: tmux python3 make cc
# cost: 37
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

small="--make-jobs 1,2 --samples 2 --pause 0"
expect_exit 0 "$KBENCH" run kbuild $small --tree tiny --no-telemetry --name base

ui_start env NO_COLOR=1 "$KBENCH" console kbuild $small --tree 24 --copies 1
ui_wait 'Setup'
ui_keys r
ui_wait '^── kbuild · 1 copy ─' 20
ui_wait 'build progress' 10
ui_wait '^ objects +[0-9]+ of 25 ' 30
ui_wait '^ elapsed [0-9:.]+s? +estimate ' 10
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' "$T/screen" ||
	die "a line is wider than 80 columns"
[ "$(wc -l <"$T/screen")" -le 24 ] || die "more than 24 lines"
ui_wait 'build [12] of 2: -j[12]' 60
ui_wait '^ -j1 +[0-9:.]+s? mean of 1 timed build' 90
ui_wait 'Results' 180
ui_wait 'vs base' 5
for j in -j1 -j2; do
	grep -Eq "^ kbuild $j +1 .*(faster|slower|noise|n/a)" "$T/screen" ||
		{ cat "$T/screen"; die "results: no verdict row for $j"; }
done
ui_keys q
ui_wait 'not saved|quit' 5
ui_keys y
ui_exited 10
exit 0
