#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The packages: what linking the shared libraries (a package's kbench,
# LINK_STATIC=0, PIE) costs at start-up against the tree's static, non-PIE
# kbench, alternating in one sitting; then make package-test's time (the .deb
# from the tarball, lintian, installed and run in a clean Debian 12 root), which
# is here and not in CI: it needs root, the network, and minutes (docs/packaging.md). PACKAGE_TEST=0 leaves it out.
KBENCH=${1:-./kbench}
N=${N:-300}
top=$(cd "$(dirname "$0")/../../.." && pwd)
echo
echo "== Packages: start-up of kbench --version, shared libraries (package) vs static (make), $N each, alternating =="
tmp=$(mktemp -d /tmp/kbench-bench-package.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if ! make -s -C "$top" BUILD="$tmp/shared" LINK_STATIC=0 "$tmp/shared/kbench" >"$tmp/build.log" 2>&1; then
	tail -5 "$tmp/build.log"
	echo "could not build the shared kbench"
else
	ms() { # ms BIN: milliseconds per start, $N starts
		awk -v n="$N" -v b="$1" 'BEGIN {
			cmd = "date +%s.%N"; cmd | getline t0; close(cmd)
			for (i = 0; i < n; i++) system(b " --version >/dev/null")
			cmd | getline t1; close(cmd)
			printf "%.3f\n", (t1 - t0) * 1000 / n
		}'
	}
	for r in 1 2 3; do
		echo "$(ms "$tmp/shared/kbench") $(ms "$KBENCH")"
	done >"$tmp/times"
	awk '{ s += $1; t += $2 } END { printf "%-28s %8.3f ms\n%-28s %8.3f ms\nratio shared/static %8.2f\n",
		"shared, PIE (package)", s / NR, "static, no PIE (make)", t / NR, s / t }' "$tmp/times"
fi
echo
echo "== make package-test (amd64) =="
if [ "${PACKAGE_TEST:-1}" = 0 ]; then
	echo "skipped: PACKAGE_TEST=0"
elif [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root (debootstrap, chroot)"
elif ! command -v debootstrap >/dev/null 2>&1 || ! command -v dpkg-buildpackage >/dev/null 2>&1; then
	echo "skipped: debootstrap or dpkg-buildpackage is not installed (make deps installs them)"
else
	t0=$(date +%s)
	if make -s -C "$top" package-test PKG_ARCHS=amd64 >"$tmp/pt.log" 2>&1; then
		grep -E 'package-test: (amd64: kbench_|passed)' "$tmp/pt.log"
	else
		tail -20 "$tmp/pt.log"
		echo "package-test FAILED"
	fi
	echo "package-test took $(($(date +%s) - t0)) s (a Debian root made by debootstrap is kept for the next run)"
fi
