#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A plan that reboots by itself, through its seams: plan install writes its systemd unit (into a
# private /etc/systemd/system, checked by the real systemd-analyze verify where it exists) and
# enables it; step --reboot chooses the next kernel once with the boot menu's own entry
# (grub-reboot on Debian's grub.cfg) and reboots (systemctl, a stub recording what it was
# asked); the step that ends the plan removes the unit and reboots no more. Each boot's time
# comes from systemd-analyze (a stub printing a real machine's output). Without systemd as
# init, plan install refuses in one line.
# requires: root unshare
. "$KBENCH_TOP/tests/system/lib.inc"
FX=$KBENCH_TOP/tests/fixtures

# The machine's root as kbench reads it: Debian's boot menu, systemd as init.
mkdir -p "$T/root/proc/1" "$T/root/boot" "$T/bin" "$T/units" "$T/scratch"
cp -r "$FX/boot/debian12/boot/grub" "$T/root/boot/"
echo systemd >"$T/root/proc/1/comm"
real_analyze=$(command -v systemd-analyze || true)
for t in grub-reboot grub2-reboot bootctl systemctl reboot; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/asked"\n' "$t" "$T" >"$T/bin/$t"
done
cat >"$T/bin/systemd-analyze" <<EOF
#!/bin/sh
case \$1 in
time) cat "$FX/boottime/time-ubuntu2404.txt" ;;
blame) cat "$FX/boottime/blame-ubuntu1604.txt" ;;
critical-chain) cat "$FX/boottime/critical-chain-ubuntu2404.txt" ;;
verify) [ -n "$real_analyze" ] && exec "$real_analyze" "\$@"; exit 0 ;;
esac
EOF
chmod +x "$T/bin/"*
export KBENCH_SYSFS_ROOT="$T/root" PATH="$T/bin:$PATH"

# in_boot RELEASE ID CMD...: CMD in a simulated boot of RELEASE, with the private unit directory
in_boot() {
	printf '%s\n' "$1" >"$T/osrelease"
	printf '%s\n' "$2" >"$T/boot_id"
	shift 2
	unshare -m sh -c 'mount --bind "$1/osrelease" /proc/sys/kernel/osrelease &&
		mount --bind "$1/boot_id" /proc/sys/kernel/random/boot_id &&
		mount --bind "$1/units" /etc/systemd/system && shift && exec "$@"' sh "$T" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

expect_exit 0 "$KBENCH" plan new auto --kernels 6.1.0-13-amd64,6.6.8-pf1 --boots 1 \
	-c 1 --samples 2 --duration 0.2 --pause 0 --tmpdir "$T/scratch" syscall
grep -q "^B: GRUB's entry 'Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.6.8-pf1'" "$T/out" ||
	die "plan new did not find B's boot entry: $(cat "$T/out")"

in_boot 6.1.0-13-amd64 boot-1 "$KBENCH" plan install auto
[ "$rc" = 0 ] || die "plan install exited $rc: $(cat "$T/err" "$T/out")"
unit=$T/units/kbench-plan-auto.service
[ -f "$unit" ] || die "no unit written"
grep -q "^ExecStart=$(readlink -f "$KBENCH") plan step auto --reboot$" "$unit" || die "the unit's ExecStart: $(cat "$unit")"
grep -q "^Environment=KBENCH_HOME=$KBENCH_HOME$" "$unit" || die "the unit does not name the store"
grep -q '^Type=exec$' "$unit" && grep -q '^WantedBy=multi-user.target$' "$unit" || die "the unit: $(cat "$unit")"
grep -q '^systemctl daemon-reload' "$T/asked" && grep -q '^systemctl enable kbench-plan-auto.service' "$T/asked" ||
	die "the unit is not enabled: $(cat "$T/asked")"
: >"$T/asked"
expect_exit 0 "$KBENCH" plan status auto

# Boot 1, A: its runs, its boot time, then B chosen once and a reboot.
in_boot 6.1.0-13-amd64 boot-1 "$KBENCH" plan step auto --reboot --settle 0
[ "$rc" = 0 ] || die "step 1 exited $rc: $(cat "$T/err")"
grep -q 'this boot took 57.28 s (systemd-analyze time)' "$T/err" || die "step 1 recorded no boot time: $(cat "$T/err")"
grep -q '^grub-reboot gnulinux-advanced-3f1c2a9e-5b7d-4e8a-9c61-2d0e7f4b8a15>gnulinux-6.6.8-pf1-advanced-3f1c2a9e-5b7d-4e8a-9c61-2d0e7f4b8a15$' "$T/asked" ||
	die "B was not chosen once: $(cat "$T/asked")"
grep -q '^systemctl reboot' "$T/asked" || die "no reboot: $(cat "$T/asked")"
grep -q 'grub-set-default\|grub-editenv' "$T/asked" && die "the boot loader's default was changed"
expect_exit 0 "$KBENCH" show last
grep -q '^Boot time' "$T/out" && grep -q 'total .*57.28 s' "$T/out" || die "the boot's time is not in its first run: $(cat "$T/out")"
: >"$T/asked"

# Boot 2, B: the last; the plan ends, its unit goes, no reboot.
in_boot 6.6.8-pf1 boot-2 "$KBENCH" plan step auto --reboot --settle 0
[ "$rc" = 0 ] || die "step 2 exited $rc: $(cat "$T/err")"
grep -q 'The plan has ended (all 1 boot a kernel done)' "$T/out" || die "the plan did not end: $(cat "$T/out")"
[ ! -f "$unit" ] || die "the unit stays after the plan's end"
grep -q '^systemctl disable kbench-plan-auto.service' "$T/asked" || die "the unit was not disabled: $(cat "$T/asked")"
grep -q 'reboot' "$T/asked" && die "a reboot after the end: $(cat "$T/asked")"
expect_exit 0 "$KBENCH" plan report auto
grep -q '^  Boot time total (1 copy): ' "$T/out" || die "the report has no boot time row: $(cat "$T/out")"

# Without systemd: one line, nothing written.
echo process_api >"$T/root/proc/1/comm"
in_boot 6.6.8-pf1 boot-3 "$KBENCH" plan install auto
[ "$rc" = 1 ] || die "plan install without systemd exited $rc"
grep -q "systemd is not this system's init (process_api is)" "$T/err" || die "plan install without systemd: $(cat "$T/err")"
[ -z "$(ls -A "$T/units")" ] || die "a unit was written without systemd"
in_boot 6.6.8-pf1 boot-3 "$KBENCH" plan uninstall auto
[ "$rc" = 0 ] || die "plan uninstall of a plan with no unit exited $rc"
echo ok
