#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The arm64 build on a real arm64 kernel: Debian's arm64 cloud kernel booted under
# qemu-system-aarch64 (tests/tools/arm64_vm.sh: the virt board, Cortex-A57, 2 CPUs). It runs what
# qemu-user cannot (arm64_qemu.sh): the whole index at 1 and 2 copies, whose execl, spawn
# and shell tests exec other arm64 programs, the scaling family (which execs kbench-exec),
# and perf_event_open's software counters through libpfm4. Every test scores; the run is
# read by the native kbench, says the machine's CPU as an arm64 /proc/cpuinfo names it
# (CPU part 0xd07: Cortex-A57), its kernel, and counted its task-clock.
# requires: qemu-system-aarch64 cpio aarch64-linux-gnu-gcc make apt-get dpkg-deb python3 flock
# cost: 60 heavy (a build of build-arm64 and a 2-CPU VM)
. "$KBENCH_TOP/tests/system/lib.inc"

# One arm64 binary and one kernel serve every suite; it runs in the native one (make test).
[ "${BUILD:-build}" = build ] || skip "the arm64 machine is part of the native suite (make test), not $BUILD's"

arm="$KBENCH_TOP/build-arm64"
# arm64_qemu.sh and arm64_system.sh start side by side in make test: one builds, the other
# waits for it (two makes in one tree build it twice, each over the other's files).
mkdir -p "$arm"
(cd "$KBENCH_TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	flock "$arm/.build.lock" make -s -j2 ARCH=arm64 kbench >"$T/build" 2>&1) || { tail -20 "$T/build"; die "make ARCH=arm64 failed"; }
# make deps ARCH=arm64 fetched the kernel; a machine that skipped it fetches it now
sh "$KBENCH_TOP/tests/tools/arm64_vm.sh" fetch "$arm/vm" >"$T/fetch" 2>&1 ||
	{ cat "$T/fetch"; die "no arm64 kernel to boot (make deps ARCH=arm64 fetches Debian's)"; }

vm() { VM_TIMEOUT=600 sh "$KBENCH_TOP/tests/tools/arm64_vm.sh" run "$arm/vm" "$T/vm" -- "$@"; }
vm run -c 1,2 --samples 1 --duration 0.5 --pause 0 --events task-clock,context-switches \
	--tasks 1,2 --jobs 2 --name arm64-kernel index scaling || {
	rc=$?; cat "$T/vm/out" "$T/vm/err" 2>/dev/null; tail -n 30 "$T/vm/console"
	die "kbench in the arm64 machine exited $rc"
}
out="$T/vm/out"

# Every index test scored at both copy counts: the exec tests ran on the arm64 kernel.
for label in "Dhrystone 2 using register variables" "Double-Precision Whetstone" "Execl Throughput" \
	"File Copy 1024 bufsize 2000 maxblocks" "File Copy 256 bufsize 500 maxblocks" \
	"File Copy 4096 bufsize 8000 maxblocks" "Pipe Throughput" "Pipe-based Context Switching" \
	"Process Creation" "Shell Scripts (1 concurrent)" "Shell Scripts (8 concurrent)" "System Call Overhead"; do
	n=$(grep -F "$label" "$out" | grep -Ec '[0-9]\.[0-9] (lps|MWIPS|KBps|lpm) +\([0-9.]+ s, 1 samples\)$')
	[ "$n" = 2 ] || { cat "$out"; die "$label: $n scores of 2 copy counts (want one each)"; }
done
[ "$(grep -c '^System Benchmarks Index Score  ' "$out")" = 2 ] || { cat "$out"; die "not two whole index scores"; }
grep -Eq '^ +1 +[0-9.]+ ' "$out" && grep -Eq '^ +2 +[0-9.]+ ' "$out" ||
	{ cat "$out"; die "scaling: no 1-task and 2-task steps"; }

# The native kbench reads the arm64 run: its kernel, its CPU by arm64's cpuinfo.
export KBENCH_HOME="$T/vm/store"
"$KBENCH" runs >"$T/runs" 2>&1 || { cat "$T/runs"; die "the native kbench cannot list the arm64 run"; }
grep -q "arm64-kernel  *[0-9-]* [0-9:]* *$(cat "$arm/vm/version")" "$T/runs" ||
	{ cat "$T/runs"; die "the run does not list the arm64 kernel $(cat "$arm/vm/version")"; }
"$KBENCH" show arm64-kernel >"$T/show" 2>&1 || { cat "$T/show"; die "kbench show failed"; }
grep -q '^   Machine: aarch64' "$T/show" || { cat "$T/show"; die "the report does not say aarch64"; }
grep -q '^   CPU 0: ARM Cortex-A57' "$T/show" || { sed -n 1,12p "$T/show"; die "the CPU line does not name the Cortex-A57"; }
# perf_event_open on the arm64 kernel: task-clock counted (about 0.5 s of one copy's sample: 0.1 s at least)
python3 - "$T/vm/store" <<'EOF' || die "the arm64 run counted no task-clock"
import glob, json, sys
r = json.load(open(glob.glob(sys.argv[1] + "/*.json")[0]))
t = next(t for t in r["blocks"][0]["tests"] if t["id"] == "syscall")
kv = {k["key"]: k.get("value") for k in t["summary"]}
sys.exit(0 if (kv.get("counter.task-clock") or 0) > 1e8 else 1)
EOF
echo ok
