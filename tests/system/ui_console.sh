#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console end to end in tmux at 80x24: choose two short tests and 1 copy, start, watch the
# progress and a worker row, resize during the run, reach the side-by-side table against a
# stored run, cycle themes, save, and check each screen against its golden capture.
# tier: load (the results must show a verdict glyph: rows measured beside other load are n/a (busy))
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# the stored run to compare against, made headless
"$KBENCH" run -q --samples 2 --duration 0.5 --pause 0 -c 1 --name base dhry2reg context1 \
	>"$T/base.out" 2>&1 || { cat "$T/base.out"; die "could not prepare a stored run"; }
ls "$KBENCH_HOME"/*.json >/dev/null 2>&1 || die "kbench run --name base stored no run in $KBENCH_HOME"

ui_start "$KBENCH" console --samples 3 --duration 2 --pause 0 --copies 1 --compare base dhry2reg context1
ui_wait 'Setup'
ui_wait '\[x\] Dhrystone'
grep -q '\[x\] Pipe-based Context' "$T/screen" || die "context1 is not ticked"
grep -q '\[ \] Execl' "$T/screen" || die "execl should not be ticked"
grep -q 'Estimate' "$T/screen" || die "no time estimate"
ui_golden setup

# the estimate follows the choices: one more sample changes it
est1=$(sed -n 's/.*Estimate *//p' "$T/screen")
ui_keys Tab Down Down Right
ui_wait 'Samples +◀ 4 ▶'
est2=$(sed -n 's/.*Estimate *//p' "$T/screen")
[ "$est1" != "$est2" ] || die "the estimate did not change with the samples ($est1)"
ui_keys Left Tab

# start, and see progress and a worker row
ui_keys r
ui_wait '#1 +[0-9.]+ +[0-9.]+' 20
grep -q 'sample [0-9] of 3' "$T/screen" || die "no 'sample k of n' line"
grep -Eq '▶ .*Dhrystone|▶ .*Context' "$T/screen" || die "no running test row"
grep -q 'Machine' "$T/screen" || die "no machine panel"
ui_golden run 10 # early, while the first of the two tests runs

# resize during the run: the layout follows the new size, then back
ui resize-window -t "$UI_PANE" -x 120 -y 40 2>/dev/null || ui resize-pane -t "$UI_PANE" -x 120 -y 40
ui_wait '^── Tests .{100}' 5
ui resize-window -t "$UI_PANE" -x 60 -y 20 2>/dev/null
ui_wait 'needs 80x24' 5
ui resize-window -t "$UI_PANE" -x 80 -y 24 2>/dev/null
ui_wait 'sample [0-9] of 3' 5
sleep 1
[ "$(ui_cap | sed -n 2p | wc -m)" -le 81 ] || die "the rules are wider than 80 after the resize"

# the results: side by side against the stored run
ui_wait 'Results' 40
ui_wait 'vs base' 5
grep -Eq 'Test +cp +this +base +change' "$T/screen" || die "no side-by-side header"
grep -Eq 'Dhrystone.* [+-][0-9.]+%' "$T/screen" || die "no change for dhrystone"
grep -Eq '(▲ faster|▼ slower|≈ noise)' "$T/screen" || die "no verdict with its glyph"
grep -q 'Index, 1 copy' "$T/screen" || die "no big index"
ui_golden results

# not calibrated: the results say so and offer it; C asks first, n leaves everything as it was
grep -q 'Verdicts: default noise floors, not calibrated' "$T/screen" || die "the results do not say what the verdicts rest on"
grep -q 'C calibrates' "$T/screen" || die "the results do not offer to calibrate"
ui_keys C
ui_wait 'Calibrate: 5 runs of these 2 tests, 1 copy, ~' 5
ui_keys n
ui_wait 'vs base' 5
[ "$(ls "$KBENCH_HOME"/*.json | wc -l)" = 1 ] || die "declining the calibration stored something"

# themes cycle, and the screen keeps its content
ui_keys T
ui_wait 'theme projector' 5
ui_keys T
ui_wait 'theme light' 5
ui_wait 'vs base' 2

# help is generated from the key tables
ui_keys '?'
ui_wait 'Help' 5
grep -q 'sort by change' "$T/screen" || die "help lacks a results key"
grep -q 'theme' "$T/screen" || die "help lacks a global key"
ui_golden help
ui_keys q
ui_wait 'vs base' 5

# save, then the history lists both runs
ui_keys s
ui_wait 'Saved as' 5
ui_keys H
ui_wait 'History' 5
ui_wait 'base' 5
[ "$(grep -cE '^ . [0-9a-f]{8} ' "$T/screen")" -ge 2 ] || die "history shows fewer than two runs"
ui_golden history
ui_keys q
ui_wait 'Results' 5
ui_keys q
ui_exited 10
[ "$UI_RC" = 0 ] || die "the console exited $UI_RC"
[ "$(ls "$KBENCH_HOME"/*.json | wc -l)" = 2 ] || die "the saved run is not in the store"
echo ok
