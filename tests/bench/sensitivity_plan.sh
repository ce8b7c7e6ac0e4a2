#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-sensitivity's plan shapes (issue 33): what an A/B plan across boots finds, and how
# often A/A plans call a change, against minutes of runs a kernel, for the shapes a user would
# choose (one run a side; 3 boots x 1 quick run; 3 x 2; 5 x 2; 10 x 1; --until), beside what
# `kbench compare` of one run a side finds today.
#
# 1. A pool of quick index runs at 1 copy of this kernel (POOL_RUNS, made unless the store
#    already holds them: a pool is reused).
# 2. Resampling (tests/bench/plan_resample.c): plans drawn from the pool, B's scores shifted
#    down by 1, 2, 3 and 5% (an exact index change on real measured noise), decided as kbench
#    plan decides; the A/A share of index and row verdicts called; the share found at the size
#    each shape promises before it runs; the smallest change found 9 times in 10. The pool
#    comes from one boot: the noise between boots here is the drift between runs.
# 3. Real plans, the injection confirming one size (CONFIRM_PLANS, 0 skips): `kbench plan` of
#    shape CONFIRM_SHAPE whose B runs are slowed by the promised size, every test alike: both
#    sides pinned to one CPU (taskset), B in a cgroup quota of (1 - x) of that CPU
#    (tests/tools/cpu_quota.sh), each "boot" a private mount namespace with another boot id
#    and kernel release bound over /proc/sys/kernel (no reboot). A few real plans cannot show
#    85 in 100; they show the resampled figure is not the only evidence.
#
# Environment: KBENCH (required), BUILD (build), KBENCH_HOME (default: a store kept in
# /tmp/kbench-sensitivity-plan so a second run reuses its pool), POOL_NAME (plan-pool),
# POOL_RUNS (24), POOL_ARGS ("--quick -c 1"), PLANS (400 simulated plans a cell), SHAPES,
# SHIFTS (1,2,3,5), KEEP_BUSY (1: a busy machine's load counts as noise instead of withholding
# the row), CONFIRM_PLANS (2), CONFIRM_SHAPE (3x1).
set -u
: "${KBENCH:?KBENCH must name the kbench binary}"
BUILD=${BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
export KBENCH_HOME=${KBENCH_HOME:-/tmp/kbench-sensitivity-plan}
POOL_NAME=${POOL_NAME:-plan-pool}
POOL_RUNS=${POOL_RUNS:-24}
POOL_ARGS=${POOL_ARGS:---quick -c 1}
PLANS=${PLANS:-400}
SHAPES=${SHAPES:-today-default,today,1x1,3x1,3x2,5x2,10x1,until2:10x1}
SHIFTS=${SHIFTS:-1,2,3,5}
KEEP_BUSY=${KEEP_BUSY:-1}
CONFIRM_PLANS=${CONFIRM_PLANS:-2}
CONFIRM_SHAPE=${CONFIRM_SHAPE:-3x1}
resample=${PLAN_RESAMPLE:-$top/$BUILD/plan_resample}
[ -x "$resample" ] || { echo "sensitivity_plan: $resample is not built (make $BUILD/plan_resample)"; exit 1; }

echo "== plan shapes (issue 33), $(date '+%Y-%m-%d %H:%M'), $(uname -r), $(nproc) CPUs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. the pool
have=$("$KBENCH" runs --name "$POOL_NAME" 2>/dev/null | awk 'NR > 1' | wc -l)
if [ "$have" -lt "$POOL_RUNS" ]; then
	echo "pool: $have of $POOL_RUNS runs stored; making $((POOL_RUNS - have)) ($POOL_ARGS)"
	i=$have
	while [ "$i" -lt "$POOL_RUNS" ]; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # POOL_ARGS is words
		"$KBENCH" run $POOL_ARGS --name "$POOL_NAME" >/dev/null 2>&1 ||
			{ echo "pool run $i failed"; exit 1; }
		echo "  run $i of $POOL_RUNS stored, load $(cut -d' ' -f1 /proc/loadavg)"
	done
fi
echo "load after the pool: $(cut -d' ' -f1-3 /proc/loadavg)"

# 2. resampling
busy=
[ "$KEEP_BUSY" = 1 ] && busy=--keep-busy
"$resample" "$POOL_NAME" --plans "$PLANS" --shapes "$SHAPES" --shifts "$SHIFTS" $busy || exit 1
# the same plans judged at the same pace of the machine (the runs' pace.median taken out), when
# the pool's runs carry it, beside the plain answer on the boots alone as that one is (no floors
# as a prior): the two differ by the pace alone. The "promised" column is the plain analysis's.
if "$KBENCH" export --format json "$POOL_NAME" 2>/dev/null | grep -q '"pace.median"'; then
	echo "-- plain, on the boots alone:"
	"$resample" "$POOL_NAME" --plans "$PLANS" --shapes "$SHAPES" --shifts "$SHIFTS" $busy --boots-only || exit 1
	echo "-- at the same pace of the machine (on the boots alone):"
	"$resample" "$POOL_NAME" --plans "$PLANS" --shapes "$SHAPES" --shifts "$SHIFTS" $busy --same-pace || exit 1
fi

# 3. real plans with an injected slowdown at the promised size
if [ "$CONFIRM_PLANS" -gt 0 ]; then
	if ! "$KBENCH" help plan >/dev/null 2>&1; then
		echo "confirm: skipped (this kbench has no plan command)"
		exit 0
	fi
	if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null || ! command -v taskset >/dev/null; then
		echo "confirm: skipped (needs root, unshare -m and taskset)"
		exit 0
	fi
	# shellcheck disable=SC2086
	sh "$top/tests/bench/plan_confirm.sh" "$CONFIRM_SHAPE" "$CONFIRM_PLANS" $POOL_ARGS
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
