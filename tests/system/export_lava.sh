# SPDX-License-Identifier: GPL-2.0-or-later
# export --format lava and contrib/lava/kbench.yaml, checked with LAVA's own pieces from Debian:
# the lava-test-case helper of lava-dispatcher runs kbench's lines and prints the signals the
# dispatcher reads, which LAVA's own parsing code (handle_testcase, SignalMatch.match) turns into
# results: one per test and copy count with its measurement; and the test definition and the
# guide's example job (docs/lava.md) pass lava-common's schemas. The packages are fetched with apt-get download (about 240 KB) into the
# scratch directory, not installed: they pull in a whole dispatcher.
# requires: python3 py:voluptuous py:yaml apt-get dpkg-deb
# cost: 10
. "$KBENCH_TOP/tests/system/lib.inc"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3 # Debian's, where python3-voluptuous installs
mkdir -p "$T/debs" "$T/lava"
# apt-get download writes as _apt where it can; a scratch dir it cannot enter only warns.
(cd "$T/debs" && apt-get download lava-dispatcher lava-common) >"$T/apt.log" 2>&1 ||
	skip "apt-get cannot fetch lava-dispatcher and lava-common: $(grep -E '^(E|W):' "$T/apt.log" | head -1)"
for d in "$T"/debs/*.deb; do dpkg-deb -x "$d" "$T/lava" || die "cannot unpack $d"; done
LAVA_PY="$T/lava/usr/lib/python3/dist-packages"
SHELLDIR="$LAVA_PY/lava_dispatcher/lava_test_shell"
[ -f "$SHELLDIR/lava-test-case" ] && [ -f "$LAVA_PY/lava_common/schemas/test/testdef.py" ] ||
	die "the packages do not ship lava-test-case and the test definition schema where expected"

# The helper as a job's overlay has it: the dispatcher writes its interpreter line on deployment.
mkdir -p "$T/bin"
{ echo '#!/bin/sh'; cat "$SHELLDIR/lava-test-case"; } >"$T/bin/lava-test-case"
cp "$SHELLDIR/lava-common-functions" "$T/bin/"
chmod +x "$T/bin/lava-test-case"

# A short run; then a copy of it with one test failed and one skipped.
expect_exit 0 "$KBENCH" run -c 1 -i 3 --duration 0.3 --pause 0 -q dhry2reg syscall pipe
"$KBENCH" export last --format json >"$T/run.json" || die "json export"
$PY - "$T/run.json" "$T/odd.json" <<'PY' || die "could not edit the run file"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["blocks"][0]["tests"]
t[1]["status"], t[1]["reason"] = "failed", "made to fail by the test"
t[2]["status"], t[2]["reason"] = "skipped", "made to skip by the test"
json.dump(r, open(sys.argv[2], "w"))
PY

check() { # check RUNFILE: its lava lines through lava-test-case, read back as LAVA reads them
	"$KBENCH" export "$1" --format lava >"$T/lava.sh" || die "export --format lava $1"
	cat "$T/lava.sh"
	rm -rf "$T/results"
	(PATH="$T/bin:$PATH" LAVA_RESULT_DIR="$T/results" sh -e "$T/lava.sh") >"$T/signals" 2>&1 ||
		die "the lines did not run through lava-test-case: $(cat "$T/signals")"
	cat "$T/signals"
	$PY - "$LAVA_PY" "$1" "$T/signals" "$T/results" <<'PY'
import ast, json, os, re, sys
root, runfile, signals, results = sys.argv[1:]
sys.path.insert(0, root)
from lava_common.exceptions import JobError, LAVABug, TestError

def lava_code(path, name, cls=None):
    """A function of LAVA's own source, compiled alone (its module imports half the dispatcher)."""
    tree = ast.parse(open(os.path.join(root, path)).read())
    scope = tree.body
    if cls:
        scope = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    fn = next(n for n in scope if isinstance(n, ast.FunctionDef) and n.name == name)
    ns = {"decimal": __import__("decimal"), "JobError": JobError, "TestError": TestError, "LAVABug": LAVABug}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), path, "exec"), ns)
    return ns[name]

shell = "lava_dispatcher/actions/test/shell.py"
handle_testcase = lava_code(shell, "handle_testcase")
match = lava_code("lava_dispatcher/connection.py", "match", "SignalMatch")
# The dispatcher's pattern for a signal line, from the same file.
signal_re = re.search(r'"signal": r"([^"]+)"', open(os.path.join(root, shell)).read()).group(1)
# Test definition names, from lava-common's schema: the rule kbench's names follow too.
name_re = re.search(r'Required\("name"\): Match\(r"([^"]+)"\)',
                    open(os.path.join(root, "lava_common/schemas/test/definition.py")).read()).group(1)

got = {}
for line in open(signals):
    m = re.search(signal_re, line)
    if not m or m.group(1) != "TESTCASE":
        continue
    res = match(None, handle_testcase(m.group(2).split()))
    name = res["test_case_id"]
    assert name not in got, "test case %s reported twice" % name
    assert " " not in name and "/" not in name and re.match(name_re, name), name
    got[name] = res

run = json.load(open(runfile))
want = {}
for b in run["blocks"]:
    c = b["copies"]
    sfx = "-%dcop%s" % (c, "y" if c == 1 else "ies")
    for t in b["tests"]:
        want[t["id"] + sfx] = t
    want[("index-partial" if b["index_partial"] else "index") + sfx] = {"status": "index", "score": b["index_score"], "unit": "index"}
assert sorted(got) == sorted(want), (sorted(got), sorted(want))
measured = 0
for name, t in want.items():
    r = got[name]
    if t["status"] in ("done", "index"):
        assert r["result"] == "pass", (name, r)
        assert abs(r["measurement"] - t["score"]) <= 1e-3 + 1e-9 * t["score"], (name, r, t["score"])
        assert r["units"] == t["unit"], (name, r)
        # lava-test-case also leaves what it recorded where the test shell collects it
        assert float(open(os.path.join(results, "results", name, "measurement")).read()) == r["measurement"]
        measured += 1
    else:
        assert r["result"] == {"failed": "fail", "skipped": "skip"}[t["status"]], (name, r)
        assert "measurement" not in r and "units" not in r, (name, r)
print("%d test cases, %d measurements" % (len(got), measured))
PY
}
check "$T/run.json" >"$T/check1" 2>&1 || die "lava check of a run: $(cat "$T/check1")"
grep -q '^4 test cases, 4 measurements$' "$T/check1" || die "one measurement per test: $(cat "$T/check1")"
check "$T/odd.json" >"$T/check2" 2>&1 || die "lava check of failed and skipped tests: $(cat "$T/check2")"
grep -q '^4 test cases, 2 measurements$' "$T/check2" || die "failed and skipped tests: $(cat "$T/check2")"

# The test definition: lava-common's schema (the one the dispatcher applies to an inline
# definition), and the kbench commands its steps call exist with those options.
$PY - "$LAVA_PY" "$KBENCH_TOP/contrib/lava/kbench.yaml" <<'PY' || die "contrib/lava/kbench.yaml is not a valid LAVA test definition"
import sys, yaml
sys.path.insert(0, sys.argv[1])
from voluptuous import Schema
from lava_common.schemas.test.testdef import testdef
d = yaml.safe_load(open(sys.argv[2]))
Schema(testdef())(d)  # strict: no key LAVA does not know
assert d["params"]["MODE"] == "quick" and "TESTS" in d["params"], d["params"]
steps = "\n".join(d["run"]["steps"])
assert "--format lava | sh" in steps and "./kbench run" in steps, steps
print("valid")
PY
# The guide's example job (docs/lava.md): lava-common's job schema (strict, as lava-server submits), and its
# test action names this definition.
$PY - "$LAVA_PY" "$KBENCH_TOP/contrib/lava/job-example.yaml" <<'PY' || die "contrib/lava/job-example.yaml is not a valid LAVA job"
import sys, yaml
sys.path.insert(0, sys.argv[1])
from lava_common.schemas import validate
job = yaml.safe_load(open(sys.argv[2]))
validate(job, strict=True, extra_context_variables=[])
d = next(a["test"] for a in job["actions"] if "test" in a)["definitions"][0]
assert d["path"] == "contrib/lava/kbench.yaml" and d["name"] == "kbench", d
PY
# Its build dependencies are among make deps' (one list to keep up to date).
$PY - "$KBENCH_TOP/contrib/lava/kbench.yaml" "$KBENCH_TOP/Makefile" <<'PY' || die "kbench.yaml's deps drifted from the Makefile's"
import re, sys, yaml
deps = set(yaml.safe_load(open(sys.argv[1]))["install"]["deps"]) - {"curl"}
mk = open(sys.argv[2]).read()
pkgs = set(" ".join(re.findall(r"^DEB_PKGS \+?= ((?:.*\\\n)*.*)$", mk, re.M)).replace("\\", " ").split())
assert deps <= pkgs, deps - pkgs
PY
# The run step that builds kbench's arguments, as the test shell would run it: quick by default,
# the full run when asked, the copy counts; and those arguments parse.
$PY -c 'import sys, yaml; print(next(s for s in yaml.safe_load(open(sys.argv[1]))["run"]["steps"] if s.startswith("ARGS=")))' \
	"$KBENCH_TOP/contrib/lava/kbench.yaml" >"$T/step" || die "no step builds ARGS"
args() { (MODE=$1 COPIES=$2 NAME=$3; eval "$(cat "$T/step")"; echo $ARGS); }
[ "$(args quick '' '')" = "--quick" ] || die "default arguments: $(args quick '' '')"
[ "$(args full '1 2' lab1)" = "-c 1 -c 2 --name lab1" ] || die "full-run arguments: $(args full '1 2' lab1)"
expect_exit 0 "$KBENCH" run --no-save -q -i 1 --duration 0.1 --pause 0 $(args full '1' lab1) dhry2reg
exit 0
