# SPDX-License-Identifier: GPL-2.0-or-later
# export --format markdown|text|bbcode: the compare table (and one run's table) as it is pasted.
# Markdown is rendered by python3-markdown's tables extension and must be a table with the
# rows, columns and verdicts `kbench compare` shows; text stays within 72 columns; BBCode is a
# [code] block no run name can break out of.
# requires: python3 py:markdown
. "$KBENCH_TOP/tests/system/lib.inc"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3 # Debian's, where python3-markdown installs
R="run -c 1 -i 3 --duration 0.3 --pause 0 -q"
TESTS_RUN="dhry2reg syscall"

expect_exit 0 "$KBENCH" $R --name base $TESTS_RUN
# A name with what markdown and BBCode would read as markup.
NAME='my|kern[b]el_*x*'
expect_exit 0 "$KBENCH" $R --name "$NAME" $TESTS_RUN

# The verdicts `kbench compare` prints (wide layout: the verdict ends each row).
"$KBENCH" compare --width 160 base "$NAME" >"$T/cmp" 2>&1 || die "compare failed: $(cat "$T/cmp")"
grep -E '^(Dhrystone|System Call|Index Score)' "$T/cmp" |
	sed -E 's/.*[0-9!-] +((faster|slower|no significant change|n\/a).*)$/\1/' >"$T/verdicts"
[ "$(wc -l <"$T/verdicts")" = 3 ] || die "compare rows: $(cat "$T/cmp")"

expect_exit 0 "$KBENCH" export base "$NAME" --format markdown -o "$T/cmp.md"
[ ! -s "$T/out" ] || die "-o FILE also wrote to stdout"
$PY - "$T/cmp.md" "$T/verdicts" "$NAME" <<'PY' || die "markdown export: $(cat "$T/cmp.md")"
import sys, markdown
from html.parser import HTMLParser

class Tables(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.paras, self.cell, self.text = [], [], None, None
    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = ""
        elif tag == "p":
            self.text = ""
    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self.cell.strip())
            self.cell = None
        elif tag == "p":
            self.paras.append(self.text)
            self.text = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.text is not None:
            self.text += data

md, verdicts, name = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines(), sys.argv[3]
p = Tables()
p.feed(markdown.markdown(md, extensions=["tables"]))
assert len(p.tables) == 1, "%d tables" % len(p.tables)
head, *rows = p.tables[0]
assert head == ["Test", "A score", "A index", "B score", "B index", "Change", "±", "Verdict"], head
assert len(rows) == 3, rows
for r in rows:
    assert len(r) == 8, r
assert [r[0] for r in rows] == ["Dhrystone 2 using register variables", "System Call Overhead",
                                "System Benchmarks Index Score (partial)"], [r[0] for r in rows]
assert [r[7] for r in rows] == verdicts, ([r[7] for r in rows], verdicts)
for r in rows[:2]:
    assert all(c not in ("", "--") for c in r[1:5]), r
    float(r[1]); float(r[2]); float(r[3]); float(r[4])
    assert r[5].endswith("%"), r
# The run's name comes through the escaping as typed, and the footer says what verdicts rest on.
assert any(t.startswith("B: " + name + " (") for t in p.paras), p.paras
assert p.paras[-1].startswith("Verdicts: "), p.paras[-1]
PY
grep -q '^Verdicts: default noise floors, not calibrated' "$T/cmp.md" || die "markdown footer: $(tail -1 "$T/cmp.md")"

# Plain text: within 72 columns, a row per test with the same verdicts, the index row, the footer.
expect_exit 0 "$KBENCH" export base "$NAME" --format text
cat "$T/out"
awk 'length > 72 { bad = 1; print "too wide: " $0 } END { exit bad }' "$T/out" || die "text is wider than 72"
for label in 'Dhrystone 2 ' 'System Call ' 'Index Score '; do
	grep -q "^$label" "$T/out" || die "text has no row '$label'"
done
n=0
while read -r v; do
	grep -q " $v\$" "$T/out" && n=$((n + 1))
done <"$T/verdicts"
[ "$n" = 3 ] || die "text rows do not end with compare's verdicts"
grep -q "^B: " "$T/out" && grep "^B: " "$T/out" | grep -qF "B: $NAME (" || die "text does not name B as typed"
grep -q '^Verdicts: ' "$T/out" || die "text has no footer"

# BBCode: one [code] block; inside it no bracket but its own tags; the footer after it.
expect_exit 0 "$KBENCH" export base "$NAME" --format bbcode
[ "$(head -1 "$T/out")" = '[code]' ] || die "bbcode does not open a [code] block"
[ "$(grep -c '^\[/code\]$' "$T/out")" = 1 ] || die "bbcode does not close its block once"
sed '1d;/^\[\/code\]$/,$d' "$T/out" | grep -q '[][]' && die "a bracket inside [code]: $(cat "$T/out")"
grep -q '^B: my|kern(b)el_\*x\*' "$T/out" || die "bbcode run name: $(cat "$T/out")"
tail -1 "$T/out" | grep -q '^Verdicts: ' || die "bbcode footer: $(cat "$T/out")"

# One run: its index table. A stored file with markup in a label renders it as text.
"$KBENCH" export base --format json >"$T/run.json" || die "json export"
sed 's/"label": "System Call Overhead"/"label": "Sys|call <b>x<\/b>"/' "$T/run.json" >"$T/odd.json"
grep -q 'Sys|call' "$T/odd.json" || die "could not edit the label"
expect_exit 0 "$KBENCH" export "$T/odd.json" --format markdown
$PY - "$T/out" <<'PY' || die "one run's markdown: $(cat "$T/out")"
import sys, markdown, re
html = markdown.markdown(open(sys.argv[1]).read(), extensions=["tables"])
assert html.count("<table>") == 1, html
rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
cells = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S) for r in rows]
assert cells[0] == ["Test", "Score", "Unit", "±", "Index"], cells[0]
assert len(cells) == 4 and all(len(c) == 5 for c in cells), cells
assert cells[2][0] == "Sys|call &lt;b&gt;x&lt;/b&gt;", cells[2][0]
assert "<strong>" in cells[3][0] and "Index Score" in cells[3][0], cells[3]
PY
expect_exit 0 "$KBENCH" export base --format text
awk 'length > 72 { bad = 1 } END { exit bad }' "$T/out" || die "one run's text is wider than 72"
grep -q '^Dhrystone 2 .* lps ' "$T/out" || die "one run's text: $(cat "$T/out")"
grep -q '^One run (0.3 s samples, -i 3), no verdicts' "$T/out" || die "one run's footer: $(cat "$T/out")"

# Bad input: one line, exit 2 (usage) or 1 (runs).
expect_exit 2 "$KBENCH" export base "$NAME" --format lava
[ "$(wc -l <"$T/err")" = 1 ] || die "lava of two runs: $(cat "$T/err")"
expect_exit 2 "$KBENCH" export base "$NAME" --format unixbench
expect_exit 2 "$KBENCH" export base "$NAME" base --format text
expect_exit 2 "$KBENCH" export base --format html
expect_exit 1 "$KBENCH" export base nosuchrun --format markdown
[ "$(wc -l <"$T/err")" = 1 ] || die "unknown run: $(cat "$T/err")"
# Two runs as json are the comparison `kbench compare --json` writes.
expect_exit 0 "$KBENCH" export base "$NAME" --format json
grep -q '"verdict": ' "$T/out" || die "export A B --format json is not the comparison"
exit 0
