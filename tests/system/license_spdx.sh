# SPDX-License-Identifier: GPL-2.0-or-later
# kbench is GPL-2.0-or-later, and says so everywhere a user, a packager or a contributor
# looks: LICENSE holds the GPL version 2's full text, every source file (C, shell, Python,
# the Makefiles, the themes) names the licence in an SPDX line at its top, and the Debian
# and RPM packages state it. data/ (the benchmark's inputs, read as UnixBench reads them)
# and the test fixtures and goldens are data, not source, and are left as they are.
. "$KBENCH_TOP/tests/system/lib.inc"
cd "$KBENCH_TOP" || die "no source tree at $KBENCH_TOP"
tag='SPDX-License-Identifier: GPL-2.0-or-later'

[ -f LICENSE ] || die "no LICENSE file"
grep -q 'GNU GENERAL PUBLIC LICENSE' LICENSE && grep -q 'Version 2, June 1991' LICENSE ||
	die "LICENSE is not the GPL version 2"
[ "$(wc -l <LICENSE)" -gt 300 ] || die "LICENSE is not the full text ($(wc -l <LICENSE) lines)"

# The tree's files: git's list in a checkout, else every file (a release tarball).
if [ -d .git ] && command -v git >/dev/null; then
	git ls-files >"$T/files"
else
	find . -type f ! -path './build*' ! -path './.git/*' | sed 's|^\./||' >"$T/files"
fi
grep -E '\.(c|h|sh|py|inc|theme)$|^Makefile$|^\.ci/run$|^debian/rules$' "$T/files" |
	grep -vE '^(data|tests/fixtures|tests/golden|tests/fuzz/corpus)/' >"$T/src"
n=$(wc -l <"$T/src")
[ "$n" -gt 300 ] || die "only $n source files found"
: >"$T/bad"
while IFS= read -r f; do
	head -n 2 "$f" | grep -qF "$tag" || echo "$f" >>"$T/bad"
done <"$T/src"
[ ! -s "$T/bad" ] || die "$(wc -l <"$T/bad") source files without '$tag' in their first two lines: $(head -n 5 "$T/bad" | tr '\n' ' ')"

grep -q '^License: GPL-2+' debian/copyright || die "debian/copyright does not state GPL-2+"
grep -qi 'placeholder' debian/copyright && die "debian/copyright calls its licence a placeholder"
grep -q '^License: *GPL-2.0-or-later' contrib/rpm/kbench.spec || die "the RPM spec does not state GPL-2.0-or-later"
grep -q '^%license LICENSE' contrib/rpm/kbench.spec || die "the RPM package does not ship LICENSE"
echo "$n source files carry the SPDX line; LICENSE is the GPL v2; Debian and RPM state GPL-2.0-or-later"
