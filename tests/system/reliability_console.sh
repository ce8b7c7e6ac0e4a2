#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console stopped during a run by Ctrl-C, Ctrl-\, SIGTERM and SIGHUP (tmux, 80x24): the
# terminal modes are restored (stty -g inside the pane before and after), no process of the
# run remains, no scratch file remains, and a run said to be saved is stored as incomplete.
# requires: tmux python3 pgrep
# cost: 16
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"
. "$KBENCH_TOP/tests/system/reliability_lib.inc"
trap 'tmux -L "$UI_SOCK" kill-server 2>/dev/null; reliability_cleanup' EXIT

# The pane runs this: modes before, the console (tagged, its scratch in $SCRATCH), modes after.
# Ctrl-C and Ctrl-\ reach the whole foreground group: the wrapper catches them (its child
# starts with the default actions) so it lives on to read the modes afterwards.
cat >"$T/wrap.sh" <<EOW
trap : INT QUIT
echo \$\$ >"$T/wrap.pid"
stty -g >"$T/stty.before"
env "$RTAG" TMPDIR="$SCRATCH" "$KBENCH" console --samples 1 --duration 1 --pause 0 --copies 1 \
	execl shell1 context1 spawn pipe 2>"$T/console.err"
echo \$? >"$T/console.rc"
stty -g >"$T/stty.after"
EOW

console_pid() { pgrep -P "$(cat "$T/wrap.pid")" | head -n 1; }

# stop_with HOW STATUS: runs the console, starts the run, stops it at a random point by HOW
stop_with() {
	rm -f "$T/wrap.pid" "$T/console.rc" "$T/stty.before" "$T/stty.after"
	ui_start sh "$T/wrap.sh"
	ui_wait 'Setup'
	ui_keys r
	ui_wait '#1 +[0-9.]+' 15
	ms=$(rand_ms 300 3300)
	sleep "$(ms_to_s $ms)"
	pid=$(console_pid)
	[ -n "$pid" ] || die "$1: no console process"
	[ -n "$(run_pids)" ] || die "$1: no process of the run seen"
	case $1 in
	C-c) ui_keys C-c ;;
	C-\\) ui_keys 'C-\' ;;
	*) kill -"$1" "$pid" ;;
	esac
	n=100
	while [ $n -gt 0 ] && [ ! -s "$T/stty.after" ]; do sleep 0.2; n=$((n - 1)); done
	[ -s "$T/stty.after" ] || { ui_cap; die "$1: the console did not exit"; }
	rc=$(cat "$T/console.rc")
	[ "$rc" = "$2" ] || die "$1: exit status $rc, wanted $2"
	cmp -s "$T/stty.before" "$T/stty.after" ||
		die "$1: terminal modes not restored: $(cat "$T/stty.before") -> $(cat "$T/stty.after")"
	no_run_procs 5 "$1 in the console"
	no_scratch "$1 in the console"
	saved=$(sed -n 's/.*saved as \([0-9a-f]*\).*/\1/p' "$T/console.err")
	if [ -n "$saved" ]; then
		"$KBENCH" show "$saved" 2>&1 | grep -qi incomplete || die "$1: run $saved is not stored as incomplete"
	fi
	echo "$1 after $(ms_to_s $ms) s: exit $rc, modes restored, nothing left; $(cat "$T/console.err")"
	ui kill-session -t "$UI_PANE"
}

stop_with C-c 130
stop_with 'C-\' 131
stop_with TERM 143
stop_with HUP 129
echo ok
