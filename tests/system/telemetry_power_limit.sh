# SPDX-License-Identifier: GPL-2.0-or-later
# RAPL's power limits end to end: a fake package zone (KBENCH_SYSFS_ROOT) with PL1 15 W over 28 s and
# PL2 10 W over 2.44 ms, whose energy_uj a writer raises at about 40 W while a run samples it. The
# test must store power.limit "reached: package-0 PL2 10.0 W: ...", not PL1 (its window is longer
# than the run), never be called throttled for it, and `kbench run -v` must say so apart. `kbench
# sensors` lists both limits. A second run with the writer at 4 W stores "none reached".
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
R="$T/root"
Z="$R/sys/class/powercap/intel-rapl:0"
put() { mkdir -p "$(dirname "$1")"; echo "$2" >"$1"; }
put "$Z/name" package-0
put "$Z/max_energy_range_uj" 262143328850
put "$Z/energy_uj" 1000000
put "$Z/constraint_0_name" long_term
put "$Z/constraint_0_power_limit_uw" 15000000
put "$Z/constraint_0_time_window_us" 27983872
put "$Z/constraint_1_name" short_term
put "$Z/constraint_1_power_limit_uw" 10000000
put "$Z/constraint_1_time_window_us" 2440
put "$R/sys/devices/system/cpu/cpu0/online" 1

KBENCH_SYSFS_ROOT="$R" "$KBENCH" sensors >"$T/sensors" 2>&1 || die "kbench sensors: $(cat "$T/sensors")"
grep -qF "intel-rapl:0   package-0    limit PL1 15.0 W over 28.0 s (long_term)" "$T/sensors" &&
	grep -qF "intel-rapl:0   package-0    limit PL2 10.0 W over 2.44 ms (short_term)" "$T/sensors" ||
	die "kbench sensors does not list the limits: $(sed -n '/^Energy/,/^$/p' "$T/sensors")"

# run WATTS NAME: a short run while a writer adds WATTS to energy_uj every 20 ms
run() {
	mkdir -p "$T/h.$2"
	# the writer starts from 1 J: so must the file, or a run that reads it before the writer's
	# first write (python3 starts slowly on an emulated arm64) sees the last run's count fall
	# back to 1 J, a RAPL wraparound of 262 kJ (a megawatt at 4 W)
	put "$Z/energy_uj" 1000000
	python3 - "$Z/energy_uj" "$1" "$T/stop.$2" <<'PY' &
import os, sys, time
path, watts, stop = sys.argv[1], float(sys.argv[2]), sys.argv[3]
uj, last = 1000000.0, time.monotonic()
while not os.path.exists(stop):
    time.sleep(0.02)
    now = time.monotonic()
    uj += watts * (now - last) * 1e6  # by the clock, so a stalled writer catches up
    last = now
    with open(path + ".tmp", "w") as f:
        f.write("%d\n" % uj)
    os.rename(path + ".tmp", path)
PY
	w=$!
	KBENCH_HOME="$T/h.$2" KBENCH_SYSFS_ROOT="$R" "$KBENCH" run -v -c 1 --samples 2 --duration 1 --pause 0 \
		--interval 0.2 syscall >"$T/run.$2" 2>&1
	rc=$?
	touch "$T/stop.$2"
	wait $w
	[ $rc = 0 ] || die "run at $1 W failed: $(tail -5 "$T/run.$2")"
}
run 40 hot
run 4 cool
python3 - "$T" <<'PY' || die "the power limit was not stored as it should be"
import glob, json, sys
T = sys.argv[1]
def summary(name):
    r = json.load(open(glob.glob("%s/h.%s/*.json" % (T, name))[0]))
    return {kv["key"]: kv for kv in r["blocks"][0]["tests"][0]["summary"]}
errors = []
hot, cool = summary("hot"), summary("cool")
pl = hot.get("power.limit", {}).get("text", "")
if not pl.startswith("reached: package-0 PL2 10.0 W: ") or "PL1" in pl:
    errors.append("at 40 W: power.limit %r" % pl)
if hot.get("throttled", {}).get("value"):
    errors.append("at 40 W: called throttled for a power limit: %r" % hot.get("throttle.evidence"))
if cool.get("power.limit", {}).get("text") != "none reached":
    errors.append("at 4 W: power.limit %r" % cool.get("power.limit"))
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
grep -q "^    power limit (not throttling): package-0 PL2 10.0 W: " "$T/run.hot" ||
	die "kbench run -v does not say the limit was reached: $(grep -A4 telemetry: "$T/run.hot")"
! grep -q "power limit (not throttling)" "$T/run.cool" || die "a limit said reached at 4 W"
exit 0
