#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The latency tests against what the scheduler does, side by side in one run so the other
# processes of the machine weigh on both phases alike.
# interactive: tasks that do work each period (audio, video, desktop) wait longer beside a
# burner on every CPU: their mean latency together rises by half at least (x2.6-3.7 measured
# here). The share of deadlines met is printed: one burner per CPU leaves each task the CPU it
# needs on a quiet machine (100% either way here; latency_deadlines judges the heavier load). timerlat: with SCHED_FIFO permitted, the FIFO thread beside the
# burner stays within 1 ms at p99. The SCHED_OTHER sleeper beside the burner is printed, not
# judged: on an EEVDF kernel (6.6 and later) a thread that sleeps most of its period is owed
# lag and preempts the burner at once, so its latency barely moves (measured here on 6.18 with
# the C-states held: 40-80 us alone, 40-55 us beside the burner), where CFS's wake-up
# granularity let it rise.
# Two tries: on this VM the tasks alone now and then wait for the host to wake an idle vCPU
# (p99 4-6 ms alone, where 0.1 ms is usual), and a rise beside the burners cannot show then;
# a scheduler that does not make them wait fails both. 2 s samples (3 s until 2026-12-06): over
# its three samples a timerlat phase still has 1500 wake-ups, an interactive task 50 to 100.
# tier: load (latencies of a busy machine are its neighbours' too)
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"

for try in 1 2; do
	echo "== try $try"
	expect_exit 0 "$KBENCH" run timerlat interactive --ia-loads alone,burn --duration 2 --samples 3 --pause 0 -c 1 --no-telemetry --name "load$try"
	sed -n '/latency in microseconds/,/^  (us/p' "$T/out"
	expect_exit 0 "$KBENCH" export "load$try" --format json
	python3 - "$T/out" <<'PY' && exit 0
import json, sys
d = json.load(open(sys.argv[1]))
tests = {t["id"]: t for t in d["blocks"][0]["tests"]}
def pts(t): return {p["name"]: sum(p["values"]) / len(p["values"]) for p in tests[t]["points"]}
tl = pts("timerlat")
print("timerlat mean: other %.0f us, other+burn %.0f us; p99 %.0f -> %.0f us (printed, not judged)" %
      (tl["other mean"], tl["other+burn mean"], tl["other p99"], tl["other+burn p99"]))
if "fifo+burn p99" in tl:
    print("fifo+burn: mean %.0f us, p99 %.0f us" % (tl["fifo+burn mean"], tl["fifo+burn p99"]))
    assert tl["fifo+burn p99"] < 1000, "SCHED_FIFO beside the burner was late by 1 ms or more at p99"
ia = pts("interactive")
tasks = ("audio", "video", "desk")
alone = sum(ia[t + " mean"] for t in tasks)
burn = sum(ia[t + "+burn mean"] for t in tasks)
print("interactive mean latency: alone %.0f us, beside burners %.0f us (x%.2f)" % (alone, burn, burn / alone))
assert burn >= 1.5 * alone, "the interactive tasks did not wait longer beside burners"
met_alone = sum(ia[t + " met"] for t in tasks)
met_burn = sum(ia[t + "+burn met"] for t in tasks)
# Printed, not judged: one burner per CPU leaves each task more CPU than it needs on a quiet
# 2-CPU machine, so all three meet ~100% either way; a missed frame alone is noise.
print("deadlines met: alone %.1f%%, beside burners %.1f%% (sum of three; printed, not judged)" % (met_alone, met_burn))
PY
done
die "the latencies do not behave in either of two runs (above)"
