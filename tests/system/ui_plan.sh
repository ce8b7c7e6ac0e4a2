#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console's plan screen: P from the setup shows the newest plan going on (its boots, the
# kernel due next, that this boot is due); s makes this boot's runs live on the run screen as
# any run ("Plan NAME run k of n"), then back to the plan with the boot measured; r shows the
# report. The console runs in a simulated boot: a mount namespace with A's release and a boot
# id bound over the kernel's.
# requires: tmux python3 root unshare
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

mkdir -p "$T/scratch"
expect_exit 0 "$KBENCH" plan new scr --kernels 6.6.8-ui-a,6.6.8-ui-b --boots 1 --runs-per-boot 2 \
	-c 1 --samples 2 --duration 0.2 --pause 0 --tmpdir "$T/scratch" syscall
echo 6.6.8-ui-a >"$T/osrelease"
echo ui-boot-1 >"$T/boot_id"
ui_start "unshare -m sh -c 'mount --bind $T/osrelease /proc/sys/kernel/osrelease &&" \
	"mount --bind $T/boot_id /proc/sys/kernel/random/boot_id && exec $KBENCH console'"
ui_wait 'Setup' 15
ui_keys P
ui_wait 'Plan scr: A 6.6.8-ui-a, B 6.6.8-ui-b' 10
grep -q 'Next: boot A (6.6.8-ui-a) for boot 1 of 2.' "$T/screen" && grep -q 'This boot: 6.6.8-ui-a, due: s makes its runs' "$T/screen" ||
	die "the plan screen does not say this boot is due: $(cat "$T/screen")"
grep -q '0 of 2 done' "$T/screen" || die "the plan screen's progress: $(cat "$T/screen")"
ui_keys s
ui_wait 'Plan scr run [12] of 2' 30
ui_wait 'boot 1 of 2 \(A, 6.6.8-ui-a\) measured: 2 runs stored' 60
grep -q '1 of 2 done' "$T/screen" || die "the plan screen after the step: $(cat "$T/screen")"
grep -q 'Next: boot B (6.6.8-ui-b) for boot 2 of 2' "$T/screen" || die "B is not named next: $(cat "$T/screen")"
# this boot again: nothing run, and it says so
ui_keys s
ui_wait 'this boot was measured already' 10
ui_keys r
ui_wait 'Plan scr: A 6.6.8-ui-a, B 6.6.8-ui-b' 10
grep -q '1 of 2 boots done (1+0), 2 runs a boot' "$T/screen" || die "the report view: $(cat "$T/screen")"
ui_keys q
ui_wait 'Setup' 10
ui_keys q
ui_exited 10
[ "$UI_RC" = 0 ] || die "the console exited $UI_RC"
[ "$("$KBENCH" runs | grep -c ' scr A ')" = 2 ] || die "not two runs of A stored: $("$KBENCH" runs)"
echo ok
