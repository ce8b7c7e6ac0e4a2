#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The arm64 build run on a real arm64 kernel: Debian's cloud kernel booted by
# qemu-system-aarch64 (the "virt" board, Cortex-A57, 2 CPUs, no disk), with an initramfs of
# busybox, build-arm64/kbench, kbench-exec, data/ and the C library. Where qemu-user cannot
# go (a workload that execs another arm64 program: execl, spawn, the shell tests, scaling;
# perf_event_open), a whole emulated machine can.
#
#   sh tests/tools/arm64_vm.sh fetch DIR          Debian's arm64 cloud kernel and busybox-static
#                                           into DIR (apt-get download; make deps ARCH=arm64)
#   sh tests/tools/arm64_vm.sh run DIR OUT -- ARGS  boots the machine and runs `kbench ARGS` in it;
#                                           OUT gets its stdout (out), stderr (err), exit
#                                           status (rc), the console (console) and the runs
#                                           it stored (store/, a KBENCH_HOME the native
#                                           kbench reads)
#   sh tests/tools/arm64_vm.sh unit DIR OUT       the arm64 unit tests (make unit ARCH=arm64 builds
#                                           them), run there by tests/tools/run.sh; OUT/out its report
#   sh tests/tools/arm64_vm.sh system DIR OUT     the system tests (tests/system/*.sh), run there by
#                                           tests/tools/run.sh on a Debian arm64 userland (bash,
#                                           coreutils, python3, tmux, ...: tests/tools/arm64_root.sh);
#                                           OUT/out its report, the console shows it as it goes
#
# Environment: KBENCH_ARM64 (the build directory, default build-arm64), VM_TIMEOUT
# (seconds, default 900: an emulated CPU is several times slower than the host's), VM_MEM
# (MiB: 1024 for run, 2048 for unit, 3072 for system), TESTS (unit and system: the names
# tests/tools/run.sh runs, as for make test), JOBS (system: tests side by side, default 2).
set -eu
die() { echo "arm64_vm: $*" >&2; exit 1; }
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ARM=${KBENCH_ARM64:-$TOP/build-arm64}

kernel_pkg() {
	apt-cache depends linux-image-cloud-arm64:arm64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^ ]*-cloud-arm64\).*/\1/p' | head -n 1
}

fetch() {
	dir=$1
	mkdir -p "$dir"
	[ -s "$dir/Image" ] && [ -x "$dir/busybox" ] && return 0
	command -v apt-get >/dev/null 2>&1 || die "no apt-get: put an arm64 kernel Image and a static arm64 busybox in $dir"
	# the metapackage names the kernel of the day; download that one (apt-get download
	# fetches exactly what it is given: a package, not its dependencies)
	kpkg=$(kernel_pkg)
	# a make deps for another architecture refreshed apt's index for that one alone (it
	# names the architectures apt sees), leaving arm64's out: refresh arm64's, as root
	if [ -z "$kpkg" ] && [ "$(id -u)" = 0 ] && dpkg --print-foreign-architectures | grep -qx arm64; then
		apt-get update -qq -o APT::Architectures::="$(dpkg --print-architecture)" \
			-o APT::Architectures::=arm64 >/dev/null 2>&1
		kpkg=$(kernel_pkg)
	fi
	[ -n "$kpkg" ] || die "apt knows no linux-image-cloud-arm64:arm64 (run 'make deps ARCH=arm64' on Debian)"
	tmp=$(mktemp -d "$dir/fetch.XXXXXX")
	# as root, apt-get download warns that its sandbox user cannot write here: harmless
	(cd "$tmp" && apt-get download -q "$kpkg:arm64" busybox-static:arm64 >/dev/null 2>&1) ||
		{ rm -rf "$tmp"; die "apt-get download $kpkg:arm64 busybox-static:arm64 failed"; }
	for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/x"; done
	img=$(ls "$tmp"/x/boot/vmlinuz-* 2>/dev/null | head -n 1)
	[ -n "$img" ] && [ -x "$tmp/x/bin/busybox" ] || { rm -rf "$tmp"; die "the downloaded packages hold no kernel or busybox"; }
	cp "$img" "$dir/Image.tmp" && mv "$dir/Image.tmp" "$dir/Image"
	cp "$tmp/x/bin/busybox" "$dir/busybox.tmp" && mv "$dir/busybox.tmp" "$dir/busybox"
	basename "$img" | sed 's/^vmlinuz-//' >"$dir/version"
	rm -rf "$tmp"
}

