#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The observer's tick on a fake machine with 40 hwmon inputs (coretemp with 16 cores, a
# Super-I/O chip, acpitz, an NVMe drive and an amdgpu card): the temperature source's reads
# per interval now (the headline's inputs) and as before (every input), in one sitting.
# Needs root for a private mount namespace (libsensors reads the real /sys).
KBENCH=${1:-./kbench}
DRIVER=$(dirname "$KBENCH")/observer_driver
echo
echo "== Observer tick: 40 hwmon inputs, headline only vs every input =="
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null || [ ! -x "$DRIVER" ]; then
	echo "(skipped: needs root, unshare -m and $DRIVER)"
	exit 0
fi
cat >/tmp/kbench-observer.$$ <<'NS'
mount -t tmpfs kbench-observer /sys/class || exit 1
H=/sys/class/hwmon
chip() { mkdir -p $H/$1; echo $2 >$H/$1/name; }
t() { echo $3 >$H/$1/temp$2_input; [ -n "$4" ] && echo "$4" >$H/$1/temp$2_label; [ -n "$5" ] && echo $5 >$H/$1/temp$2_crit; :; }
chip hwmon0 coretemp
t hwmon0 1 52000 "Package id 0" 100000
i=2; while [ $i -le 17 ]; do t hwmon0 $i $((40000 + i * 500)) "Core $((i - 2))" 100000; i=$((i + 1)); done
chip hwmon1 nct6775
i=1; while [ $i -le 15 ]; do t hwmon1 $i $((30000 + i * 700)) "" ""; i=$((i + 1)); done
chip hwmon2 acpitz
t hwmon2 1 27800 "" 105000; t hwmon2 2 29800 "" 105000
chip hwmon3 nvme
t hwmon3 1 38850 Composite 84850; t hwmon3 2 38850 "Sensor 1" ""; t hwmon3 3 41850 "Sensor 2" ""
chip hwmon4 amdgpu
t hwmon4 1 45000 edge 100000; t hwmon4 2 47000 junction 110000; t hwmon4 3 44000 mem 100000
exec "$DRIVER" 3000
NS
DRIVER=$DRIVER unshare -m sh /tmp/kbench-observer.$$
rm -f /tmp/kbench-observer.$$

# The largest machine of the probe corpus (the most temperature inputs), and a two-socket server of
# 2 x 128 cores (258 inputs, made up as tests/system/telemetry_probes.sh makes it), each converted
# to its sysfs tree (tests/tools/probe_tree.py) and bound over /sys/class.
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
P="$TOP/tests/fixtures/probes/sensors"
command -v python3 >/dev/null || { echo "(skipped the corpus machines: needs python3)"; exit 0; }
W=$(mktemp -d /tmp/kbench-observer-probes.XXXXXX)
big=$(for f in "$P"/*; do echo "$(grep -c '[0-9] \{0,1\}°\{0,1\}C' "$f") $f"; done | sort -n | tail -1)
for pkg in 0 1; do
	printf 'coretemp-isa-000%d\nAdapter: ISA adapter\nPackage id %d:  +60.0 C  (high = +84.0 C, crit = +94.0 C)\n' $pkg $pkg
	c=0; while [ $c -lt 128 ]; do printf 'Core %d:        +55.0 C  (high = +84.0 C, crit = +94.0 C)\n' $c; c=$((c + 1)); done
	echo
done >"$W/twosocket"
cat >"$W/ns.sh" <<'NS'
mount -t tmpfs kbench-observer "$W/trees" || exit 1
python3 "$TOP/tests/tools/probe_tree.py" "$W/trees" "$BIG" "$W/twosocket" || exit 1
for id in "${BIG##*/}" twosocket; do
	echo
	echo "== Observer tick: $id ($(ls "$W/trees/$id/class/hwmon" | wc -l) hwmon chips) =="
	mount --bind "$W/trees/$id/class" /sys/class && "$DRIVER" 3000
	umount /sys/class
done
NS
mkdir -p "$W/trees"
W=$W TOP=$TOP BIG=${big#* } DRIVER=$DRIVER unshare -m sh "$W/ns.sh"
rm -rf "$W"
exit 0
