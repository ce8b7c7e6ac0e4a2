#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench report of Build under load (buildload) draws contest's layout, as kbench show and
# kbench compare print it: a block per load (its name, then Kernel [runs] Time CPU% Loads LCPU%
# Ratio), a row per kernel with the same figures as the text, a refused load's sentence in its
# row; with --vs, A's row then this run's with its +- and a verdict cell, as compare prints
# them. The generic rows of a points test (a row per point, "buildload no_load") and the
# curve charts over the load index are not there; another points test (an imported kernbench
# log) keeps them. Runs: a one-unit tree with short loads, about a second a load.
# requires: make cc python3
# cost: 13
. "$KBENCH_TOP/tests/system/lib.inc"
export KBENCH_BUILDLOAD_LEAD=0.3 KBENCH_DISK_FREE_KIB=400000 KBENCH_BUILDLOAD_FLUSH=0
mkdir "$T/scratch"
small="--tree 1 --samples 1 --pause 0 --no-telemetry --tmpdir $T/scratch"
# mem_load refused (too little memory, faked): its block holds the sentence
KBENCH_MEM_AVAILABLE_KIB=100000 expect_exit 0 "$KBENCH" run buildload $small \
	--loads no_load,cacherun,process_load,io_load,list_load,mem_load --name one
expect_exit 0 "$KBENCH" run buildload $small --loads no_load,process_load --name 'two<&>'
expect_exit 0 "$KBENCH" show one
cp "$T/out" "$T/one.txt"
expect_exit 0 "$KBENCH" compare one 'two<&>'
cp "$T/out" "$T/cmp.txt"
expect_exit 0 "$KBENCH" report one -o "$T/one.html"
expect_exit 0 "$KBENCH" report 'two<&>' --vs one -o "$T/cmp.html"
expect_exit 0 "$KBENCH" import --name kb "$KBENCH_TOP/tests/fixtures/kernbench-0.50.log"
expect_exit 0 "$KBENCH" report kb -o "$T/kb.html"

python3 - "$T" <<'EOF' || die "the HTML report's buildload section"
import html.parser, re, sys
T = sys.argv[1]

class Tables(html.parser.HTMLParser):
    """contest tables: a list of blocks, each a list of rows of (tag, class, text) cells."""
    def __init__(self):
        super().__init__()
        self.blocks, self.depth, self.cell, self.row = [], 0, None, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("class") == "contest":
            self.depth = 1
        elif self.depth and tag == "table":
            self.depth += 1
        elif self.depth and tag == "tbody":
            self.blocks.append([])
        elif self.depth and tag == "tr":
            self.row = []
            self.blocks[-1].append(self.row)
        elif self.depth and tag in ("td", "th"):
            self.cell = [tag, a.get("class") or "", ""]
            self.row.append(self.cell)
    def handle_endtag(self, tag):
        if self.depth and tag == "table":
            self.depth -= 1
        elif tag in ("td", "th"):
            self.cell = None
    def handle_data(self, d):
        if self.cell is not None:
            self.cell[2] += d

def blocks(path):
    p = Tables()
    p.feed(open(path).read())
    out = {}
    for b in p.blocks:
        load = b[0][0][2].rstrip(":")
        assert b[0][0][0] == "th" and "load" in b[0][0][1], b[0]
        out[load] = b
    return out

def text_rows(path):
    """contest's blocks in kbench's text: {load: [the fields after the kernel, per row]}."""
    out, load = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^([a-z_]+):$", line)
        if m:
            load = m.group(1)
            out.setdefault(load, [])
        elif load and line.startswith("Kernel "):
            continue
        elif load and len(line) > 15 and re.match(r"^ *\d+ ", line[15:]):
            out[load].append((line[:15].rstrip(), line[15:].split()))
        else:
            load = None
    return out

cols = ["Kernel", "[runs]", "Time", "CPU%", "Loads", "LCPU%", "Ratio"]
doc = open(f"{T}/one.html").read()
assert 'id="buildload"' in doc, "no section to link to"
assert '<a href="#buildload">below</a>' in doc, "the table's row does not point to the section"
assert "<td>buildload " not in doc, "a generic row per point: " + re.findall(r"<td>buildload [^<]*", doc)[0]
assert "Build under load (contest-style), 1 copy:" not in doc, "a chart over the load index"
assert "Build under load (contest-style): 1 units, 2 objects, hash " in doc, "the tree is not said"
got, want = blocks(f"{T}/one.html"), text_rows(f"{T}/one.txt")
loads = ["no_load", "cacherun", "process_load", "io_load", "list_load", "mem_load"]
assert list(got) == loads, list(got)
for load in loads:
    b = got[load]
    assert [c[2] for c in b[1]] == cols, (load, b[1])
    assert len(b) == 3, (load, b)
    kernel, cells = b[2][0][2], [c[2] for c in b[2][1:]]
    assert kernel == "one", (load, kernel)
    if load == "mem_load":
        assert len(cells) == 1 and re.match(r"mem_load refused: needs .* of memory and swap, 98 MiB there$", cells[0]), cells
        continue
    assert len(cells) == 6 and cells[0] == "1", (load, cells)
    assert all(re.match(r"^[0-9.]+$", c) for c in cells), (load, cells)
    assert want[load] == [("one", cells)], (load, want[load], cells)   # the text's figures
assert got["no_load"][2][6][2] == "1.00", "no_load's Ratio"
assert "block layer" in doc, "the disk loads' caveat"

doc = open(f"{T}/cmp.html").read()
assert "<td>buildload " not in doc, "a generic row per point in the comparison"
assert re.search(r'<td colspan="6">5 loads: \d+ faster, \d+ slower, \d+ no significant change, 3 n/a; in contest&#39;s layout <a href="#buildload">below</a>', doc), "no row in the comparison table"
got, want = blocks(f"{T}/cmp.html"), text_rows(f"{T}/cmp.txt")
assert list(got) == loads[:5], list(got)      # the refused load has no time to compare
for load in loads[:5]:
    b = got[load]
    assert [c[2] for c in b[1]] == cols + ["\u00b1", "verdict"], (load, b[1])
    assert b[2][0][2].startswith("one ("), b[2]
    assert [c[2] for c in b[2][1:7]] == want[load][0][1], (load, b[2], want[load])
    assert b[2][7][2] == b[2][8][2] == "", ("A's row has no verdict", b[2])
    if load not in ("no_load", "process_load"):
        assert len(b) == 3, (load, "only in A", b)
        continue
    assert len(b) == 4, (load, b)
    row = b[3]
    assert row[0][2].startswith("two<&> ("), row[0]
    kernel, fields = want[load][1]
    assert [c[2] for c in row[1:7]] == fields[:6], (load, row, fields)
    pm, verdict = row[7][2], row[8]
    assert re.match(r"^\u00b1[0-9.]+%$", pm) and pm[1:] == fields[6], (pm, fields)
    assert re.match(r"^v-(faster|slower|same)$", verdict[1]), verdict
    assert verdict[2].endswith(" ".join(fields[7:])), (verdict, fields)
assert "two&lt;&amp;&gt; (" in doc and "two<&>" not in doc, "the run's name is not escaped"

doc = open(f"{T}/kb.html").read()     # another points test keeps its rows
assert "<td>kbuild -j2</td>" in doc and 'class="contest"' not in doc, "kernbench's points"
EOF
