# SPDX-License-Identifier: GPL-2.0-or-later
# The probe corpus (tests/fixtures/probes/: `sensors` output of real machines, published by the
# hw-probe project): each probe converted back into its sysfs tree (tests/tools/probe_tree.py),
# which lm-sensors' own `sensors` must print as the probe did, then `kbench sensors` as root and
# as an unprivileged user on it; tests/tools/probe_check.py judges the headline CPU temperature
# by the probe's chips (the CPU's own sensor whenever there is one, never an excluded chip or an
# impossible value, the same for both users) and prints the corpus table and the summary line.
# Then a machine larger than any probe, made up here (not a probe): a two-socket server whose
# second package, the hotter, is its 130th temperature input (kbench read the first 128 once): 128
# cores a socket, as Granite Rapids has.
# All probes in one private mount namespace: the trees on a tmpfs, each bound over /sys/class in
# turn by one process (tests/tools/probe_driver.c), an empty sensors configuration (a probe
# prints its labels already applied).
# requires: unshare setpriv python3 sensors
# cost: 24
. "$KBENCH_TOP/tests/system/lib.inc"
P="$KBENCH_TOP/tests/fixtures/probes"
n=$(ls "$P/sensors" | wc -l)
[ "$n" -ge 20 ] || die "the corpus has $n probes"
chmod 755 "$T"
mkdir -p "$T/trees" "$T/out" "$T/empty"
: >"$T/sensors3.conf"
chmod -R a+rX "$T"
chmod 777 "$T/out"
DRIVER="$KBENCH_TOP/${BUILD:-build}/probe_driver"
[ -x "$DRIVER" ] || die "$DRIVER is not built (make test builds it)"
export T KBENCH P DRIVER
# the two-socket server: coretemp-isa-0000 and -0001, each a package and 128 cores
mkdir -p "$T/extra"
for pkg in 0 1; do
	printf 'coretemp-isa-000%d\nAdapter: ISA adapter\n' $pkg
	printf 'Package id %d:  +%d.0 C  (high = +84.0 C, crit = +94.0 C)\n' $pkg $((pkg ? 88 : 61))
	c=0
	while [ $c -lt 128 ]; do
		printf 'Core %d:        +%d.0 C  (high = +84.0 C, crit = +94.0 C)\n' $c $((pkg ? 80 : 55))
		c=$((c + 1))
	done
	echo
done >"$T/extra/twosocket"

cat >"$T/ns.sh" <<'NS'
set -u
mount -t tmpfs kbench-probes "$T/trees" || exit 3
python3 "$KBENCH_TOP/tests/tools/probe_tree.py" "$T/trees" "$P"/sensors/* "$T"/extra/* || exit 4
chmod -R a+rX "$T/trees"
mount --bind "$T/sensors3.conf" /etc/sensors3.conf || exit 3
mount -t tmpfs kbench-sensors-d /etc/sensors.d || exit 3
# One process for the corpus (tests/tools/probe_driver.c): per tree, lm-sensors' sensors in the
# locale the probe was printed in (" C" in C, "°C" in UTF-8), kbench's report as root and as nobody.
ids=
for f in "$P"/sensors/* "$T"/extra/*; do
	id=${f##*/}
	if grep -q '°' "$f"; then ids="$ids $id=C.UTF-8"; else ids="$ids $id=C"; fi
done
start=$(date +%s.%N)
# shellcheck disable=SC2086
LC_ALL=C.UTF-8 KBENCH_SYSFS_ROOT=$T/empty "$DRIVER" "$T/out" "$T/trees" $ids || exit 5
echo "$start $(date +%s.%N) $(echo $ids | wc -w)" | awk '{ printf "%d trees in one process (sensors, kbench as root and as nobody): %.1f s\n", $3, $2 - $1 }' >"$T/time"
# A sensors.d label in Russian, longer than kbench's label field: cut between letters, the run
# file valid UTF-8 (a netbook's Core 0, probe 1380638BB1).
mount --bind "$T/trees/1380638BB1/class" /sys/class || exit 3
printf 'chip "coretemp-*"\n    label temp1 "ТемператураЦентральногоПроцессораЯдроНоль"\n' >/etc/sensors.d/ru.conf
LC_ALL=C.UTF-8 KBENCH_HOME=$T/store KBENCH_SYSFS_ROOT=$T/empty "$KBENCH" run -q -c 1 --samples 1 --duration 0.2 \
	--pause 0 --interval 0.05 --name ru syscall >"$T/ru.run" 2>&1 || echo "exit $?" >>"$T/ru.run"
LC_ALL=C.UTF-8 KBENCH_HOME=$T/store "$KBENCH" export ru --format json -o "$T/ru.json" >>"$T/ru.run" 2>&1
rm /etc/sensors.d/ru.conf
umount /sys/class
NS
unshare -m sh "$T/ns.sh" || die "the namespace script failed ($?)"
grep -q '^  headline CPU temperature: 88.0 °C from coretemp Package id 0 +1 more (max), crit 94.0 °C$' "$T/out/twosocket.root" ||
	{ grep headline "$T/out/twosocket.root"; die "a server's 130th input, its hotter package, is not in the headline"; }
rm "$T/out/twosocket".*
python3 - "$T/ru.json" <<'PY' || { cat "$T/ru.run"; die "a Russian label's run file"; }
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # half a letter stored fails here
want = "ТемператураЦентральногоПроцессораЯдроНоль"
got = re.findall(r"coretemp ([^\";]*)", text)
assert got, "the label is not in the run file"
for g in got:  # cut between letters: what is stored is the label's beginning, nothing else
    assert len(g) >= 10 and want.startswith(g), "stored %r, not the beginning of %r" % (g, want)
PY
python3 "$KBENCH_TOP/tests/tools/probe_check.py" "$P" "$T/out" >"$T/check" || { cat "$T/check"; die "the probe corpus (above)"; }
cat "$T/check"
# the corpus table and the summary line in make test's own output, under the test's line
[ -n "${KBENCH_TEST_NOTE:-}" ] && { cat "$T/check" "$T/time"; } >"$KBENCH_TEST_NOTE"
exit 0
