#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scaling end to end on tiny settings: kbench list names it and its group;
# task counts that make no sense (0, not growing, more than the pids
# allow) and a bad job count are one line and exit 2; a run prints the
# AIM7-shaped table (Tasks, Jobs/min, Real, CPU, JPM/task) with its peak
# and crossover, stores every step's points (show, export json and csv),
# two runs compare row by row with a verdict and a sentence on the peak;
# a scratch dir that is not writable or fills up fails the test with its
# reason; an
# interrupted run keeps its finished steps; no scratch file is left behind.
# requires: python3 unshare
. "$KBENCH_TOP/tests/system/lib.inc"

"$KBENCH" list >"$T/list" || die "kbench list failed"
grep -A1 '^scaling ' "$T/list" | grep -q 'jobs/min of a fixed job mix' || { cat "$T/list"; die "kbench list lacks scaling"; }
grep -Eq '^scaling +scaling$' "$T/list" || die "kbench list lacks the scaling group"

for bad in 0 2,1 1,,2 abc 1,2, 99999; do
	expect_exit 2 "$KBENCH" run scaling --tasks "$bad" --no-save
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "--tasks $bad: not one line"; }
	grep -q -- '--tasks' "$T/err" || die "--tasks $bad: the error does not name the option"
done
for bad in "--max-tasks 0" "--jobs 0" "--jobs x"; do
	expect_exit 2 "$KBENCH" run scaling $bad --no-save
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "$bad: not one line"; }
done
# more tasks than this user may have processes: said before anything starts
prlimit --nproc=40 "$KBENCH" run scaling --max-tasks 64 --no-save >"$T/out" 2>"$T/err"
[ $? = 2 ] || { cat "$T/out" "$T/err"; die "--max-tasks over ulimit -u: not exit 2"; }
grep -q 'ulimit -u' "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; die "--max-tasks over ulimit -u: no one line naming the limit"; }

mkdir "$T/tmp"
small="--tasks 1,2,4 --jobs 3 --samples 2 --pause 0 --no-telemetry --tmpdir $T/tmp"
expect_exit 0 "$KBENCH" run scaling $small --name one
sed -n '/^Throughput as tasks grow/,/^$/p' "$T/out" >"$T/table"
tr -s ' \n' ' ' <"$T/table" | grep -q '^Throughput as tasks grow (job mix): 3 task counts, 3 jobs per task, mean of 2 samples' ||
	{ cat "$T/out"; die "no scaling table"; }
awk 'length($0) > 79 { print; bad = 1 } END { exit bad }' "$T/table" || die "the scaling table is wider than 79 columns"
grep -Eq '^  Tasks +Jobs/min +Real +CPU +JPM/task +\+-$' "$T/out" || die "the table's columns"
for n in 1 2 4; do
	grep -Eq "^ +$n +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9] +[0-9.]+%$" "$T/out" ||
		{ cat "$T/out"; die "no row for $n tasks"; }
done
grep -Eq '^  Peak: [124] tasks, [0-9.]+ jobs/min' "$T/out" || die "no peak line"
grep -Eq '^  Crossover: ' "$T/out" || die "no crossover line"
grep -q '2 parallel copies' "$T/out" && die "a run of scaling alone made a block of more copies"
grep -q 'System Benchmarks Index' "$T/out" && die "a scaling run printed an index table"
expect_exit 0 "$KBENCH" run scaling $small --name two

expect_exit 0 "$KBENCH" show one
grep -Eq '^  Tasks +Jobs/min +Real +CPU +JPM/task' "$T/out" || die "show lacks the table"
expect_exit 0 "$KBENCH" export one --format json
python3 - "$T/out" <<'EOF' || die "the run file's points"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["blocks"][0]["tests"][0]
assert t["kind"] == "points"
pts = {p["name"]: p for p in t["points"]}
for n in ("1 task", "2 tasks", "4 tasks", "peak"):
    assert pts[n]["summary"] and pts[n]["better"] == "higher" and pts[n]["unit"] == "jobs/min", pts[n]
for n in ("real 1", "real 4", "cpu 2"):
    assert not pts[n]["summary"] and pts[n]["better"] == "lower" and pts[n]["unit"] == "s", pts[n]
for p in t["points"]:
    assert len(p["values"]) == 2, p
