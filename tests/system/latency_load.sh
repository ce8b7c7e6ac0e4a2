#!/bin/sh
# The latency tests against what the scheduler must do. timerlat: a thread
# sleeping on a 1 ms absolute timer, pinned to one CPU, is late by more
# when a CPU burner is pinned to the same CPU under SCHED_OTHER (its mean
# latency at least doubles, its p99 rises), and, when SCHED_FIFO is
# permitted, a FIFO thread beside the same burner is late by far less than
# the SCHED_OTHER one. interactive: the share of deadlines the video task
# meets falls when a burner runs on every CPU (by 10 points at least), and
# the three tasks together meet fewer beside the burners than alone.
# Side by side in one run, so the other processes of the machine weigh on
# both phases alike.
# tier: load (latencies of a busy machine are its neighbours' too)
. "$KBENCH_TOP/tests/system/lib.inc"

expect_exit 0 "$KBENCH" run timerlat interactive --duration 3 --samples 3 --pause 0 -c 1 --no-telemetry --name load
sed -n '/latency in microseconds/,/^  (us/p' "$T/out"
expect_exit 0 "$KBENCH" export load --format json
python3 - "$T/out" <<'PY' || die "the latencies do not behave (above)"
import json, sys
d = json.load(open(sys.argv[1]))
tests = {t["id"]: t for t in d["blocks"][0]["tests"]}
def pts(t): return {p["name"]: sum(p["values"]) / len(p["values"]) for p in tests[t]["points"]}
tl = pts("timerlat")
print("timerlat mean: other %.0f us, other+burn %.0f us; p99 %.0f -> %.0f us" %
      (tl["other mean"], tl["other+burn mean"], tl["other p99"], tl["other+burn p99"]))
assert tl["other+burn mean"] >= 2 * tl["other mean"], "a burner on its CPU did not double the mean latency"
assert tl["other+burn p99"] > tl["other p99"], "a burner on its CPU did not raise p99"
if "fifo+burn mean" in tl:
    print("fifo+burn mean %.0f us" % tl["fifo+burn mean"])
    assert tl["fifo+burn mean"] * 2 < tl["other+burn mean"], "SCHED_FIFO did not shield the thread from the burner"
ia = pts("interactive")
print("video met: alone %.1f%%, beside burners %.1f%%" % (ia["video met"], ia["video+burn met"]))
assert ia["video+burn met"] <= ia["video met"] - 10, "video's deadlines met did not fall under load"
alone = sum(ia[t + " met"] for t in ("audio", "video", "desk"))
burn = sum(ia[t + "+burn met"] for t in ("audio", "video", "desk"))
assert burn < alone, "the tasks met as many deadlines under load as alone"
PY
exit 0
