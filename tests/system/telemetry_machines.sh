# SPDX-License-Identifier: GPL-2.0-or-later
# The machine-layout corpus (tests/fixtures/machines/, its README says what each models): each
# tree is mounted as /sys/class in a private mount namespace (libsensors reads the real /sys)
# and given to the other readers with KBENCH_SYSFS_ROOT. For each: `kbench sensors` as root and
# as an unprivileged user (root-only files stay root-only) matches the expected output; on every
# tree with hwmon chips lm-sensors' own `sensors -u` referees the temperatures, labels and limits
# (one tree carries a sensors.d with a label, an ignore and a compute line); and the tree's
# `kbench sensors --dump` tarball, extracted, gives the same output as the tree itself.
# KBENCH_MACHINES_UPDATE=1 writes the expected outputs instead (review them before committing).
# requires: unshare setpriv python3 sensors
# cost: 23
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/machines.inc"
export CORPUS
chmod 755 "$T"
mkdir -p "$T/m" "$T/x" "$T/out"
n=0
for F in "$CORPUS"/*/; do
	name=$(basename "$F")
	machine_copy "$F" "$T/m/$name"
	n=$((n + 1))
done
[ "$n" -ge 12 ] || die "the corpus has $n machines, wanted at least 12"
chmod -R a+rX "$T/out"
export T KBENCH

cat >"$T/ns.sh" <<'NS'
set -u
mount -t tmpfs kbench-machines /sys/class || exit 3
conf=0
[ -d /etc/sensors.d ] && mount -t tmpfs kbench-sensors-d /etc/sensors.d && conf=1
# what the machine shows: /sys/class from tree $1, /etc/sensors.d from it too
load() {
	find /sys/class -mindepth 1 -maxdepth 1 -exec rm -rf {} +
	# entry by entry in name order: tmpfs lists a directory in the order its entries were made,
	# and libsensors shows chips in that order
	for c in $(ls "$1/sys/class" 2>/dev/null); do
		mkdir -p "/sys/class/$c"
		for e in $(ls "$1/sys/class/$c"); do cp -a "$1/sys/class/$c/$e" "/sys/class/$c/"; done
	done
	if [ $conf = 1 ]; then
		find /etc/sensors.d -mindepth 1 -delete
		[ -d "$1/etc/sensors.d" ] && cp -a "$1/etc/sensors.d/." /etc/sensors.d/
	fi
	:
}
for M in "$T"/m/*; do
	name=${M##*/}
	load "$M"
	KBENCH_SYSFS_ROOT=$M "$KBENCH" sensors >"$T/out/$name.root" 2>&1 || echo "exit $?" >>"$T/out/$name.root"
	KBENCH_SYSFS_ROOT=$M setpriv --reuid=65534 --regid=65534 --clear-groups "$KBENCH" sensors \
		>"$T/out/$name.user" 2>&1 || echo "exit $?" >>"$T/out/$name.user"
	[ -n "$(ls /sys/class/hwmon 2>/dev/null)" ] && sensors -u >"$T/out/$name.lm" 2>/dev/null
	# The dump of the tree, extracted, is a fixture of its own.
	KBENCH_SYSFS_ROOT=$M "$KBENCH" sensors --dump "$T/x/$name.tar" >"$T/out/$name.dumpmsg" 2>&1 || echo "exit $?" >>"$T/out/$name.dumpmsg"
	mkdir -p "$T/x/$name" && tar -xpf "$T/x/$name.tar" -C "$T/x/$name"
	load "$T/x/$name"
	KBENCH_SYSFS_ROOT=$T/x/$name "$KBENCH" sensors >"$T/out/$name.dump" 2>&1 || echo "exit $?" >>"$T/out/$name.dump"
