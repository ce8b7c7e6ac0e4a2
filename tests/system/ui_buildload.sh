#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# buildload in the console at 80x24, mono theme: while a load runs, its name
# and work units per second, the build's objects of the tree's and its
# elapsed time and estimate, the builds finished with their ratio; then the
# results show a verdict row per load against a stored run.
# requires: tmux python3 make cc
# cost: 13
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"
export KBENCH_BUILDLOAD_FLUSH=0

small="--loads no_load,process_load --samples 1 --pause 0"
KBENCH_BUILDLOAD_LEAD=0.2 expect_exit 0 "$KBENCH" run buildload $small --tree 1 --no-telemetry --name base

# mem_load too, on a machine faked too small for it: refused, so two builds of three loads
ui_start env NO_COLOR=1 KBENCH_BUILDLOAD_LEAD=4 KBENCH_BUILDLOAD_FLUSH=0 KBENCH_MEM_AVAILABLE_KIB=100000 "$KBENCH" \
	console buildload --loads no_load,mem_load,process_load --samples 1 --pause 0 --tree 1 --copies 1
ui_wait 'Setup'
ui_keys r
ui_wait '^── buildload · 1 copy ─' 20
ui_wait '^ process_load: [0-9.,kM]+ laps/s \(running before the build\)' 30
ui_wait 'process_load: build 2 of 2' 5
ui_wait '^ no_load +[0-9:.]+s? +ratio 1.00' 5
grep -Eq '^ objects +[0-9]+ of 2( |$)' "$T/screen" || { cat "$T/screen"; die "no objects line"; }
grep -Eq '^ elapsed [0-9:.]+s? +estimate [0-9:.]+s? \(no_load' "$T/screen" || { cat "$T/screen"; die "no estimate"; }
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' "$T/screen" ||
	die "a line is wider than 80 columns"
ui_wait 'Results' 60
ui_wait 'vs base' 5
# process_load's label is too wide for the column at 80x24: every load's row then
# names its load alone, so the rows read alike
grep -Eq '^ no_load +1 .*(faster|slower|noise|n/a)' "$T/screen" || { cat "$T/screen"; die "results: no_load row"; }
grep -q '^ buildload ' "$T/screen" && { cat "$T/screen"; die "results: some loads' rows name the test and some do not"; }
grep -Eq '^ process_load +1 .*(faster|slower|noise|n/a)' "$T/screen" || { cat "$T/screen"; die "results: process_load row"; }
# the refused load is said under the rows, with why
grep -Eq '^ buildload: mem_load refused: needs [0-9.]+ [GM]iB of memory and swap, [0-9.]+ [KMG]iB there' "$T/screen" ||
	{ cat "$T/screen"; die "results: the refused mem_load is not said"; }
ui_keys q
ui_wait 'not saved|quit' 5
ui_keys y
ui_exited 10
ui kill-session -t "$UI_PANE"

# A quick run of the default loads builds under the quick set's four, and the sample line
# counts them so (it counted the full run's nine), then quit at once.
ui_start env NO_COLOR=1 KBENCH_BUILDLOAD_LEAD=4 KBENCH_BUILDLOAD_FLUSH=0 "$KBENCH" \
	console buildload --quick --tree 1 --copies 1
ui_wait 'Setup'
ui_keys r
ui_wait 'process_load: build 2 of [0-9]+' 60
grep -q 'process_load: build 2 of 4' "$T/screen" || { cat "$T/screen"; die "a quick run's builds are not counted as its four loads"; }
ui_keys q
ui_wait 'Abort the run\?' 5
ui_keys y
ui_wait 'Results' 20
ui_keys q
ui_wait 'not saved|quit' 5
ui_keys y
ui_exited 10
exit 0
