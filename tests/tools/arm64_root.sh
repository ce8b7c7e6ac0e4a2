#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian arm64 userland kbench's system tests need (tests/tools/arm64_vm.sh system), laid out in
# DIR/userland without running an arm64 program: apt resolves the packages' dependencies,
# apt-get download fetches them into DIR/debs (kept, so a second run downloads nothing) and
# dpkg-deb -x unpacks each, as debootstrap's first stage does. Its second stage (maintainer
# scripts) needs to run arm64 programs, which this host cannot without binfmt_misc; the
# tests need none of what those scripts do beyond /etc/passwd and /etc/group, written here.
#
#   sh tests/tools/arm64_root.sh DIR
#
# ARM64_ROOT_PKGS adds packages (for example "valgrind").
set -eu
die() { echo "arm64_root: $*" >&2; exit 1; }
[ $# = 1 ] || die "usage: arm64_root.sh DIR"
dir=$1
# what tests/tools/run.sh and the system tests' '# requires:' lines use, beside the Essential
# packages every Debian system has (dash as /bin/sh, mawk as awk, libc-bin's C.UTF-8 locale
# that tmux needs); make, gcc and libc6-dev for the tests that build
pkgs="base-files bash dash coreutils grep sed mawk findutils diffutils procps util-linux mount
	debianutils hostname sysvinit-utils libc-bin ncurses-bin ncurses-base ncurses-term tmux
	python3 sqlite3 tar gzip make gcc libc6-dev ${ARM64_ROOT_PKGS:-}"
stamp=$(echo $pkgs | tr ' ' '\n' | sort | tr '\n' ' ')
[ -f "$dir/userland/.pkgs" ] && [ "$(cat "$dir/userland/.pkgs")" = "$stamp" ] && exit 0
command -v apt-cache >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 ||
	die "needs apt-cache, apt-get and dpkg-deb (a Debian host)"

# closure LIST: every package LIST needs, arm64's own as NAME:arm64 and architecture-
# independent ones by bare NAME. apt-cache names an "all" package's dependencies by their
# host (amd64) names, so any such name with an arm64 build is taken as NAME:arm64 and the
# walk repeats until nothing new turns up.
closure() {
	want=$1
	while :; do
		apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
			--no-replaces --no-enhances $want 2>/dev/null | grep -v '^ ' | tr -d '<>' |
			sed -n 's/:arm64$//p; /:/d; /^[a-z0-9]/p' | sort -u >"$tmp/names"
		# each name's candidate (the host's architecture or "all"): "all" stays bare, the
		# rest are arm64's; a purely virtual name has no candidate and drops out
		next=$(apt-cache show --no-all-versions $(cat "$tmp/names") 2>/dev/null | awk '
			/^Package: / { p = $2 } /^Architecture: / { print ($2 == "all" ? p : p ":arm64") }' | sort -u)
		[ "$next" = "$(echo "$want" | tr ' ' '\n' | sed '/^$/d' | sort -u)" ] && break
		want=$(echo "$next" | tr '\n' ' ')
	done
	echo "$want"
}

mkdir -p "$dir/debs"
tmp=$(mktemp -d "$dir/root.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
list=$(closure "$(for p in $pkgs; do echo "$p:arm64"; done | tr '\n' ' ')")
[ -n "$list" ] || die "apt knows none of the packages (is the arm64 architecture added to dpkg, apt-get update run?)"
# the .debs not in the cache yet (a package's file name is NAME_VERSION_ARCH.deb)
missing=""
for p in $list; do
	n=${p%:arm64}
	ls "$dir/debs/${n}_"*.deb >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	# as root, apt-get download warns that its sandbox user cannot write here: harmless
	(cd "$dir/debs" && apt-get download -q $missing >"$tmp/download" 2>&1) ||
		{ tail -n 5 "$tmp/download" >&2; die "apt-get download failed"; }
fi
u="$tmp/userland"
mkdir -p "$u"
for p in $list; do
	n=${p%:arm64}
	deb=$(ls "$dir/debs/${n}_"*.deb | tail -n 1)
	dpkg-deb -x "$deb" "$u" || die "dpkg-deb -x $deb failed"
	# the alternatives its maintainer script would install (awk, which, cpp), with their
	# priorities: the highest of each name wins, as update-alternatives --auto decides, but a
	# package asked for by name wins over one only pulled in (mawk, Debian's default awk,
	# over gawk: some dependency offers both)
	# (one statement a line: backslash-newlines joined, split at ; and at each call)
	(dpkg-deb -I "$deb" postinst 2>/dev/null; echo ';') | tr '\\\n' '  ' |
		sed 's/;/\n/g; s/update-alternatives/\n&/g' |
		sed -n 's/.*update-alternatives.*--install  *\(\/[^ $]*\)  *\([^ $]*\)  *\(\/[^ $]*\)  *\([0-9][0-9]*\).*/\4 \2 \1 \3/p' >>"$tmp/alternatives"
done
awk -v asked=" $(echo $pkgs) " '{ n = split($4, p, "/"); if (index(asked, " " p[n] " ")) $1 += 1000; print }' \
	"$tmp/alternatives" | sort -k1,1nr | awk '!seen[$2]++ { print $3, $4 }' | while read -r link target; do
	if [ -e "$u$target" ] && [ ! -e "$u$link" ]; then
		mkdir -p "$u${link%/*}"
		ln -s "$target" "$u$link"
	fi
done
# Debian's merged /usr, which debootstrap makes: /bin, /sbin and /lib are links into /usr
for d in bin sbin lib; do
	if [ -d "$u/$d" ] && [ ! -L "$u/$d" ]; then
		mkdir -p "$u/usr/$d"
		cp -a "$u/$d/." "$u/usr/$d/"
		rm -rf "${u:?}/$d"
	fi
	[ -e "$u/$d" ] || ln -s "usr/$d" "$u/$d"
done
# the machine holds its root in memory: no documentation
rm -rf "$u/usr/share/doc" "$u/usr/share/man" "$u/usr/share/info" "$u/usr/share/locale"
[ -e "$u/usr/bin/sh" ] || ln -s dash "$u/usr/bin/sh"
[ -x "$u/usr/bin/python3" ] && [ -x "$u/usr/bin/tmux" ] && [ -x "$u/usr/bin/bash" ] ||
	die "the unpacked packages hold no python3, tmux or bash"
mkdir -p "$u/etc" "$u/root"
echo 'root:x:0:0:root:/root:/bin/sh' >"$u/etc/passwd"
printf 'root:x:0:\ntty:x:5:\n' >"$u/etc/group"
echo "$stamp" >"$u/.pkgs"
rm -rf "$dir/userland"
mv "$u" "$dir/userland"
