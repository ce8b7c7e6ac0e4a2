#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Judges kbench's headline CPU temperature on the probe corpus (tests/fixtures/probes): for each
# probe, what lm-sensors printed from the converted tree (OUT/ID.lm) against the probe itself,
# and kbench's headline as root (OUT/ID.root) and as an unprivileged user (OUT/ID.user) against
# what the probe's chips are, by driver (the kernel's Documentation/hwmon pages):
#   - a probe with a CPU sensor reading a possible value headlines one of them;
#   - no headline ever comes from an excluded chip (GPU, disk, wireless, battery, chipset,
#     memory, network) or shows an impossible value; its limit is a limit the picked chip
#     reports, and possible;
#   - root and the user see the same headline.
# Prints the table by form factor, architecture and CPU vendor, the summary "N of N probes:
# headline from the CPU sensor ...", then a line per failure; exits 1 on any failure.
#   probe_check.py PROBES_DIR OUT_DIR
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_tree import parse_probe  # noqa: E402

# The CPU's own sensors, by hwmon name (the driver's): the die's or the package's diode.
CPU = {
    "coretemp": "Intel", "k10temp": "AMD", "k8temp": "AMD", "zenpower": "AMD",
    "via_cputemp": "VIA", "bt1-pvt": "Baikal", "pvt": "Baikal",
    # ARM SoCs: the SoC die's sensor is the CPU's (the cores are on it)
    "cpu_thermal": "ARM", "soc_thermal": "ARM", "apm_xgene": "ARM", "sun4i_ts": "ARM",
    # the SoC's sensor read through the board's System Control Processor (scpi-hwmon.c:
    # Amlogic's "aml_thermal")
    "scpi_sensors": "ARM",
    # Raspberry Pi's SoC sensor as its downstream kernels name the zone
    "bcm2835_thermal": "ARM", "bcm2711_thermal": "ARM",
}
# Never a CPU temperature: a GPU, a disk, a wireless card, a battery, a chipset, memory, a NIC.
EXCLUDED = re.compile(r"^(amdgpu|radeon|nouveau|i915|xe|nvme|drivetemp|iwlwifi.*|ath\d+k.*|mt76.*|"
                      r"mt79.*|rtw.*|brcm.*|BAT.*|pch_.*|i5k_amb|i5500_temp|jc42|spd5118|ee1004|"
                      r"bnxt_en|mlx\d.*|ixgbe|i40e|igb|r8169.*|tg3|enp.*|sfc|nfp)$")
# Zone twins of ARM SoCs are named after their zone: cpu0_thermal, cpu-thermal's cpu_thermal ...
CPU_ZONE = re.compile(r"^(cpu\d*|soc\d*|bigcore\d*|littlecore|little_core|cpu_big\d*|cpu_little)(_thermal)?$")


# Baikal-M's SDK driver (compatible "baikal,pvt") registers each PVT sensor of the die under its
# platform device's name, the device-tree node's: pvt@2a060000 (a RED OS 5.4 probe).
PVT_NODE = re.compile(r"^pvt@[0-9a-f]+$")


def driver(prefix):
    """The driver a chip name stands for: the PVT nodes are one driver's, and the CPU zones' hwmon
    twins one SoC sensor's (a Qualcomm tsens has a zone per core, cpu0_thermal to cpu9_thermal on
    an SC7180 Chromebook): kbench takes the max over each group, so a group is judged whole."""
    if PVT_NODE.match(prefix):
        return "pvt"
    return "cpu zones" if CPU_ZONE.match(prefix) else prefix


def cpu_vendor(prefix):
    return CPU.get(prefix) or ("Baikal" if PVT_NODE.match(prefix) else None)


def is_cpu(prefix):
    return bool(cpu_vendor(prefix)) or bool(CPU_ZONE.match(prefix))


# A Super I/O or monitor input its driver says is wired to the CPU (tempN_type: 1 CPU diode,
# 5 AMD AMDSI, 6 Intel PECI; Documentation/hwmon/sysfs-interface.rst): the CPU's own diode.
CPU_TYPES = (1, 5, 6)


def cpu_input(chip, f):
    if chip["p"] == "scpi_sensors" and "gpu" in f["label"].lower():
        return False  # an SCP also reports its GPU's
    return is_cpu(chip["p"]) or f["attrs"].get("type") in CPU_TYPES


def valid(v):
    return v is not None and 1 < v < 127


def temps(chip):
    for f in chip["features"]:
        if f["kind"] == "temp":
            v = f["attrs"].get("input")
            yield f, (v / 1000.0 if v is not None else None)


def headline(path):
    """(value or None, source, limit or None) from `kbench sensors`, None when it has no headline."""
    if not os.path.exists(path):
        return ("missing",)
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^  headline CPU temperature: (n/a|(-?[0-9.]+) °C)(?: from (.*?))?(?:, (\w+) ([0-9.]+) °C)?$",
                     line.rstrip("\n"))
        if m:
            if m.group(1).startswith("n/a") and not m.group(3):
                return None
            return (float(m.group(2)) if m.group(2) else None, m.group(3) or "",
                    float(m.group(5)) if m.group(5) else None)
    return None


