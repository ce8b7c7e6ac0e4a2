# SPDX-License-Identifier: GPL-2.0-or-later
# The busy-machine check: back-to-back runs with nothing else running are not busy; a CPU hog
# beside the worker is seen (preflight, per test) and the comparison withholds those rows.
# tier: load (its first half needs nothing else running: another process makes those runs busy)
# requires: python3 taskset
. "$KBENCH_TOP/tests/system/lib.inc"
pct=$(busy)
[ "$pct" -gt 10 ] && skip "machine busy ($pct% of the CPUs used by others in the last 2 s): the idle half cannot be checked"
# Two index tests that take little more than their samples (Whetstone's calibration passes cost
# it 1.1 s before each sample, twice that beside the hog: 26 s -> 13 s).
R="run -c 1 --samples 3 --duration 0.5 --pause 0"
W="dhry2reg syscall"

# Back to back, nothing else: the second starts right after the first (a load
# average would still say busy) and neither is judged busy.
expect_exit 0 "$KBENCH" $R --name first $W
expect_exit 0 "$KBENCH" $R --name second $W
grep -q 'preflight: busy' "$T/err" && die "a run right after another was called busy: $(grep busy "$T/err")"
grep -q 'preflight: load average' "$T/err" && die "the preflight still judges by the load average"
expect_exit 0 "$KBENCH" compare --width 80 first second
cat "$T/out"
grep -q 'Busy machine' "$T/out" && die "back-to-back runs were called busy"
grep -q 'n/a (busy)' "$T/out" && die "a row was withheld as busy"
[ "$(grep -cE '(faster|slower|no significant change)( \(.*sure\))?$' "$T/out")" = 3 ] ||
	die "not every row has a verdict"
# What others used is stored per test.
"$KBENCH" export second --format json >"$T/second.json" || die "export failed"
python3 - "$T/second.json" <<'PY' || die "the run does not store what others used per test"
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["blocks"][0]["tests"]:
    v = {s["key"]: s.get("value") for s in t["summary"]}
    assert "others.cpu" in v and v["others.cpu"] < 0.25, (t["id"], v.get("others.cpu"))
PY

# A CPU hog on the worker's CPU (both pinned to CPU 0): the run starts busy, every
# test sees the hog, and the comparison withholds them.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
taskset -c 0 "$KBENCH" $R --name hogged $W >"$T/out" 2>"$T/err"
rc=$?
kill "$hog"
wait "$hog" 2>/dev/null
[ $rc = 0 ] || { cat "$T/err"; die "the hogged run failed"; }
grep -q 'preflight: busy: other processes used' "$T/err" || die "the preflight did not see the hog: $(cat "$T/err")"
expect_exit 0 "$KBENCH" compare --width 80 first hogged
cat "$T/out"
grep -q '^Busy machine: B run ' "$T/out" || die "the footer does not say B ran on a busy machine"
grep -q '^Dhrystone 2 .*n/a (busy)$' "$T/out" || die "Dhrystone beside a hog was judged"
grep -q '^System Call .*n/a (busy)$' "$T/out" || die "System Call beside a hog was judged"
grep -q '^Index Score .*n/a (busy)$' "$T/out" || die "the index of busy tests was judged"
exit 0
