# SPDX-License-Identifier: GPL-2.0-or-later
# A `kbench sensors --dump` replayed as a fixture reads as the live machine did, though the
# machine's sensors configuration relabels, computes and ignores: the dump carries the
# configuration and kbench reads an extracted dump with it, not with the configuration of the
# machine the dump is replayed on (which has none here, or another).
# requires: unshare
. "$KBENCH_TOP/tests/system/lib.inc"
chmod 755 "$T"
mkdir -p "$T/x" "$T/empty"
: >"$T/empty.conf"
export T KBENCH
cat >"$T/ns.sh" <<'NS'
set -u
mount -t tmpfs kbench-replay /sys/class || exit 3
mount --bind "$T/empty.conf" /etc/sensors3.conf || exit 3
mount -t tmpfs kbench-replay-d /etc/sensors.d || exit 3
H=/sys/class/hwmon
mkdir -p $H/hwmon0 $H/hwmon1
echo coretemp >$H/hwmon0/name
echo 41000 >$H/hwmon0/temp1_input; echo "Package id 0" >$H/hwmon0/temp1_label; echo 100000 >$H/hwmon0/temp1_crit
echo 39000 >$H/hwmon0/temp2_input; echo "Core 0" >$H/hwmon0/temp2_label; echo 100000 >$H/hwmon0/temp2_crit
echo acpitz >$H/hwmon1/name
echo 45000 >$H/hwmon1/temp1_input
# the machine's own configuration: a label, a compute (an offset its maker documents), an ignore
cat >/etc/sensors.d/board.conf <<'CONF'
chip "coretemp-*"
    label temp1 "CPU package"
    compute temp1 @+3, @-3
chip "acpitz-*"
    ignore temp1
CONF
temps() { sed -n '/^Temperature/,/^$/p'; }
KBENCH_SYSFS_ROOT=$T/empty "$KBENCH" sensors | temps >"$T/live" 2>&1
env -u KBENCH_SYSFS_ROOT "$KBENCH" sensors --dump "$T/dump.tar" >"$T/dumpmsg" 2>&1 || { cat "$T/dumpmsg"; exit 4; }
tar -xpf "$T/dump.tar" -C "$T/x" || exit 4
# the machine it is replayed on: no configuration of its own; the dump's tree over /sys/class
find /etc/sensors.d -mindepth 1 -delete
find /sys/class -mindepth 1 -maxdepth 1 -exec rm -rf {} +
cp -a "$T/x/sys/class/." /sys/class/
KBENCH_SYSFS_ROOT=$T/x "$KBENCH" sensors | temps >"$T/replay" 2>&1
NS
unshare -m sh "$T/ns.sh" || die "the namespace script failed ($?)"
grep -q 'CPU package        44.0 °C' "$T/live" || { cat "$T/live"; die "the live machine's configuration was not applied"; }
grep -q 'acpitz' "$T/live" && die "the live machine shows an input its configuration ignores"
diff "$T/live" "$T/replay" >"$T/diff" || { cat "$T/diff"; die "the replayed dump reads otherwise than the live machine"; }
exit 0
