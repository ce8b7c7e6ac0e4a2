#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT, SIGTERM, SIGHUP and SIGQUIT at a random point of a headless run with children
# (execl chains, spawned processes, shell pipelines, file tests): no process of the run
# remains, no scratch file remains, the finished samples are stored in a run marked
# incomplete (none finished: nothing is stored), and the exit status is 128 + the signal.
# A second SIGINT while stopping (a worker that cannot hear the stop flag) stops hard,
# still leaving nothing behind.
# requires: pgrep
# cost: 15
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/reliability_lib.inc"

TESTS_WITH_CHILDREN="execl spawn shell1 context1 fstime"

# one_signal NAME NUMBER
one_signal() {
	rm -rf "$KBENCH_HOME"
	start_run --samples 2 --duration 0.5 --pause 0 -c 1 --no-telemetry $TESTS_WITH_CHILDREN
	wait_for_text "$T/err" '^== 1 parallel copy ==' 15
	ms=$(rand_ms 100 3500)
	echo "SIG$1 after $(ms_to_s $ms) s"
	sleep "$(ms_to_s $ms)"
	kill -0 "$RUN_PID" 2>/dev/null || die "the run ended before SIG$1 was sent"
	[ -n "$(run_pids)" ] || die "no process of the run found (the tag is not seen)"
	kill -"$1" "$RUN_PID"
	wait_run 20
	[ "$RUN_RC" = $((128 + $2)) ] || { cat "$T/err"; die "SIG$1: exit status $RUN_RC, wanted $((128 + $2))"; }
	no_run_procs 5 "SIG$1"
	no_scratch "SIG$1"
	grep -q '^System Benchmarks' "$T/out" || grep -q 'Benchmark Run' "$T/out" ||
		die "SIG$1: no report on stdout"
	# before any sample finished there is nothing to keep (store_worth_saving)
	if ! grep -q ': sample [0-9]' "$T/err"; then
		grep -q '^not saved: nothing was measured' "$T/err" || { cat "$T/err"; die "SIG$1: no sample finished, yet not said unsaved"; }
		[ -z "$(ls "$KBENCH_HOME" 2>/dev/null)" ] || die "SIG$1: a run with nothing measured was stored"
		echo "SIG$1: exit $RUN_RC, stopped before a sample finished, nothing stored, nothing left"
		return
	fi
	grep -q 'marked incomplete' "$T/err" || { cat "$T/err"; die "SIG$1: the run was not saved as incomplete"; }
	"$KBENCH" runs >"$T/runs" 2>&1 || die "runs failed: $(cat "$T/runs")"
	[ "$(grep -c '(incomplete)' "$T/runs")" = 1 ] || { cat "$T/runs"; die "SIG$1: runs does not show one incomplete run"; }
	"$KBENCH" show last >"$T/show" 2>&1 || die "show failed: $(cat "$T/show")"
	grep -qi 'incomplete' "$T/show" || die "SIG$1: show does not say incomplete"
	samples_match
	echo "SIG$1: exit $RUN_RC, $stored samples kept, nothing left"
}

one_signal INT 2
one_signal TERM 15
one_signal HUP 1
one_signal QUIT 3

# SIGINT does not wait for the workers: the sample is thrown away, so they are killed at
# once, even one that cannot see the stop flag (frozen by SIGSTOP; and Dhrystone's loop
# never looks at it). A second SIGINT while stopping is then harmless.
rm -rf "$KBENCH_HOME"
start_run --samples 1 --duration 20 --pause 0 -c 1 --no-telemetry dhry2reg
n=50
while [ $n -gt 0 ] && [ -z "$(workers)" ]; do sleep 0.1; n=$((n - 1)); done
w=$(workers)
[ -n "$w" ] || die "no worker appeared"
kill -STOP $w
t0=$(date +%s)
kill -INT "$RUN_PID"
kill -INT "$RUN_PID" 2>/dev/null
wait_run 5
secs=$(( $(date +%s) - t0 ))
[ "$RUN_RC" = 130 ] || { cat "$T/err"; die "SIGINT with a frozen worker: exit status $RUN_RC, wanted 130"; }
no_run_procs 5 "SIGINT with a frozen worker"
no_scratch "SIGINT with a frozen worker"
grep -q '^not saved: nothing was measured' "$T/err" || { cat "$T/err"; die "SIGINT with a frozen worker: not said unsaved (no sample finished)"; }
echo "SIGINT with a frozen worker: stopped in ${secs} s, exit 130, nothing left"

# The terminal goes away under a pipeline (ssh drops while `kbench run | tee log` runs): the
# reader of stdout and stderr dies, then SIGHUP comes. Writes then fail (EPIPE), which must
# neither kill the run before it saves nor leave the workers or scratch files behind.
rm -rf "$KBENCH_HOME"
mkfifo "$T/fifo"
env "$RTAG" "$KBENCH" run --tmpdir "$SCRATCH" --samples 2 --duration 0.5 --pause 0 -c 1 --no-telemetry \
	pipe context1 spawn >"$T/fifo" 2>&1 &
RUN_PID=$!
cat "$T/fifo" >"$T/err" &
reader=$!
wait_for_text "$T/err" '^1 x Pipe Throughput' 15
kill "$reader"
wait "$reader" 2>/dev/null
sleep 0.3
kill -HUP "$RUN_PID"
wait_run 20
[ "$RUN_RC" = 129 ] || die "SIGHUP with the reader gone: exit status $RUN_RC, wanted 129"
no_run_procs 5 "SIGHUP with the reader gone"
no_scratch "SIGHUP with the reader gone"
"$KBENCH" runs >"$T/runs" 2>&1
[ "$(grep -c '(incomplete)' "$T/runs")" = 1 ] || { cat "$T/runs"; die "SIGHUP with the reader gone: the run was not stored as incomplete"; }
echo "SIGHUP with stdout and stderr gone: exit 129, the run stored"

# compare says so too, beside a complete run
"$KBENCH" run -q --samples 1 --duration 0.2 --pause 0 -c 1 --no-telemetry --tmpdir "$SCRATCH" pipe \
	>/dev/null 2>"$T/err" || die "a complete run failed: $(cat "$T/err")"
"$KBENCH" compare last last~1 >"$T/cmp" 2>&1 || die "compare failed: $(cat "$T/cmp")"
grep -q 'incomplete' "$T/cmp" || { cat "$T/cmp"; die "compare does not say a run is incomplete"; }
echo ok
