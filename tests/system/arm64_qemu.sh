#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The arm64 build (make ARCH=arm64) run headless under qemu-user, one test of each family
# that works there: rates (dhry2reg, syscall), memlat, timerlat, wakelat, kbuild and
# buildload; every sample ends on time, and the run the arm64 binary stored is read by the
# native one. The tests whose worker execs kbench-exec (execl, spawn, shell1, scaling) are
# the emulator's limit: qemu-user hands an arm64 program's execve to the kernel, which runs
# another arm64 program only through binfmt_misc; without a qemu-aarch64 entry there each
# must fail with one line naming "Exec format error", with one it must run. And make
# ARCH=arm64 without the cross compiler says so.
# requires: qemu-aarch64-static aarch64-linux-gnu-gcc make flock
# cost: 61 heavy (a build of build-arm64, beside arm64_system)
. "$KBENCH_TOP/tests/system/lib.inc"

# One arm64 binary serves every suite; it runs in the native one (make test).
[ "${BUILD:-build}" = build ] || skip "the arm64 run is part of the native suite (make test), not $BUILD's"

arm="$KBENCH_TOP/build-arm64"
# Without the target's compiler make names it (it used to blame SQLite's header).
(cd "$KBENCH_TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s ARCH=arm64 CC=no-such-gcc-kbench kbench \
	>"$T/nocc" 2>&1) && die "make ARCH=arm64 with a missing compiler succeeded"
grep -q "ARCH=arm64: the compiler no-such-gcc-kbench is not installed; run 'make deps ARCH=arm64'" "$T/nocc" ||
	{ cat "$T/nocc"; die "make ARCH=arm64 with a missing compiler does not name it"; }
# Not a sub-make of make test: its jobserver and its ARCH-less variables stay out.
# arm64_qemu.sh and arm64_system.sh start side by side in make test: one builds, the other
# waits for it (two makes in one tree build it twice, each over the other's files).
mkdir -p "$arm"
(cd "$KBENCH_TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	flock "$arm/.build.lock" make -s -j2 ARCH=arm64 kbench >"$T/build" 2>&1) || { tail -20 "$T/build"; die "make ARCH=arm64 failed"; }
file_class=$(od -An -tx1 -j18 -N1 "$arm/kbench" | tr -d ' ')
[ "$file_class" = b7 ] || die "$arm/kbench is not an arm64 program (e_machine $file_class)"
q() { qemu-aarch64-static "$arm/kbench" "$@"; }

# sample_on_time TEST SECONDS: the stderr of the last run says TEST's one sample took
# about SECONDS (a timer that never fired under the emulator would leave it running
# until the runner's kill, 10 s past the deadline).
sample_on_time() {
	line=$(grep -E "^1 x $1: sample 1/1: " "$T/err" | tail -n 1)
	[ -n "$line" ] || { cat "$T/out" "$T/err"; die "$1: no sample line"; }
	echo "$line" | awk -v want="$2" '{ t = $(NF - 1); gsub(/\(/, "", t)
		exit !(t + 0 > 0 && t + 0 < want + 1.5) }' ||
		die "$1 did not end on time under qemu-user: $line"
}

mkdir -p "$T/scratch"
run="-c 1 --samples 1 --pause 0 --tmpdir $T/scratch"
# Rates: Dhrystone's loop ends on its thread's timer, syscall's on the runner's stop flag.
expect_exit 0 q run $run --duration 1 --name arm64-rates dhry2reg syscall
sample_on_time dhry2reg 1
sample_on_time syscall 1
grep -Eq '^Dhrystone 2 using register variables +[0-9.]+ lps' "$T/out" || { cat "$T/out"; die "no Dhrystone score"; }
grep -Eq '^System Call Overhead +[0-9.]+ lps' "$T/out" || { cat "$T/out"; die "no syscall score"; }
# The run file is the same on every architecture: the native kbench lists and shows it.
"$KBENCH" runs >"$T/runs" 2>&1 || { cat "$T/runs"; die "the native kbench cannot list the arm64 run"; }
grep -q 'arm64-rates' "$T/runs" || { cat "$T/runs"; die "the arm64 run is not in the store"; }
"$KBENCH" show arm64-rates >"$T/show" 2>&1 || { cat "$T/show"; die "the native kbench cannot show the arm64 run"; }
grep -q 'Dhrystone 2 using register variables' "$T/show" || { cat "$T/show"; die "the arm64 run's Dhrystone is not shown"; }

# Memory latency: a short sweep, each size's chase ending on time, on lib.inc's fake cache tree
# (the sweep's L1 row follows the caches sysfs gives, and a VM may give none)
fake_caches "$T/caches"
export KBENCH_SYSFS_ROOT="$T/caches"
expect_exit 0 q run $run --no-save --sizes 512:64K:1 --duration 0.5 memlat
unset KBENCH_SYSFS_ROOT
grep -Eq '^  (fwd|rnd) L1 ' "$T/out" || { cat "$T/out"; die "memlat: no L1 point"; }

# Latencies: the timer and futex wake-ups are measured and the samples end on time.
expect_exit 0 q run $run --no-save --duration 1 --fifo off timerlat
sample_on_time timerlat 1
grep -Eq '^  other +[0-9.]+k? +[0-9.]+k? ' "$T/out" || { cat "$T/out"; die "timerlat: no percentiles"; }
expect_exit 0 q run $run --no-save --duration 1 wakelat
sample_on_time wakelat 1
cat "$T/out" "$T/err" | grep -Eq 'wake p50 [0-9.]+ us' || { cat "$T/out" "$T/err"; die "wakelat: no p50"; }

# Builds: make and the compiler are this machine's programs, which the emulated kbench
# execs as any program execs them; the tree is the same as on x86-64 (its hash).
expect_exit 0 q run $run --no-save --tree tiny --make-jobs 1 kbuild
cat "$T/out" "$T/err" | grep -Eq 'Build time \(make, generated C tree\) \(1 samples\): -j1 [0-9.]+ s' ||
	{ cat "$T/out" "$T/err"; die "kbuild: no build time"; }
tree_hash=$(sed -n 's/.*generated C tree): .* hash \([0-9a-f]*\)$/\1/p' "$T/out" | head -n 1)
"$KBENCH" run $run --no-save --no-telemetry --tree tiny --make-jobs 1 kbuild >"$T/native" 2>&1 ||
	{ cat "$T/native"; die "the native kbuild failed"; }
grep -q "hash $tree_hash\$" "$T/native" || { grep hash "$T/out" "$T/native"; die "the arm64 tree's hash is not the native one's ($tree_hash)"; }
expect_exit 0 q run $run --no-save --tree tiny --loads no_load,process_load --duration 1 buildload
cat "$T/out" "$T/err" | grep -Eq 'Build under load \(contest-style\) \(1 samples\): no_load [0-9.]+ s .*process_load [0-9.]+ s' ||
	{ cat "$T/out" "$T/err"; die "buildload: no build times"; }

# The exec tests: the emulator's limit unless binfmt_misc runs arm64 programs here.
binfmt=no
for f in /proc/sys/fs/binfmt_misc/qemu-aarch64*; do
	[ -r "$f" ] && grep -qx enabled "$f" && binfmt=yes
done
for t in execl spawn shell1 "scaling --tasks 1 --jobs 2"; do
	name=${t%% *}
	if [ "$binfmt" = yes ]; then
		expect_exit 0 q run $run --no-save --duration 1 $t
	else
		expect_exit 1 q run $run --no-save --duration 1 $t
		grep -Eq "^Failed: .* \(sample 1: copy 1: .*(Exec format error|kbench-exec did not run)" "$T/out" ||
			{ cat "$T/out"; die "$name under qemu-user without binfmt_misc: not the exec error"; }
	fi
done
exit 0
