#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memlat against the physics of this machine, over the default range (512 B
# to 4x the last cache, 8 points per doubling): an L1 load takes 3 to 6
# cycles of the clock the test itself estimates; the random chain's curve
# steps up within one point of the L1 size sysfs gives, and between half
# the L2 size and two points past it (physically indexed, see below), and once
# more between L2 and main memory; main memory is well above L3 (3x) where the
# range reaches past the last cache.
# The L3 step is checked against sysfs too, and printed: on a VM that
# shares its host's L3 with other guests it can come well before the size
# sysfs reports (the effective L3 is smaller); kbench says so ("smaller in
# effect") and the test then wants that step after the L2 one, and the L2
# step still within two points of its size (docs/memory-latency.md).
# Up to three tries, each check judged over them: on this shared VM a step
# lands a point or two further off now and then (a quiet full run read the L1
# step at 26.9 KiB; 14 quiet runs put the L1 step 2 points early twice and the
# L2 step 3 points early twice, with 4 KiB pages and huge pages alike, so it
# is the host, not the page mapping), so each check must hold in one of the
# tries (a wrong measurement fails every try), and each try's figures are
# printed.
# tier: load (latencies of a busy machine are its neighbours' too)
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
# The caches this machine reports: sysfs's, else getconf's (a VM whose sysfs has no cache
# directory, this kind of host) laid out as a tree (lib.inc's fake_caches with host).
if [ ! -r /sys/devices/system/cpu/cpu0/cache/index0/size ]; then
	KBENCH_TEST_CACHES=host fake_caches "$T/caches"
	export KBENCH_SYSFS_ROOT="$T/caches"
fi
# ASan checks the shadow of every load: the chase then times the instrumentation, not the caches.
[ "${BUILD:-build}" = build-san ] && skip "cache latencies are measured on the normal build, not the sanitized one"
b=$(busy)
# A process on the other CPU of a 2-CPU VM may be on its SMT sibling, which
# shares L1 and L2: the caches would look smaller than they are.
[ "$b" -lt 25 ] || skip "machine busy ($b% of the CPUs used by others in the last 2 s): another process shares the caches"

echo '[]' >"$T/held"
for try in 1 2 3; do
	echo "== try $try"
	expect_exit 0 "$KBENCH" run memlat -c 1 --samples 3 --pause 0 --no-telemetry --name "physics$try"
	sed -n '/^Memory latency/,/^Pages/p' "$T/out"
	expect_exit 0 "$KBENCH" export "physics$try" --format json
	python3 - "$T/out" "$T/held" <<'EOF' && exit 0
import json, math, sys
t = json.load(open(sys.argv[1]))["blocks"][0]["tests"][0]
pts = {p["name"]: p for p in t["points"]}
summ = {k["key"]: k.get("value") for k in t["summary"]}
def mean(name): return sum(pts[name]["values"]) / len(pts[name]["values"])
curve = sorted((p["x"], p["values"][0]) for p in t["points"] if p["name"].startswith("rnd ") and not p["summary"])
xs = [x for x, _ in curve]
def index(size): return min(range(len(xs)), key=lambda i: abs(math.log2(xs[i] / size)))
# the interval between two measured sizes that holds b: kbench puts a step between the two
# sizes the curve rose between, a cache's size lies between two, and "a point off" is an interval
def interval(b): return max([0] + [k for k in range(len(xs) - 1) if xs[k] <= b])
mhz = mean("clock")
bad = {} # check -> what went wrong
checks = []
for chain in ("rnd", "fwd"):
    cycles = mean(chain + " L1") * mhz / 1000
    checks.append(chain + " cycles")
    print("%s L1: %.3f ns = %.2f cycles of %.0f MHz" % (chain, mean(chain + " L1"), cycles, mhz))
    if not 3 <= cycles <= 6:
        bad[chain + " cycles"] = "%s L1 is %.2f cycles, not 3 to 6" % (chain, cycles)
