# SPDX-License-Identifier: GPL-2.0-or-later
# Import of published results into the store: every format, messy and broken input, listing, show, export.
. "$KBENCH_TOP/tests/system/lib.inc"
F="$KBENCH_TOP/tests/fixtures"

expect_exit 0 "$KBENCH" import "$F/ub6-1copy.log" "$F/ub5-2copies.log" "$F/collapsed.txt" "$F/table.md" "$F/table.tsv" "$F/table-spaces.txt"
[ "$(grep -c '^imported ' "$T/out")" = 6 ] || die "not 6 imports: $(cat "$T/out")"
grep -q 'ub5-2copies.log as [0-9a-f]\{8\} (5.15.0-91-generic): 2 blocks' "$T/out" || die "multi-copy log: $(cat "$T/out")"
[ ! -s "$T/err" ] || die "clean files warned: $(cat "$T/err")"

# messy input: imported, warnings name the file and line.
expect_exit 0 "$KBENCH" import --name messy "$F/messy.log"
grep -q 'messy.log:21: Execl Throughput: the result line says 1700.0' "$T/err" || die "no line-numbered warning: $(cat "$T/err")"
grep -q 'listed again' "$T/err" || die "duplicate line not warned"

expect_exit 0 "$KBENCH" runs
[ "$(grep -c '(imported)' "$T/out")" = 7 ] || die "runs does not list 7 imports: $(cat "$T/out")"
grep -q '834.1  1389.3' "$T/out" || die "runs lacks both index scores of the 2-copy log"

# show prints the UnixBench report of the import, index table included.
expect_exit 0 "$KBENCH" show messy
grep -q 'System Benchmarks Index Score' "$T/out" || die "show has no index score line"
grep -q '900.0' "$T/out" || die "show does not keep the stated (warned) index 900.0"

# export: json reads back as a run file; csv has one line per test; unixbench = show.
expect_exit 0 "$KBENCH" export messy --format json -o "$T/messy.json"
expect_exit 0 "$KBENCH" show "$T/messy.json"
expect_exit 0 "$KBENCH" export messy --format csv
[ "$(grep -c '^1,' "$T/out")" = 13 ] || die "csv: not 12 tests + index: $(cat "$T/out")"
"$KBENCH" show messy >"$T/a" 2>/dev/null
"$KBENCH" export messy --format unixbench >"$T/b" 2>/dev/null
cmp -s "$T/a" "$T/b" || die "export --format unixbench differs from show"

# Two imports of published results compare with n/a verdicts (no samples), changes still shown.
expect_exit 1 "$KBENCH" compare messy nosuchrun
grep -q "^kbench: no stored run is called 'nosuchrun'" "$T/err" || die "unknown run: $(cat "$T/err")"
b=$("$KBENCH" runs | awk '/5.15.0-91/ {print $1; exit}')
expect_exit 0 "$KBENCH" compare messy "$b"
grep -q 'Index Score .* -7.3% .* n/a' "$T/out" || { cat "$T/out"; die "index change of two imports not shown as n/a"; }
grep -q 'n/a (no samples)' "$T/out" || die "rows are not n/a"

# Bad input: one line on stderr, exit 1 (file) or 2 (usage); nothing stored.
n_before=$(ls "$KBENCH_HOME" | wc -l)
for f in broken-noresults.txt broken-garbage.txt broken-negative.log broken-table.md broken-paste-empty.txt; do
	expect_exit 1 "$KBENCH" import "$F/$f"
	[ "$(wc -l <"$T/err")" = 1 ] || die "$f: $(cat "$T/err")"
	grep -q "^kbench: .*$f" "$T/err" || die "$f: error does not name the file: $(cat "$T/err")"
done
expect_exit 1 "$KBENCH" import "$F/broken-negative.log"
grep -q 'line 18: score of Dhrystone 2 using register variables is negative' "$T/err" || die "negative: $(cat "$T/err")"
expect_exit 1 "$KBENCH" import /nonexistent/file
expect_exit 2 "$KBENCH" import
expect_exit 2 "$KBENCH" import --bogus "$F/table.md"
expect_exit 2 "$KBENCH" export messy --format xml
expect_exit 2 "$KBENCH" compare messy
[ "$(ls "$KBENCH_HOME" | wc -l)" = "$n_before" ] || die "a failed import stored something"

