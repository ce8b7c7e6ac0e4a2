#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scaling in the console at 80x24, mono theme: while it runs, jobs/min as
# bars per task count (1, 2, 4, 8 evenly spaced: a log2 axis), the y axis
# in jobs/min and the peak so far named; the steps done counted; then the
# results show a row with a verdict per task count and the peak, against a
# stored scaling run, and no index panel (scaling is no index test).
# requires: tmux python3
# cost: 35
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

small="--tasks 1,2,4,8 --samples 2 --pause 0"
expect_exit 0 "$KBENCH" run scaling $small --jobs 3 --no-telemetry --name base

# copies 1,2: scaling runs in the 1-copy block only, and the 2-copy block it skips is no index
# 75 jobs: a sweep of about 0:15 (0:45-1:30 under ASan, a loaded machine); an untimed sample
# is killed 120 s after it starts, which 150 jobs passed under ASan at a load of 2-3
ui_start env NO_COLOR=1 "$KBENCH" console scaling $small --jobs 75 --copies 1,2
ui_wait 'Setup'
ui_keys r
ui_wait '^── scaling · 1 copy ─' 20
ui_wait 'jobs/min by tasks \(log2\): +bars this sample +\*\* mean so far' 5
# the axis: task counts under their columns, jobs/min on the left, a peak named, bars drawn
ui_wait '^ +tasks 1 +2 +4 +8 *$' 20
ui_wait 'peak [1248]' 30
grep -q ' jobs/min' "$T/screen" || { cat "$T/screen"; die "the curve's axis has no unit"; }
grep -Eq '##|██' "$T/screen" || { cat "$T/screen"; die "no bars drawn"; }
grep -Eq '[1-4] steps done' "$T/screen" || { cat "$T/screen"; die "the steps done are not counted"; }
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' "$T/screen" ||
	die "a line is wider than 80 columns"
[ "$(wc -l <"$T/screen")" -le 24 ] || die "more than 24 lines"
# the second sample marks the first one's mean
ui_wait 'sample 2 of 2' 150
# a sweep's length is no --duration: the second sample's is the first sweep's time, estimated
grep -Eq 'sample 2 of 2 +[0-9]+:[0-9]+ (of|over) ~[0-9]+:[0-9]+' "$T/screen" ||
	{ cat "$T/screen"; die "the sample's length is not shown as an estimate"; }
grep -q 'sample 2 of 2 .* ~0:30' "$T/screen" && { cat "$T/screen"; die "the second sweep still shows the nominal 0:30"; }
ui_wait '\*\*' 30
ui_wait 'Results' 240
ui_wait 'vs base' 5
for p in "1 task" "2 tasks" "4 tasks" "8 tasks" "peak"; do
	grep -Eq "^ scaling $p +1 .*(faster|slower|noise|n/a)" "$T/screen" ||
		{ cat "$T/screen"; die "results: no verdict row for $p"; }
done
grep -q 'scaling real 1' "$T/screen" && die "results list curve points, not the headlines"
# scaling is no index test: no index panel, no "Index, 1 copy (partial)" over nothing
grep -q 'Index, ' "$T/screen" && { cat "$T/screen"; die "results show an index panel for a run with no index test"; }
ui_keys q
ui_wait 'not saved|quit' 5
ui_keys y
ui_exited 10
ui kill-session -t "$UI_PANE"

# alone (nothing to compare with), a step's unit fits its column: jpm, not "jobs~"
ui_start env NO_COLOR=1 "$KBENCH" replay base --speed 1000 --compare none
ui_wait '^ scaling peak +1 +[0-9]+ jpm +- ' 20
grep -q 'jobs~' "$T/screen" && { cat "$T/screen"; die "a unit cut to fit"; }
ui_keys q
ui_exited 10
exit 0
