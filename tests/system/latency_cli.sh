#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The latency group end to end with short samples: kbench list names its
# tests and group; a run prints cyclictest's "T: n ... Min: Act: Avg: Max:"
# lines and a percentile table per test (and says whether SCHED_FIFO was
# measured or refused, in the report and in the run's notes); the run file
# keeps a histogram per phase per sample whose counts add up; show, export
# (json, csv) and compare (a verdict on every percentile row) read it; a
# run file whose histogram disagrees with itself is one line and exit 1;
# the report fits 80 columns and says each test's settings; the knobs
# (--period-us, --fifo, --messages, --workers, --work-us, --ia-tasks,
# --ia-loads) refuse bad values in one line, reach the workloads, and make
# compare call the points of runs with other settings n/a;
# an interrupted run keeps the samples it finished; without CAP_SYS_NICE
# the FIFO phases are left out and the report and the notes say why.
# requires: python3
# cost: 22
. "$KBENCH_TOP/tests/system/lib.inc"

"$KBENCH" list >"$T/list" || die "kbench list failed"
for t in timerlat wakelat interactive; do
	grep -q "^$t " "$T/list" || die "kbench list lacks $t"
done
grep -Eq '^latency +timerlat wakelat interactive' "$T/list" || die "kbench list lacks the latency group"

short="--duration 1 --samples 2 --pause 0 -c 1 --no-telemetry"
expect_exit 0 "$KBENCH" run latency $short --name one
cp "$T/out" "$T/one.out"
for ph in other 'other\+burn'; do
	grep -Eq "^T: ?[0-9] $ph +C: +[0-9]+ Min: +[0-9]+ Act: +[0-9]+ Avg: +[0-9]+ Max: +[0-9]+" "$T/out" ||
		{ cat "$T/out"; die "no cyclictest line for $ph"; }
done
grep -Eq '^  phase +p50 +p99 +p99.9 +max +mean +met' "$T/out" || die "no percentile table"
grep -Eq '^  video\+burn +[0-9]' "$T/out" || die "no video+burn row"
grep -Eq '^  Requests per second: [0-9]+' "$T/out" || die "wakelat: no requests per second"
if grep -q 'fifo +C:' "$T/out" 2>/dev/null || grep -Eq '^T: ?2 fifo ' "$T/out"; then
	fifo=measured
else
	grep -q 'Note: SCHED_FIFO not permitted' "$T/out" || { cat "$T/out"; die "no fifo phase and no word why"; }
	fifo=refused
fi
grep -q 'System Benchmarks Index' "$T/out" && die "a latency run printed an index table"

expect_exit 0 "$KBENCH" export one --format json
python3 - "$T/out" "$fifo" <<'PY' || die "the run file's histograms"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"]["minor"] == 2
tests = {t["id"]: t for t in d["blocks"][0]["tests"]}
assert set(tests) == {"timerlat", "wakelat", "interactive"}, set(tests)
want = {"timerlat": ["other", "other+burn"] + (["fifo", "fifo+burn"] if sys.argv[2] == "measured" else []),
        "wakelat": ["wake"],
        "interactive": [t + l for t in ("audio", "video", "desk") for l in ("", "+burn", "+io", "+burn4")]}
for tid, phases in want.items():
    t = tests[tid]
    hs = {h["name"]: h for h in t["hists"]}
    assert sorted(hs) == sorted(phases), (tid, sorted(hs))
    pts = {p["name"]: p for p in t["points"]}
    for ph in phases:
        assert len(hs[ph]["samples"]) == 2, (tid, ph)
        for s in hs[ph]["samples"]:
            assert s["n"] > 0 and sum(c for _, c in s["buckets"]) == s["n"], (tid, ph)
            assert s["min_ns"] <= s["max_ns"]
        for q in ("p50", "p99", "p99.9", "max", "mean"):
            p = pts[ph + " " + q]
            assert p["unit"] == "us" and p["better"] == "lower" and len(p["values"]) == 2, p
        v = pts[ph + " p50"]["values"][0]; m = pts[ph + " max"]["values"][0]
        assert 0 <= v <= m, (ph, v, m)
    if tid == "interactive":
        for ph in phases:
            met = pts[ph + " met"]
            assert met["better"] == "higher" and all(0 <= x <= 100 for x in met["values"]), met
assert tests["wakelat"]["points"][-1]["name"] == "wake rps"
settings = {tid: next(kv["text"] for kv in t["summary"] if kv["key"] == "settings") for tid, t in tests.items()}
assert settings == {"timerlat": "period 1000 us, SCHED_FIFO on",
                    "wakelat": "1 message thread, 2 workers per CPU each, 20 us of work",
                    "interactive": "tasks audio,video,desk; loads alone,burn,io,burn4"}, settings