# A broken file in the store is listed as broken; everything else still works; delete removes it.
printf '{"format":{"major":1},"blocks":[{"copies":' >"$KBENCH_HOME/0000dead.json"
printf '{"format":{"major":9,"minor":0}}' >"$KBENCH_HOME/0000beef.json"
expect_exit 0 "$KBENCH" runs
grep -q '^0000dead  BROKEN: run file .*0000dead.json: line 1' "$T/out" || die "broken file not listed: $(cat "$T/out")"
grep -q '^0000beef  BROKEN: .*newer than this kbench reads' "$T/out" || die "newer major not refused: $(cat "$T/out")"
grep -q 'could not be read' "$T/err" || die "no note about broken files"
expect_exit 1 "$KBENCH" show 0000beef
grep -q 'newer' "$T/err" || die "show of a newer file: $(cat "$T/err")"
expect_exit 0 "$KBENCH" delete 0000dead
[ ! -e "$KBENCH_HOME/0000dead.json" ] || die "delete left the file"
expect_exit 1 "$KBENCH" delete 0000dead

# Pastes that lost the banner and the "Benchmark Run:" lines: a block starts at its
# "running N parallel copies" line or at its index table; quoting, CRLF and prose around it.
expect_exit 0 "$KBENCH" import "$F/paste-rule.txt" "$F/paste-quoted.txt" "$F/paste-crlf.txt" "$F/paste-partial.txt" "$F/paste-blog.txt" "$F/paste-2blocks.txt"
[ "$(grep -c '^imported ' "$T/out")" = 6 ] || die "not 6 paste imports: $(cat "$T/out") $(cat "$T/err")"
[ ! -s "$T/err" ] || die "clean pastes warned: $(cat "$T/err")"
grep -q 'paste-2blocks.txt as [0-9a-f]\{8\} (paste-2blocks.txt): 2 blocks (1 copy index 711.9; 2 copies index 1117.2)' "$T/out" || die "two-block paste: $(cat "$T/out")"
grep -q 'paste-crlf.txt as .*: 1 block (2 copies index 1117.2)' "$T/out" || die "CRLF paste: $(cat "$T/out")"
[ "$(grep -c '(1 copy index 711.9)' "$T/out")" = 3 ] || die "rule, quoted and blog pastes: $(cat "$T/out")"
expect_exit 0 "$KBENCH" show paste-partial.txt
grep -q '^System Benchmarks Partial Index ' "$T/out" || die "partial paste shown as full: $(cat "$T/out")"
grep -q '^System Benchmarks Index Score (Partial Only) *669.7$' "$T/out" || die "partial paste score: $(cat "$T/out")"
# Only the index table: one copy assumed, said on stderr and kept as a note of the run.
expect_exit 0 "$KBENCH" import --name pi4 "$F/paste-index-only.txt"
grep -q '(pi4): 1 block (1 copy index 571.9)' "$T/out" || die "index-only paste: $(cat "$T/out")"
grep -q '^kbench: warning: .*paste-index-only.txt:1: block does not say how many copies ran; assuming 1$' "$T/err" || die "no copies warning: $(cat "$T/err")"
expect_exit 0 "$KBENCH" show pi4
grep -q '^note: imported block at .*paste-index-only.txt:1 does not say how many copies ran; 1 copy assumed$' "$T/out" || die "no copies note: $(cat "$T/out")"
# A paste with no results beside a good one: the good one is stored, nothing else changes.
n_before=$(ls "$KBENCH_HOME" | wc -l)
expect_exit 1 "$KBENCH" import "$F/broken-paste-empty.txt" "$F/paste-rule.txt"
[ "$(wc -l <"$T/err")" = 1 ] || die "empty paste: $(cat "$T/err")"
grep -q '^kbench: .*broken-paste-empty.txt: no usable UnixBench results (line 4: block has no results; ignored)$' "$T/err" || die "empty paste: $(cat "$T/err")"
grep -q 'paste-rule.txt .*(1 copy index 711.9)' "$T/out" || die "good paste beside a bad one: $(cat "$T/out")"
[ "$(ls "$KBENCH_HOME" | wc -l)" = $((n_before + 1)) ] || die "store did not grow by exactly one run"
exit 0
