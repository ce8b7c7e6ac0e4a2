# SPDX-License-Identifier: GPL-2.0-or-later
# Telemetry against a fake /sys in a private mount namespace: the headline temperature for each
# hwmon layout (libsensors reads the real /sys, so a tmpfs goes over /sys/class), then a short run
# whose frequency, temperature, throttle counters and RAPL energy (across a wraparound) change
# half-way: the stored series and summaries must show the change, and only the test that ran
# while throttled may be flagged.
# requires: unshare python3
. "$KBENCH_TOP/tests/system/lib.inc"
FIX="$KBENCH_TOP/tests/fixtures/sys"
export FIX T

# The machine tree for KBENCH_SYSFS_ROOT: 2 cpus in one package, cpufreq, throttle counters, RAPL.
R="$T/root"
put() { mkdir -p "$(dirname "$R/$1")"; echo "$2" >"$R/$1"; }
for c in 0 1; do
	d=sys/devices/system/cpu/cpu$c
	put $d/cpufreq/scaling_cur_freq 2400000
	put $d/cpufreq/cpuinfo_max_freq 2400000
	put $d/cpufreq/cpuinfo_min_freq 800000
	put $d/cpufreq/scaling_governor performance
	put $d/topology/physical_package_id 0
	put $d/thermal_throttle/core_throttle_count 0
	put $d/thermal_throttle/core_throttle_total_time_ms 0
	put $d/thermal_throttle/package_throttle_count 5
	put $d/thermal_throttle/package_throttle_total_time_ms 100
done
put sys/class/powercap/intel-rapl:0/name package-0
put sys/class/powercap/intel-rapl:0/max_energy_range_uj 262143328850
put sys/class/powercap/intel-rapl:0/energy_uj 262140000000
export R

