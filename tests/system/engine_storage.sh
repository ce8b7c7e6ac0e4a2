# SPDX-License-Identifier: GPL-2.0-or-later
# kbench run with --tmpdir on a tmpfs mounted in a private mount namespace: the report header,
# the stored run (format 1.2), kbench show, an import of the report and kbench compare all
# name the scratch filesystem; a run on the disk beside it says the disk's.
# requires: unshare
. "$KBENCH_TOP/tests/system/lib.inc"

# A blank in the path: mountinfo writes it as \040.
A="$T/scratch a" B="$T/scratch b" D="$T/disk"
mkdir -p "$A" "$B" "$D"
export A B T KBENCH

cat >"$T/ns.sh" <<'NS'
set -u
mount -t tmpfs -o size=64m kbench-scratch "$A" || exit 3
mount -t tmpfs -o size=64m,nosuid,noatime kbench-scratch2 "$B" || exit 3
# A short run of a file test and a CPU test per scratch directory.
"$KBENCH" run -q --name tmpfs-a -c 1 --samples 1 --duration 0.5 --pause 0 --tmpdir "$A" \
	fstime syscall >"$T/tmpfs-a.report" 2>"$T/tmpfs-a.err" || exit 4
"$KBENCH" run -q --name tmpfs-b -c 1 --samples 1 --duration 0.5 --pause 0 --tmpdir "$B" \
	fstime syscall >"$T/tmpfs-b.report" 2>"$T/tmpfs-b.err" || exit 5
# The file test wrote there and cleaned up.
[ -z "$(ls -A "$A")" ] || exit 6
exit 0
NS
unshare -m sh "$T/ns.sh"
rc=$?
[ $rc = 0 ] || { cat "$T"/tmpfs-*.err 2>/dev/null; die "in the namespace (exit $rc)"; }

# 1. The report header: the Storage line names the tmpfs, its source and no scheduler.
line=$(grep '^   Storage: ' "$T/tmpfs-a.report") || { cat "$T/tmpfs-a.report"; die "no Storage line"; }
case "$line" in
"   Storage: $A on tmpfs (rw"*") kbench-scratch, scheduler none") ;;
*) die "Storage line: '$line'" ;;
esac
grep -q '^   Kernel settings: clocksource [^,]*, THP [^ ]* (defrag [^)]*), memory [0-9]* MiB, swap ' "$T/tmpfs-a.report" ||
	die "no Kernel settings line: $(sed -n '1,16p' "$T/tmpfs-a.report")"
# After UnixBench's header lines, before the empty line that ends the header.
awk '/; runlevel/ { getline s; getline k; getline e; exit !(s ~ /^   Storage: / && k ~ /^   Kernel settings: / && e == "") }' \
	"$T/tmpfs-a.report" || die "the lines are not right after UnixBench's header"
grep -q "^   Storage: $B on tmpfs (rw,nosuid,noatime" "$T/tmpfs-b.report" ||
	die "second tmpfs: $(grep Storage "$T/tmpfs-b.report")"

# 2. The stored run is format 1.2 with the facts; kbench show prints the same header line.
f=$(grep -l '"name": "tmpfs-a"' "$KBENCH_HOME"/*.json) || die "tmpfs-a not stored"
grep -q '"minor": 2' "$f" || die "run file is not format 1.2"
grep -q '"fs_type": "tmpfs"' "$f" || die "run file lacks fs_type tmpfs"
grep -q '"io_scheduler": "none"' "$f" || die "run file lacks io_scheduler none"
"$KBENCH" show tmpfs-a >"$T/show" 2>&1 || die "show failed: $(cat "$T/show")"
grep -qxF "$line" "$T/show" || die "kbench show lacks '$line'"

# 3. The report imports back with the facts.
"$KBENCH" import --name parsed "$T/tmpfs-a.report" >"$T/imp" 2>&1 || die "import: $(cat "$T/imp")"
"$KBENCH" export parsed --format json >"$T/parsed.json" || die "export failed"
grep -qF "\"scratch_dir\": \"$A\"" "$T/parsed.json" || die "import lost the scratch dir: $(grep scratch "$T/parsed.json")"
grep -q '"fs_type": "tmpfs"' "$T/parsed.json" || die "import lost fs_type"
grep -q '"fs_source": "kbench-scratch"' "$T/parsed.json" || die "import lost fs_source"

# 4. compare names the different mount options of the two tmpfs runs.
"$KBENCH" compare --width 200 tmpfs-a tmpfs-b >"$T/cmp" 2>&1 || die "compare: $(cat "$T/cmp")"
grep -q 'mount options rw,relatime -> rw,nosuid,noatime' "$T/cmp" || die "strip: $(grep -A3 Differs "$T/cmp")"
grep -q 'filesystem' "$T/cmp" && die "same filesystem named as a difference: $(grep -A3 Differs "$T/cmp")"

# 5. On the disk: the filesystem findmnt sees, and compare names tmpfs against it.
"$KBENCH" run -q --name disk -c 1 --samples 1 --duration 0.5 --pause 0 --tmpdir "$D" \
	fstime syscall >"$T/disk.report" 2>"$T/disk.err" || { cat "$T/disk.err"; die "run on disk failed"; }
grep -q "^   Storage: $D on " "$T/disk.report" || die "disk Storage line: $(grep Storage "$T/disk.report")"
if command -v findmnt >/dev/null; then
	fs=$(findmnt -n -o FSTYPE -T "$D")
	grep -q "^   Storage: $D on $fs (" "$T/disk.report" ||
		die "findmnt says $fs: $(grep Storage "$T/disk.report")"
	if [ "$fs" != tmpfs ]; then
		"$KBENCH" compare --width 200 tmpfs-a disk >"$T/cmp2" 2>&1 || die "compare: $(cat "$T/cmp2")"
		grep -q "filesystem tmpfs -> $fs" "$T/cmp2" || die "strip: $(grep -A3 Differs "$T/cmp2")"
	fi
fi
echo ok
