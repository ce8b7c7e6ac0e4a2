#!/bin/sh
# The store as it grows: synthetic stores of 1, 1,000 and 10,000 runs made from a real run
# file (tests/mkstore.py), each command timed (median of 5) with its peak resident memory,
# side by side: the index built from nothing, runs, compare last~1 last, the console from
# start to a drawn setup screen, and the history screen. Targets at 10,000: runs <= 100 ms,
# compare <= 150 ms, console and history <= 200 ms, each <= 30 MB, the index <= 30 s.
KBENCH=$(cd "$(dirname "${1:-./kbench}")" && pwd)/$(basename "${1:-./kbench}")
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SIZES=${STORE_SIZES:-1 1000 10000}
H=$(mktemp -d /tmp/kbench-bench-store.XXXXXX)
SOCK="kbench-bench-store-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$H"' EXIT
command -v python3 >/dev/null || { echo "store: skipped, python3 is not installed"; exit 0; }

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# peak resident memory of a command in MB, "n/a" without GNU time
rss() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }'
	else
		echo n/a
	fi
}
# timed CMD...: the median of 5 runs in ms ("fails" when the command does, as compare
# last~1 last does in a store of one run)
timed() {
	: >"$H/t"
	for i in 1 2 3 4 5; do
		a=$(now); "$@" >/dev/null 2>&1 || { echo fails; return; }; b=$(now)
		ms "$a" "$b" >>"$H/t"
	done
	median <"$H/t"
}
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
	tmux -L "$SOCK" kill-server 2>/dev/null
	echo "$(ms "$a" "$b") $(ms "$b" "$c") ${mem:-n/a}"
}

# A real run to copy: short samples of the index tests at 1 and 2 copies, with its series.
export KBENCH_HOME="$H/src"
"$KBENCH" run -q -c 1,2 --samples 3 --duration 0.3 --pause 0 index >/dev/null 2>&1
src=$(ls "$KBENCH_HOME"/*.json 2>/dev/null | head -n 1)
[ -n "$src" ] || { echo "store: skipped, the source run failed"; exit 0; }
echo
echo "== The store as it grows (real run file of $(($(wc -c <"$src") / 1024)) KB; median of 5; MB = peak RSS) =="
printf '%-30s' "stored runs"
for n in $SIZES; do printf ' %14s' "$n"; done
echo
for n in $SIZES; do
	python3 "$TOP/tests/mkstore.py" "$H/s$n" "$n" "$src" "$TOP/tests/fixtures/run-1.1.json"
done
: >"$H/rows"
for n in $SIZES; do
	export KBENCH_HOME="$H/s$n"
	a=$(now); "$KBENCH" runs >/dev/null 2>&1; b=$(now)
	build=$(ms "$a" "$b")
	runs=$(timed "$KBENCH" runs) runs_mb=$(rss "$KBENCH" runs)
	"$KBENCH" noise >/dev/null 2>&1 # the sets' first learning, kept in the index
	cmp=$(timed "$KBENCH" compare last~1 last) cmp_mb=$(rss "$KBENCH" compare last~1 last)
	[ "$cmp" = fails ] && cmp_mb=-
	show=$(timed "$KBENCH" show last~1) show_mb=$(rss "$KBENCH" show last~1)
	if command -v tmux >/dev/null; then
		for i in 1 2 3; do console_ms >>"$H/con"; done
		con=$(awk '{ print $1 }' "$H/con" | median) hist=$(awk '{ print $2 }' "$H/con" | median)
		con_mb=$(awk '{ print $3 }' "$H/con" | sort -n | tail -n 1)
		rm -f "$H/con"
	else
		con=n/a hist=n/a con_mb=n/a
	fi
	echo "$n|$build ms|$runs ms, $runs_mb MB|$cmp ms, $cmp_mb MB|$show ms, $show_mb MB|$con ms, $con_mb MB|$hist ms" >>"$H/rows"
done
for col in 2 3 4 5 6 7; do
	case $col in
	2) label="index built from nothing" ;;
	3) label="kbench runs" ;;
	4) label="kbench compare last~1 last" ;;
	5) label="kbench show last~1" ;;
	6) label="console: start to setup" ;;
	7) label="console: H to history" ;;
	esac
	printf '%-30s' "$label"
	while IFS='|' read -r c1 c2 c3 c4 c5 c6 c7; do
		eval "v=\$c$col"
		printf ' %14s' "$v"
	done <"$H/rows"
	echo
done
exit 0
