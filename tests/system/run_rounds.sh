# SPDX-License-Identifier: GPL-2.0-or-later
# The index allocation: a run given minutes (--budget, or --quick --allocate index) takes its
# samples in rounds across the tests, shares the minutes out, says so in the run and the
# report, scores each test by its rule (UnixBench's for full-length samples, quick's for
# quick ones), keeps each test's telemetry its own, and refuses what does not go with it.
# (--quick alone keeps the precision rule: test_request and ui_quick check it.)
# requires: python3
# cost: 30
. "$KBENCH_TOP/tests/system/lib.inc"
W="dhry2reg syscall pipe"
t0=$(date +%s)
expect_exit 0 "$KBENCH" run -c 1 --budget 0.15 --duration 0.5 --pause 0 --interval 0.1 --name full $W
t1=$(date +%s)
# a progress line per test, once, when it is done (not at each of its visits)
[ "$(grep -c '^1 x .* ([0-9]* of [0-9]* samples kept)$' "$T/err")" = 3 ] ||
	{ cat "$T/err"; die "not one result line per test"; }
# 9 s shared out; a round more at most, and the run's start and end
[ $((t1 - t0)) -ge 8 ] && [ $((t1 - t0)) -le 20 ] || die "a 9 s budget took $((t1 - t0)) s"
expect_exit 0 "$KBENCH" run -c 1 --quick --allocate index --budget 0.1 --duration 0.4 --interval 0.1 --name quick $W
grep -q "^Quick run: samples in rounds, shared out to narrow the index's interval most in 6 s$" "$T/out" ||
	{ cat "$T/out"; die "the quick report does not say how its samples were spent"; }
! grep -q "fewest samples take" "$T/out" || { cat "$T/out"; die "a budget its samples fit in is said to be too short"; }
# a budget below what every test's 3 samples take: spent on those, and the report says so
expect_exit 0 "$KBENCH" run -c 1 --quick --allocate index --budget 0.1 --duration 1 --interval 0.1 --name least $W
grep -q "^  less than the tests' fewest samples take: each took its 3, [0-9]* s in all$" "$T/out" ||
	{ cat "$T/out"; die "the quick report does not say its budget was below the tests' fewest samples"; }
for n in full quick; do
	"$KBENCH" export "$n" --format json >"$T/$n.json" || die "export $n"
done
python3 - "$T" <<'EOF' || die "the runs in rounds"
import json, sys
d = sys.argv[1]
for name, budget, quick in (("full", 9, False), ("quick", 6, True)):
    r = json.load(open(f"{d}/{name}.json"))
    assert r["meta"]["allocation"] == "index" and abs(r["meta"]["budget"] - budget) < 1e-6, r["meta"]
    tests = r["blocks"][0]["tests"]
    starts = {t["id"]: [s["start"] for s in t["samples"]] for t in tests}
    for t in tests:
        n = len(t["samples"])
        assert n >= 3, (name, t["id"], n)
        # scored by its rule: UnixBench keeps the best two thirds, quick every sample
        assert t["kept"] == (n if quick else n - n // 3), (name, t["id"], t["kept"], n)
        s = {k["key"]: k for k in t["summary"]}
        assert ("quick_alloc" in s) == quick, (name, t["id"])
        # telemetry per test, from its own visits
        assert "others.cpu" in s and s["others.cpu"].get("value") is not None, (name, t["id"])
    # in rounds: every test's first two samples before any test's third
    second = max(v[1] for v in starts.values())
    third = min(v[2] for v in starts.values())
    assert second < third, (name, starts)
    # every other round in reverse: round 2 begins with the test round 1 ended with
    order1 = sorted(starts, key=lambda k: starts[k][0])
    order2 = sorted(starts, key=lambda k: starts[k][1])
    assert order2 == order1[::-1], (name, order1, order2)
EOF
# what does not go with it: one line, exit 2
expect_exit 2 "$KBENCH" run --budget 1 -i 3 dhry2reg
grep -q '^kbench: --budget shares the minutes out itself: not with -i$' "$T/err" || { cat "$T/err"; die "budget with -i"; }
expect_exit 2 "$KBENCH" run --allocate index dhry2reg
grep -q '^kbench: --allocate index needs --quick or --budget' "$T/err" || { cat "$T/err"; die "index without minutes"; }
expect_exit 2 "$KBENCH" run --quick --allocate index --precision 2 dhry2reg
grep -q '^kbench: --precision and --max-test-seconds go with --allocate precision, not index$' "$T/err" ||
	{ cat "$T/err"; die "precision with the index allocation"; }
expect_exit 2 "$KBENCH" run --allocate precision dhry2reg
grep -q '^kbench: --allocate precision goes with --quick$' "$T/err" || { cat "$T/err"; die "precision without quick"; }
echo "runs in rounds share their minutes out"