# the arm64 C library kbench links, from the cross toolchain's sysroot
libdir() {
	for d in /usr/aarch64-linux-gnu/lib /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu; do
		[ -e "$d/ld-linux-aarch64.so.1" ] && { echo "$d"; return; }
	done
	die "no arm64 C library (ld-linux-aarch64.so.1): run 'make deps ARCH=arm64'"
}

# copy_libs "PROGRAMS" ROOT: the C library and the shared libraries PROGRAMS need, into ROOT/lib
copy_libs() {
	lib=$(libdir)
	for l in ld-linux-aarch64.so.1 libc.so.6 libm.so.6; do cp -L "$lib/$l" "$2/lib/$l"; done
	for n in $(for b in $1; do aarch64-linux-gnu-readelf -d "$b" 2>/dev/null; done |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u); do
		[ -e "$2/lib/$n" ] && continue
		for d in "$lib" /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu; do
			[ -e "$d/$n" ] && { cp -L "$d/$n" "$2/lib/$n"; break; }
		done
		[ -e "$2/lib/$n" ] || die "no arm64 $n: run 'make deps ARCH=arm64'"
	done
}

# new_root OUT: a fresh machine root under OUT (busybox, kbench, kbench-exec, data/), printed
new_root() {
	[ -s "$dir/Image" ] || die "no arm64 kernel in $dir: run 'sh tests/tools/arm64_vm.sh fetch $dir'"
	[ -x "$ARM/kbench" ] && [ -x "$ARM/kbench-exec" ] || die "no arm64 build in $ARM: run 'make ARCH=arm64'"
	command -v qemu-system-aarch64 >/dev/null 2>&1 || die "no qemu-system-aarch64: run 'make deps ARCH=arm64'"
	command -v cpio >/dev/null 2>&1 || die "no cpio: run 'make deps ARCH=arm64'"
	mkdir -p "$1"
	r=$(mktemp -d "$1/root.XXXXXX")
	mkdir -p "$r/bin" "$r/lib" "$r/kb" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
	cp "$dir/busybox" "$r/bin/busybox"
	ln -s busybox "$r/bin/sh"
	cp "$ARM/kbench" "$ARM/kbench-exec" "$r/kb/"
	cp -r "$TOP/data" "$r/kb/data"
	echo "$r"
}

# boot ROOT OUT: the machine from ROOT runs ROOT/kb/job; OUT gets its exit status (rc),
# stdout (out), stderr (err), the console and the runs stored (store/)
boot() {
	root=$1 out=$2
	cat >"$root/init" <<'INIT'
#!/bin/sh
# every applet, for kbench and for the shell tests' scripts (sort, od, grep, tee, wc, ...)
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
# what udev makes on a real system: the shell tests' scripts write to /dev/stdout
ln -s /proc/self/fd /dev/fd; ln -s fd/0 /dev/stdin; ln -s fd/1 /dev/stdout; ln -s fd/2 /dev/stderr
export PATH=/bin KBENCH_HOME=/tmp/home KBENCH_DATADIR=/kb/data HOME=/tmp TMPDIR=/tmp LANG=C
sh /kb/job >/tmp/out 2>/tmp/err
rc=$?
echo "KBVM-RC $rc"
for f in out err; do echo "KBVM-FILE $f"; base64 /tmp/$f; echo KBVM-END; done
for f in /tmp/home/*.json; do
	[ -e "$f" ] || continue
	echo "KBVM-FILE store/${f##*/}"; base64 "$f"; echo KBVM-END
