#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console's "quick" preset is kbench run --quick: samples until each test is precise,
# no fixed sample count on the run screen, the running test's interval against the precision
# asked (and so in its replay), and a saved run marked quick; --allocate index shows its rounds.
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

ui_start "$KBENCH" console --copies 1,2
ui_wait 'Setup'
ui_keys p
ui_wait 'Preset +◀ quick ▶' 5
ui_wait 'Samples +◀ until \+-1% ▶' 2
ui_wait 'Sample len +◀ quick' 2
ui_keys r
# A quick sample is numbered without "of N": the count is not known in advance.
ui_wait 'sample [0-9]+  [0-9]+:[0-9]{2} of' 20
grep -q 'sample [0-9]* of [0-9]' "$T/screen" && die "a quick run shows a fixed sample count"
# Where the running test's interval is now, against the precision asked: in its panel's title
# and on its row, once the first test has an interval (its second sample on). Not "after its
# fourth sample": on a steady machine Dhrystone reaches its 1% in three and the run moves on.
ui_wait '^── dhry2reg · 1 copy · ±[0-9.]+% now, ±1% asked ─' 20
grep -Eq '^ ▶ .*Dhrystone.* ±[0-9.]+%$' "$T/screen" || { cat "$T/screen"; die "the running quick test's row shows no ±"; }
# The index at 1 and 2 copies is more rows than fit: the list's title says which it shows.
grep -Eq '^── Tests 1-[0-9]+ of 24 ─' "$T/screen" || { cat "$T/screen"; die "the tests list does not say it shows rows 1-N of 24"; }
# The preset is the whole index: once the second test runs (the first whole, for the replay
# below to show), abort the rest.
ui_wait '^── whetstone-double · 1 copy' 30
ui_keys q
ui_wait 'Abort the run\?' 5
ui_keys y
ui_wait 'Results' 30
# Nothing stored to compare with: said whole, with the key, within the 80 columns.
ui_wait '^ no stored run of these tests at these copy counts \(c picks another\) *$' 5
ui_keys s
ui_wait 'saved|[0-9a-f]{8}' 10
ui_keys q
ui_exited 10
"$KBENCH" export last --format json >"$T/run.json" 2>&1 || die "export failed: $(cat "$T/run.json")"
grep -q '"mode": *"quick"' "$T/run.json" || die "the console's quick run is not stored as quick"
grep -q '"quick_precision_asked"' "$T/run.json" || die "the console's quick run has no quick summaries"
# the precision rule, not rounds: those are asked for (--allocate index, --budget)
grep -q '"allocation": *"precision"' "$T/run.json" || die "the console's quick run is not of the precision rule"
ui kill-session -t "$UI_PANE"
# Its replay shows the same, from the precision the run stored.
ui_start "$KBENCH" replay last --speed 2
ui_wait '· ±[0-9.]+% now, ±1% asked' 20
ui_keys F10
ui_wait 'quit\?' 5
ui_keys y
ui_exited 10

# The index allocation is the console's to ask too (kbench console --allocate index): its
# setup says the run's samples are shared out in rounds of its budget, not a precision.
ui kill-session -t "$UI_PANE"
ui_start "$KBENCH" console --quick --allocate index --budget 1
ui_wait 'Setup'
ui_wait 'Samples +◀ rounds 60 s ▶' 5
ui kill-session -t "$UI_PANE"
echo ok
