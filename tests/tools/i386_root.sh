#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The i686 build's libraries unpacked into a directory when apt cannot install Debian's
# i386 packages: a mirror whose i386 index is mid-sync (or broken for days) leaves
# libc6:i386 a version behind libc6:amd64, and multiarch refuses to install either. The
# 32-bit C library itself comes from the machine's own architecture (gcc-multilib:
# libc6-dev-i386, libc6-i386); the other libraries' i386 packages are downloaded
# (apt-get download needs no dependency to match) and unpacked with dpkg -x into DIR. The
# Makefile builds ARCH=i686 against DIR when it holds them (build-deps/i686-root) and
# links its path into every binary, so the programs run without an install.
#
#   sh tests/tools/i386_root.sh DIR PACKAGE...   PACKAGE without :i386; their i386 library
#                                                packages (Depends, not libc6) come too
set -eu
die() { echo "i386_root: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: i386_root.sh DIR PACKAGE..."
mkdir -p "$(dirname "$1")"
dir=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
command -v apt-get >/dev/null && command -v dpkg >/dev/null || die "needs apt-get and dpkg (Debian)"

# The libraries a -dev package needs at run time: its Depends on other lib* packages of
# the same architecture, one level (libncurses-dev: libncurses6, libncursesw6, libtinfo6),
# but not the C library, which is the machine's own 32-bit one.
want=
for p in "$@"; do
	want="$want $p"
	deps=$(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "$p:i386" 2>/dev/null |
		sed -n 's/^ *Depends: \(lib[^ :<>]*\)\(:i386\)\{0,1\}$/\1/p' |
		grep -Ev '^(libc6|libc6-dev|libgcc-s1|libcrypt1|libcrypt-dev)$' || true)
	want="$want $deps"
done
want=$(printf '%s\n' $want | sort -u)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# apt-get download writes into the current directory; the _apt user may not reach it
chmod 755 "$tmp"
for p in $want; do
	(cd "$tmp" && apt-get download -qq "$p:i386" 2>/dev/null) || die "apt-get download $p:i386 failed"
done
rm -rf "$dir.new"
mkdir -p "$dir.new"
for deb in "$tmp"/*.deb; do
	dpkg -x "$deb" "$dir.new" || die "dpkg -x $(basename "$deb") failed"
done
[ -d "$dir.new/usr/lib/i386-linux-gnu" ] || die "no i386 libraries in the packages"
# .so links that point at /lib/... (absolute) would leave the root: into it instead
find "$dir.new" -type l | while read -r l; do
	t=$(readlink "$l")
	case $t in /*) ln -sfn "$dir$t" "$l" ;; esac
done
# pkg-config files name /usr: the root's own prefix instead
for pc in "$dir.new"/usr/lib/i386-linux-gnu/pkgconfig/*.pc; do
	[ -f "$pc" ] && sed -i "s|^prefix=/usr|prefix=$dir/usr|" "$pc"
done
printf '%s\n' $want >"$dir.new/packages"
rm -rf "$dir"
mv "$dir.new" "$dir"
echo "i386_root: $(echo $want | wc -w) i386 packages unpacked into $dir"
