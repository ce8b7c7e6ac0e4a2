# SPDX-License-Identifier: GPL-2.0-or-later
# README.md stays true to the binary where they can drift apart: its table of contents
# matches its headings (tests/tools/readme_toc.py), its Tests table has a row for every test
# `kbench list` prints, and its Groups paragraph names every group.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
R="$KBENCH_TOP/README.md"
python3 "$KBENCH_TOP/tests/tools/readme_toc.py" "$R" --check || die "README's table of contents"

expect_exit 0 "$KBENCH" list
cp "$T/out" "$T/list"
# The tests: the first word of each row of the list's table, up to its first blank line.
ids=$(awk 'NR == 1 { next } /^$/ { exit } /^[^ ]/ { print $1 }' "$T/list")
[ "$(echo "$ids" | wc -l)" -ge 30 ] || die "kbench list printed too few tests: $ids"
# The README's Tests table: its rows' first cells (a cell may list several ids).
sed -n '/^## Tests$/,/^### /p' "$R" | awk -F'|' '/^\| [a-zA-Z]/ { print $2 }' | tr ',' '\n' |
	sed 's/^ *//; s/ *$//' >"$T/readme_ids"
for id in $ids; do
	grep -qxF "$id" "$T/readme_ids" || die "README's Tests table has no row for '$id' (kbench list has it)"
done
# The groups, from the GROUP table, in the Groups paragraph.
groups=$(awk '/^GROUP / { g = 1; next } g && /^[a-z]/ { print $1 }' "$T/list")
[ -n "$groups" ] || die "kbench list printed no groups"
sed -n '/^Groups: /,/^$/p' "$R" | tr '\n' ' ' >"$T/readme_groups"
for g in $groups; do
	grep -q "\`$g\`" "$T/readme_groups" || die "README's Groups paragraph does not name '$g'"
done
echo "README: contents match the headings; $(echo "$ids" | wc -l) tests and $(echo "$groups" | wc -l) groups documented"