def main(probes, out):
    srcs = {}
    for line in open(os.path.join(probes, "sources.tsv"), encoding="utf-8"):
        pid, commit, path = line.rstrip("\n").split("\t")
        srcs[pid] = path
    ids = sorted(os.listdir(os.path.join(probes, "sensors")))
    fails, groups = [], {}
    n_cpu = n_cpu_ok = n_same = n_bad_src = n_printed = n_temp_lines = 0
    for pid in ids:
        text = open(os.path.join(probes, "sensors", pid), encoding="utf-8", errors="surrogateescape").read()
        chips = parse_probe(text)
        path = srcs.get(pid, "?/?/?")
        parts = path.split("/")
        form, arch = parts[0], parts[-2]
        # the converter: lm-sensors prints the probe back (temperature lines always; every line
        # where the probe came from an lm-sensors as new as this one: older ones print "+0.85 V")
        lm = os.path.join(out, pid + ".lm")
        back = open(lm, encoding="utf-8", errors="surrogateescape").read() if os.path.exists(lm) else ""
        # a probe made ASCII on its way shows '*C' where sensors wrote the degree sign (Alpine and
        # SkiffOS and Ubuntu 16.04 probes); this sensors, run in the C locale for it, prints ' C'
        shown = re.sub(r"(?<=[0-9])\*C", " C", text)
        tl = [l for l in shown.split("\n") if re.search(r"[0-9] ?°?C\b", l)]
        bl = [l for l in back.split("\n") if re.search(r"[0-9] ?°?C\b", l)]
        if tl != bl:
            fails.append("%s: lm-sensors prints its temperatures otherwise from the tree:\n    %s\n    %s"
                         % (pid, tl, bl))
        else:
            n_temp_lines += 1
        old = re.search(r"\s[+-][0-9.]+ V\b", text)
        if back == shown:
            n_printed += 1
        elif not old and tl == bl:
            fails.append("%s: lm-sensors does not print the probe back whole" % pid)
        cpu = [(c, f, v) for c in chips for f, v in temps(c) if cpu_input(c, f) and valid(v)]
        vendor = next((cpu_vendor(c["p"]) for c, _, _ in cpu if cpu_vendor(c["p"])), "ARM" if any(
            is_cpu(c["p"]) for c, _, _ in cpu) else "CPU diode (Super I/O)" if cpu else "none (no CPU sensor)")
        if arch in ("AARCH64", "ARMV7L", "ARMV6L") and not cpu:
            vendor = "ARM, no CPU sensor"
        root, user = headline(os.path.join(out, pid + ".root")), headline(os.path.join(out, pid + ".user"))
        ok = True
        if root != user:
            fails.append("%s: root sees %r, the user %r" % (pid, root, user))
            ok = False
        else:
            n_same += 1
        if root and root[0] == "missing":
            fails.append("%s: no kbench output" % pid)
            ok = False
            root = None
        src = root[1].split(" ")[0] if root else None
        byname = {}
        for c in chips:  # every chip of a driver (two k10temp nodes, two coretemp packages)
            byname.setdefault(driver(c["p"]), []).append(c)
        if root:
            val, _, lim = root
            if src and EXCLUDED.match(src):
                fails.append("%s: headline from %s, an excluded chip" % (pid, root[1]))
                ok = False
                n_bad_src += 1
            if val is not None and not valid(val):
                fails.append("%s: headline %.1f °C is impossible" % (pid, val))
                ok = False
            if lim is not None:
                cs = byname.get(driver(src), [])
                lims = {f["attrs"].get(k) / 1000.0 for c in cs for f, _ in temps(c) for k in ("crit", "max")
                        if f["attrs"].get(k) is not None}
                if not valid(lim) or (cs and not any(abs(lim - l) < 0.05 for l in lims)):
                    fails.append("%s: headline limit %.1f °C is not one %s reports" % (pid, lim, src))
                    ok = False
        if cpu:
            n_cpu += 1
            if not root or not src or not any(driver(c["p"]) == driver(src) for c, _, _ in cpu):
                fails.append("%s: has a CPU sensor (%s %s %.1f °C) but the headline is %r" %
                             (pid, cpu[0][0]["p"], cpu[0][1]["label"], cpu[0][2], root))
                ok = False
            else:
                want = {round(v, 1) for c, _, v in cpu if driver(c["p"]) == driver(src)}
                if root[0] is None or round(root[0], 1) not in want:
                    fails.append("%s: headline %r is not a reading of %s (%s)" % (pid, root, src, sorted(want)))
                    ok = False
                else:
                    n_cpu_ok += 1
        g = groups.setdefault((form, arch, vendor), [0, 0])
        g[0] += 1
        g[1] += ok
    print("%-14s %-8s %-22s %6s %6s" % ("form factor", "arch", "CPU sensor", "probes", "right"))
    for (form, arch, vendor), (n, good) in sorted(groups.items()):
        print("%-14s %-8s %-22s %6d %6d" % (form, arch, vendor, n, good))
    print("%d of %d probes: lm-sensors prints the converted tree's temperatures as the probe did "
          "(%d print back whole)" % (n_temp_lines, len(ids), n_printed))
    print("%d of %d probes: headline from the CPU sensor (of %d probes with one); %d from an excluded "
          "chip; root and user agree on %d" % (n_cpu_ok, n_cpu, n_cpu, n_bad_src, n_same))
    for f in fails:  # last, where a runner that shows a failure's tail shows them
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: probe_check.py PROBES_DIR OUT_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