done
# A short run on each machine (as the user; the Ryzen as root): what a run stores from each.
run() { # machine user|root
	load "$T/m/$1"
	mkdir -p "$T/store.$1" && chmod 777 "$T/store.$1"
	as=; [ "$2" = user ] && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	KBENCH_HOME=$T/store.$1 KBENCH_SYSFS_ROOT=$T/m/$1 $as "$KBENCH" run -q -c 1 --samples 2 --duration 0.4 \
		--pause 0 --interval 0.1 syscall >"$T/out/$1.run" 2>&1 || echo "exit $?" >>"$T/out/$1.run"
}
for M in "$T"/m/*; do
	[ "${M##*/}" = amd-zen-desktop ] || run "${M##*/}" user
done
run amd-zen-desktop root
exit 0
NS
unshare -m sh "$T/ns.sh" || die "in the namespace (exit $?)"

# Sensor read costs are timed, not laid out (a loaded machine may take ms); the tree's own path is the
# test's. The CPU frequency section stays: a tree under KBENCH_SYSFS_ROOT is not timed (its cost is not
# a kernel's), so cpufreq's slow rule (tested on its own, test_telemetry) cannot pick /proc/cpuinfo here.
mask() { sed -e "s|$T/[mx]/[^/]*|ROOT|g" -e '/(slow: its read took/d' "$1"; }
fails=0
for M in "$T"/m/*; do
	name=${M##*/}
	for who in root user; do
		mask "$T/out/$name.$who" >"$T/out/$name.$who.masked"
		if [ "${KBENCH_MACHINES_UPDATE:-}" = 1 ]; then
			cp "$T/out/$name.$who.masked" "$CORPUS/$name/expect.$who"
		elif ! diff -u "$CORPUS/$name/expect.$who" "$T/out/$name.$who.masked" >"$T/out/$name.$who.diff"; then
			echo "FAIL: $name as $who: kbench sensors differs from expect.$who:"
			cat "$T/out/$name.$who.diff"
			fails=$((fails + 1))
		fi
	done
	grep -q "^wrote .*files kbench reads" "$T/out/$name.dumpmsg" || { echo "FAIL: $name: dump: $(cat "$T/out/$name.dumpmsg")"; fails=$((fails + 1)); }
	mask "$T/out/$name.dump" >"$T/out/$name.dump.masked"
	if ! diff -u "$T/out/$name.root.masked" "$T/out/$name.dump.masked" >"$T/out/$name.dump.diff"; then
		echo "FAIL: $name: the extracted dump reads differently from the tree:"
		cat "$T/out/$name.dump.diff"
		fails=$((fails + 1))
	fi
	# Nothing that names the machine or its owner goes into a dump.
	if tar -xOf "$T/x/$name.tar" 2>/dev/null | grep -Eiq '^serial|12345$|4091-aa|MX Master|01AV421'; then
		echo "FAIL: $name: the dump carries a serial number or a model name"
		fails=$((fails + 1))
	fi
	tar -tf "$T/x/$name.tar" | grep -q 'serial_number\|model_name\|manufacturer' &&
		{ echo "FAIL: $name: the dump lists a serial_number/model_name/manufacturer file"; fails=$((fails + 1)); }
done
[ $fails = 0 ] || die "$fails machine checks failed"
# Root-only stays root-only in a dump: its mode travels with it.
tar -tvf "$T/x/intel-laptop-hwp.tar" | grep -q '^-r-------- .* sys/class/powercap/intel-rapl:0/energy_uj$' ||
	die "energy_uj lost its mode in the dump: $(tar -tvf "$T/x/intel-laptop-hwp.tar" | grep energy_uj)"

# What the short runs stored: no number that was not measured, the headline's inputs only.
python3 - "$T" <<'PY' || die "a short run on a machine layout stored the wrong telemetry"
import glob, json, sys
T = sys.argv[1]
errors = []
def load(m):
    runs = glob.glob("%s/store.%s/*.json" % (T, m))
    if not runs:
        errors.append("%s: no stored run: %s" % (m, open("%s/out/%s.run" % (T, m)).read()[-300:]))
        return None, None
    r = json.load(open(runs[0]))
    t = {kv["key"]: kv for kv in r["blocks"][0]["tests"][0]["summary"]}
    return t, {s["name"] for s in r["series"]}
