# SPDX-License-Identifier: GPL-2.0-or-later
# The version from its one place (VERSION, git describe in a checkout) in --version, the man page
# and every stored run; the Debian and RPM versions agree with VERSION; make dist gives the same
# bytes twice, only HEAD's tracked files, and its tarball builds without git and says its version.
# cost: 18
. "$KBENCH_TOP/tests/system/lib.inc"
top=$KBENCH_TOP
file=$(cat "$top/VERSION")
# A release tarball's VERSION says what git described (0.2.0+gabc1234): its release is 0.2.0.
release=${file%%[+-]*}
case "$release" in [0-9]*.[0-9]*.[0-9]*) ;; *) die "VERSION holds '$file', not x.y.z" ;; esac

# The packages' versions are VERSION's.
deb=$(sed -n '1s/^kbench (\([^)]*\)).*/\1/p' "$top/debian/changelog")
[ "${deb%-*}" = "$release" ] || die "debian/changelog is at $deb, VERSION at $release"
rpm=$(sed -n 's/^Version: *//p' "$top/contrib/rpm/kbench.spec")
[ "$rpm" = "$release" ] || die "contrib/rpm/kbench.spec is at $rpm, VERSION at $release"

expect_exit 0 "$KBENCH" --version
v=$(sed -n 's/^kbench //p' "$T/out")
[ -n "$v" ] || die "--version said '$(cat "$T/out")'"
git_ok=false
command -v git >/dev/null 2>&1 && git -C "$top" rev-parse --git-dir >/dev/null 2>&1 && git_ok=true
if $git_ok && tag=$(git -C "$top" describe --tags --match 'v[0-9]*' 2>/dev/null); then
	case "$v" in "${tag#v}"*) ;; *) die "--version says $v, git describe $tag" ;; esac
else
	case "$v" in "$file"*) ;; *) die "--version says $v, VERSION $file" ;; esac
fi
expect_exit 0 "$KBENCH" help --man
grep -q "^\.TH KBENCH 1 .*\"kbench $v\"" "$T/out" || die "the man page's .TH does not carry $v: $(grep '^\.TH' "$T/out")"

# Every stored run carries it.
expect_exit 0 "$KBENCH" run -q -c 1 --samples 1 --duration 0.2 --pause 0 --tmpdir "$T" --no-telemetry syscall
expect_exit 0 "$KBENCH" export last --format json
grep -q "\"kbench_version\": \"$v\"" "$T/out" || die "the stored run does not carry $v: $(grep kbench_version "$T/out")"

$git_ok || skip "not a git checkout: make dist not checked"
head=$(git -C "$top" describe --tags --match 'v[0-9]*' 2>/dev/null) && head=${head#v} ||
	head="$file+g$(git -C "$top" describe --always)"
make -s -C "$top" dist DISTDIR="$T/a" >/dev/null || die "make dist failed"
sleep 1 # a second later: a date taken from the clock would differ
make -s -C "$top" dist DISTDIR="$T/b" >/dev/null || die "make dist failed the second time"
tgz="$T/a/kbench-$head.tar.gz"
[ -f "$tgz" ] || die "make dist wrote $(ls "$T/a"), wanted kbench-$head.tar.gz"
cmp -s "$tgz" "$T/b/kbench-$head.tar.gz" || die "make dist twice gave two different tarballs"
tar -tzf "$tgz" | sed -n "s|^kbench-$head/||p" | grep -v '/$' | grep -v '^$' | sort >"$T/in-tar"
{ git -C "$top" ls-tree -r --name-only HEAD | grep -vx VERSION; echo VERSION; } | sort >"$T/tracked"
cmp -s "$T/in-tar" "$T/tracked" || { diff "$T/tracked" "$T/in-tar" | head; die "the tarball is not HEAD's tracked files"; }
mkdir "$T/x" && tar -xzf "$tgz" -C "$T/x"
[ "$(cat "$T/x/kbench-$head/VERSION")" = "$head" ] || die "the tarball's VERSION is $(cat "$T/x/kbench-$head/VERSION"), wanted $head"
[ ! -e "$T/x/kbench-$head/.git" ] || die "the tarball holds .git"
# Built where git has nothing to say (no .git): the version is the tarball's. In a clean
# environment: make test's variables (SAN=1, MAKEFLAGS) are in ours. Unoptimised: that it
# builds and what it says are checked here, not its speed (-O2 took some 30 s more of CPU).
(cd "$T/x/kbench-$head" && env -i PATH="$PATH" HOME="$HOME" make -s -j2 kbench CFLAGS=-O0 WL_CFLAGS=-O0 \
	>"$T/build.log" 2>&1) ||
	{ tail -20 "$T/build.log"; die "the tarball does not build"; }
[ "$("$T/x/kbench-$head/kbench" --version)" = "kbench $head" ] ||
	die "the tarball's build says $("$T/x/kbench-$head/kbench" --version), wanted kbench $head"
echo ok
