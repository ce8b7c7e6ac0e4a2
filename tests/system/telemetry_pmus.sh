#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench events lists the kernel's PMUs from /sys/bus/event_source/devices (through
# KBENCH_SYSFS_ROOT): a hybrid Intel laptop's tree names both core types, what each PMU
# counts and its CPUs, and says hardware events are summed over the core types; an
# unreadable tree is one line saying so, and the libpfm4 listing still follows.
. "$KBENCH_TOP/tests/system/lib.inc"

R="$T/root"
pmu() { # NAME TYPE [CPUS]
	mkdir -p "$R/sys/bus/event_source/devices/$1"
	echo "$2" >"$R/sys/bus/event_source/devices/$1/type"
	[ $# -lt 3 ] || echo "$3" >"$R/sys/bus/event_source/devices/$1/cpus"
}
pmu cpu_core 4 0-7
pmu cpu_atom 10 8-15
pmu software 1
pmu power 23
pmu cstate_core 24
pmu uncore_imc_0 25

KBENCH_SYSFS_ROOT="$R" expect_exit 0 "$KBENCH" events
grep -q '^Kernel PMUs (/sys/bus/event_source/devices):$' "$T/out" || die "no kernel PMU section: $(cat "$T/out")"
grep -Eq '^  cpu_atom +type 10 +8-15 +E-cores \(hybrid: counted per type\)$' "$T/out" || die "cpu_atom: $(cat "$T/out")"
grep -Eq '^  cpu_core +type 4 +0-7 +P-cores' "$T/out" || die "cpu_core: $(cat "$T/out")"
grep -Eq '^  power +type 23 +- +RAPL energy' "$T/out" || die "power: $(cat "$T/out")"
grep -Eq '^  uncore_imc_0 +type 25 +- +uncore' "$T/out" || die "uncore: $(cat "$T/out")"
grep -q '^  2 core types: hardware events are opened on each and summed$' "$T/out" || die "no hybrid line: $(cat "$T/out")"
# sorted by name: cpu_atom before cpu_core before power
[ "$(grep -Eo '^  (cpu_atom|cpu_core|power) ' "$T/out" | tr -d ' ' | tr '\n' ,)" = "cpu_atom,cpu_core,power," ] ||
	die "PMUs not sorted: $(cat "$T/out")"
sed -n '/^Kernel PMUs/,/^$/p' "$T/out" | awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' ||
	die "a PMU line is wider than 80 columns"
grep -q '^Default events on this machine' "$T/out" || die "the default events are gone: $(cat "$T/out")"

# One core type (a desktop without hybrid cores): no summing line.
rm -r "$R/sys/bus/event_source/devices/cpu_atom"
KBENCH_SYSFS_ROOT="$R" expect_exit 0 "$KBENCH" events
grep -q 'core types' "$T/out" && die "one core type said as several: $(cat "$T/out")"

# No event_source directory at all: one line with the reason, and the rest still shown.
rm -r "$R/sys/bus"
KBENCH_SYSFS_ROOT="$R" expect_exit 0 "$KBENCH" events
grep -q "^Kernel PMUs: n/a: cannot read $R/sys/bus/event_source/devices: No such file or directory$" "$T/out" ||
	die "a missing PMU directory is not said: $(cat "$T/out")"
grep -q '^Default events on this machine' "$T/out" || die "the default events are gone: $(cat "$T/out")"
exit 0