assert pts["4 tasks"]["x"] == 4
# jobs/min is the jobs over the real time: 4 tasks x 3 jobs x 60 / real
for a, b in zip(pts["4 tasks"]["values"], pts["real 4"]["values"]):
    assert abs(a - 4 * 3 * 60 / b) < 1e-6 * a, (a, b)
keys = {k["key"] for k in t["summary"]}
assert "peak.tasks" in keys and "crossover.tasks" in keys, keys
EOF
expect_exit 0 "$KBENCH" export one --format csv
[ "$(grep -c ',scaling,"4 tasks",jobs/min,done,' "$T/out")" = 2 ] || { cat "$T/out"; die "csv: not a line per sample of a point"; }

expect_exit 0 "$KBENCH" compare one two
for p in "1 task" "2 tasks" "4 tasks" peak; do
	grep -Eq "^scaling $p .*(no significant change|faster|slower|n/a \(busy\))" "$T/out" ||
		{ cat "$T/out"; die "compare: no verdict on $p"; }
done
grep -Eq 'Throughput as tasks grow: peak ([124] -> [124] tasks|at [124] tasks on both), [-+][0-9]+% jobs/min' "$T/out" ||
	{ cat "$T/out"; die "compare: no sentence on the peak"; }
grep -q '^Curve points (not in the table; --csv lists each): 6,' "$T/out" || die "compare: the real and CPU points are not counted"

# A scratch dir the tasks cannot write in: the test fails and says why.
mkdir "$T/ro"
chmod 555 "$T/ro"
if [ "$(id -u)" != 0 ]; then
	expect_exit 1 "$KBENCH" run scaling --tasks 1 --jobs 1 --samples 1 --pause 0 --no-telemetry --no-save --tmpdir "$T/ro"
	grep -q 'scratch\|cannot' "$T/out" "$T/err" || { cat "$T/out" "$T/err"; die "an unwritable scratch dir is not said"; }
fi

# A scratch dir that fills up (an 8 KiB tmpfs, where a 16 KiB file cannot
# fit): the test fails with the reason, exit 1, and nothing is left in it.
mkdir "$T/full"
unshare -m sh -c "mount -t tmpfs -o size=8k tmpfs '$T/full' &&
	'$KBENCH' run scaling --tmpdir '$T/full' --tasks 1,2 --jobs 2 --samples 1 --pause 0 \
	--no-telemetry --no-save >'$T/out' 2>'$T/err'; echo \$? >'$T/rc'; ls -A '$T/full' >'$T/left'"
[ "$(cat "$T/rc")" = 1 ] || { cat "$T/out" "$T/err"; die "a full scratch dir: exit $(cat "$T/rc"), wanted 1"; }
grep -q '^Failed: Throughput as tasks grow .*No space left on device' "$T/out" ||
	{ cat "$T/out"; die "a full scratch dir is not said"; }
[ ! -s "$T/left" ] || die "a full scratch dir kept: $(cat "$T/left")"

# Interrupted in its second step: the first is stored, the run marked incomplete.
"$KBENCH" run scaling --tasks 1,2,4,8 --jobs 400 --samples 1 --pause 0 --no-telemetry \
	--tmpdir "$T/tmp" --name cut >"$T/out" 2>"$T/err" &
pid=$!
# the second step has begun when the worker (the run's child) has two tasks: 400 jobs at one
# task take some 15 s, some 45 s under ASan (20 jobs took 2.35 s there): it failed at 30 s
for i in $(seq 1 1200); do
	w=$(pgrep -P $pid | head -1)
	[ -n "$w" ] && [ "$(pgrep -P "$w" | wc -l)" -ge 2 ] && break
	sleep 0.1
done
[ "$i" -lt 1200 ] || die "the second step never began"
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat "$T/err"; die "interrupted: exit $rc, wanted 130"; }
grep -q 'marked incomplete' "$T/err" || { cat "$T/err"; die "the interrupted run was not stored"; }
expect_exit 0 "$KBENCH" export cut --format json
python3 - "$T/out" <<'EOF' || die "the interrupted run's points"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["incomplete"]
t = d["blocks"][0]["tests"][0]
names = {p["name"] for p in t["points"]}
assert "1 task" in names and "8 tasks" not in names, names
EOF
# every end (two runs, an interrupted one) left the scratch dir empty
left=$(find "$T/tmp" -mindepth 1 | head -5)
[ -z "$left" ] || die "scratch left behind: $left"
exit 0
