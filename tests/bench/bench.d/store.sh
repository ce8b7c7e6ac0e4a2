#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The store as it grows: synthetic stores of 1, 1,000 and 10,000 runs made from a real run
# file (tests/tools/mkstore.py), each command timed (median of 5: wall time and CPU time) with its
# peak resident memory, side by side, with the load average before and after each size:
# the index built from nothing, runs, compare last~1 last, the console from start to a
# drawn setup screen, and the history screen. Targets at 10,000: runs <= 100 ms, compare
# <= 150 ms, console and history <= 200 ms, each <= 30 MB, the index <= 30 s.
# STORE_SIZES="1 1000" picks the sizes; STORE_RUN=FILE.json the real run to copy (else
# one is measured first, about half a minute).
KBENCH=$(cd "$(dirname "${1:-./kbench}")" && pwd)/$(basename "${1:-./kbench}")
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
SIZES=${STORE_SIZES:-1 1000 10000}
H=$(mktemp -d /tmp/kbench-bench-store.XXXXXX)
SOCK="kbench-bench-store-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$H"' EXIT
command -v python3 >/dev/null || { echo "store: skipped, python3 is not installed"; exit 0; }

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# once CMD...: "WALL_MS CPU_MS RSS_KB EXIT" of one run: wall and CPU time (user + system, in
# microseconds, not clock ticks) from wait4; the peak resident memory from GNU time, run
# between (a child forked from python would carry python's own peak through its exec), or
# 0 without it
once() {
	python3 -c '
import os, sys, tempfile, time
rss = tempfile.mktemp()
cmd = sys.argv[1:]
if os.access("/usr/bin/time", os.X_OK):
    cmd = ["/usr/bin/time", "-f", "%M", "-o", rss] + cmd
t = time.monotonic()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_RDWR)
    for k in (0, 1, 2):
        os.dup2(fd, k)
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t
try:
    kb = int(open(rss).read().split()[-1])
    os.unlink(rss)
except (OSError, ValueError, IndexError):
    kb = 0
print("%d %d %d %d" % (wall * 1000, (ru.ru_utime + ru.ru_stime) * 1000, kb,
                       os.waitstatus_to_exitcode(status)))
' "$@"
}
# timed CMD...: "WALL ms, CPU ms, RSS MB": the medians of 5 runs and the largest peak
# resident memory ("fails" when the command does, as compare last~1 last does in a store
# of one run)
timed() {
	: >"$H/t"
	for i in 1 2 3 4 5; do
		once "$@" >>"$H/t"
		[ "$(tail -n 1 "$H/t" | awk '{ print $4 }')" = 0 ] || { echo fails; return; }
	done
	wall=$(awk '{ print $1 }' "$H/t" | median) cpu=$(awk '{ print $2 }' "$H/t" | median)
	mb=$(awk '{ print $3 }' "$H/t" | sort -n | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }')
	echo "$wall ms, cpu $cpu, $mb MB"
}
# the 1-minute load average, as the figures are taken
load() { awk '{ print $1 }' /proc/loadavg; }
# wait_pane TEXT: until the pane shows TEXT (5 s at most)
wait_pane() {
	n=0
	until tmux -L "$SOCK" capture-pane -p -t b 2>/dev/null | grep -q "$1"; do
		n=$((n + 1)); [ $n -lt 2500 ] || return 1
	done
}
console_ms() { # start to a drawn setup screen, then H to the drawn history; "start history" in ms
	a=$(now)
	tmux -L "$SOCK" new-session -d -s b -x 80 -y 24 "env KBENCH_HOME='$KBENCH_HOME' LANG=C.UTF-8 '$KBENCH' console" 2>/dev/null
	wait_pane 'Setup' || { tmux -L "$SOCK" kill-server 2>/dev/null; echo "n/a n/a"; return; }
	b=$(now)
	tmux -L "$SOCK" send-keys -t b H
	wait_pane 'Stored runs' || b=
	c=$(now)
	pid=$(tmux -L "$SOCK" display -p -t b '#{pane_pid}' 2>/dev/null)
	mem=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null)
	# its CPU time so far (user + system, clock ticks of 1/100 s)
	cpu=$(awk '{ print ($14 + $15) * 10 }' "/proc/$pid/stat" 2>/dev/null)
	tmux -L "$SOCK" kill-server 2>/dev/null
	echo "$(ms "$a" "$b") $(ms "$b" "$c") ${mem:-n/a} ${cpu:-n/a}"
}

# A real run to copy: short samples of the index tests at 1 and 2 copies, with its series.
export KBENCH_HOME="$H/src"
if [ -n "$STORE_RUN" ]; then
	src=$STORE_RUN
else
	"$KBENCH" run -q -c 1,2 --samples 3 --duration 0.3 --pause 0 index >/dev/null 2>&1
	src=$(ls "$KBENCH_HOME"/*.json 2>/dev/null | head -n 1)
fi
[ -n "$src" ] || { echo "store: skipped, the source run failed"; exit 0; }
echo
echo "== The store as it grows (real run file of $(($(wc -c <"$src") / 1024)) KB; median of 5: wall ms, cpu = user + system ms; MB = peak RSS) =="
printf '%-30s' "stored runs"
for n in $SIZES; do printf ' %27s' "$n"; done
echo
for n in $SIZES; do
	python3 "$TOP/tests/tools/mkstore.py" "$H/s$n" "$n" "$src" "$TOP/tests/fixtures/run-1.1.json"
done
: >"$H/rows"
for n in $SIZES; do
	export KBENCH_HOME="$H/s$n"
	l0=$(load)
	set -- $(once "$KBENCH" runs)
	build="$1 ms, cpu $2, $(awk -v k="$3" 'BEGIN { printf "%.1f", k / 1024 }') MB"
	sleep 2 # the store's mtime two seconds old: noted, as in use
	"$KBENCH" runs >/dev/null 2>&1
	runs=$(timed "$KBENCH" runs)
	"$KBENCH" noise >/dev/null 2>&1 # the sets' first learning, kept in the index
	cmp=$(timed "$KBENCH" compare last~1 last)
	show=$(timed "$KBENCH" show last~1)
	if command -v tmux >/dev/null; then
		for i in 1 2 3; do console_ms >>"$H/con"; done
		con=$(awk '{ print $1 }' "$H/con" | median) hist=$(awk '{ print $2 }' "$H/con" | median)
		con_mb=$(awk '{ print $3 }' "$H/con" | sort -n | tail -n 1)
		con_cpu=$(awk '{ print $4 }' "$H/con" | median)
		rm -f "$H/con"
	else
		con=n/a hist=n/a con_mb=n/a con_cpu=n/a
	fi
	echo "$n|$build|$runs|$cmp|$show|$con ms, cpu $con_cpu, $con_mb MB|$hist ms|$l0 - $(load)" >>"$H/rows"
done
for col in 2 3 4 5 6 7 8; do
	case $col in
	2) label="index built from nothing" ;;
	3) label="kbench runs" ;;
	4) label="kbench compare last~1 last" ;;
	5) label="kbench show last~1" ;;
	6) label="console: start to setup" ;;
	7) label="console: H to history" ;;
	8) label="load average (1 min)" ;;
	esac
	printf '%-30s' "$label"
	while IFS='|' read -r c1 c2 c3 c4 c5 c6 c7 c8; do
		eval "v=\$c$col"
		printf ' %27s' "$v"
	done <"$H/rows"
	echo
done
exit 0
