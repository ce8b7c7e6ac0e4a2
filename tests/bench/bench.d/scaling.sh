#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What kbench's own sampling costs throughput as tasks grow: scaling with
# telemetry at 2 Hz and with none, alternating (on, off, on, off, ...) in
# one sitting, so drift of the machine hits both sides alike. Ratio = median
# on / median off of jobs/min at each task count: below 1 is slower with
# the observer on.
KBENCH=${1:-./kbench}
ROUNDS=${ROUNDS:-4}
TASKS=${TASKS:-1,2,4,8}
JOBS=${JOBS:-100}
echo
echo "== scaling: telemetry at 2 Hz vs off, tasks $TASKS, $JOBS jobs each, $ROUNDS alternating runs each =="
printf '%-10s %12s %12s %8s\n' TASKS "median on" "median off" ratio
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tmp=$(mktemp -d /tmp/kbench-bench-scaling.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt "$ROUNDS" ]; do
	"$KBENCH" run -q --no-save --samples 1 --pause 0 --tasks "$TASKS" --jobs "$JOBS" --interval 0.5 scaling 2>/dev/null >"$tmp/on.$i"
	"$KBENCH" run -q --no-save --samples 1 --pause 0 --tasks "$TASKS" --jobs "$JOBS" --no-telemetry scaling 2>/dev/null >"$tmp/off.$i"
	i=$((i + 1))
done
# a row of the table: "      4    22406.9      2.14      2.09    5601.7   1.1%" (tasks, jobs/min first)
for n in $(echo "$TASKS" | tr , ' '); do
	on=$(cat "$tmp"/on.* | awk -v n="$n" 'NF == 6 && $1 == n && $2 + 0 > 0 { print $2 }' | median)
	off=$(cat "$tmp"/off.* | awk -v n="$n" 'NF == 6 && $1 == n && $2 + 0 > 0 { print $2 }' | median)
	[ -n "$on" ] && [ -n "$off" ] || continue
	printf '%-10s %12s %12s %8.4f\n' "$n" "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN { print (b > 0 ? a / b : 0) }')"
done
echo "(goal: within 1% of 1, beyond the noise of a step; the sampler wakes twice a second beside the tasks)"