# A laptop on AC as a user: the battery never discharged, so no energy (not 0 J); the coretemp
# package is the only temperature read; the cooling devices were watched.
t, series = load("intel-laptop-hwp")
if t:
    e = t.get("energy.J", {})
    if "battery" not in (e.get("text") or ""):
        errors.append("intel-laptop-hwp: energy.J %r while the battery never discharged (wanted n/a and why)" % e)
    if t.get("temp.limit", {}).get("value") != 100:
        errors.append("intel-laptop-hwp: temp.limit %r" % t.get("temp.limit"))
    if t.get("throttle.cooling", {}).get("value") != 0:
        errors.append("intel-laptop-hwp: throttle.cooling %r" % t.get("throttle.cooling"))
    # its PL1/PL2 are world-readable, its package energy is not: whether one was reached is n/a
    if not (t.get("power.limit", {}).get("text") or "").startswith("n/a"):
        errors.append("intel-laptop-hwp: power.limit %r as a user" % t.get("power.limit"))
    temps = sorted(s for s in series if s.startswith("temp."))
    if temps != ["temp.coretemp.Package id 0", "temp.cpu"]:
        errors.append("intel-laptop-hwp: temperature series %r (only the headline's inputs are sampled)" % temps)
# A Ryzen as root: RAPL energy measured; k10temp's constant max is no limit; nothing can show throttling.
t, series = load("amd-zen-desktop")
if t:
    if "temp.limit" in t:
        errors.append("amd-zen-desktop: temp.limit %r from k10temp's constant max" % t["temp.limit"])
    if t.get("energy.J", {}).get("value") is None or t["energy.J"].get("text"):
        errors.append("amd-zen-desktop: energy.J %r, wanted RAPL's" % t.get("energy.J"))
    if "nothing here can show throttling" not in (t.get("throttle.events", {}).get("text") or ""):
        errors.append("amd-zen-desktop: throttle.events %r" % t.get("throttle.events"))
    if "power.limit" in t:
        errors.append("amd-zen-desktop: power.limit %r where AMD's RAPL has no limits" % t["power.limit"])
    if any(s.startswith(("temp.amdgpu", "temp.nvme")) for s in series):
        errors.append("amd-zen-desktop: a GPU or drive was read: %r" % sorted(series))
# An Atom netbook on battery as a user: the battery's energy, integrated.
t, series = load("atom-n270-netbook")
if t:
    e = t.get("energy.J", {})
    if e.get("text") or not (e.get("value") or 0) > 0:
        errors.append("atom-n270-netbook: energy.J %r, wanted the battery's (9.8 W)" % e)
# Every machine: the stored temperature is the headline kbench sensors showed (the trees are
# still), or n/a with its reason; throttle counters and energy are n/a exactly where it said so.
import os, re
for d in sorted(glob.glob("%s/m/*" % T)):
    m = os.path.basename(d)
    t, series = load(m)
    if not t:
        continue
    exp = open(os.path.join(os.environ["CORPUS"], m, "expect.root" if m == "amd-zen-desktop" else "expect.user")).read()
    h = re.search(r"headline CPU temperature: ([0-9.]+) °C", exp)
    tm = t.get("temp.max", {})
    if h and (tm.get("text") or abs(tm.get("value", -1) - float(h.group(1))) > 0.051):
        errors.append("%s: temp.max %r, kbench sensors showed %s" % (m, tm, h.group(1)))
    if not h and not (tm.get("text") or "").startswith("n/a"):
        errors.append("%s: temp.max %r where kbench sensors had no headline" % (m, tm))
    th = t.get("throttle.events", {})
    if bool(re.search(r"^  cpu\d+ +package", exp, re.M)) == bool(th.get("text")):
        errors.append("%s: throttle.events %r against kbench sensors' counters" % (m, th))
    energy = exp[exp.index("Energy and power"):]
    e = t.get("energy.J", {})
    if energy.startswith("Energy and power\n  n/a") != bool(e.get("text")) and "battery" not in (e.get("text") or ""):
        errors.append("%s: energy.J %r against kbench sensors' %r" % (m, e, energy.splitlines()[1]))
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY

