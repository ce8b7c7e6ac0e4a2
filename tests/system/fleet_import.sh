# SPDX-License-Identifier: GPL-2.0-or-later
# A lab's runs: kbench JSON run files from other machines imported (hostname, samples and
# metadata kept, marked with where they came from, never twice), and compared as groups by host.
# Two fake boards: this machine's short runs with the hostname edited, board B's scores 20% lower.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
R="run -c 1 -i 3 --duration 0.3 --pause 0 -q"
expect_exit 0 "$KBENCH" $R dhry2reg syscall
expect_exit 0 "$KBENCH" $R dhry2reg syscall
for k in 1 2; do
	"$KBENCH" export last~$((k - 1)) --format json -o "$T/r$k.json" || die "export"
done
id1=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["meta"]["id"])' "$T/r1.json")
# board FACTOR IN OUT: the run as another machine would have sent it.
board() {
	$PY - "$@" <<'PY' || die "could not make a board's run file"
import json, sys
host, factor, src, dst = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
r = json.load(open(src))
r["meta"]["hostname"] = host
for b in r["blocks"]:
    b["index_score"] *= factor
    for t in b["tests"]:
        t["score"] *= factor
        t["index"] *= factor
        for s in t["samples"]:
            s["count"] = [c * factor for c in s["count"]]
json.dump(r, open(dst, "w"), indent=1)
PY
}
for k in 1 2; do
	board boardA 1 "$T/r$k.json" "$T/a$k.json"
	board boardB 0.8 "$T/r$k.json" "$T/b$k.json"
done
# This machine's runs go, so the first board run can keep its id; the others then cannot.
expect_exit 0 "$KBENCH" delete last
expect_exit 0 "$KBENCH" delete last

expect_exit 0 "$KBENCH" import "$T/a1.json" "$T/a2.json" "$T/b1.json" "$T/b2.json"
cat "$T/out"
[ "$(grep -c '^imported .*, full run from boardA): 1 block' "$T/out")" = 2 ] || die "board A imports: $(cat "$T/out")"
[ "$(grep -c '^imported .*, full run from boardB): 1 block' "$T/out")" = 2 ] || die "board B imports: $(cat "$T/out")"
grep -q "^imported $T/a1.json as $id1 " "$T/out" || die "a free id was not kept: $(cat "$T/out")"
[ "$(grep -c " as $id1 " "$T/out")" = 1 ] || die "two runs stored under one id"
[ ! -s "$T/err" ] || die "clean imports warned: $(cat "$T/err")"
expect_exit 0 "$KBENCH" runs
[ "$(grep -c '(from boardA)$' "$T/out")" = 2 ] && [ "$(grep -c '(from boardB)$' "$T/out")" = 2 ] ||
	die "runs does not mark where runs came from: $(cat "$T/out")"
# Samples and metadata came along: show prints the board's name and where the file came from.
expect_exit 0 "$KBENCH" show "$id1"
grep -q '^ *System: boardA: ' "$T/out" || die "hostname not kept: $(cat "$T/out")"
grep -q "^note: imported from $T/a1.json (measured on boardA)$" "$T/out" || die "no import note: $(cat "$T/out")"
"$KBENCH" export "$id1" --format json | $PY -c '
import json, sys
r, o = json.load(sys.stdin), json.load(open(sys.argv[1]))
assert r["meta"]["source"] == sys.argv[1], r["meta"]["source"]
for k in ("hostname", "date", "kernel_release", "cpu_model", "mode", "duration_override"):
    assert r["meta"][k] == o["meta"][k], k
assert r["blocks"][0]["tests"][0]["samples"] == o["blocks"][0]["tests"][0]["samples"]
' "$T/a1.json" || die "the stored run lost what its file held"

# The same run again, under any file name: said, not stored twice.
n=$(ls "$KBENCH_HOME" | wc -l)
cp "$T/b2.json" "$T/b2-again.json"
expect_exit 0 "$KBENCH" import "$T/a1.json" "$T/b2-again.json"
[ "$(grep -c 'is already stored as [0-9a-f]\{8\}; not imported again$' "$T/out")" = 2 ] || die "re-import: $(cat "$T/out")"
[ "$(ls "$KBENCH_HOME" | wc -l)" = "$n" ] || die "a re-import stored a copy"

# Files that are not runs: one line naming the file, exit 1, nothing stored.
echo '{"results": [1, 2, 3]}' >"$T/other.json"
head -c 300 "$T/a1.json" >"$T/cut.json"
for f in other.json cut.json; do
	expect_exit 1 "$KBENCH" import "$T/$f"
	[ "$(wc -l <"$T/err")" = 1 ] && grep -q "^kbench: $T/$f: " "$T/err" || die "$f: $(cat "$T/err")"
done
[ "$(ls "$KBENCH_HOME" | wc -l)" = "$n" ] || die "a bad file stored something"

# The groups: every run from board A against every run from board B.
expect_exit 0 "$KBENCH" compare --width 80 host:boardA host:boardB
cat "$T/out"
grep -q '^A: host:boardA (2 runs) ' "$T/out" || die "side A: $(head -2 "$T/out")"
grep -q '^B: host:boardB (2 runs) ' "$T/out" || die "side B: $(head -2 "$T/out")"
grep -q '^Differs: host boardA -> boardB' "$T/out" || die "the host is not the difference: $(cat "$T/out")"
[ "$(grep -cE '^(Dhrystone 2|System Call|Index Score) .* -20\.0% ' "$T/out")" = 3 ] || die "rows: $(cat "$T/out")"
expect_exit 0 "$KBENCH" compare --json host:boardA host:boardB
$PY -c '
import json, sys
c = json.load(open(sys.argv[1]))
assert [r["id"] for r in c["a"]["runs"]] != [] and len(c["a"]["runs"]) == 2 and len(c["b"]["runs"]) == 2
' "$T/out" || die "json sides"
expect_exit 0 "$KBENCH" export host:boardA host:boardB --format markdown
grep -q '^| Dhrystone 2 using register variables |.* -20.0% |' "$T/out" || die "markdown of host groups: $(cat "$T/out")"
# host:HOST:NAME narrows a host to the runs of one name; a host: naming one run works alone.
expect_exit 0 "$KBENCH" import --name lab-k2 "$T/a2.json"
grep -q 'already stored' "$T/out" || die "re-import with another name stored a copy"
board boardC 1 "$T/r2.json" "$T/c2.json"
expect_exit 0 "$KBENCH" import --name lab-k2 "$T/c2.json"
expect_exit 0 "$KBENCH" compare host:boardC:lab-k2 host:boardB
grep -q '^A: host:boardC:lab-k2 ([0-9a-f]\{8\})' "$T/out" || die "host:HOST:NAME: $(head -2 "$T/out")"
expect_exit 0 "$KBENCH" show host:boardC
expect_exit 1 "$KBENCH" show host:boardA
grep -q "matches 2 runs" "$T/err" || die "host with two runs for one: $(cat "$T/err")"
expect_exit 1 "$KBENCH" compare host:boardZ host:boardA
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "no stored run matches 'host:boardZ' (hosts in the store: .*boardA" "$T/err" ||
	die "unknown host: $(cat "$T/err")"
exit 0
