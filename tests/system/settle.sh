# SPDX-License-Identifier: GPL-2.0-or-later
# Settling: a quick sample waits (a little) for the machine to be idle, reading /proc/stat; a
# machine that stays busy is said in the run's note, and after 5 caps in a row the run stops
# waiting; an idle one is said nothing of; a full-length run settles before each test's first
# sample, and --pause 0 not at all. /proc/stat is a fake one, still or kept busy. The preflight's
# window (make test's ordinary tier shortens it, KBENCH_PREFLIGHT_WINDOW) sees the still machine
# idle, and a real one busy beside a process that spins (the fake's fifo can hand a reader a line
# written a moment before: too coarse for a tenth of a second).
# requires: python3
# cost: 23
. "$KBENCH_TOP/tests/system/lib.inc"
mkdir -p "$T/root/proc"
printf 'cpu  100 0 100 100000 0 0 0 0 0 0\n' >"$T/root/proc/stat"
R="run -c 1 --quick --budget 0.15 --duration 0.2 --interval 0"
# idle: the fake machine's counters do not move
KBENCH_SYSFS_ROOT="$T/root" expect_exit 0 "$KBENCH" $R --name idle dhry2reg syscall
expect_exit 0 "$KBENCH" show idle
grep -q '^note: settle' "$T/out" && { cat "$T/out"; die "an idle machine's run says it did not settle"; }
grep -q '^note: preflight: busy' "$T/out" && { cat "$T/out"; die "the preflight calls an idle machine busy"; }
# busy: two CPUs' worth of user ticks every second, read at the moment of reading: /proc/stat is
# a fifo whose writer answers each open with the ticks the clock gives (under any load). The
# interpreter itself, not lib.inc's python3 function: in the background that is a subshell that
# kill would end, leaving the writer blocked on the fifo for good.
rm "$T/root/proc/stat"
mkfifo "$T/root/proc/stat"
"${kb_python:-python3}" -c '
import sys, time
t0 = time.monotonic()
while True:
    try:  # a reader takes its first line and goes: the rest of a write may find no one
        with open(sys.argv[1], "w") as f:
            f.write("cpu  %d 0 100 100000 0 0 0 0 0 0\n" % (100 + 200 * (time.monotonic() - t0)))
    except BrokenPipeError:
        pass
' "$T/root/proc/stat" 2>/dev/null &
writer=$!
KBENCH_SYSFS_ROOT="$T/root" expect_exit 0 "$KBENCH" $R --name busy dhry2reg syscall
# a full-length run settles before each test's first sample, unless --pause 0 asked for samples
# back to back: on the busy machine, the one waits its cap and the other not at all
F="run -c 1 --samples 2 --duration 0.2 --interval 0"
KBENCH_SYSFS_ROOT="$T/root" expect_exit 0 "$KBENCH" $F --pause 0.01 --name full-pause dhry2reg syscall
KBENCH_SYSFS_ROOT="$T/root" expect_exit 0 "$KBENCH" $F --pause 0 --name full-nopause dhry2reg syscall
kill $writer
wait $writer 2>/dev/null
expect_exit 0 "$KBENCH" show busy
grep -Eq '^note: settle: [0-9]+ of [0-9]+ samples began before the machine was idle \(other processes used up to [0-9.]+ CPU at the cap\); after 5 in a row the rest did not wait' "$T/out" ||
	{ cat "$T/out"; die "a busy machine's run does not say it did not settle"; }
"$KBENCH" export busy --format json >"$T/busy.json" || die "export"
python3 - "$T/busy.json" <<'PY' || die "the settling waits"
import json, sys
r = json.load(open(sys.argv[1]))
tests = r["blocks"][0]["tests"]
waits = [s["value"] for t in tests for s in t["summary"] if s["key"] == "settle_s"]
samples = sum(len(t["samples"]) for t in tests)
# five caps of 0.3 s (and the windows' reads), then no more waiting: had every sample waited
# its cap, more than 0.3 s each
assert samples >= 10 and waits and 1.4 <= sum(waits) < 0.3 * samples, (waits, samples)
PY
for n in full-pause full-nopause; do
	"$KBENCH" export $n --format json >"$T/$n.json" || die "export $n"
done
python3 - "$T" <<'PY' || die "a full-length run's settling"
import json, sys
def waits(name):
    r = json.load(open("%s/%s.json" % (sys.argv[1], name)))
    return [s["value"] for t in r["blocks"][0]["tests"] for s in t["summary"] if s["key"] == "settle_s"]
w = waits("full-pause")
assert len(w) == 2 and all(0.9 <= x < 1.9 for x in w), w  # each test's first sample, its 1 s cap
assert waits("full-nopause") == [], waits("full-nopause")
PY
sh -c 'while :; do :; done' &
spin=$!
"$KBENCH" run --no-save -c 1 --samples 1 --duration 0.1 --pause 0 --no-telemetry syscall >"$T/out" 2>"$T/err"
rc=$?
kill $spin
[ $rc = 0 ] || { cat "$T/out" "$T/err"; die "a run beside a spinning process exited $rc"; }
grep -Eq '^preflight: busy: other processes used [0-9.]+ CPU in the ([0-9.]+ s|half second) before the run' "$T/err" ||
	die "the preflight does not see a process spinning beside it: $(grep preflight "$T/err")"
echo "settling waits for an idle machine, and says when it did not come"