done
poweroff -f
INIT
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$out/initrd.gz"
	rm -rf "$root"
	rm -rf "$out/rc" "$out/store"
	mkdir -p "$out/store"
	timeout "${VM_TIMEOUT:-900}" qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 2 -m "${VM_MEM:-1024}" \
		-nic none -nographic -no-reboot -kernel "$dir/Image" -initrd "$out/initrd.gz" \
		-append "console=ttyAMA0 quiet rdinit=/init panic=-1" </dev/null >"$out/console" 2>&1 ||
		{ tail -n 20 "$out/console" >&2; die "the machine did not power off (qemu-system-aarch64 failed or timed out)"; }
	rm -f "$out/initrd.gz"
	# the serial console ends lines with CR LF
	tr -d '\r' <"$out/console" | awk -v out="$out" '
		/^KBVM-RC / { print $2 > (out "/rc"); next }
		/^KBVM-FILE / { name = $2; body = ""; inside = 1; next }
		/^KBVM-END$/ { if (inside) { f = out "/" name ".b64"; printf "%s", body > f; close(f) } inside = 0; next }
		inside { body = body $0 "\n" }'
	[ -s "$out/rc" ] || { tail -n 20 "$out/console" >&2; die "the job did not finish in the machine"; }
	for b in "$out"/*.b64 "$out"/store/*.b64; do
		[ -e "$b" ] || continue
		base64 -d <"$b" >"${b%.b64}" || die "a file from the machine did not decode: $b"
		rm -f "$b"
	done
	return "$(cat "$out/rc")"
}

run() {
	dir=$1 out=$2
	shift 2
	[ "${1:-}" = -- ] && shift
	root=$(new_root "$out")
	copy_libs "$ARM/kbench" "$root"
	# the arguments, one per line: the job reads them back without a shell's word splitting
	printf '%s\n' "$@" >"$root/kb/args"
	cat >"$root/kb/job" <<'JOB'
set --
while IFS= read -r a; do set -- "$@" "$a"; done </kb/args
exec /kb/kbench "$@"
JOB
	boot "$root" "$out"
}

# copy_source ROOT: the source tree's tracked files into ROOT/kb/src, where tests/tools/run.sh runs
copy_source() {
	(cd "$TOP" && git ls-files -z | xargs -0 cp -P --parents -t "$1/kb/src") ||
		die "could not copy the source tree (a git checkout is needed)"
}

# the unit tests, run by tests/tools/run.sh in the source tree's tracked files with build-arm64's
# test programs (stripped: the machine holds everything in memory)
unit() {
	dir=$1 out=$2
	ls "$ARM"/tests/test_* >/dev/null 2>&1 || die "no arm64 unit tests in $ARM/tests: run 'make unit ARCH=arm64' once"
	root=$(new_root "$out")
	mkdir -p "$root/kb/src/build-arm64/tests"
	copy_source "$root"
	cp "$ARM/kbench" "$ARM/kbench-exec" "$root/kb/src/build-arm64/"
	for b in "$ARM"/tests/test_*; do
		aarch64-linux-gnu-strip -o "$root/kb/src/build-arm64/tests/${b##*/}" "$b"
	done
	copy_libs "$(ls "$ARM"/tests/test_*)" "$root"
	echo "cd /kb/src && KBENCH=/kb/src/build-arm64/kbench BUILD=build-arm64 TESTS='${TESTS:-test_}' exec sh tests/tools/run.sh" \
		>"$root/kb/job"
	VM_MEM=${VM_MEM:-2048} boot "$root" "$out"
}

# the system tests, run by tests/tools/run.sh in the source tree's tracked files with build-arm64's
# kbench, on the Debian userland tests/tools/arm64_root.sh lays out (its .debs cached in DIR/debs)
system() {
	dir=$1 out=$2
	sh "$TOP/tests/tools/arm64_root.sh" "$dir" || die "no arm64 userland for the system tests"
	root=$(new_root "$out")
	# Debian's merged /usr (bin and lib are links into usr/); busybox stays for init's
	# applets (poweroff -f), the userland's own programs come first
	rm -rf "$root/bin" "$root/lib"
	cp -a "$dir/userland/." "$root/"
	cp "$dir/busybox" "$root/usr/bin/busybox"
	mkdir -p "$root/kb/src/build-arm64"
	copy_source "$root"
	cp "$ARM/kbench" "$ARM/kbench-exec" "$root/kb/src/build-arm64/"
	# what the tests' shell scripts expect of a booted Debian: ptys for tmux, a shared-memory
	# mount, the cgroup v2 tree systemd mounts; each test's line goes to the console as well
	# as to out, so a run that outlives VM_TIMEOUT still shows how far it came
	cat >"$root/kb/job" <<JOB
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t cgroup2 cgroup2 /sys/fs/cgroup
export LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
cd /kb/src || exit 1
{ KBENCH=/kb/src/build-arm64/kbench KBENCH_DATADIR=/kb/src/data BUILD=build-arm64 \
	TESTS='${TESTS:-}' JOBS='${JOBS:-2}' sh tests/tools/run.sh 2>&1; echo \$? >/tmp/run.rc; } | tee /dev/console
exit \$(cat /tmp/run.rc)
JOB
	VM_MEM=${VM_MEM:-3072} boot "$root" "$out"
}

case ${1:-} in
fetch) [ $# = 2 ] || die "usage: arm64_vm.sh fetch DIR"; fetch "$2" ;;
run) [ $# -ge 3 ] || die "usage: arm64_vm.sh run DIR OUT -- KBENCH-ARGS"; shift; run "$@" ;;
unit) [ $# = 3 ] || die "usage: arm64_vm.sh unit DIR OUT"; shift; unit "$@" ;;
system) [ $# = 3 ] || die "usage: arm64_vm.sh system DIR OUT"; shift; system "$@" ;;
*) die "usage: arm64_vm.sh fetch DIR | run DIR OUT -- KBENCH-ARGS | unit DIR OUT | system DIR OUT" ;;
esac
