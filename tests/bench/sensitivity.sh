#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-sensitivity: how much an answer costs here. A/A runs of each shape of run (today's
# quick rule, the index allocation, full length, budgets), made back to back in interleaved
# rounds so the machine's drift falls on every shape alike, then per test and for the index:
# the run-to-run spread against the minutes spent (spread per root-minute; the index's also at
# the same pace of the machine, the runs' pace taken out as a plan's report does), the A/A false
# alarms, the smallest slowdown found 9 times in 10 at 10, 20 and 30 minutes per kernel, and
# each shape's time and index against the full-length run's. Not part of `make test`.
#
# usage: sh tests/bench/sensitivity.sh [PHASE ...]      (no phase: measure analyse inject plan)
#   measure  ROUNDS rounds; in each, one run of every shape of SHAPES, in ABBA order (the order
#            turns round every other round), and a full-length run in FULL of the rounds. Runs
#            and their wall time and load go to OUT (a later session adds to them: SESSION
#            labels each, default the date and hour, so runs hours apart can be told apart).
#   analyse  the tables (tests/bench/sensitivity.py), from what OUT holds
#   inject   a real slowdown: INJECT_RUNS runs per side of the index allocation with the run's
#            CPU capped at (1 - INJECT_PCT/100) of one CPU by a cgroup quota (root), compared
#            with as many plain ones: is the slowdown found (needs the cgroup CPU controller)
#   plan     tests/bench/sensitivity_plan.sh (the A/B plan's shapes: make bench-sensitivity-plan)
# Shapes (SHAPES, space-separated): quick-precision (--quick's default rule: each test until
# +-1% or 15 s, one after another), quick (--quick --allocate index: in rounds, its budget),
# quick-M (quick samples, M minutes), quick-min (each test the 3 quick samples a quick run
# cannot go below: the shortest quick run), budget-M (UnixBench's sample lengths, M minutes), full;
# base-SHAPE: the same by another build (BASE_KBENCH, a kbench built from the commit to compare
# with; base-quick is its plain --quick), so a change is measured against what it changes, in
# one sitting. A shape named more than once runs that many times a round, back to back
# (SHAPES="base-quick quick-0.1 quick-0.1 quick-0.1": a plan's short runs, three a boot); the
# tables then say how much of their noise the runs of one round share.
# Every run is one copy (COPIES) of the index (TESTS). On a shared machine check `uptime`
# first: each run's load average is kept beside it and printed.
set -u
: "${KBENCH:=./build/kbench}"
: "${OUT:=/tmp/kbench-sensitivity}"
: "${ROUNDS:=8}"
: "${SHAPES:=quick-precision quick}"
: "${FULL:=2}"
: "${COPIES:=1}"
: "${TESTS:=index}"
: "${SESSION:=$(date +%Y-%m-%d-%Hh)}"
: "${BUDGETS:=10 20 30}"
: "${RESAMPLES:=40}"
: "${INJECT_PCT:=10}"
: "${INJECT_RUNS:=3}"
: "${INJECT_SHAPE:=quick}"
: "${EXTRA:=}" # more arguments for every run (a short smoke run: EXTRA="--duration 0.3")
: "${BASE_KBENCH:=}"
KBENCH=$(cd "$(dirname "$KBENCH")" && pwd)/$(basename "$KBENCH")
[ -z "$BASE_KBENCH" ] || BASE_KBENCH=$(cd "$(dirname "$BASE_KBENCH")" && pwd)/$(basename "$BASE_KBENCH")
[ -x "$KBENCH" ] || { echo "bench-sensitivity: no kbench at $KBENCH (make first)"; exit 1; }
command -v python3 >/dev/null || { echo "bench-sensitivity: python3 is needed for the tables"; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/store"
log() { echo "bench-sensitivity: $*" >&2; }

# bin SHAPE: the kbench that runs it
bin() {
	case $1 in
	base-*)
		[ -x "$BASE_KBENCH" ] || { log "shape $1 needs BASE_KBENCH, another build's kbench"; exit 2; }
		echo "$BASE_KBENCH" ;;
	*) echo "$KBENCH" ;;
	esac
}

# args SHAPE: kbench's arguments for a shape
args() {
	case $1 in
	base-quick) echo "--quick" ;; # another build's: whatever its --quick is
	base-*) args "${1#base-}" ;;
	quick-precision) echo "--quick --allocate precision" ;;
	quick) echo "--quick --allocate index" ;;
	quick-min) echo "--quick --allocate precision --max-test-seconds 1" ;; # each test its 3 samples, no more
	quick-*) echo "--quick --budget ${1#quick-}" ;;
	budget-*) echo "--budget ${1#budget-}" ;;
	full) echo "" ;;
	*) log "unknown shape '$1'"; exit 2 ;;
	esac
}

load1() { cut -d' ' -f1 /proc/loadavg; }

