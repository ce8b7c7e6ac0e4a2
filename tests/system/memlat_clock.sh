#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memlat's clock estimate: its chain of dependent adds adds a register (an add-immediate or inc
# chain is folded at rename by Golden Cove and later Intel cores, several a cycle: a Xeon read
# 20,579 MHz); and checked against cpufreq's ceiling (a fake cpufreq tree): an estimate far above
# it is no clock, the report says why and gives no cycles; under it the report names it. The
# report says the sizes measured.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
o="$KBENCH_TOP/${BUILD:-build}/src/families/memlat_loop.o"
if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null; then
	[ -r "$o" ] || die "no $o: where is memlat's loop built?"
	objdump -d --no-show-raw-insn "$o" >"$T/dis" || die "objdump $o"
	# the build's registers: %rax on x86-64, %eax on i686 (make test ARCH=i686 on this machine)
	r=r
	grep -q 'file format elf32-i386' "$T/dis" && r=e
	# the chain is 64 adds in a row in memlat_run (clock_mhz inlined): count them by kind
	imm=$(grep -cE "\\s(inc|add)\\s+(\\\$0x1,)?%$r[a-z0-9]+\$" "$T/dis")
	reg=$(grep -cE "\\sadd\\s+%$r[a-z0-9]+,%$r[a-z0-9]+\$" "$T/dis")
	[ "$reg" -ge 64 ] || die "the clock chain is not 64 adds of a register ($reg register adds, $imm inc or add \$1)"
	[ "$imm" -lt 64 ] || die "the clock chain is $imm inc or add \$1: a core that folds immediates runs several a cycle"
fi
fake_caches "$T/sys"
mkdir -p "$T/sys/sys/devices/system/cpu/cpufreq/policy0"
run() { # ceiling in kHz
	echo "$1" >"$T/sys/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq"
	KBENCH_SYSFS_ROOT="$T/sys" expect_exit 0 "$KBENCH" run memlat --sizes 512:64K:1 --duration 0.2 \
		--samples 1 --pause 0 -c 1 --no-telemetry --no-save
}
run 100000 # 100 MHz: every core's chain runs faster than that
tr -s ' \n' ' ' <"$T/out" | grep -q "CPU clock: n/a: the chain of dependent adds read [0-9]* MHz, above cpufreq's ceiling of 100 MHz" ||
	{ cat "$T/out"; die "an estimate above cpufreq's ceiling is given as the clock"; }
grep -q 'an L1 load takes' "$T/out" && die "cycles from a clock that cannot be"
grep -Eq '^Host .* Mhz' "$T/out" || die "no latency table"
grep -A3 '^Host ' "$T/out" | grep -Eq '^\S+ +\S+ \S+ +- ' || { cat "$T/out"; die "the table's Mhz column shows the impossible clock"; }
run 100000000 # 100 GHz: above any estimate
grep -Eq "CPU clock [0-9]+ MHz \(a chain of dependent adds; cpufreq's ceiling 100000\): an L1 load takes" "$T/out" ||
	{ cat "$T/out"; die "the clock under cpufreq's ceiling is not given with it"; }
grep -q '^  Sizes: 512 B to 64 KiB' "$T/out" || { cat "$T/out"; die "the report does not say the sizes measured"; }
exit 0