# The referee: every temperature kbench shows from a hwmon chip is lm-sensors' own, with its label and limit.
python3 - "$T/out" <<'PY' || die "kbench sensors and sensors -u disagree"
import os, re, sys
out = sys.argv[1]
errors, checked, chips = [], 0, 0
for f in sorted(os.listdir(out)):
    if not f.endswith(".lm"):
        continue
    name = f[:-3]
    # sensors -u: chip line, "Adapter:", "LABEL:", then "  tempN_sub: value"
    lm, chip, label = {}, None, None
    for line in open(os.path.join(out, f)):
        line = line.rstrip("\n")
        if not line:
            chip = None
        elif chip is None:
            chip = line
        elif line.startswith("Adapter:"):
            pass
        elif not line.startswith(" ") and line.endswith(":"):
            label = line[:-1]
        else:
            m = re.match(r"\s+(temp\d+)_(\w+):\s+(-?[0-9.]+)", line)
            if m:
                lm.setdefault((chip, label), {})[m.group(2)] = float(m.group(3))
    temps = {k: v for k, v in lm.items() if "input" in v}
    chips += 1
    kb = {}
    for line in open(os.path.join(out, name + ".root")):
        m = re.match(r"  [ *] (\S+-\S+-\S+)\s+(.+?)\s+(-?[0-9.]+ °C|-?[0-9.]+ \?\? \(invalid\)|--|n/a)(?:  \((\w+) ([0-9.]+) °C.*\))?$", line.rstrip("\n"))
        if m:
            kb[(m.group(1), m.group(2))] = (m.group(3), m.group(4), m.group(5))
    for key, subs in temps.items():
        if key not in kb:
            errors.append("%s: %s %s (sensors -u) is not in kbench sensors" % (name, key[0], key[1]))
            continue
        val, limname, lim = kb[key]
        checked += 1
        if val.endswith("°C"):
            v = float(val.split()[0])
            want = subs["input"]
            if 1 < want < 127 and abs(v - want) > 0.051:
                errors.append("%s: %s %s: kbench %.1f, sensors %.3f" % (name, key[0], key[1], v, want))
        if limname in ("crit", "max"):
            want = subs.get(limname)
            if want is None or abs(float(lim) - want) > 0.051:
                errors.append("%s: %s %s: kbench %s %s, sensors %r" % (name, key[0], key[1], limname, lim, want))
        elif "crit" in subs and 1 < subs["crit"] < 127:
            errors.append("%s: %s %s: sensors has crit %.1f, kbench shows none" % (name, key[0], key[1], subs["crit"]))
    for key in kb:
        if key[0].startswith(("thermal_zone",)):
            continue
        if key not in temps:
            errors.append("%s: kbench shows %s %s, sensors -u does not" % (name, key[0], key[1]))
# The configuration: its label shown, its ignore hiding, its compute applied, in both.
d = open(os.path.join(out, "intel-desktop.root")).read()
for want in ("CPU package        45.0 °C", "CPUTIN             33.5 °C  (max 75.0 °C)", "from coretemp CPU package, crit 100.0"):
    if want not in d:
        errors.append("intel-desktop: the sensors.d line is not honoured: no %r" % want)
if "AUXTIN0" in d:
    errors.append("intel-desktop: an ignored input (temp3, AUXTIN0) is shown")
if chips < 9 or checked < 30:
    errors.append("the referee saw %d trees and %d inputs: too few" % (chips, checked))
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
exit 0