notes = " ".join(d.get("notes", []))
assert (sys.argv[2] == "refused") == ("SCHED_FIFO not permitted" in notes), notes
PY
# Every line of the latency report fits 80 columns (the percentile table's
# cells are "m+-h" with numbers of at most 4 characters: 2375, 13k, 1.2M).
sed -n '/latency in microseconds/,$p' "$T/one.out" | awk 'length > 80 { print; bad = 1 } END { exit bad }' || die "the latency report is wider than 80 columns (above)"
grep -q '^  Settings: tasks audio,video,desk; loads alone,burn,io,burn4\.$' "$T/one.out" || die "the report does not say interactive's settings"

expect_exit 0 "$KBENCH" export one --format csv
[ "$(grep -c ',timerlat,"other p99",us,done,' "$T/out")" = 2 ] || { head "$T/out"; die "csv: not a line per sample of a percentile"; }
expect_exit 0 "$KBENCH" show one
grep -Eq '^T: ?0 other ' "$T/out" || die "show lacks the cyclictest lines"

expect_exit 0 "$KBENCH" run timerlat $short --name two
expect_exit 0 "$KBENCH" compare one two
for p in "other p50" "other p99" "other p99.9" "other max" "other mean" "other\\+burn p99"; do
	grep -Eq "^$p .*(no significant change|faster|slower)" "$T/out" ||
		{ cat "$T/out"; die "compare: no verdict on $p"; }
done

