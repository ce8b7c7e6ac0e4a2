#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Real A/B plans with a known slowdown at the size the plan promises (tests/bench/sensitivity_plan.sh's
# third part): SHAPE ("3x1": boots a kernel x runs a boot), N plans, the runs' options after.
# Each plan's promise is read from its own 'kbench plan new'; each boot is a private mount
# namespace with another kernel release and boot id bound over /proc/sys/kernel; both sides
# run pinned to CPU 0 (taskset), B in a cgroup quota of (1 - x) of that CPU
# (tests/tools/cpu_quota.sh), so every test of B is x slower. Prints each plan's index verdict
# and how many found the change.
#
#   plan_confirm.sh SHAPE N RUN-OPTIONS...      (KBENCH set; root)
set -u
: "${KBENCH:?KBENCH must name the kbench binary}"
top=$(cd "$(dirname "$0")/../.." && pwd)
shape=$1 plans=$2
shift 2
boots=${shape%x*} runs=${shape#*x}
T=$(mktemp -d /tmp/kbench-plan-confirm.XXXXXX)
trap 'rm -rf "$T"' EXIT
# the runs' scratch in a root of their own: a kbench outside the namespace sweeps scratch
# directories whose owner names another boot, and each simulated boot is one
mkdir -p "$T/scratch"

# step PLAN SIDE ID X: one simulated boot of SIDE (X: B's slowdown, a fraction), pinned to CPU 0
step() {
	plan=$1 side=$2 id=$3 x=$4
	printf '6.6.8-confirm-%s\n' "$side" >"$T/osrelease"
	printf '%s\n' "$id" >"$T/boot_id"
	wrap=
	[ "$side" = B ] && wrap="sh $top/tests/tools/cpu_quota.sh -c 1 $x --"
	# shellcheck disable=SC2086 # wrap is words
	unshare -m sh -c 'mount --bind "$1/osrelease" /proc/sys/kernel/osrelease &&
		mount --bind "$1/boot_id" /proc/sys/kernel/random/boot_id && shift && exec taskset -c 0 "$@"' \
		sh "$T" $wrap "$KBENCH" plan step "$plan" --settle 60 >"$T/step" 2>&1 ||
		{ echo "  step failed: $(tail -n 2 "$T/step")"; return 1; }
}

found=0 i=0
while [ "$i" -lt "$plans" ]; do
	i=$((i + 1))
	name=confirm-$$-$i
	"$KBENCH" plan new "$name" --kernels 6.6.8-confirm-A,6.6.8-confirm-B --boots "$boots" --runs-per-boot "$runs" \
		--tmpdir "$T/scratch" "$@" >"$T/new" 2>&1 || { echo "plan new failed: $(cat "$T/new")"; exit 1; }
	x=$(sed -n 's/.*a change of \([0-9.]*\)% in the index.*/\1/p' "$T/new" | head -n 1)
	[ -n "$x" ] || { echo "no promise in: $(cat "$T/new")"; exit 1; }
	frac=$(awk -v x="$x" 'BEGIN { printf "%.4f", x / 100 }')
	echo "plan $i of $plans: promised $x% (load $(cut -d' ' -f1 /proc/loadavg))"
	n=0
	while [ "$n" -lt $((2 * boots)) ]; do
		n=$((n + 1))
		side=$("$KBENCH" plan status "$name" | sed -n 's/^Next: boot \([AB]\) .*/\1/p')
		[ -n "$side" ] || break
		step "$name" "$side" "$(printf '20000000-0000-0000-%04d-%012d' "$i" "$n")" "$frac" || exit 1
	done
	"$KBENCH" plan report "$name" >"$T/report" 2>&1
	line=$(grep 'System Benchmarks Index Score' "$T/report" | head -n 1)
	echo "  $line"
	case $line in *"% slower ("*) found=$((found + 1)) ;; esac
done
echo "real plans of shape $shape with B slowed by the promised size: $found of $plans found it"
