#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console's thermal check at 80x24 in the mono theme: the preset sets one test on every CPU
# for 10 minutes after a 30 s idle baseline; a short check (--minutes, --idle) shows its idle
# baseline, then score, clock, temperature and power stacked on one time axis with a missing
# source's reason in its place, the throttle counters and the state in words; it ends with the
# verdict on the same screen, saved as a thermal run, drawn without colour; its replay shows it.
# A points test ticked for the check (memlat) is refused with a sentence.
# requires: tmux python3
# cost: 24
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

ui_start "$KBENCH" console --theme mono
ui_wait 'Setup'
ui_keys p p p p
ui_wait 'Preset +◀ thermal check ▶' 5
ui_wait 'Load +◀ for 10 min ▶' 2
ui_wait 'Idle first +◀ 30 s ▶' 2
ui_wait "Copies +◀ $(nproc)" 2
ui_wait 'Estimate +10:30' 2
grep -q '\[x\] Dhrystone' "$T/screen" || die "the preset does not tick dhry2reg"
# a second test ticked: the check refuses with a sentence, not a run
ui_keys j Space r
ui_wait 'A thermal check loads the CPUs with one test' 5
ui_keys F10
ui_exited 10
ui kill-session -t "$UI_PANE"

# a points test (memlat) has no score per sample to follow: refused with a sentence
ui_start "$KBENCH" console --theme mono --minutes 0.2 --idle 0 memlat
ui_wait 'Preset +◀ thermal check ▶' 5
ui_keys r
ui_wait 'A thermal check follows a score per sample: memlat gives a curve' 5
ui_keys F10
ui_exited 10
ui kill-session -t "$UI_PANE"

ui_start "$KBENCH" console --theme mono --minutes 0.2 --idle 2 --duration 1 --copies 1
ui_wait 'Preset +◀ thermal check ▶' 5
ui_keys r
ui_wait '^ dhry2reg ×1 idle baseline 0:0[0-2] of 0:02' 10
ui_wait '^ dhry2reg ×1 sample [0-9]+ of 12 · ' 15
for rule in '── score ' '── clock ' '── temp ' '── power '; do
	grep -q "^$rule" "$T/screen" || { cat "$T/screen"; die "no '$rule' chart"; }
done
# one time axis under the charts: 0:00 to the planned 0:12
grep -Eq '^ 0:00 +0:06 +0:12$' "$T/screen" || { cat "$T/screen"; die "no time axis"; }
grep -Eq '^ throttle (\+[0-9]+ events|n/a: .+)' "$T/screen" || { cat "$T/screen"; die "no throttle line"; }
grep -Eq '^ MHz per CPU (mean [0-9]+ ·|[a-z])' "$T/screen" || { cat "$T/screen"; die "no per-CPU clock line"; }
# what is missing, whole: the names alone when their reasons do not fit, never a reason cut
# in the middle (a line that is cut anyway says so with '~')
miss=$(grep '^ missing ' "$T/screen") || { cat "$T/screen"; die "no 'missing' line"; }
[ "$(printf %s "$miss" | tr -cd '(' | wc -c)" = "$(printf %s "$miss" | tr -cd ')' | wc -c)" ] ||
	printf %s "$miss" | grep -q '~$' || die "the 'missing' line is cut inside a reason: '$miss'"
# a missing sensor says why in its chart (this machine may have none)
if grep -q 'missing temperature' "$T/screen"; then
	sed -n '/^── temp /,/^── power /p' "$T/screen" | grep -Eq '^  [a-z].+' || { cat "$T/screen"; die "the temp chart does not say why it is empty"; }
fi
# drawn without colour: attributes only (bold, reverse, underline)
ui capture-pane -p -e -t "$UI_PANE" >"$T/esc"
grep -Eq '\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5|48;5)[;m]' "$T/esc" && die "the mono theme draws colour: $(grep -Eo '\[[0-9;]*m' "$T/esc" | sort -u | tr '\n' ' ')"
ui_wait 'Saved as [0-9a-f]{8}: kbench show [0-9a-f]{8} prints its table' 30
ui_wait '^ kbench [^│]*│ Thermal check +saved as [0-9a-f]{8}$' 2
grep -Eq '^ dhry2reg ×1 done · ' "$T/screen" || { cat "$T/screen"; die "no final state"; }
grep -Eq '^ (No throttling|Throttling from)' "$T/screen" || { cat "$T/screen"; die "no verdict on the screen"; }
grep -Eq 'Score (held|fell|rose)' "$T/screen" || { cat "$T/screen"; die "no score verdict on the screen"; }
ui_keys q
ui_wait 'Setup' 5
ui_keys F10
ui_exited 10
"$KBENCH" show last >"$T/show" || die "show failed"
# 12 samples of 1 s: 0:12 of load as planned, a second or more past it when the samples'
# starts lag (a loaded machine, ASan): the time said is the one measured
grep -Eq '^Thermal check: dhry2reg, 1 copy, 0:1[2-9] of load in 12 samples' "$T/show" || die "not stored as a thermal check: $(grep -i thermal "$T/show")"
ui kill-session -t "$UI_PANE"

# its replay: the same screen, from the stored samples and series
ui_start "$KBENCH" replay last --speed 4 --theme mono
ui_wait '│ Thermal check  REPLAY 4x' 10
ui_wait '^── score [0-9.kMG]+ lps' 10
ui_wait '^ dhry2reg ×1 done · ' 15
ui_keys F10
ui_exited 10
echo ok