levels = [k for k in ("L1", "L2", "L3") if "cache." + k in summ]
# A VM sharing its host's L3 has an effective L3 well below sysfs's (this VM, 2026-12-06:
# sysfs 1 MiB L2 and 508 MiB L3, the curve rising 2.7 to 5 ns past 1 MiB and 7 to 97 ns at
# 13-23 MiB). kbench then says the L3 is smaller in effect ("smaller.L3"), and the L2 step is
# still the rise near 1 MiB (it put it at 13.5 MiB, the L3's rise, until 2026-12-06).
smaller = {k: summ["smaller." + k] for k in levels if (summ.get("smaller." + k) or 0) > 0}
prev = None
for k in levels:
    size, step = summ["cache." + k], summ.get("step." + k)
    off = interval(step) - interval(size) if step else None
    print("step %s: %s, sysfs %.0f: %s points off%s" % (k, "%.0f" % step if step else "none", size, off,
          " (said to be smaller in effect)" if k in smaller else ""))
    # L1 is indexed by the page offset (VIPT), so a chain over random pages fills it whole;
    # L2 is indexed by physical address, and 4 KiB pages mapped at random fill its sets
    # unevenly: its step read 431 to 680 KiB for 512 KiB over one day's runs on this VM
    # (up to three points either way), so it gets two points late. Early it gets a doubling:
    # a 1 MiB 16-way L2 (Zen 5's) has 16 page colours, and 0.65 MiB of random pages (10.4 a colour on
    # average) already overflow one colour's 16 ways about four times in ten, so the rise
    # can begin and be steepest well before the size (2026-12-07's host: 693-825 KiB for
    # 1 MiB, i686 and x86-64 builds alike, where the narrow range's read 981 KiB-1.04 MiB).
    early, late = (8, 2) if k == "L2" else (1, 1)
    checks.append("step " + k)
    if k in ("L1", "L2") and (off is None or off < -early or off > late):
        bad["step " + k] = "the %s step is not within %s of %.0f B" % (k, "one point" if early == 1 else "half its size or two points past", size)
    if k == "L3":
        if step is None:
            bad["step " + k] = "no step between L2 and main memory"
        elif prev is not None and step <= prev:
            bad["step " + k] = "the L3 step (%.0f B) is not past the L2 one (%.0f B)" % (step, prev)
        elif k in smaller:
            print("note: L3 step %d points before sysfs's %.0f B, said to be smaller in effect (a VM sharing its host's L3)" % (-off, size))
        elif off < -1: # a shared L3 others use steps early too, by less than kbench calls smaller
            print("note: L3 step %d points before sysfs's %.0f B (others share the L3)" % (-off, size))
    prev = step
last = levels[-1]
# A last cache smaller in effect ends at its step: past it is main memory, and its own
# latency is the curve's between the step before it and its own (kbench reads its plateau
# where sysfs puts it, past that end).
def curve_at(size):
    i = index(size)
    return sorted(v for _, v in curve[max(i - 1, 0):i + 2])[1]
end = smaller.get(last, summ["cache." + last])
if last in smaller and len(levels) > 1 and summ.get("step." + levels[-2]):
    last_ns = curve_at(math.sqrt(summ["step." + levels[-2]] * end))
else:
    last_ns = mean("rnd " + last)
# The default range ends where a sweep would take over 30 s (256 MiB): a last cache as large
# as that (a VM's 508 MiB L3, were it that in effect) leaves no main-memory point, and kbench
# says its "mem" is that cache; then there is nothing to judge as main memory.
if xs[-1] >= 2 * end:
    checks.append("mem")
    if not mean("rnd mem") >= 3 * last_ns:
        bad["mem"] = "main memory %.1f ns is not well above %s %.1f ns" % (mean("rnd mem"), last, last_ns)
    print("main memory %.1f ns, %s %.2f ns" % (mean("rnd mem"), last, last_ns))
else:
    print("note: the sweep ends at %.0f B, inside the %s of %.0f B: no main-memory point to judge" % (xs[-1], last, end))
# each check once: the ones that held in an earlier try stay held
held = set(json.load(open(sys.argv[2]))) | (set(checks) - set(bad))
json.dump(sorted(held), open(sys.argv[2], "w"))
for c, why in bad.items():
    print("held in an earlier try:" if c in held else "FAIL:", why)
sys.exit(0 if held >= set(checks) else 1)
EOF
done
die "the physics do not hold in any of three runs (above)"
