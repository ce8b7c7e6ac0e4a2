#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A known slowdown of every test for the plan benchmarks: runs a command in a cgroup whose CPU
# quota is (1 - x) x CPUs x period, so a test that keeps every CPU busy runs x slower, and a
# test of several processes is not capped to one CPU (a quota of 0.97 of one CPU halved the
# 8-script shell test on a 2-CPU machine). A test that leaves CPUs idle (one copy of Dhrystone
# on two CPUs) is slowed less or not at all: state the change measured, not the one asked.
#
#   cpu_quota.sh [-c CPUS] [-p PERIOD_US] X -- COMMAND [ARG...]
#
# X is the slowdown as a fraction (0.03 for 3%); CPUS defaults to the CPUs online. Works with
# the cgroup v1 cpu controller (cpu.cfs_quota_us) and with cgroup v2 (cpu.max); root needed.
# The cgroup is removed when the command ends; the command's exit status is this script's.
set -u
cpus=$(getconf _NPROCESSORS_ONLN)
period=100000
usage() { echo "usage: cpu_quota.sh [-c CPUS] [-p PERIOD_US] X -- COMMAND [ARG...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-c) [ $# -ge 2 ] || usage; cpus=$2; shift 2 ;;
	-p) [ $# -ge 2 ] || usage; period=$2; shift 2 ;;
	--) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] && [ "$2" = -- ] || usage
x=$1
shift 2
quota=$(awk -v x="$x" -v c="$cpus" -v p="$period" 'BEGIN {
	if (x !~ /^[0-9.]+$/ || x + 0 <= 0 || x + 0 >= 1 || c !~ /^[0-9]+$/ || c < 1 || p !~ /^[0-9]+$/ || p < 1000) exit 1
	printf "%d", (1 - x) * c * p + 0.5 }') || { echo "cpu_quota.sh: X is a fraction between 0 and 1 (0.03), CPUS a count, PERIOD_US at least 1000" >&2; exit 2; }

name=kbench-quota-$$
if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	cg=/sys/fs/cgroup/cpu/$name
	mkdir "$cg" && echo "$period" >"$cg/cpu.cfs_period_us" && echo "$quota" >"$cg/cpu.cfs_quota_us" ||
		{ rmdir "$cg" 2>/dev/null; echo "cpu_quota.sh: could not set a quota in $cg" >&2; exit 1; }
elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cg=/sys/fs/cgroup/$name
	grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
	mkdir "$cg" && echo "$quota $period" >"$cg/cpu.max" ||
		{ rmdir "$cg" 2>/dev/null; echo "cpu_quota.sh: could not set a quota in $cg" >&2; exit 1; }
else
	echo "cpu_quota.sh: no writable cgroup CPU controller here (cgroup v1 cpu or v2 with cpu; root needed)" >&2
	exit 1
fi
# The command runs in a child shell moved into the cgroup; this shell waits outside it
# and removes the cgroup when the command ends (a cgroup with tasks cannot be removed).
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@" &
child=$!
trap 'kill $child 2>/dev/null' INT TERM
wait $child
rc=$?
# Its last processes may still be leaving.
for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.2; done
exit $rc