# one STORE SHAPE ROUND: a run of SHAPE, its line in OUT/runs.tsv
one() {
	store=$1 shape=$2 round=$3
	l0=$(load1) t0=$(date +%s.%N)
	# shellcheck disable=SC2046 # the shape's arguments are words
	KBENCH_HOME="$store" "$(bin "$shape")" run -q -c "$COPIES" --name "$shape" $(args "$shape") $EXTRA $TESTS \
		>"$OUT/last.txt" 2>"$OUT/last.err" || { log "a $shape run failed:"; cat "$OUT/last.err" >&2; return 1; }
	t1=$(date +%s.%N) l1=$(load1)
	id=$(KBENCH_HOME="$store" "$KBENCH" runs --limit 1 | awk 'NR == 2 { print $1 }')
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$shape" "$SESSION" "$round" "$(date -d @"${t0%.*}" +%H:%M)" \
		"$secs" "$l0" "$l1" >>"$OUT/runs.tsv"
	log "round $round: $shape $id took $secs s (load $l0 before, $l1 after)"
}

measure() {
	[ -s "$OUT/runs.tsv" ] || printf 'id\tshape\tsession\tround\tstart\tseconds\tload_before\tload_after\n' >"$OUT/runs.tsv"
	log "measuring: $ROUNDS rounds of $SHAPES, $FULL full-length runs, session $SESSION; $(uptime)"
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		# ABBA: the order turns round every other round, so drift falls on every shape alike
		order=$SHAPES
		[ $((r % 2)) = 0 ] && order=$(echo "$SHAPES" | tr ' ' '\n' | tac | tr '\n' ' ')
		for shape in $order; do
			one "$OUT/store" "$shape" "$r" || exit 1
		done
		# the full-length runs spread evenly over the rounds
		if [ "$FULL" -gt 0 ] && [ $(((r - 1) * FULL % ROUNDS)) -lt "$FULL" ]; then
			one "$OUT/store" full "$r" || exit 1
		fi
		r=$((r + 1))
	done
}

analyse() {
	python3 "$HERE/sensitivity.py" --kbench "$KBENCH" --out "$OUT" --budgets "$BUDGETS" --resamples "$RESAMPLES"
}

# The slowdown: the run's processes in a cgroup allowed (1 - pct) of one CPU per period. A
# quota of CPUs x that would not slow a one-copy run (its one busy process never reaches it).
inject() {
	quota=$(awk -v p="$INJECT_PCT" 'BEGIN { printf "%d", 100000 * (1 - p / 100) }')
	d=""
	if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		d=/sys/fs/cgroup/cpu/kbench-sensitivity-$$
		mkdir "$d" && echo 100000 >"$d/cpu.cfs_period_us" && echo "$quota" >"$d/cpu.cfs_quota_us" || d=""
	elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		d=/sys/fs/cgroup/kbench-sensitivity-$$
		echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
		mkdir "$d" && echo "$quota 100000" >"$d/cpu.max" || d=""
	fi
	[ -n "$d" ] || { log "no writable cgroup CPU controller (needs root): no injected slowdown"; return 0; }
	mkdir -p "$OUT/inject"
	log "inject: $INJECT_RUNS plain and $INJECT_RUNS slowed ($INJECT_PCT%: quota $quota of 100000 us) $INJECT_SHAPE runs, interleaved"
	i=1
	while [ "$i" -le "$INJECT_RUNS" ]; do
		# shellcheck disable=SC2046
		KBENCH_HOME="$OUT/inject" "$KBENCH" run -q -c "$COPIES" --name plain $(args "$INJECT_SHAPE") $TESTS >/dev/null 2>&1
		# shellcheck disable=SC2046
		KBENCH_HOME="$OUT/inject" sh -c "echo \$\$ >'$d/cgroup.procs' && exec \"\$@\"" sh "$KBENCH" run -q -c "$COPIES" \
			--name slowed $(args "$INJECT_SHAPE") $TESTS >/dev/null 2>&1
		i=$((i + 1))
	done
	rmdir "$d" 2>/dev/null
	ids() { KBENCH_HOME="$OUT/inject" "$KBENCH" runs --name "$1" | awk 'NR > 1 { print $1 }' | paste -sd, -; }
	a=$(ids plain) b=$(ids slowed)
	KBENCH_HOME="$OUT/inject" "$KBENCH" compare --default-noise "$a" "$b" | tee "$OUT/inject.txt"
	KBENCH_HOME="$OUT/inject" "$KBENCH" compare --json --default-noise "$a" "$b" >"$OUT/inject.json"
	python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
ix = c["blocks"][0]["index"]
# an n/a verdict (a busy machine) has a change but no interval
lo, hi = ix.get("change_lo_pct"), ix.get("change_hi_pct")
ci = "(%+.1f%% to %+.1f%%)" % (lo, hi) if lo is not None and hi is not None else "(no interval)"
print("inject: %s%% CPU taken from %s runs per side: index %+.1f%% %s, %s" % (
    sys.argv[2], sys.argv[3], ix["change_pct"], ci, ix["verdict"]))
' "$OUT/inject.json" "$INJECT_PCT" "$INJECT_RUNS"
}

# the plan shapes' own script (make bench-sensitivity-plan), on this build's plan_resample
plan() {
	KBENCH="$KBENCH" BUILD="${BUILD:-build}" sh "$HERE/sensitivity_plan.sh"
}

phases=${*:-measure analyse inject plan}
for p in $phases; do
	case $p in
	measure | analyse | inject | plan) $p ;;
	*) log "unknown phase '$p' (measure, analyse, inject, plan)"; exit 2 ;;
	esac
done
