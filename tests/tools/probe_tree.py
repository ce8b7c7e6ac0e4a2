#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Turns a published `sensors` output (a probe of tests/fixtures/probes/sensors) back into the
# sysfs tree the kernel laid out for it: /sys/class/hwmon/hwmonN with every attribute the output
# shows, its `device` link to a device on the bus the chip name says (platform, pci, i2c with its
# adapter's name, acpi, hid, scsi, spi, mdio; none for a virtual chip), so that libsensors names
# each chip as the probe did and lm-sensors' own `sensors` prints the probe back.
#
#   probe_tree.py OUTDIR PROBE...   OUTDIR/ID/class/... for each probe (ID: the probe's file name)
#   probe_tree.py --parse PROBE     the chips and inputs it read, one line each (for a test's eye)
#
# A line it cannot read is listed in OUTDIR/ID/unread (the probe then does not print back whole).
import os
import re
import sys

# sensors' SI prefixes (prog/sensors/chips.c scale_value) and each unit's sysfs scale
PREFIX = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1.0, "k": 1e3, "M": 1e6, "G": 1e9}
UNIT = {  # unit -> (sysfs type, multiplier from the unit to the sysfs integer)
    "V": ("in", 1e3), "A": ("curr", 1e3), "W": ("power", 1e6), "J": ("energy", 1e6),
    "RPM": ("fan", 1.0), "%RH": ("humidity", 1e3),
}
# a limit's name in sensors' output -> the attribute, per type; "hyst" follows the limit before it
LIMITS = {
    "temp": {"low": "min", "high": "max", "crit low": "lcrit", "crit": "crit", "emerg": "emergency",
             "lowest": "lowest", "highest": "highest", "min": "min", "max": "max"},
    "in": {"crit min": "lcrit", "min": "min", "max": "max", "crit max": "crit", "avg": "average",
           "lowest": "lowest", "highest": "highest"},
    "curr": {"crit min": "lcrit", "min": "min", "max": "max", "crit max": "crit", "avg": "average",
             "lowest": "lowest", "highest": "highest"},
    "power": {"max": "max", "min": "min", "lcrit": "lcrit", "crit": "crit", "cap": "cap",
              "lowest": "input_lowest", "highest": "input_highest", "avg": "average"},
    "fan": {"min": "min", "max": "max", "div": "div"},
    "energy": {}, "humidity": {},
}
SENSOR_TYPES = {"disabled": 0, "CPU diode": 1, "transistor": 2, "thermal diode": 3, "thermistor": 4,
                "AMD AMDSI": 5, "Intel PECI": 6}
ALARMS = {"LOW": "min_alarm", "HIGH": "max_alarm", "CRIT": "crit_alarm", "LCRIT": "lcrit_alarm",
          "EMERGENCY": "emergency_alarm", "MIN": "min_alarm", "MAX": "max_alarm"}
NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
CHIP_RE = [re.compile(r"^(?P<p>.+)-(?P<bus>isa|pci|virtual|acpi|mdio)-(?P<addr>[0-9a-f]+)$"),
           re.compile(r"^(?P<p>.+)-(?P<bus>i2c|spi|hid|scsi)-(?P<nr>\d+)-(?P<addr>[0-9a-f]+)$")]


def parse_chip(name):
    for r in CHIP_RE:
        m = r.match(name)
        if m:
            d = m.groupdict()
            d["addr"] = int(d["addr"], 16)
            d["nr"] = int(d.get("nr") or 0)
            return d
    return None


def signed(text, v):
    """A printed "-0.0" came from a value just under zero (a driver's -48 m°C): keep the sign."""
    return -1 if v == 0 and text.lstrip().startswith("-") else v


def quantity(text):
    """'+43.0°C', '-273.2 C', '+49.0*C' (a probe made ASCII on its way: '*' where the degree sign
    was, on Alpine, SkiffOS and Ubuntu 16.04 probes), '4.73 V', '210.00 mA', '1234 RPM', '11.52 W'
    -> (type, sysfs int)."""
    m = re.match(r"^(" + NUM + r")\s?(?:°C|\*C|C)$", text)
    if m:
        return "temp", signed(text, round(float(m.group(1)) * 1000))
    m = re.match(r"^(" + NUM + r")\s*([numkMG]?)(V|A|W|J)$", text)
    if m:
        kind, mul = UNIT[m.group(3)]
        return kind, round(float(m.group(1)) * PREFIX[m.group(2)] * mul)
    m = re.match(r"^(" + NUM + r")\s*(RPM|%RH)$", text)
    if m:
        kind, mul = UNIT[m.group(2)]
        return kind, round(float(m.group(1)) * mul)
    return None


