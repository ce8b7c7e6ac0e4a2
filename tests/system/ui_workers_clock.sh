#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console's Machine pane shows the clock of the CPUs the workers run on while a sample
# runs ("NNNN MHz workers"), not the range over all CPUs. A fixture gives each CPU its own
# clock (cpuN at 1000 + 111 N MHz); /proc is the real one, so the worker's CPU is the
# kernel's answer (/proc/PID/stat field 39) and the figure shown must be that CPU's.
# requires: tmux python3 cpus2
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

R="$T/root"
mkdir -p "$R/sys/devices/system/cpu"
ln -s /proc "$R/proc"
n=$(getconf _NPROCESSORS_CONF)
i=0
while [ $i -lt "$n" ]; do
	d="$R/sys/devices/system/cpu/cpu$i/cpufreq"
	mkdir -p "$d"
	echo $(((1000 + 111 * i) * 1000)) >"$d/scaling_cur_freq"
	echo 3000000 >"$d/cpuinfo_max_freq"
	i=$((i + 1))
done

ui_start env KBENCH_SYSFS_ROOT="$R" "$KBENCH" console --samples 3 --duration 2 --pause 0 --copies 1 dhry2reg
ui_wait 'Setup'
ui_keys r
ui_wait '^ freq [0-9]+ MHz workers' 20
line=$(grep -E '^ freq [0-9]+ MHz workers' "$T/screen")
mhz=$(echo "$line" | sed -E 's/^ freq ([0-9]+) MHz.*/\1/')
[ $(((mhz - 1000) % 111)) = 0 ] && [ "$mhz" -lt $((1000 + 111 * n)) ] ||
	die "the workers' clock $mhz MHz is no CPU's: '$line'"
echo "workers' clock: $line"
ui_keys F10
ui_wait 'quit\?' 5
ui_keys y
ui_exited 20
echo ok