cat >"$T/ns.sh" <<'NS'
set -u
fail() { echo "FAIL: $*"; exit 1; }
mount -t tmpfs kbench-fake-sys /sys/class || exit 3
# 1. The headline for each layout.
for layout in "$FIX"/hwmon-*; do
	name=${layout##*/}
	rm -rf /sys/class/hwmon && mkdir /sys/class/hwmon && cp -r "$layout"/hwmon* /sys/class/hwmon/
	"$KBENCH" sensors >"$T/sensors.$name" 2>&1 || fail "kbench sensors failed for $name: $(cat "$T/sensors.$name")"
	expect=$(cat "$layout/expect")
	src=${expect%|*} val=${expect#*|}
	grep -qF "headline CPU temperature: $val °C from $src" "$T/sensors.$name" ||
		fail "$name: wanted '$val °C from $src', got: $(grep headline "$T/sensors.$name")"
done
# --sensor overrides by chip and label.
rm -rf /sys/class/hwmon && mkdir /sys/class/hwmon && cp -r "$FIX"/hwmon-coretemp/hwmon* /sys/class/hwmon/
"$KBENCH" sensors --sensor nvme:Composite >"$T/sensors.override" 2>&1 || fail "sensors --sensor failed"
grep -qF "49.9 °C from nvme Composite (--sensor)" "$T/sensors.override" || fail "--sensor ignored: $(grep headline "$T/sensors.override")"

# 2. A run whose machine changes half-way: coretemp with a package sensor at 45 °C (crit 100).
rm -rf /sys/class/hwmon && mkdir -p /sys/class/hwmon/hwmon0 && H=/sys/class/hwmon/hwmon0
echo coretemp >$H/name
echo 45000 >$H/temp1_input; echo "Package id 0" >$H/temp1_label; echo 100000 >$H/temp1_crit
echo 44000 >$H/temp2_input; echo "Core 0" >$H/temp2_label; echo 100000 >$H/temp2_crit
# software counters only: a machine's real PMU (bare metal, an ARM board, qemu's emulated
# one) would measure the workers' clock against the fake nominal 2.4 GHz and flag syscall
KBENCH_SYSFS_ROOT="$R" "$KBENCH" run -c 1 --samples 2 --duration 1.5 --pause 0 --interval 0.2 -v \
	--events task-clock,context-switches syscall pipe >"$T/run.out" 2>"$T/run.err" &
pid=$!
# Once syscall is scored, pipe starts at once (no pause): 0.7 s into its first sample,
# throttle, heat, slow the clock, and wrap the RAPL counter.
i=0
until grep -q "^1 x System Call Overhead" "$T/run.err"; do
	i=$((i + 1)); [ $i -lt 300 ] || { kill $pid 2>/dev/null; fail "syscall never ended: $(cat "$T/run.err")"; }
	sleep 0.05
done
sleep 0.7
for c in 0 1; do
	echo 8 >"$R/sys/devices/system/cpu/cpu$c/thermal_throttle/package_throttle_count"
	echo 400 >"$R/sys/devices/system/cpu/cpu$c/thermal_throttle/package_throttle_total_time_ms"
	echo 1200000 >"$R/sys/devices/system/cpu/cpu$c/cpufreq/scaling_cur_freq"
done
echo 96000 >$H/temp1_input
echo 6671150 >"$R/sys/class/powercap/intel-rapl:0/energy_uj"
wait $pid || fail "the run failed: $(cat "$T/run.err")"
exit 0
NS
unshare -m sh "$T/ns.sh" || die "in the namespace (exit $?)"

grep -q "^WARNING: 1 test looks throttled" "$T/run.out" || die "no throttle warning: $(sed -n '/Thermal/,$p' "$T/run.out")"
grep -q "^  1 x pipe: throttled 3x (300 ms)" "$T/run.out" || die "pipe not named as throttled: $(sed -n '/Thermal/,$p' "$T/run.out")"
grep -q "^  1 x syscall:" "$T/run.out" && die "syscall flagged as throttled: $(sed -n '/Thermal/,$p' "$T/run.out")"
grep -q "hottest point: *96.0 °C during 1 x pipe (coretemp Package id 0)" "$T/run.out" || die "hottest point wrong: $(sed -n '/Thermal/,$p' "$T/run.out")"
grep -q "lowest busy frequency: 1200 MHz during 1 x pipe" "$T/run.out" || die "lowest frequency wrong: $(sed -n '/Thermal/,$p' "$T/run.out")"
grep -q "THROTTLED: throttled 3x" "$T/run.err" || die "-v line does not say THROTTLED: $(cat "$T/run.err")"

run=$(ls "$KBENCH_HOME"/*.json | head -n 1)
python3 - "$run" <<'PY' || die "the stored run does not show what the fake /sys did"
import json, sys
r = json.load(open(sys.argv[1]))
tests = {t["id"]: {kv["key"]: kv for kv in t["summary"]} for t in r["blocks"][0]["tests"]}
def v(t, k):
    return tests[t].get(k, {}).get("value")
want = [
    ("syscall", "throttled", 0), ("syscall", "throttle.events", 0), ("syscall", "temp.max", 45),
    ("syscall", "freq.min", 2400), ("syscall", "energy.J", 0),
    ("pipe", "throttled", 1), ("pipe", "throttle.events", 3), ("pipe", "throttle.ms", 300),
    ("pipe", "temp.max", 96), ("pipe", "temp.limit", 100), ("pipe", "freq.min", 1200),
    ("pipe", "freq.max", 2400), ("pipe", "energy.J", 10.0), ("pipe", "freq.nominal", 2400),
    ("pipe", "sample.2.temp", 96), ("pipe", "sample.2.freq", 1200), ("pipe", "sample.1.freq", None),
]
errors = []
for t, k, w in want:
    got = v(t, k)
    if w is None:
        if got is None or not (1200 <= got < 2400):
            errors.append("%s %s = %r, wanted a mean between the clocks" % (t, k, got))
    elif got is None or abs(got - w) > 1e-6 * max(1, abs(w)):
        errors.append("%s %s = %r, wanted %r" % (t, k, got, w))
ev = tests["pipe"].get("throttle.evidence", {}).get("text", "")
if ev != "throttled 3x (300 ms); clock 1200 of 2400 MHz; 96 °C near crit 100":
    errors.append("pipe evidence %r" % ev)
if tests["syscall"].get("throttle.evidence", {}).get("text") != "none":
    errors.append("syscall evidence %r" % tests["syscall"].get("throttle.evidence"))
s = {x["name"]: x for x in r["series"]}
def vals(n):
    return s[n]["v"] if n in s else []
for name, lo, hi in (("temp.cpu", 45, 96), ("freq.cpu0", 1200, 2400), ("freq.busy", 1200, 2400)):
    got = vals(name)
    if not got or min(got) != lo or max(got) != hi:
        errors.append("series %s spans %r..%r, wanted %r..%r" % (name, min(got, default=None), max(got, default=None), lo, hi))
e = vals("energy")
if not e or abs(max(e) - 10.0) > 1e-6 or min(e) < 0:
    errors.append("energy series %r (a wrap must add 10 J, not 2^64 uJ)" % e[-5:])
th = vals("throttle.events")
if not th or th[0] != 0 or th[-1] != 3:
    errors.append("throttle.events series %r" % th)
times = s.get("temp.cpu", {}).get("t", [])
if times != sorted(times) or not times or times[0] < 0:
    errors.append("temp.cpu times not relative to the run start and increasing")
if any("governor" in n for n in r["notes"]):
    errors.append("performance governor reported in the preflight: %r" % r["notes"])
for x in errors:
    print("FAIL:", x)
sys.exit(1 if errors else 0)
PY
exit 0
