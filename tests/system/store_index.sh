# SPDX-License-Identifier: GPL-2.0-or-later
# The store's index: a run file copied in by hand, changed or removed is seen; a deleted index is
# rebuilt silently, a corrupt one with one line; a read-only store still lists; the lists match
# the files.
# requires: sqlite3
. "$KBENCH_TOP/tests/system/lib.inc"
F="$KBENCH_TOP/tests/fixtures"
IX="$KBENCH_HOME/index.sqlite"

expect_exit 0 "$KBENCH" import "$F/ub6-1copy.log" "$F/ub5-2copies.log" "$F/table.md"
expect_exit 0 "$KBENCH" runs
[ "$(grep -c '(imported)' "$T/out")" = 3 ] || die "3 imports not listed: $(cat "$T/out")"
[ -f "$IX" ] || die "no index in the store after runs"
[ "$(sqlite3 "$IX" 'select count(*) from runs')" = 3 ] || die "index rows: $(sqlite3 "$IX" 'select file from runs')"

# A run file copied in by hand (another store's export) is listed and named.
expect_exit 0 "$KBENCH" export last --format json -o "$T/x.json"
sed 's/"id": *"[0-9a-f]*"/"id": "handcopy"/; s/"name": *"[^"]*"/"name": "by-hand"/' "$T/x.json" >"$KBENCH_HOME/handcopy.json"
expect_exit 0 "$KBENCH" runs
grep -q '^handcopy  by-hand ' "$T/out" || die "a copied-in file is not listed: $(cat "$T/out")"
expect_exit 0 "$KBENCH" show by-hand

# Changed in place (same name): the new content is listed.
sed -i 's/"name": "by-hand"/"name": "renamed"/' "$KBENCH_HOME/handcopy.json"
expect_exit 0 "$KBENCH" runs
grep -q '^handcopy  renamed ' "$T/out" || die "a changed file keeps its old summary: $(cat "$T/out")"

# Removed by hand: gone from the list, last~N counts the rest.
rm "$KBENCH_HOME/handcopy.json"
expect_exit 0 "$KBENCH" runs
grep -q handcopy "$T/out" && die "a removed file is still listed"
[ "$(grep -c '(imported)' "$T/out")" = 3 ] || die "runs after a removal: $(cat "$T/out")"
"$KBENCH" runs >"$T/before" 2>&1

# The directory unchanged since a full check (its mtime noted once two seconds
# old): no listing, one stat. Adding or removing a file changes it and is seen; a
# file overwritten in place is not, until the directory changes (docs/store.md says so).
touch -d '1 minute ago' "$KBENCH_HOME"
expect_exit 0 "$KBENCH" runs
sed 's/"id": *"[0-9a-f]*"/"id": "quick1"/; s/"name": *"[^"]*"/"name": "first"/' "$T/x.json" >"$KBENCH_HOME/quick1.json"
expect_exit 0 "$KBENCH" runs
grep -q '^quick1    first ' "$T/out" || die "a file copied in after a noted check is not listed: $(cat "$T/out")"
touch -d '1 minute ago' "$KBENCH_HOME"
expect_exit 0 "$KBENCH" runs
sed 's/"name": *"first"/"name": "second"/' "$KBENCH_HOME/quick1.json" >"$T/q.json"
cat "$T/q.json" >"$KBENCH_HOME/quick1.json"
expect_exit 0 "$KBENCH" runs
grep -q '^quick1    first ' "$T/out" || die "the unchanged directory was listed anyway: $(cat "$T/out")"
touch "$KBENCH_HOME"
expect_exit 0 "$KBENCH" runs
grep -q '^quick1    second ' "$T/out" || die "a file overwritten in place is not seen once the directory changed: $(cat "$T/out")"
touch -d '1 minute ago' "$KBENCH_HOME"
expect_exit 0 "$KBENCH" runs
rm "$KBENCH_HOME/quick1.json"
expect_exit 0 "$KBENCH" runs
grep -q quick1 "$T/out" && die "a file removed after a noted check is still listed"
cmp -s "$T/out" "$T/before" || die "list after the noted checks differs: $(diff "$T/before" "$T/out")"
# A store copied onto another that had a run of its own (rsync -a: the index and
# the directory's mtime come along): another directory, so its files are checked.
touch -d '1 minute ago' "$KBENCH_HOME"
expect_exit 0 "$KBENCH" runs
mkdir "$T/other"
sed 's/"id": *"[0-9a-f]*"/"id": "extra1"/; s/"name": *"[^"]*"/"name": "theirs"/' "$T/x.json" >"$T/other/extra1.json"
cp -a "$KBENCH_HOME/." "$T/other/"
touch -r "$KBENCH_HOME" "$T/other"
KBENCH_HOME="$T/other" "$KBENCH" runs >"$T/out" 2>&1
grep -q '^extra1    theirs ' "$T/out" || die "a run in the store copied onto is not listed: $(cat "$T/out")"

# The index deleted: rebuilt, without a word, the same list.
rm -f "$IX" "$IX-wal" "$IX-shm"
expect_exit 0 "$KBENCH" runs
cmp -s "$T/out" "$T/before" || die "list after a rebuild differs: $(diff "$T/before" "$T/out")"
[ ! -s "$T/err" ] || die "a deleted index was mentioned: $(cat "$T/err")"

# A corrupt index: rebuilt, one line saying so, the same list.
rm -f "$IX-wal" "$IX-shm"
head -c 8192 /dev/urandom >"$IX"
expect_exit 0 "$KBENCH" runs
cmp -s "$T/out" "$T/before" || die "list after a corrupt index differs: $(diff "$T/before" "$T/out")"
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "index .* was corrupt; rebuilding it" "$T/err" ||
	die "corrupt index: $(cat "$T/err")"
expect_exit 0 "$KBENCH" runs
[ ! -s "$T/err" ] || die "the rebuilt index is still reported: $(cat "$T/err")"
[ "$(sqlite3 "$IX" 'pragma integrity_check')" = ok ] || die "rebuilt index fails its check"

# A broken run file is listed as BROKEN (from the index too), and its id deletes it.
echo '{"format":{"major":1},"blocks":[' >"$KBENCH_HOME/deadbeef.json"
"$KBENCH" runs >"$T/out" 2>"$T/err"
grep -q '^deadbeef  BROKEN: ' "$T/out" || die "broken file not listed: $(cat "$T/out")"
expect_exit 0 "$KBENCH" delete deadbeef

# A store that cannot be written (another user's, a read-only copy): listed from an index in memory.
if [ "$(id -u)" != 0 ]; then
	rm -f "$IX" "$IX-wal" "$IX-shm"
	chmod a-w "$KBENCH_HOME"
	expect_exit 0 "$KBENCH" runs
	chmod u+w "$KBENCH_HOME"
	cmp -s "$T/out" "$T/before" || die "read-only store list differs: $(diff "$T/before" "$T/out")"
fi
exit 0
