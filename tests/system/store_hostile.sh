# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile run files, imported and copied straight into the store: deep nesting, huge arrays, NaN,
# negative and zero scores, duplicate tests, ids and names with '/', '..', control characters
# and terminal escapes, a billion series points claimed. Each is refused with one line or
# stored with its text made harmless: no crash, no hang, no file outside the store, no escape
# sequence on the terminal, in the index's lists or in an HTML report.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
F="$KBENCH_TOP/tests/fixtures"
H="$T/hostile"
mkdir -p "$H"
python3 - "$F/run-1.1.json" "$H" <<'EOF'
import copy, json, sys
base = json.load(open(sys.argv[1]))
out = sys.argv[2]
def w(name, d):
    with open(out + "/" + name + ".json", "w") as f:
        f.write(d if isinstance(d, str) else json.dumps(d))
def mk(id, **meta):
    d = copy.deepcopy(base)
    d["meta"]["id"] = id
    d["meta"].update(meta)
    return d
w("esc-name", mk("escname", name="evil\x1b]0;pwned\x07\x1b[2J"))
w("esc-kernel", mk("esckern", kernel_release="k\x1b[31mred", hostname="h\x1b[1m\r\n"))
w("slash-id", mk("../../../tmp/x", name="../../x/y"))
w("deep", "[" * 200000 + "]" * 200000)
w("deep-obj", '{"a":' * 100000 + "1" + "}" * 100000)
w("nan", json.dumps(base).replace('"score": ', '"score": NaN, "x": ', 1))
w("inf", json.dumps(base).replace('"score": ', '"score": 1e999, "x": ', 1))
d = mk("negscore")
for b in d["blocks"]:
    for t in b["tests"]:
        t["score"] = -5
w("negative", d)
d = mk("zeroscore")
for b in d["blocks"]:
    for t in b["tests"]:
        t["score"] = 0
w("zero", d)
d = mk("duptest")
d["blocks"][0]["tests"].append(copy.deepcopy(d["blocks"][0]["tests"][0]))
w("dup-test", d)
d = mk("dupblock")
d["blocks"].append(copy.deepcopy(d["blocks"][0]))
w("dup-block", d)
d = mk("notes")
d["notes"] = ["x"] * 1000001
w("huge-array", d)
d = mk("claims")
d["series"] = [{"name": "f", "unit": "MHz", "n": 1000000000, "t": [0, 1], "v": [1, 2]}]
w("claim", d)
d = mk("testesc")
d["blocks"][0]["tests"][0]["id"] = "dhry\x1b[2J/../x"
d["blocks"][0]["tests"][0]["label"] = "<script>alert(1)</script>\x1b[5m"
w("test-escape", d)
EOF
[ -s "$H/deep.json" ] || die "python3 made no fixtures"

noesc() { # FILE WHAT: no ESC, BEL or CR byte in FILE
	if LC_ALL=C grep -q "$(printf '[\033\007\r]')" "$1"; then die "$2: an escape or control byte came out"; fi
}
for f in "$H"/*.json; do
	b=$(basename "$f" .json)
	timeout 30 "$KBENCH" import "$f" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -lt 124 ] || die "$b: crashed or hung (exit $rc)"
	noesc "$T/out" "$b (import)"
	noesc "$T/err" "$b (import)"
	if [ "$rc" != 0 ]; then
		[ "$(wc -l <"$T/err")" = 1 ] || die "$b: refused with $(wc -l <"$T/err") lines: $(cat "$T/err")"
	fi
	# the same file copied in by hand: listed (as BROKEN when it does not read), never a crash
	cp "$f" "$KBENCH_HOME/h$(echo "$b" | tr -d -- '-' | cut -c1-12).json"
	timeout 30 "$KBENCH" runs >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 0 ] || die "$b: runs exited $rc: $(cat "$T/err")"
	noesc "$T/out" "$b (runs)"
done
# Refused ones: one line each, said which and why.
for b in deep deep-obj nan inf negative huge-array; do
	"$KBENCH" import "$H/$b.json" >"$T/out" 2>"$T/err" && die "$b: imported"
	grep -q "$b.json" "$T/err" || die "$b: the line does not name the file: $(cat "$T/err")"
done
# Nothing written outside the store (the '..' id got a fresh one).
[ ! -e "$T/x.json" ] && [ ! -e /tmp/x.json ] || die "a file was written outside the store"
ls "$KBENCH_HOME" | grep -q '^\.\.' && die "a '..' file name in the store"
# Show, compare and the HTML report of the escaping runs (the copies put in by hand: an import
# of the same measurement is refused as already stored): harmless text.
for id in hescname hesckernel htestescape; do
	"$KBENCH" show "$id" >"$T/out" 2>&1 || die "show $id: $(cat "$T/out")"
	noesc "$T/out" "show $id"
done
"$KBENCH" compare hescname htestescape >"$T/out" 2>&1 || die "compare: $(cat "$T/out")"
noesc "$T/out" "compare"
"$KBENCH" report htestescape --vs hescname -o "$T/r.html" >/dev/null 2>&1 || die "report failed"
noesc "$T/r.html" "report"
grep -q '<script>alert' "$T/r.html" && die "a label's markup reached the HTML report unescaped"
exit 0