def default_kind(label):
    m = re.match(r"^(temp|in|fan|power|energy|curr|humidity)(\d+)$", label)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def parse_feature(label, rest, more):
    """One feature: its label, the text after it, and its continuation lines -> dict or None."""
    f = {"label": label, "attrs": {}, "kind": None}
    text = " ".join([rest] + more)
    if label == "beep_enable" or re.match(r"^cpu\d+_vid$", label) or re.match(r"^intrusion\d+$", label):
        f["kind"] = label
        if label == "beep_enable":
            f["value"] = 1 if text.strip().startswith("enabled") else 0
        elif label.startswith("intrusion"):
            f["value"] = 1 if "ALARM" in text else 0
        else:
            m = re.match(r"^\s*(" + NUM + r")\s*V", text)
            if not m:
                return None
            f["value"] = round(float(m.group(1)) * 1000)
        return f
    head = re.match(r"^\s*(N/A|" + NUM + r"\s?(?:°C|\*C|C)|" + NUM + r"\s*[numkMG]?(?:V|A|W|J)|" + NUM +
                    r"\s*(?:RPM|%RH))", text)
    if not head:
        return None
    tail = text[head.end():]
    if head.group(1) == "N/A":
        kind, _ = default_kind(label)
        if not kind:  # a unit in the limits says what it is
            u = re.search(NUM + r"\s?(°C|\*C|C|[numkMG]?V|[numkMG]?A|[numkMG]?W|RPM)\b", tail)
            kind = {"°C": "temp", "*C": "temp", "C": "temp", "RPM": "fan"}.get(u.group(1)) if u else None
            if u and not kind:
                kind = UNIT[u.group(1)[-1]][0]
        if not kind:  # what the drivers' labels say (amdgpu's vddgfx, asus' cpu_fan)
            low = label.lower()
            kind = ("in" if "vdd" in low or low.startswith("v") else "fan" if "fan" in low else
                    "power" if "power" in low or "ppt" in low else "curr" if "curr" in low else "temp")
        f["kind"], f["attrs"]["input"] = kind, None
    else:
        f["kind"], f["attrs"]["input"] = quantity(re.sub(r"\s+", " ", head.group(1)).replace(" °", "°"))
    kind = f["kind"]
    for group in re.findall(r"\(([^()]*)\)", tail):
        prev = None
        for item in group.split(","):
            item = item.strip()
            m = re.match(r"^([a-z ]+?)\s*=\s*(.+)$", item)
            if not m:
                continue
            key, val = m.group(1), m.group(2).strip()
            if key == "sensor":
                if val in SENSOR_TYPES:
                    f["attrs"]["type"] = SENSOR_TYPES[val]
                continue
            if key == "interval":
                mi = re.match(r"^(" + NUM + r")\s*s$", val)
                if mi:
                    f["attrs"]["average_interval"] = round(float(mi.group(1)) * 1000)
                continue
            if key == "div" and kind == "fan":
                f["attrs"]["div"] = int(float(val))
                continue
            if key == "hyst" and prev:
                q = quantity(val.replace(" °", "°"))
                if q:
                    f["attrs"][prev + "_hyst"] = q[1]
                continue
            attr = LIMITS.get(kind, {}).get(key)
            q = quantity(val.replace(" °", "°"))
            if attr and q:
                f["attrs"][attr] = q[1]
                prev = attr
    m = re.search(r"sensor = (" + "|".join(SENSOR_TYPES) + r")\b", tail)
    if m:  # printed after the limits, outside their parentheses
        f["attrs"]["type"] = SENSOR_TYPES[m.group(1)]
    for m in re.finditer(r"ALARM(?: \(([A-Z, ]+)\))?", tail):
        if m.group(1):
            for a in m.group(1).split(","):
                if a.strip() in ALARMS:
                    f["attrs"][ALARMS[a.strip()]] = 1
        else:
            f["attrs"]["alarm"] = 1
    if "FAULT" in tail:
        f["attrs"]["fault"] = 1
    return f


def parse_probe(text):
    """The probe's chips: [{name, bus..., adapter, features: [...], unread: [...]}]."""
    chips = []
    for block in re.split(r"\n\s*\n", text):
        lines = [l for l in block.split("\n") if l.strip()]
        if not lines:
            continue
        c = parse_chip(lines[0].strip())
        if not c:
            continue
        c.update(name=lines[0].strip(), adapter=None, features=[], unread=[])
        i = 1
        if i < len(lines) and lines[i].startswith("Adapter: "):
            c["adapter"] = lines[i][len("Adapter: "):]
            i += 1
        while i < len(lines):
            line = lines[i]
            i += 1
            more = []
            while i < len(lines) and lines[i].startswith(" "):
                more.append(lines[i])
                i += 1
            # an empty label prints as ":" (a Phytium board's SCP names its sensors "")
            m = re.match(r"^([^:]*):(.*)$", line)
            f = parse_feature(m.group(1), m.group(2), more) if m else None
            if f:
                c["features"].append(f)
            else:
                c["unread"].append(line)
        chips.append(c)
    return chips


def put(path, value):
    with open(path, "w") as f:
        f.write("%s\n" % value)


