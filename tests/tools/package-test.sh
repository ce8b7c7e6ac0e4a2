#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make package-test: the Debian package end to end, as a user gets it. Builds
# the .deb from the release tarball (make dist: HEAD's tracked files, no .git),
# runs lintian, installs it into a clean Debian 12 root (debootstrap, minbase)
# without its Recommends, and there, as an unprivileged user and with no build
# directory around, runs kbench --version, kbench list, man kbench, a short
# headless run, the C compiler test (which must say gcc is not installed), and
# then purges it. Usage: sh tests/tools/package-test.sh [ARCH...] (default: amd64;
# i386 runs here too). Needs root (debootstrap, chroot), the network (the
# Debian mirror) and dpkg-dev, debhelper, lintian, debootstrap.
# PKGTEST_DIR (default build-pkgtest) keeps the bases debootstrap made, one per
# architecture, so later runs copy them instead of downloading them again.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${PKGTEST_DIR:-$top/build-pkgtest}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
archs=${*:-amd64}
host=$(dpkg --print-architecture)
say() { printf '%s\n' "package-test: $*"; }
die() { printf '%s\n' "package-test: FAIL: $*" >&2; exit 1; }
t0=$(date +%s)
step() { say "$1 ($(($(date +%s) - t0)) s)"; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot); run it as root or with sudo"
for tool in dpkg-buildpackage dh lintian debootstrap unshare git; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed (make deps installs it)"
done

# The tarball, unpacked: what a release user builds from.
mkdir -p "$dir"
rm -rf "$dir/src" && mkdir -p "$dir/src"
make -s -C "$top" dist DISTDIR="$dir/src" >/dev/null
tarball=$(ls "$dir"/src/kbench-*.tar.gz)
tar -xzf "$tarball" -C "$dir/src"
srcdir=$(find "$dir/src" -mindepth 1 -maxdepth 1 -type d)
[ ! -e "$srcdir/.git" ] || die "the tarball holds a .git"
version=$(dpkg-parsechangelog -l "$srcdir/debian/changelog" -S Version)
upstream=${version%-*}

for arch in $archs; do
	step "$arch: building the .deb from $(basename "$tarball")"
	# A cross build leaves its unit tests out (nocheck): they are make test's
	# on that architecture; this is about the package.
	aopt="" opts=${DEB_BUILD_OPTIONS:-}
	[ "$arch" = "$host" ] || { aopt="-a$arch"; opts="$opts nocheck"; }
	(cd "$srcdir" && DEB_BUILD_OPTIONS="$opts" dpkg-buildpackage -us -uc -b $aopt) >"$dir/build-$arch.log" 2>&1 ||
		{ tail -n 30 "$dir/build-$arch.log"; die "$arch: dpkg-buildpackage failed (log: $dir/build-$arch.log)"; }
	deb="$dir/src/kbench_${version}_$arch.deb"
	[ -f "$deb" ] || die "$arch: no $deb"
	say "$arch: $(basename "$deb"): $(stat -c %s "$deb") bytes, installed size $(dpkg-deb -f "$deb" Installed-Size) KiB"
	say "$arch: Depends: $(dpkg-deb -f "$deb" Depends)"
	say "$arch: Recommends: $(dpkg-deb -f "$deb" Recommends)"

	step "$arch: lintian"
	lintian --fail-on error,warning "$dir/src/kbench_${version}_$arch.changes" >"$dir/lintian-$arch.log" 2>&1 ||
		{ cat "$dir/lintian-$arch.log"; die "$arch: lintian reports errors or warnings"; }
	sed 's/^/    /' "$dir/lintian-$arch.log"

	base="$dir/base-bookworm-$arch"
	if [ ! -x "$base/usr/bin/apt-get" ]; then
		step "$arch: debootstrap a minimal Debian 12 root (once; kept in $base)"
		rm -rf "$base"
		debootstrap --variant=minbase --arch="$arch" bookworm "$base" "$mirror" >"$dir/debootstrap-$arch.log" 2>&1 ||
			{ tail -n 20 "$dir/debootstrap-$arch.log"; rm -rf "$base"; die "$arch: debootstrap failed"; }
	fi
	root="$dir/root-$arch"
	rm -rf "$root"
	cp -a "$base" "$root"
	cp "$deb" "$root/tmp/kbench.deb"
	cp /etc/resolv.conf "$root/etc/resolv.conf"

	# Everything in the root runs in a private mount namespace: /proc, /sys
	# and /dev go away with it, whatever happens.
	step "$arch: installing into the clean root (no Recommends), running as a user"
	cat >"$root/tmp/inside.sh" <<EOF