# The knobs: each bad value is one line and exit 2; good ones reach the
# workloads (timerlat with --fifo off has no FIFO phase; wakelat runs the
# threads asked for) and are stored as the test's settings, and compare
# calls the points of runs with other settings n/a and says why.
for bad in "--period-us 10" "--period-us 1ms" "--fifo sometimes" "--messages 0" "--workers 0" \
	"--work-us -5" "--ia-tasks audio,piano" "--ia-tasks audio,audio" "--ia-loads burn," "--ia-loads ''"; do
	eval "expect_exit 2 \"\$KBENCH\" run timerlat $bad"
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "$bad: not one line"; }
done
expect_exit 0 "$KBENCH" run timerlat wakelat $short --period-us 500 --fifo off --messages 2 --workers 3 --work-us 5 --name knobs
grep -Eq '^T: ?[0-9] fifo' "$T/out" && die "--fifo off still measured SCHED_FIFO"
grep -q '^  Settings: period 500 us, SCHED_FIFO off\.$' "$T/out" || { cat "$T/out"; die "timerlat's settings are not said"; }
grep -q '^  Settings: 2 message threads, 3 workers each, 5 us of work\.$' "$T/out" || die "wakelat's settings are not said"
# timerlat's label names the run's period, in the report and in show; kbench list's is neutral
grep -q '^Timer wake-up latency (500 us, absolute):$' "$T/out" || { cat "$T/out"; die "the report's label does not say 500 us"; }
grep -q '1 ms' "$T/out" && die "a run at 500 us says 1 ms"
expect_exit 0 "$KBENCH" show knobs
grep -q '^Timer wake-up latency (500 us, absolute):$' "$T/out" || die "show's label does not say 500 us"
grep -q '^Timer wake-up latency (1 ms, absolute):$' "$T/one.out" || die "a default run's label does not say 1 ms"
"$KBENCH" list >"$T/list2"
grep -q '^timerlat .*1 ms' "$T/list2" && die "kbench list names one period for timerlat"
# a run stored when every label said 1 ms: shown with the period of its settings
f=$(grep -l '"name": "knobs"' "$KBENCH_HOME"/*.json | head -1)
[ -n "$f" ] || die "knobs' run file not found"
sed 's/Timer wake-up latency (500 us, absolute)/Timer wake-up latency (1 ms, absolute)/' "$f" >"$KBENCH_HOME/abcdef01.json"
grep -q '(1 ms, absolute)' "$KBENCH_HOME/abcdef01.json" || die "the old label was not put back"
expect_exit 0 "$KBENCH" show abcdef01
grep -q '^Timer wake-up latency (500 us, absolute):$' "$T/out" || { cat "$T/out"; die "an old run's label does not follow its settings"; }
rm -f "$KBENCH_HOME/abcdef01.json"
grep -Eq '^  Requests per second: [0-9]+.* \(6 workers, 2 message threads\)$' "$T/out" || die "wakelat did not run 2 x 3 workers"
# 1000 wake-ups a second per phase at 1 ms, 2000 at 500 us: a phase of 0.5 s counts about 1000
expect_exit 0 "$KBENCH" export knobs --format json
python3 - "$T/out" <<'PY' || die "--period-us did not reach the timer"
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["blocks"][0]["tests"] if t["id"] == "timerlat"][0]
n = [s["n"] for h in t["hists"] if h["name"] == "other" for s in h["samples"]]
assert all(700 <= x <= 1010 for x in n), n
PY
expect_exit 0 "$KBENCH" compare one knobs
grep -Eq '^other p50 .*n/a \(other settings\)' "$T/out" || { cat "$T/out"; die "compare: no n/a for other settings"; }
grep -q '^timerlat ran with other settings: A period 1000 us, SCHED_FIFO on; B period 500' "$T/out" || die "compare does not say the settings differ"

# Without CAP_SYS_NICE (and no RLIMIT_RTPRIO) SCHED_FIFO is refused: the
# FIFO phases are left out, and the report and the run's notes say why.
if command -v setpriv >/dev/null 2>&1 &&
	setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice true 2>/dev/null; then
	expect_exit 0 setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice sh -c \
		"ulimit -r 0; exec \"$KBENCH\" run timerlat --duration 0.4 --samples 1 --pause 0 -c 1 --no-telemetry --name nofifo"
	grep -q '^  Note: SCHED_FIFO not permitted (Operation not permitted): needs root or CAP_SYS_NICE.$' "$T/out" ||
		{ cat "$T/out"; die "a refused SCHED_FIFO is not said"; }
	grep -Eq '^T: ?2 fifo' "$T/out" && die "a refused SCHED_FIFO still has a fifo phase"
	expect_exit 0 "$KBENCH" export nofifo --format json
	grep -q '"timerlat: SCHED_FIFO not permitted' "$T/out" || die "the run's notes lack the refusal"
	expect_exit 0 "$KBENCH" delete nofifo
	# --fifo only asks for what is refused: the test fails with one sentence, exit 1
	expect_exit 1 setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice sh -c \
		"ulimit -r 0; exec \"$KBENCH\" run timerlat --duration 0.4 --samples 1 --pause 0 -c 1 --no-telemetry --fifo only --name onlyfifo"
	grep -q '^Failed: Timer wake-up latency .*--fifo only: SCHED_FIFO not permitted (Operation not permitted): needs root or CAP_SYS_NICE)$' "$T/out" ||
		{ cat "$T/out"; die "--fifo only without the permission does not say why it failed"; }
fi
# --fifo only where it is permitted: the FIFO phases alone
if [ "$fifo" = measured ]; then
	expect_exit 0 "$KBENCH" run timerlat --duration 0.4 --samples 1 --pause 0 -c 1 --no-telemetry --fifo only --no-save
	grep -Eq '^T: ?[0-9] other' "$T/out" && die "--fifo only measured SCHED_OTHER"
	grep -Eq '^T: ?[0-9] fifo ' "$T/out" || { cat "$T/out"; die "--fifo only: no fifo phase"; }
fi

# A histogram whose counts disagree with its n: one line, exit 1, the store untouched.
f=$(grep -l '"wakelat"' "$KBENCH_HOME"/*.json | head -1)
python3 - "$f" "$T/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["blocks"][0]["tests"]:
    if t.get("hists"):
        t["hists"][0]["samples"][0]["n"] += 1
        break
json.dump(d, open(sys.argv[2], "w"))
PY
cp "$f" "$T/keep.json"
cp "$T/bad.json" "$KBENCH_HOME/badbad00.json"
expect_exit 1 "$KBENCH" show badbad00
[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "a bad histogram: not one line"; }
grep -q 'hists\[0\].samples\[0\]' "$T/err" || { cat "$T/err"; die "the error does not say where"; }
cmp -s "$f" "$T/keep.json" || die "a good run file changed"
rm -f "$KBENCH_HOME/badbad00.json"

# Interrupted in its second sample: the first is kept.
"$KBENCH" run timerlat --duration 2 --samples 3 --pause 0 -c 1 --no-telemetry --name cut >"$T/out" 2>"$T/err" &
pid=$!
# once the first sample has ended (--pause 0: the second has begun), not a fixed 3.5 s
i=0
until grep -q '^1 x timerlat: sample 1/3: ' "$T/err"; do
	i=$((i + 1)); [ $i -lt 400 ] || { kill $pid; cat "$T/err"; die "the first sample never ended"; }
	sleep 0.05
done
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat "$T/err"; die "interrupted: exit $rc, wanted 130"; }
grep -q 'marked incomplete' "$T/err" || { cat "$T/err"; die "the interrupted run was not stored"; }
expect_exit 0 "$KBENCH" export cut --format json
python3 - "$T/out" <<'PY' || die "the interrupted run's samples"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["incomplete"]
t = d["blocks"][0]["tests"][0]
h = {h["name"]: h for h in t["hists"]}
assert 1 <= len(h["other"]["samples"]) <= 2, len(h["other"]["samples"])
p = {p["name"]: p for p in t["points"]}
assert len(p["other p50"]["values"]) == len(h["other"]["samples"])
PY
exit 0
