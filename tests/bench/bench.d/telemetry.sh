#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What telemetry costs the workers: each test with sampling at 2 Hz and with
# no telemetry at all, alternating (on, off, on, off, ...) in one sitting, so
# drift of the machine hits both sides alike. Ratio = median on / median off.
KBENCH=${1:-./kbench}
ROUNDS=${ROUNDS:-4}
echo
echo "== Telemetry cost: sampling at 2 Hz vs off, 1 copy, $ROUNDS alternating runs each (3 x 2 s samples) =="
printf '%-18s %14s %14s %8s\n' TEST "median on" "median off" ratio
score() { awk '/samples\)$/ { print $(NF-5); exit }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "spawn+ev" forces the software counters onto spawn (off there by default): what they would cost.
for t in dhry2reg syscall context1 spawn spawn+ev; do
	test=${t%+ev}; ev=
	[ "$t" != "$test" ] && ev="--events perf::TASK-CLOCK,perf::CONTEXT-SWITCHES,perf::CPU-MIGRATIONS,perf::PAGE-FAULTS"
	: >/tmp/kbench-bench-on.$$; : >/tmp/kbench-bench-off.$$
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		"$KBENCH" run -q --no-save -c 1 --samples 3 --duration 2 --pause 0 --interval 0.5 $ev "$test" 2>/dev/null | score >>/tmp/kbench-bench-on.$$
		"$KBENCH" run -q --no-save -c 1 --samples 3 --duration 2 --pause 0 --no-telemetry "$test" 2>/dev/null | score >>/tmp/kbench-bench-off.$$
		i=$((i + 1))
	done
	on=$(median </tmp/kbench-bench-on.$$) off=$(median </tmp/kbench-bench-off.$$)
	printf '%-18s %14.1f %14.1f %8.4f\n' "$t" "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN { print (b > 0 ? a / b : 0) }')"
done
rm -f /tmp/kbench-bench-on.$$ /tmp/kbench-bench-off.$$
echo "(goal: ratio >= 0.995; context1 moves by tens of percent with where the scheduler puts its two processes)"