set -eu
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin
apt-get -qq update
apt-get -qq install -y --no-install-recommends /tmp/kbench.deb man-db >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
rm -f /tmp/kbench.deb
useradd -m user
cd /home/user
as_user() { chroot --userspec=user:user / env -i HOME=/home/user PATH=/usr/bin:/bin TERM=dumb COLUMNS=80 LANG=C.UTF-8 sh -c "cd && \$1"; }
echo '\$ kbench --version'; as_user 'kbench --version' | tee /tmp/version
[ "\$(cat /tmp/version)" = "kbench $upstream" ] || { echo "wanted kbench $upstream"; exit 1; }
echo '\$ kbench list | head -5'; as_user 'kbench list' >/tmp/list; head -5 /tmp/list
grep -q '^syscall ' /tmp/list || grep -q ' syscall ' /tmp/list || { echo "no syscall in kbench list"; exit 1; }
echo '\$ man kbench | head -4'; as_user 'man -P cat kbench 2>/dev/null' >/tmp/man; head -4 /tmp/man
grep -q 'kbench' /tmp/man || { echo "man kbench printed nothing"; exit 1; }
echo '\$ kbench run -c 1 --duration 1 --samples 1 --pause 0 syscall'
as_user 'kbench run -c 1 --duration 1 --samples 1 --pause 0 syscall' >/tmp/run 2>&1 || { cat /tmp/run; exit 1; }
grep '^System Call Overhead ' /tmp/run || { cat /tmp/run; echo "no syscall row"; exit 1; }
echo '\$ kbench runs'; as_user 'kbench runs'
echo '\$ kbench help comparing | head -3'; as_user 'kbench help comparing' >/tmp/guide; head -3 /tmp/guide
grep -q '^# Comparing kernels' /tmp/guide || { echo "kbench help comparing printed no page of the guide"; exit 1; }
as_user 'kbench export last --format json' >/tmp/json
grep -q '"kbench_version": "$upstream"' /tmp/json || { echo "the stored run does not carry $upstream"; exit 1; }
echo '\$ kbench run -c 1 --samples 1 --duration 0.3 --pause 0 --no-save C'
as_user 'kbench run -c 1 --samples 1 --duration 0.3 --pause 0 --no-save C' >/tmp/cc 2>&1 && { cat /tmp/cc; echo "the C test ran without gcc"; exit 1; }
grep '^Failed: C Compiler Throughput' /tmp/cc
grep -q 'gcc is not installed' /tmp/cc || { cat /tmp/cc; echo "no 'gcc is not installed'"; exit 1; }
echo '\$ kbench run -c 1 --duration 1 --samples 1 --pause 0 shell1'
as_user 'kbench run -c 1 --duration 1 --samples 1 --pause 0 --no-save shell1' >/tmp/shell 2>&1 || { cat /tmp/shell; exit 1; }
grep '^Shell Scripts (1 concurrent) ' /tmp/shell || { cat /tmp/shell; echo "no shell1 row"; exit 1; }
apt-get -qq purge -y kbench >/dev/null
for f in /usr/bin/kbench /usr/libexec/kbench /usr/share/kbench /usr/share/man/man1/kbench.1.gz /usr/share/bash-completion/completions/kbench; do
	[ ! -e "\$f" ] || { echo "\$f left after apt-get purge"; exit 1; }
done
echo 'purged: nothing of kbench left'
EOF
	unshare -m sh -c '
		set -e
		mount --make-rprivate /
		mount -t proc proc "$1/proc"
		mount --rbind /sys "$1/sys"
		mount --rbind /dev "$1/dev"
		chroot "$1" sh /tmp/inside.sh
	' sh "$root" >"$dir/inside-$arch.log" 2>&1 ||
		{ sed 's/^/    /' "$dir/inside-$arch.log"; die "$arch: the installed package failed (root kept: $root)"; }
	sed 's/^/    /' "$dir/inside-$arch.log"
	rm -rf "$root"
	step "$arch: ok"
done
say "passed: $archs in $(($(date +%s) - t0)) s"
