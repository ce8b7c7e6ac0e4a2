#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The HTML report in a real browser: two short stored runs with telemetry from a fake /sys
# (frequency, temperature, throttle counters and RAPL energy, throttled half-way through the
# second), one named <script>alert(1)</script>&"' and writing under $HOME, rendered with
# `kbench report NEW --vs BASE` and opened in headless Chromium at 1280x800 and 1920x1080:
# no console errors, screenshots that are not blank, every chart's <svg> present and drawn,
# no text wider than its box, nothing of $HOME in the file, nothing unescaped, under 300 KB.
# Then two tiny memlat runs (a points test): their report, with its curve charts, passes the same
# checks at 1280x800. REPORT_SHOTS=DIR keeps the reports and the screenshots there, to look at.
# requires: chromium python3 unshare
# cost: 39
. "$KBENCH_TOP/tests/system/lib.inc"
CHROME=$(command -v chromium || command -v chromium-browser || true)

export HOME="$T/home" # the report must not show it: the runs write their scratch files in it
mkdir -p "$HOME/scratch"
RUN="$KBENCH run -q -c 1 --samples 2 --duration 0.3 --pause 0 --interval 0.1 --tmpdir $HOME/scratch syscall pipe"

# The machine tree for KBENCH_SYSFS_ROOT (as tests/system/telemetry_fakesys.sh lays it out).
R="$T/root"
put() { mkdir -p "$(dirname "$R/$1")"; echo "$2" >"$R/$1"; }
for c in 0 1; do
	d=sys/devices/system/cpu/cpu$c
	put $d/cpufreq/scaling_cur_freq 2400000
	put $d/cpufreq/cpuinfo_max_freq 2400000
	put $d/cpufreq/cpuinfo_min_freq 800000
	put $d/cpufreq/scaling_governor performance
	put $d/topology/physical_package_id 0
	put $d/thermal_throttle/package_throttle_count 5
	put $d/thermal_throttle/package_throttle_total_time_ms 100
done
put sys/class/powercap/intel-rapl:0/name package-0
put sys/class/powercap/intel-rapl:0/max_energy_range_uj 262143328850
put sys/class/powercap/intel-rapl:0/energy_uj 1000000
export R RUN T

cat >"$T/ns.sh" <<'NS'
set -u
mount -t tmpfs kbench-fake-sys /sys/class || exit 3
mkdir -p /sys/class/hwmon/hwmon0 /sys/class/powercap && H=/sys/class/hwmon/hwmon0
echo coretemp >$H/name
echo 45000 >$H/temp1_input; echo "Package id 0" >$H/temp1_label; echo 100000 >$H/temp1_crit
KBENCH_SYSFS_ROOT="$R" $RUN --name base >"$T/base.out" 2>&1 || { cat "$T/base.out"; exit 1; }
# the second run heats up, slows down and throttles half-way
( sleep 0.7
  for c in 0 1; do
	echo 9 >"$R/sys/devices/system/cpu/cpu$c/thermal_throttle/package_throttle_count"
	echo 500 >"$R/sys/devices/system/cpu/cpu$c/thermal_throttle/package_throttle_total_time_ms"
	echo 1200000 >"$R/sys/devices/system/cpu/cpu$c/cpufreq/scaling_cur_freq"
  done
  echo 95000 >$H/temp1_input
  echo 9000000 >"$R/sys/class/powercap/intel-rapl:0/energy_uj" ) &
KBENCH_SYSFS_ROOT="$R" $RUN --name new >"$T/new.out" 2>&1 || { cat "$T/new.out"; exit 1; }
wait
NS
unshare -m sh "$T/ns.sh" || die "the runs in the fake /sys failed (exit $?)"

