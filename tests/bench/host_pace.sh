#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-host-pace: does the machine's own pace move kbench's scores from run to run? RUNS
# runs of one shape back to back (default: quick index runs at 1 copy, 3 minutes each), while
# tests/bench/pace_probe times a fixed arithmetic chain every half second; then
# tests/bench/host_pace.py sets each test's scores beside the probe's pace over the same
# seconds, within a run (sample by sample) and from run to run (each test's mean). Where the
# pace explains what moves between runs, a comparison could weigh it (issue 37); where a test
# moves on its own, only more of its samples narrow it. Not part of `make test`; quiet machine.
#
# PROBES=all times the probe's other kinds beside the chain (pace_probe --all: caches, memory,
# a system call) and adds a table of how closely each follows the runs.
#
# usage: sh tests/bench/host_pace.sh            (KBENCH, PROBE, OUT, RUNS, ARGS, PROBES: below)
set -u
: "${KBENCH:=./build/kbench}"
: "${PROBE:=./build/pace_probe}"
: "${OUT:=/tmp/kbench-host-pace}"
: "${RUNS:=9}"
: "${ARGS:=-c 1 --quick --allocate precision index}"
: "${PROBES:=chain}"
[ -x "$KBENCH" ] || { echo "bench-host-pace: no kbench at $KBENCH (make first)"; exit 1; }
[ -x "$PROBE" ] || { echo "bench-host-pace: no probe at $PROBE (make $PROBE)"; exit 1; }
[ "$RUNS" -ge 3 ] 2>/dev/null || { echo "bench-host-pace: RUNS must be 3 or more (the spread of fewer says little)"; exit 2; }
command -v python3 >/dev/null || { echo "bench-host-pace: python3 is needed for the tables"; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/store" || exit 1
echo "bench-host-pace: $RUNS runs of 'kbench run $ARGS' into $OUT; $(uptime)" >&2
case $PROBES in
chain) set -- ;;
all) set -- --all ;;
*) echo "bench-host-pace: PROBES is chain or all, not '$PROBES'"; exit 2 ;;
esac
touch "$OUT/pace.txt"
before=$(wc -l <"$OUT/pace.txt")
"$PROBE" "$@" >>"$OUT/pace.txt" &
probe=$!
trap 'kill $probe 2>/dev/null' EXIT INT TERM
# the walks' buffers take seconds to lay out: the first run starts with the probe's first line
i=0
while [ "$(wc -l <"$OUT/pace.txt")" -le "$before" ] && [ "$i" -lt 60 ] && kill -0 "$probe" 2>/dev/null; do
	sleep 0.5
	i=$((i + 1))
done
[ "$(wc -l <"$OUT/pace.txt")" -gt "$before" ] || { echo "bench-host-pace: the probe printed nothing in 30 s"; exit 1; }
i=0
while [ "$i" -lt "$RUNS" ]; do
	i=$((i + 1))
	name="pace-$(date +%H%M%S)-$i"
	# the run's own clock starts as it starts: its wall-clock start, for the samples' seconds
	echo "$name $(date +%s.%N)" >>"$OUT/starts.txt"
	# shellcheck disable=SC2086 # ARGS is a list of arguments
	KBENCH_HOME="$OUT/store" "$KBENCH" run -q --name "$name" $ARGS >"$OUT/$name.out" 2>&1 ||
		{ echo "bench-host-pace: run $i failed: $(tail -n 3 "$OUT/$name.out")" >&2; exit 1; }
	echo "bench-host-pace: run $i of $RUNS: $(grep -m1 'Index Score' "$OUT/$name.out" | tr -s ' ')" >&2
done
kill "$probe" 2>/dev/null
python3 "$HERE/host_pace.py" "$OUT"
