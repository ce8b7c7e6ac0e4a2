# SPDX-License-Identifier: GPL-2.0-or-later
# README.md and the guide (docs/) stay true to the binary and to themselves: tests/tools/docs.py
# checks their lengths (README at most 300 lines, a page at most 400), tables of contents, option
# tables (each what its 'kbench help --markdown COMMAND...' prints), links and anchors, and that no
# figure of the development machine reads as the reader's; docs/running.md's Tests table has a row
# for every test `kbench list` prints and its Groups paragraph names every group; `kbench help`
# lists every page of the guide and `kbench help TOPIC` prints it.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
python3 "$KBENCH_TOP/tests/tools/docs.py" --top "$KBENCH_TOP" --kbench "$KBENCH" >"$T/docs.out" 2>&1 ||
	die "README.md and docs/: $(head -20 "$T/docs.out")"

R="$KBENCH_TOP/docs/running.md"
expect_exit 0 "$KBENCH" list
cp "$T/out" "$T/list"
# The tests: the first word of each row of the list's table, up to its first blank line.
ids=$(awk 'NR == 1 { next } /^$/ { exit } /^[^ ]/ { print $1 }' "$T/list")
[ "$(echo "$ids" | wc -l)" -ge 30 ] || die "kbench list printed too few tests: $ids"
# The Tests table: its rows' first cells (a cell may list several ids).
sed -n '/^## The tests$/,/^## /p' "$R" | awk -F'|' '/^\| [a-zA-Z]/ { print $2 }' | tr ',' '\n' |
	sed 's/^ *//; s/ *$//' >"$T/doc_ids"
for id in $ids; do
	grep -qxF "$id" "$T/doc_ids" || die "docs/running.md's Tests table has no row for '$id' (kbench list has it)"
done
# The groups, from the GROUP table, in the Groups paragraph.
groups=$(awk '/^GROUP / { g = 1; next } g && /^[a-z]/ { print $1 }' "$T/list")
[ -n "$groups" ] || die "kbench list printed no groups"
sed -n '/^Groups: /,/^$/p' "$R" | tr '\n' ' ' >"$T/doc_groups"
for g in $groups; do
	grep -q "\`$g\`" "$T/doc_groups" || die "docs/running.md's Groups paragraph does not name '$g'"
done

# kbench help: the guide's pages by name, each printed as written; a name that is neither a
# command nor a page is one line and exit 2.
expect_exit 0 "$KBENCH" help
cp "$T/out" "$T/help"
pages=0
for f in "$KBENCH_TOP"/docs/*.md; do
	topic=$(basename "$f" .md)
	[ "$topic" = README ] && continue
	grep -q "^  $topic " "$T/help" || die "kbench help does not list the guide's page '$topic'"
	expect_exit 0 "$KBENCH" help "$topic"
	cmp -s "$T/out" "$f" || die "kbench help $topic is not docs/$topic.md"
	pages=$((pages + 1))
done
expect_exit 2 "$KBENCH" help no-such-topic
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "'no-such-topic' is not a command or a topic" "$T/err" ||
	die "kbench help no-such-topic: $(cat "$T/err")"
# A kbench with no guide beside it or in its share directory says so in one line (unless an
# installed guide in the compiled-in prefix answers for it).
mkdir -p "$T/bin"
cp "$KBENCH" "$T/bin/kbench"
if ! "$T/bin/kbench" help | grep -q '^the guide'; then
	expect_exit 2 "$T/bin/kbench" help comparing
	grep -q "'comparing' is not a command, and the guide's pages are not installed here" "$T/err" ||
		die "a kbench without the guide: $(cat "$T/err")"
fi
# A command's name is its options, not a page.
expect_exit 0 "$KBENCH" help run
grep -q -- '--quick' "$T/out" || die "kbench help run does not list run's options"
echo "README.md and docs/: $pages pages checked; $(echo "$ids" | wc -l) tests and $(echo "$groups" | wc -l) groups documented"
