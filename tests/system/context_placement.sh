# SPDX-License-Identifier: GPL-2.0-or-later
# Context switching's placement: each sample records whether its two processes shared a CPU,
# --pair-cpus pins them to one CPU or two, the report shows the split, and a comparison of two
# runs that landed differently (pinned so, to force it) never calls that a kernel's difference.
# requires: cpus2 python3
. "$KBENCH_TOP/tests/system/lib.inc"
R="run -c 1 --samples 3 --duration 0.3 --pause 0 --interval 0"
expect_exit 0 "$KBENCH" $R --pair-cpus one --name one context1
grep -q '^Placement: context1: each pair on one CPU in 3 of 3 samples, on two CPUs in 0$' "$T/out" ||
	{ cat "$T/out"; die "the report does not say the pair shared one CPU"; }
expect_exit 0 "$KBENCH" $R --pair-cpus two --name two context1
grep -q '^Placement: context1: each pair on one CPU in 0 of 3 samples, on two CPUs in 3$' "$T/out" ||
	{ cat "$T/out"; die "the report does not say the pair ran on two CPUs"; }
# unpinned (UnixBench's way): still recorded, whichever way the scheduler put them
expect_exit 0 "$KBENCH" $R --name free context1 dhry2reg

# the run file: every sample's CPUs (on this machine), and the pair's share on one CPU
for name in one two free; do
	"$KBENCH" export "$name" --format json >"$T/$name.json" || die "export $name"
done
python3 - "$T" "$(nproc)" <<'EOF' || die "the run files' placement"
import json, sys
d, ncpus = sys.argv[1], int(sys.argv[2])
def samples(name, test):
    r = json.load(open(f"{d}/{name}.json"))
    return [s for b in r["blocks"] for t in b["tests"] if t["id"] == test for s in t["samples"]]
for name, want in (("one", lambda v: v >= 0.9), ("two", lambda v: v <= 0.1), ("free", lambda v: 0 <= v <= 1)):
    ss = samples(name, "context1")
    assert len(ss) == 3, (name, len(ss))
    for s in ss:
        assert all(want(v) for v in s["shared"]), (name, s)
        assert all(0 <= c < ncpus for c in s["cpu"] + s["cpu_end"]), (name, s)
        # the share of time: all of it where pinned; unpinned, no more than the share of
        # checks, since a round trip on one CPU is the shorter one
        t = s["shared_time"]
        assert all(0 <= v <= 1 for v in t), (name, s)
        if name != "free":
            assert t == [1.0 if name == "one" else 0.0], (name, s)
        else:
            assert all(v <= c + 0.05 for v, c in zip(t, s["shared"])), (name, s)
# a test of one process per copy has CPUs but no pair
for s in samples("free", "dhry2reg"):
    assert "shared" not in s and "shared_time" not in s and all(0 <= c < ncpus for c in s["cpu"]), s
EOF

# one CPU against two: several times apart here, and no kernel's doing
expect_exit 0 "$KBENCH" compare --width 80 one two
grep -q 'n/a (placement)' "$T/out" || { cat "$T/out"; die "the row judged a placement difference"; }
grep -E 'Context Switch' "$T/out" | grep -qE 'faster|slower' && { cat "$T/out"; die "context1 called faster or slower"; }
grep -q 'context1 placed its pairs of processes differently' "$T/out" || { cat "$T/out"; die "no footer on placement"; }
expect_exit 0 "$KBENCH" compare --json one two
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
row = [r for b in c["blocks"] for r in b["tests"] if r["id"] == "context1"][0]
assert row["verdict"] == "n/a" and row["note"] == "placement", row
assert row["a"]["placement"] == {"one_cpu": 3, "two_cpus": 0, "mixed": 0}, row["a"]
assert row["b"]["placement"] == {"one_cpu": 0, "two_cpus": 3, "mixed": 0}, row["b"]
' "$T/out" || die "the JSON row"

# bad values: one line, exit 2
expect_exit 2 "$KBENCH" $R --pair-cpus three context1
grep -q "^kbench: --pair-cpus: 'three' is not any, one or two$" "$T/err" || { cat "$T/err"; die "bad value's line"; }
echo "context1's placement recorded, pinned and never judged as the kernel's"
