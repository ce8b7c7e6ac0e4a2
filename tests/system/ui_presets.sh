#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cycling presets on the setup screen keeps a custom selection as one of them: from a
# custom choice of tests and copies, p through every preset comes back to "custom" with
# the same tests ticked and the same copies (it used to be dropped for good at the first p).
# requires: tmux python3
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# what the setup screen says: the preset, the copies, and the ticked tests
chosen() {
	sed -n 's/.*Preset *◀ \(.*\) ▶.*/preset \1/p; s/.*Copies *◀ \(.*\) ▶.*/copies \1/p' "$T/screen"
	grep '^ \[x\] ' "$T/screen" | cut -c2-34 | sed 's/ *$//'
}
ui_start "$KBENCH" console --copies 1,2 pipe syscall
ui_wait 'Preset +◀ custom ▶'
# the list is drawn after the header: a capture between them sees no ticks (seen under ASan)
ui_wait '^ \[x\] System Call Overhead' 5
chosen >"$T/before"
grep -q '^\[x\] Pipe Throughput$' "$T/before" && grep -q '^\[x\] System Call Overhead$' "$T/before" ||
	die "the console did not start with pipe and syscall ticked: $(cat "$T/before")"
for want in index quick cpu-only i/o-only 'thermal check'; do
	ui_keys p
	ui_wait "Preset +◀ $want ▶" 5
done
ui_keys p
ui_wait 'Preset +◀ custom ▶' 5
ui_wait '^ \[x\] System Call Overhead' 5
chosen >"$T/after"
diff "$T/before" "$T/after" || die "the custom selection came back changed (above: before, after)"
# and once more round: the presets, then custom again
for want in index quick cpu-only i/o-only 'thermal check' custom; do
	ui_keys p
	ui_wait "Preset +◀ $want ▶" 5
done
ui_keys q
ui_exited 10
[ "$UI_RC" = 0 ] || die "the console exited $UI_RC"
echo ok
