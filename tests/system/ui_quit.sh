#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Leaving the console during a run: q asks first, 'n' keeps running, 'y' aborts; SIGTERM and
# a closed terminal (tmux kill) also end it; every time the workers are gone afterwards.
# requires: tmux python3 pgrep
# cost: 14
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

# console_pid: the kbench started in the pane (the pane's shell is its parent)
console_pid() {
	shell=$(ui display-message -p -t "$UI_PANE" '#{pane_pid}')
	pgrep -P "$shell" -x kbench | head -n 1
}
# workers_of PID: the worker processes it forked
workers_of() { pgrep -P "$1" | tr '\n' ' '; }
all_gone() {
	for p in $1; do kill -0 "$p" 2>/dev/null && return 1; done
	return 0
}
wait_gone() {
	n=50
	while [ $n -gt 0 ]; do all_gone "$1" && return 0; sleep 0.2; n=$((n - 1)); done
	ps -o pid,ppid,stat,args -p "$(echo $1 | tr ' ' ',')"
	die "workers left behind after $2: $1"
}

# 1. q, then no (it runs on), then q and yes: aborted, results shown as incomplete; no sample
# finished, so there is nothing to save (s says so) and quitting does not ask
ui_start "$KBENCH" console --samples 2 --duration 30 --pause 0 --copies 2 dhry2reg
ui_wait 'Setup'
ui_keys r
ui_wait '#2 +[0-9.]+' 15
pid=$(console_pid); [ -n "$pid" ] || die "no console process"
w=$(workers_of "$pid"); [ -n "$w" ] || die "no workers while running"
ui_keys q
ui_wait 'Abort the run\?' 5
ui_keys n
sleep 0.6
ui_wait '#1 +[0-9.]+' 5
kill -0 "$pid" || die "the console died on 'n'"
ui_keys q
ui_wait 'Abort the run\?' 5
ui_keys y
ui_wait 'Results' 20
ui_wait 'incomplete' 5
wait_gone "$w" "abort"
ui_keys s
ui_wait 'not saved: nothing was measured' 5
ui_keys q
ui_exited 10
[ -z "$(ls "$KBENCH_HOME" 2>/dev/null)" ] || die "a run with nothing measured was stored"
ui kill-session -t "$UI_PANE"

# 1b. the same after a sample finished: there is something to save, so quitting asks first
ui_start "$KBENCH" console --samples 20 --duration 0.5 --pause 0 --copies 1 dhry2reg
ui_wait 'Setup'
ui_keys r
ui_wait 'sample ([2-9]|1[0-9]) of 20' 20
ui_keys q
ui_wait 'Abort the run\?' 5
ui_keys y
ui_wait 'Results' 20
ui_keys q
ui_wait 'not saved' 5
ui_keys y
ui_exited 10
ui kill-session -t "$UI_PANE"

# 2. F10 during a run asks the same question and leaves the console
ui_start "$KBENCH" console --samples 5 --duration 5 --pause 0 --copies 1 context1
ui_wait 'Setup'
ui_keys r
ui_wait '#1 +[0-9.]+' 15
pid=$(console_pid); w=$(workers_of "$pid")
ui_keys F10
ui_wait 'quit\?' 5
ui_keys y
ui_exited 20
wait_gone "$w" "F10"
ui kill-session -t "$UI_PANE"

# 3. SIGTERM during a run
ui_start "$KBENCH" console --samples 5 --duration 5 --pause 0 --copies 1 dhry2reg
ui_wait 'Setup'
ui_keys r
ui_wait '#1 +[0-9.]+' 15
pid=$(console_pid); w=$(workers_of "$pid")
kill -TERM "$pid"
ui_exited 20
wait_gone "$w $pid" "SIGTERM"
ui kill-session -t "$UI_PANE"

# 4. the terminal goes away (the tmux session is killed: SIGHUP)
ui_start "$KBENCH" console --samples 5 --duration 5 --pause 0 --copies 1 dhry2reg
ui_wait 'Setup'
ui_keys r
ui_wait '#1 +[0-9.]+' 15
pid=$(console_pid); w=$(workers_of "$pid")
ui kill-session -t "$UI_PANE"
wait_gone "$w $pid" "the terminal closed"
echo ok