# A name from a user, with markup in it (kbench run --name refuses '/', so straight in the file).
new=$(grep -l '"name": *"new"' "$KBENCH_HOME"/*.json) || die "the run 'new' was not stored"
python3 - "$new" <<'PY' || die "could not rename the stored run"
import json, sys
r = json.load(open(sys.argv[1]))
r["meta"]["name"] = "<script>alert(1)</script>&\"'"
json.dump(r, open(sys.argv[1], "w"))
PY
id=$(basename "$new" .json)
# did the throttle counters rise while it ran? (they do unless the run outran the change)
rose=$(python3 -c 'import json, sys
s = {x["name"]: x["v"] for x in json.load(open(sys.argv[1]))["series"]}
v = s.get("throttle.events", [])
print(1 if any(b > a for a, b in zip(v, v[1:])) else 0)' "$new")
expect_exit 0 "$KBENCH" report "$id" --vs base -o "$T/report.html"
H="$T/report.html"
size=$(wc -c <"$H")
[ "$size" -lt 307200 ] || die "the report is $size bytes, over 300 KB"
grep -q '<script' "$H" && die "the report holds a <script>: $(grep -o '.\{40\}<script.\{40\}' "$H" | head -3)"
grep -qF "$HOME" "$H" && die "the report shows \$HOME ($HOME)"
grep -qF "$KBENCH_HOME" "$H" && die "the report shows the store's path"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;' "$H" || die "the run's name is not in the report, escaped"
grep -qF '~/scratch' "$H" || die "the scratch directory under \$HOME is not shown as ~/scratch"
[ "$rose" = 0 ] || grep -q 'class="thr"' "$H" || die "the throttle counters rose, but no stretch is marked throttled"
grep -Eq 'https?://|<link|<img|@import|url\((["'"'"']?)[a-z]' "$H" && die "the report fetches something: $(grep -Eo '.{30}(https?://|<link|<img|@import).{30}' "$H" | head -3)"

chrome() {
	"$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
		--user-data-dir="$T/chrome" --enable-logging=stderr --log-level=0 "$@"
}

# A copy of the page with a checking script at its end (the report itself stays script-free): it
# writes its verdict into the DOM, which --dump-dom prints.
check_js='<script>
(function () {
	var bad = [], charts = document.querySelectorAll("svg.chart"), bars = document.querySelectorAll("svg.bar");
	charts.forEach(function (s, i) {
		var r = s.getBoundingClientRect();
		if (r.width < 100 || r.height < 40) bad.push("chart " + i + " is " + r.width + "x" + r.height);
		if (!s.querySelector("polyline, polygon, circle, text.empty")) bad.push("chart " + i + " draws nothing");
		var l = s.querySelector("polyline");
		if (l && l.getBBox().width < 1) bad.push("chart " + i + " has an empty line");
	});
	bars.forEach(function (s, i) {
		var r = s.getBoundingClientRect();
		if (r.width < 20 || r.height < 5) bad.push("bar " + i + " is " + r.width + "x" + r.height);
	});
	document.querySelectorAll("body *").forEach(function (e) {
		if (e.closest("svg") || getComputedStyle(e).display === "none") return;
		if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
			bad.push("overflow: <" + e.tagName.toLowerCase() + "> " + e.scrollWidth + " > " + e.clientWidth + ": " + (e.textContent || "").slice(0, 40));
	});
	if (document.documentElement.scrollWidth > window.innerWidth)
		bad.push("the page is wider than the window: " + document.documentElement.scrollWidth + " > " + window.innerWidth);
	var v = document.createElement("div");
	v.id = "kbench-check";
	v.textContent = "CHECK charts=" + charts.length + " bars=" + bars.length + " " + (bad.length ? "BAD " + bad.join(" | ") : "OK");
	document.body.appendChild(v);
})();
</script>'
check() { # check HTML W H: the checker's line for the page at that size
	{ cat "$1"; printf '%s\n' "$check_js"; } >"$T/check.html"
	chrome --window-size="$2,$3" --dump-dom "file://$T/check.html" 2>"$T/check.err" |
		grep -o 'id="kbench-check">CHECK [^<]*' | sed 's/^id="kbench-check">//; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g'
}

# The checker catches what it looks for: a box with text wider than itself.
printf '<!DOCTYPE html><html><body><div style="width:40px;white-space:nowrap">a line far wider than forty pixels</div></body></html>' >"$T/overflow.html"
check "$T/overflow.html" 1280 800 | grep -q 'BAD overflow: <div>' || die "the checker misses an overflowing box: $(check "$T/overflow.html" 1280 800)"

# shot HTML W H PNG: a screenshot; true when the page logged to the console (in $T/console)
shot() {
	chrome --window-size="$2,$3" --screenshot="$4" "file://$1" >/dev/null 2>"$T/shot.err" ||
		die "chromium failed at $2x$3: $(tail -5 "$T/shot.err")"
	grep -E 'CONSOLE|Uncaught|Refused to|Failed to load|net::ERR' "$T/shot.err" | grep -v dbus >"$T/console"
}
# ... and it sees what it looks for: an error the page logs
printf '<!DOCTYPE html><html><body>x<script>console.error("kbench-check")</script></body></html>' >"$T/console.html"
shot "$T/console.html" 400 300 "$T/console.png" && grep -q kbench-check "$T/console" ||
	die "the console check misses a console.error: $(tail -5 "$T/shot.err")"

want=$(grep -o '<svg class="chart"' "$H" | wc -l)
[ "$want" -ge 4 ] || die "only $want charts in the report (wanted frequency, temperature, power and more)"
for size in 1280x800 1920x1080; do
	w=${size%x*} h=${size#*x}
	line=$(check "$H" "$w" "$h")
	case $line in
	"CHECK charts=$want bars="*" OK") ;;
	*) die "at $size: ${line:-no verdict from the page: $(tail -5 "$T/check.err")}" ;;
	esac
	# the page itself: loads without a console message, and paints
	shot "$H" "$w" "$h" "$T/shot-$size.png" && die "console messages at $size: $(head -5 "$T/console")"
	python3 - "$T/shot-$size.png" "$w" "$h" <<'PY' || die "the screenshot at $size looks wrong"
# Counts the colours: with Pillow where there is one (Debian's python3-pil), else a PNG
# reader from the standard library (zlib and the five row filters).
import struct, sys, zlib
sys.path.append("/usr/lib/python3/dist-packages")
try:
    from PIL import Image
    im = Image.open(sys.argv[1]).convert("RGB")
    w, h = im.size
    if (w, h) != (int(sys.argv[2]), int(sys.argv[3])):
        sys.exit("FAIL: the screenshot is %dx%d" % (w, h))
    small = im.resize((w // 2, h // 2), Image.NEAREST)
    colours = set(small.getdata())
    ink = sum(1 for p in small.getdata() if p != (255, 255, 255))
    print("%d colours, %d of %d sampled pixels not white (Pillow)" % (len(colours), ink, (w // 2) * (h // 2)))
    if len(colours) < 8 or ink < w * h // 400:
        sys.exit("FAIL: blank or nearly blank")
    sys.exit(0)
except ImportError:
    pass  # no Pillow (or Debian's does not load in this python): the reader below
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), "unexpected PNG type %d/%d" % (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
if (w, h) != (int(sys.argv[2]), int(sys.argv[3])):
    sys.exit("FAIL: the screenshot is %dx%d" % (w, h))
raw, stride, prev, colours, ink = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set(), 0
for y in range(h):
    f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = row[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: row[i] = (row[i] + a) & 255
        elif f == 2: row[i] = (row[i] + b) & 255
        elif f == 3: row[i] = (row[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = row
    if y % 2 == 0:
        for x in range(0, stride, bpp * 2):
            px = bytes(row[x:x + 3])
            colours.add(px)
            ink += px != b"\xff\xff\xff"
print("%d colours, %d of %d sampled pixels not white" % (len(colours), ink, (w // 2) * (h // 2)))
if len(colours) < 8 or ink < w * h // 400:
    sys.exit("FAIL: blank or nearly blank")
PY
done

# A points test (memlat) through its own renderer: its headline rows and its curve charts
# load without console messages and with nothing wider than its box.
for n in lat-a lat-b; do
	"$KBENCH" run memlat --quick --sizes 512:256K:2 -c 1 --no-telemetry -q --name $n >"$T/$n.out" 2>&1 ||
		die "memlat run $n: $(tail -3 "$T/$n.out")"
done
expect_exit 0 "$KBENCH" report lat-b --vs lat-a -o "$T/lat.html"
grep -q '<h2>Curves</h2>' "$T/lat.html" || die "the memlat report has no curve"
lat=$(grep -o '<svg class="chart"' "$T/lat.html" | wc -l)
line=$(check "$T/lat.html" 1280 800)
case $line in
"CHECK charts=$lat bars="*" OK") ;;
*) die "memlat report: ${line:-no verdict from the page: $(tail -5 "$T/check.err")}" ;;
esac
shot "$T/lat.html" 1280 800 "$T/shot-lat.png" && die "console messages in the memlat report: $(head -5 "$T/console")"
if [ -n "${REPORT_SHOTS:-}" ]; then
	mkdir -p "$REPORT_SHOTS" && cp "$H" "$T/lat.html" "$T"/shot-*.png "$REPORT_SHOTS/" && echo "kept in $REPORT_SHOTS"
fi
exit 0
