#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What kbench's own sampling costs the latency tests: timerlat, wakelat and
# interactive with telemetry at 2 Hz (the latency tests run uncounted by
# default), with none, and with telemetry and the software counters named
# (--events), interleaved in one sitting (the order turning each round), so
# drift of the machine hits every side alike. Ratio = median on / median off
# of each test's own numbers: a latency above 1 is later with the observer on,
# a share of deadlines met or a rate below 1 is worse. The observer must not
# disturb: the latency threads must not wait for kbench's sampler. cnt/off is
# what counting would cost them: every context switch of a counted task
# saves and restores its events, and these tests are context switches.
KBENCH=${1:-./kbench}
ROUNDS=${ROUNDS:-6}
DUR=${DUR:-2}
# the software events a VM has too: what counting costs every context switch
EVENTS=${EVENTS:-perf::TASK-CLOCK,perf::CONTEXT-SWITCHES,perf::CPU-MIGRATIONS,perf::PAGE-FAULTS}
echo
echo "== latency: telemetry at 2 Hz vs off, 1 copy, ${DUR} s samples, $ROUNDS interleaved runs each (on, off, and cnt: counted) =="
tmp=$(mktemp -d /tmp/kbench-bench-latency.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export KBENCH_HOME="$tmp/store"
one() { # one MODE ROUND
	case $1 in
	on) set -- "$2" --interval 0.5 ;;
	off) set -- "$2" --no-telemetry ;;
	cnt) set -- "$2" --interval 0.5 --events "$EVENTS" ;;
	esac
	r=$1; shift
	"$KBENCH" run -q -c 1 --samples 1 --pause 0 --duration "$DUR" --ia-loads alone,burn "$@" \
		--name "$m$r" timerlat wakelat interactive >/dev/null 2>&1
}
# the order turns each round (on off cnt, off cnt on, cnt on off): a side that
# always ran first, or after a given other, would carry that position's cost
i=0
while [ $i -lt "$ROUNDS" ]; do
	case $((i % 3)) in
	0) order="on off cnt" ;;
	1) order="off cnt on" ;;
	2) order="cnt on off" ;;
	esac
	for m in $order; do one $m $i; done
	i=$((i + 1))
done
i=0
while [ $i -lt "$ROUNDS" ]; do
	"$KBENCH" export "on$i" --format json >"$tmp/on$i.json" 2>/dev/null
	"$KBENCH" export "off$i" --format json >"$tmp/off$i.json" 2>/dev/null
	"$KBENCH" export "cnt$i" --format json >"$tmp/cnt$i.json" 2>/dev/null
	i=$((i + 1))
done
python3 - "$tmp" "$ROUNDS" <<'PY'
import json, os, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
def points(path):
    try:
        d = json.load(open(path))
    except (OSError, ValueError):
        return {}
    return {(t["id"], p["name"]): p["values"][0] for b in d["blocks"] for t in b["tests"]
            for p in t.get("points", []) if p["values"] and p["values"][0] is not None}
on = [points(os.path.join(tmp, "on%d.json" % i)) for i in range(rounds)]
off = [points(os.path.join(tmp, "off%d.json" % i)) for i in range(rounds)]
cnt = [points(os.path.join(tmp, "cnt%d.json" % i)) for i in range(rounds)]
rows = [("timerlat", "other p50"), ("timerlat", "other p99"), ("timerlat", "other mean"),
        ("timerlat", "other+burn p99"), ("timerlat", "fifo p50"), ("timerlat", "fifo p99"),
        ("timerlat", "fifo mean"), ("wakelat", "wake p50"), ("wakelat", "wake p99"),
        ("wakelat", "wake mean"), ("wakelat", "wake rps"), ("interactive", "audio mean"),
        ("interactive", "video mean"), ("interactive", "desk mean"), ("interactive", "video met"),
        ("interactive", "video+burn met")]
# off/off: the off runs' even rounds against their odd ones, the ratio two
# identical settings give here: the noise a ratio on/off must stand out of
print("%-27s %11s %11s %8s %8s %8s" % ("POINT", "median on", "median off", "on/off", "off/off", "cnt/off"))
for key in rows:
    a = [r[key] for r in on if key in r]
    b = [r[key] for r in off if key in r]
    if not a or not b:
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    unit = "%" if key[1].endswith("met") else "/s" if key[1].endswith("rps") else "us"
    ratio = "%8.3f" % (ma / mb) if mb > 0 else "%8s" % "n/a"
    even, odd = b[0::2], b[1::2]
    me, mo = (statistics.median(even), statistics.median(odd)) if even and odd else (0, 0)
    aa = "%8.3f" % (me / mo) if mo > 0 else "%8s" % "n/a"
    c = [r[key] for r in cnt if key in r]
    cr = "%8.3f" % (statistics.median(c) / mb) if c and mb > 0 else "%8s" % "n/a"
    print("%-27s %9.1f%-2s %9.1f%-2s %s %s %s" % (key[0] + " " + key[1], ma, unit, mb, unit, ratio, aa, cr))
PY
echo "(goal: on/off within the noise that off/off shows, and p50 and mean within ~10% of 1 on a"
echo " quiet machine; a p99 of a 2 s phase is a few events and moves by tens of percent)"
