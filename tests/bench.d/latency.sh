#!/bin/sh
# What kbench's own sampling costs the latency tests: timerlat, wakelat and
# interactive with telemetry at 2 Hz (and the per-worker counters) and with
# none, alternating (on, off, on, off, ...) in one sitting, so drift of the
# machine hits both sides alike. Ratio = median on / median off of each
# test's own numbers: a latency above 1 is later with the observer on, a
# share of deadlines met or a rate below 1 is worse. The observer must not
# disturb: the latency threads must not wait for kbench's sampler.
KBENCH=${1:-./kbench}
ROUNDS=${ROUNDS:-4}
DUR=${DUR:-2}
echo
echo "== latency: telemetry at 2 Hz vs off, 1 copy, ${DUR} s samples, $ROUNDS alternating runs each =="
tmp=$(mktemp -d /tmp/kbench-bench-latency.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export KBENCH_HOME="$tmp/store"
i=0
while [ $i -lt "$ROUNDS" ]; do
	"$KBENCH" run -q -c 1 --samples 1 --pause 0 --duration "$DUR" --ia-loads alone,burn --interval 0.5 \
		--name "on$i" timerlat wakelat interactive >/dev/null 2>&1
	"$KBENCH" run -q -c 1 --samples 1 --pause 0 --duration "$DUR" --ia-loads alone,burn --no-telemetry \
		--name "off$i" timerlat wakelat interactive >/dev/null 2>&1
	i=$((i + 1))
done
i=0
while [ $i -lt "$ROUNDS" ]; do
	"$KBENCH" export "on$i" --format json >"$tmp/on$i.json" 2>/dev/null
	"$KBENCH" export "off$i" --format json >"$tmp/off$i.json" 2>/dev/null
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
rows = [("timerlat", "other p50"), ("timerlat", "other p99"), ("timerlat", "other mean"),
        ("timerlat", "other+burn p99"), ("timerlat", "fifo p50"), ("timerlat", "fifo p99"),
        ("timerlat", "fifo mean"), ("wakelat", "wake p50"), ("wakelat", "wake p99"),
        ("wakelat", "wake mean"), ("wakelat", "wake rps"), ("interactive", "audio mean"),
        ("interactive", "video mean"), ("interactive", "desk mean"), ("interactive", "video met"),
        ("interactive", "video+burn met")]
# off/off: the off runs' even rounds against their odd ones, the ratio two
# identical settings give here: the noise a ratio on/off must stand out of
print("%-27s %11s %11s %8s %8s" % ("POINT", "median on", "median off", "on/off", "off/off"))
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
    print("%-27s %9.1f%-2s %9.1f%-2s %s %s" % (key[0] + " " + key[1], ma, unit, mb, unit, ratio, aa))
PY
echo "(goal: on/off within the noise that off/off shows, and p50 and mean within ~10% of 1 on a"
echo " quiet machine; a p99 of a 2 s phase is a few events and moves by tens of percent)"