def device_of(c):
    """The bus directory and device name the chip's name came from, or None (a virtual chip)."""
    bus, a = c["bus"], c["addr"]
    if bus == "isa":
        return "platform", "isa.%d" % a
    if bus == "pci":
        return "pci", "%04x:%02x:%02x.%x" % (a >> 16, (a >> 8) & 0xff, (a >> 3) & 0x1f, a & 7)
    if bus == "i2c":
        return "i2c", "%d-%04x" % (c["nr"], a)
    if bus == "acpi":
        return "acpi", "LNXTHERM:%02d" % a
    if bus == "hid":
        return "hid", "%04X:0000:0000.%04X" % (c["nr"], a)
    if bus == "scsi":
        return "scsi", "%d:%d:%d:%d" % (c["nr"], a >> 8, (a >> 4) & 0xf, a & 0xf)
    if bus == "spi":
        return "spi", "spi%d.%d" % (c["nr"], a)
    if bus == "mdio":
        return "mdio_bus", "mdio:%d" % a
    return None


def newest_first(where):
    """Does this file system list a directory newest entry first? (tmpfs before Linux 6.6 did;
    libsensors shows chips in the order readdir gives the hwmon directories.)"""
    t = os.path.join(where, ".order")
    os.makedirs(os.path.join(t, "a"))
    os.makedirs(os.path.join(t, "b"))
    first = [e for e in os.listdir(t)][0]
    for e in ("a", "b"):
        os.rmdir(os.path.join(t, e))
    os.rmdir(t)
    return first == "b"


def write_tree(chips, root, reverse=False):
    """root/class/{hwmon,i2c-adapter,kbench-devices}: hwmonN listed in the probe's chip order."""
    cls = os.path.join(root, "class")
    os.makedirs(os.path.join(cls, "hwmon"), exist_ok=True)
    unread = []
    order = list(range(len(chips)))
    for n in (reversed(order) if reverse else order):
        os.makedirs(os.path.join(cls, "hwmon", "hwmon%d" % n))
    for n, c in enumerate(chips):
        h = os.path.join(cls, "hwmon", "hwmon%d" % n)
        put(os.path.join(h, "name"), c["p"])
        dev = device_of(c)
        if dev:
            d = os.path.join(cls, "kbench-devices", "%s-%d" % (dev[0], n), dev[1])
            os.makedirs(d)
            os.symlink("../../../bus/" + dev[0], os.path.join(d, "subsystem"))
            os.symlink(os.path.relpath(d, h), os.path.join(h, "device"))
            if c["bus"] == "i2c" and c["adapter"]:
                a = os.path.join(cls, "i2c-adapter", "i2c-%d" % c["nr"])
                os.makedirs(a, exist_ok=True)
                put(os.path.join(a, "name"), c["adapter"])
        used = {}
        for f in c["features"]:
            kind = f["kind"]
            if kind == "beep_enable":
                put(os.path.join(h, "beep_enable"), f["value"])
                continue
            if kind.startswith("intrusion"):
                put(os.path.join(h, kind + "_alarm"), f["value"])
                continue
            if kind.startswith("cpu"):
                put(os.path.join(h, kind), f["value"])
                continue
            # its number: the default name's, else the next free one (in counts from 0)
            dk, dn = default_kind(f["label"])
            base = 0 if kind == "in" else 1
            nums = used.setdefault(kind, set())
            nr = dn if dk == kind and dn not in nums else max(nums | {base - 1}) + 1
            nums.add(nr)
            stem = "%s%d" % (kind, nr)
            if f["label"] != stem:
                put(os.path.join(h, stem + "_label"), f["label"])
            for attr, v in f["attrs"].items():
                # an unreadable value: content libsensors cannot parse (root reads any mode)
                put(os.path.join(h, "%s_%s" % (stem, attr)), "n/a" if v is None else v)
        unread += ["%s: %s" % (c["name"], l) for l in c["unread"]]
    if unread:
        with open(os.path.join(root, "unread"), "w") as f:
            f.write("\n".join(unread) + "\n")


def main(argv):
    if len(argv) == 3 and argv[1] == "--parse":
        for c in parse_probe(open(argv[2], encoding="utf-8", errors="surrogateescape").read()):
            print("%s [%s] %s" % (c["name"], c["p"], c["adapter"]))
            for f in c["features"]:
                print("  %s %s %s" % (f["kind"], f["label"], f.get("attrs", f.get("value"))))
            for l in c["unread"]:
                print("  unread: %s" % l)
        return 0
    if len(argv) < 3:
        print("usage: probe_tree.py OUTDIR PROBE... | --parse PROBE", file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    reverse = newest_first(argv[1])
    for p in argv[2:]:
        text = open(p, encoding="utf-8", errors="surrogateescape").read()
        write_tree(parse_probe(text), os.path.join(argv[1], os.path.basename(p)), reverse)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
