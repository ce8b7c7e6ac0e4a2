#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interactive's deadlines under a heavy CPU load: the video and desktop tasks alone, then beside
# 4 burners per CPU (--ia-loads burn4, interbench's compile load's runnable count). A video frame
# needs 40% of a CPU, and a nice-0 task beside 4 nice-0 burners gets a fifth of its CPU over
# any stretch longer than a few frames, whatever the scheduler: so the share of frames done in
# time must fall, where one burner per CPU (latency_load) leaves it ~100% on a quiet machine.
# Measured here (6.18, EEVDF, 2 CPUs, other processes busy, 6 runs): alone 57-98% met (mean of
# the two tasks), beside burn4 1-2% (video 0%); a fall of 56-96 points. Asserted: a fall of 35
# points at least, and video beside burn4 under 50% (it cannot get the 40% of a CPU it needs).
# A machine so busy that the tasks alone meet under 60% cannot show a fall: skipped, with the
# numbers (3 runs at a load average of 17 here: alone 31-43%, beside burn4 1%).
# 3 s samples (4 s until 2026-12-06): the shares are of over a hundred frames a phase either way.
# tier: load (deadlines met alone need CPUs that are not busy with other work)
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"

# A machine busy enough that the tasks alone miss their deadlines is tried again; after three
# tries the test's own measure must agree that it is busy (busy_said).
for try in 1 2 3; do
	"$KBENCH" delete heavy >/dev/null 2>&1
	expect_exit 0 "$KBENCH" run interactive --ia-tasks video,desk --ia-loads alone,burn4 --duration 3 --samples 3 --pause 0 -c 1 --no-telemetry --name heavy
	sed -n '/latency in microseconds/,/^  Settings/p' "$T/out"
	expect_exit 0 "$KBENCH" export heavy --format json
	python3 - "$T/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["blocks"][0]["tests"][0]
pts = {p["name"]: sum(p["values"]) / len(p["values"]) for p in t["points"]}
assert {h["name"] for h in t["hists"]} == {"video", "video+burn4", "desk", "desk+burn4"}, t["hists"]
alone = (pts["video met"] + pts["desk met"]) / 2
heavy = (pts["video+burn4 met"] + pts["desk+burn4 met"]) / 2
print("deadlines met (mean of video and desk): alone %.1f%%, beside 4 burners per CPU %.1f%%; video %.1f%% -> %.1f%%, desk %.1f%% -> %.1f%%" %
      (alone, heavy, pts["video met"], pts["video+burn4 met"], pts["desk met"], pts["desk+burn4 met"]))
if alone < 60:
    print("the machine is too busy: the tasks alone met %.1f%% of their deadlines" % alone)
    sys.exit(77)
assert alone - heavy >= 35, "the share of deadlines met fell by %.1f points, wanted 35 or more" % (alone - heavy)
assert pts["video+burn4 met"] < 50, "video met %.1f%% of its frames beside 4 burners per CPU" % pts["video+burn4 met"]
PY
	rc=$?
	[ $rc = 77 ] || break
	[ $try = 3 ] && busy_said "the tasks alone missed too many deadlines three times"
done
[ $rc = 0 ] || die "the deadlines met did not fall under the heavy load (above)"
exit 0
