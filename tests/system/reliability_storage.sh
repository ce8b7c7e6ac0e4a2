#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Storage faults, with small tmpfs mounts in a private mount namespace: the store missing
# (created), read-only or full (a clear message, the report still on stdout, exit 1, no
# half-written file, a stored run untouched byte for byte; a thermal check too); the scratch directory of the
# file tests full (the test fails with the reason, the run goes on) or out of inodes or
# read-only (the run refuses to start); nothing is left behind.
# requires: pgrep unshare
# cost: 12
if [ "${1:-}" != inner ]; then
	exec unshare -m --propagation private sh "$0" inner
fi
. "$KBENCH_TOP/tests/system/lib.inc"
# files_in STORE: what a store holds but its index (index.sqlite and SQLite's -wal and -shm
# beside it), which any command may make and which is rebuilt from the run files.
files_in() { ls -A "$1" | grep -v '^index\.sqlite'; }
. "$KBENCH_TOP/tests/system/reliability_lib.inc"

# The mounts go with the namespace, but the files under them must go first.
trap 'for m in ro full sfull snoino sro; do umount "$T/$m" 2>/dev/null; done; reliability_cleanup' EXIT
RUN="--samples 1 --duration 0.2 --pause 0 -c 1 --no-telemetry"
# run_to HOME ARGS...: a short run storing into HOME; status in $rc
run_to() {
	home=$1; shift
	KBENCH_HOME="$home" "$KBENCH" run --tmpdir "$SCRATCH" $RUN "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
report_on_stdout() {
	grep -q 'Benchmark Run' "$T/out" && grep -Eq '^(Pipe Throughput|System Call Overhead) +[0-9.]+ lps' "$T/out" ||
		{ cat "$T/out" "$T/err"; die "$1: the report is not on stdout"; }
}
one_error_line() {
	[ "$(grep -c '^kbench: ' "$T/err")" = 1 ] || { cat "$T/err"; die "$1: not one 'kbench:' error line"; }
	grep -q "^kbench: .*$2" "$T/err" || { cat "$T/err"; die "$1: the message does not say '$2'"; }
}

# 1. The store directory (and its parents) missing: created, the run saved.
run_to "$T/deep/er/store" pipe
[ $rc = 0 ] || { cat "$T/err"; die "a missing store: exit $rc"; }
[ "$(ls "$T/deep/er/store" | grep -c '\.json$')" = 1 ] || die "a missing store: no run file in it"
echo "store missing: created, saved"

# 2. Read-only store with a run in it.
mkdir -p "$T/ro"
mount -t tmpfs -o size=1m tmpfs "$T/ro" || die "cannot mount a tmpfs"
run_to "$T/ro/store" pipe
[ $rc = 0 ] || die "the first run into $T/ro: exit $rc"
good=$(ls "$T/ro/store")
cp "$T/ro/store/$good" "$T/good.json"
mount -o remount,ro "$T/ro" || die "cannot remount read-only"
run_to "$T/ro/store" syscall
[ $rc = 1 ] || { cat "$T/err"; die "read-only store: exit $rc, wanted 1"; }
one_error_line "read-only store" "could not save the run: .*[Rr]ead-only"
report_on_stdout "read-only store"
[ "$(files_in "$T/ro/store")" = "$good" ] || { ls -A "$T/ro/store"; die "read-only store: its files changed"; }
cmp -s "$T/good.json" "$T/ro/store/$good" || die "read-only store: the stored run changed"
echo "store read-only: $(sed -n 's/^kbench: //p' "$T/err")"

# 3. A full store (64k tmpfs, filled to one free page, less than a run file): the save
#    fails part way through its write; the partial temp file is removed, the good run stays.
mkdir -p "$T/full"
mount -t tmpfs -o size=64k tmpfs "$T/full" || die "cannot mount a tmpfs"
BIG="pipe syscall context1 spawn hanoi arithoh short"
run_to "$T/full/store" $BIG
[ $rc = 0 ] || die "the first run into $T/full: exit $rc"
good=$(files_in "$T/full/store")
size=$(wc -c <"$T/full/store/$good")
[ "$size" -gt 4096 ] || die "a run file of $size bytes fits in the page left free; the test needs a larger one"
cp "$T/full/store/$good" "$T/good.json"
dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null
truncate -s -4096 "$T/full/fill"
run_to "$T/full/store" $BIG
[ $rc = 1 ] || { cat "$T/err"; die "full store: exit $rc, wanted 1"; }
one_error_line "full store" "could not save the run: .*No space left"
report_on_stdout "full store"
[ "$(files_in "$T/full/store")" = "$good" ] || { ls -A "$T/full/store"; die "full store: a half-written file was left"; }
cmp -s "$T/good.json" "$T/full/store/$good" || die "full store: the stored run changed"
KBENCH_HOME="$T/full/store" "$KBENCH" show "${good%.json}" >/dev/null 2>&1 || die "full store: the stored run no longer reads"
echo "store full ($size-byte run file, 4096 bytes free): $(sed -n 's/^kbench: //p' "$T/err")"
# ... and a thermal check into it behaves the same: its verdict on stdout, one error line,
# exit 1, the stored run untouched and nothing half-written.
KBENCH_HOME="$T/full/store" "$KBENCH" thermal -c 1 --minutes 0.05 --duration 0.5 --idle 0 --interval 0 \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err"; die "thermal into a full store: exit $rc, wanted 1"; }
one_error_line "thermal into a full store" "could not save the run: .*No space left"
grep -q '^Thermal check: dhry2reg, 1 copy' "$T/out" || { cat "$T/out"; die "thermal into a full store: no verdict on stdout"; }
[ "$(files_in "$T/full/store")" = "$good" ] || { ls -A "$T/full/store"; die "thermal into a full store: a half-written file was left"; }
cmp -s "$T/good.json" "$T/full/store/$good" || die "thermal into a full store: the stored run changed"
echo "thermal check into the full store: $(sed -n 's/^kbench: //p' "$T/err")"

# 4. The scratch directory full: the file test fails saying so, the next test scores,
#    nothing is left in it but the filler.
mkdir -p "$T/sfull"
mount -t tmpfs -o size=64k tmpfs "$T/sfull" || die "cannot mount a tmpfs"
dd if=/dev/zero of="$T/sfull/fill" bs=4k 2>/dev/null
KBENCH_HOME="$T/store" "$KBENCH" run --tmpdir "$T/sfull" $RUN fstime pipe >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err"; die "full scratch: exit $rc, wanted 1"; }
grep -Eq 'File Copy.*failed: .*(full|No space)' "$T/err" || { cat "$T/err"; die "full scratch: the failure does not say why"; }
grep -Eq '^1 x Pipe Throughput +[0-9.]+ lps' "$T/err" || { cat "$T/err"; die "full scratch: the next test did not score"; }
[ "$(ls -A "$T/sfull")" = fill ] || { ls -A "$T/sfull"; die "full scratch: files left behind"; }
echo "scratch full: $(grep -E 'File Copy.*failed' "$T/err" | sed 's/  */ /g')"

# 5. The scratch directory out of inodes (no directory can be made in it): the run refuses
#    to start with a clear message; no report of nothing, no stored empty run.
mkdir -p "$T/snoino"
mount -t tmpfs -o size=1m,nr_inodes=2 tmpfs "$T/snoino" || die "cannot mount a tmpfs"
touch "$T/snoino/a"
KBENCH_HOME="$T/store5" "$KBENCH" run --tmpdir "$T/snoino" $RUN fstime pipe >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err"; die "scratch out of inodes: exit $rc, wanted 1"; }
one_error_line "scratch out of inodes" "$T/snoino"
[ ! -s "$T/out" ] || die "scratch out of inodes: a report was printed for a run that never started"
[ ! -d "$T/store5" ] || [ -z "$(ls -A "$T/store5")" ] || die "scratch out of inodes: a run was stored"
[ "$(ls -A "$T/snoino")" = a ] || die "scratch out of inodes: files left behind"
echo "scratch out of inodes: $(sed -n 's/^kbench: //p' "$T/err")"

# 6. The scratch directory read-only: the run refuses to start.
mkdir -p "$T/sro"
mount -t tmpfs -o ro tmpfs "$T/sro" || die "cannot mount a tmpfs"
KBENCH_HOME="$T/store6" "$KBENCH" run --tmpdir "$T/sro" $RUN fstime pipe >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err"; die "read-only scratch: exit $rc, wanted 1"; }
one_error_line "read-only scratch" "not writable"
[ ! -s "$T/out" ] || die "read-only scratch: a report was printed"
[ ! -d "$T/store6" ] || die "read-only scratch: a run was stored"
echo "scratch read-only: $(sed -n 's/^kbench: //p' "$T/err")"
echo ok
