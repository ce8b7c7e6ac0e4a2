#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What kbench's own sampling costs memory latency: memlat with telemetry at
# 2 Hz and with none, alternating (on, off, on, off, ...) in one sitting, so
# drift of the machine hits both sides alike. Ratio = median on / median off
# of each headline point: a latency above 1 is slower with the observer on.
KBENCH=${1:-./kbench}
ROUNDS=${ROUNDS:-4}
SIZES=${SIZES:-512:64M:2}
echo
echo "== memlat: telemetry at 2 Hz vs off, 1 copy, sizes $SIZES, $ROUNDS alternating runs each =="
printf '%-10s %12s %12s %8s\n' POINT "median on" "median off" ratio
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tmp=$(mktemp -d /tmp/kbench-bench-memlat.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt "$ROUNDS" ]; do
	"$KBENCH" run -q --no-save -c 1 --samples 1 --sizes "$SIZES" --interval 0.5 memlat 2>/dev/null >"$tmp/on.$i"
	"$KBENCH" run -q --no-save -c 1 --samples 1 --sizes "$SIZES" --no-telemetry memlat 2>/dev/null >"$tmp/off.$i"
	i=$((i + 1))
done
# a headline row: "  rnd L1    16 KiB    1.317 ns    0.8%" (the value is third from the end)
for p in "clock" "rnd L1" "rnd L2" "rnd L3" "rnd mem" "fwd mem"; do
	on=$(cat "$tmp"/on.* | awk -v p="$p" 'index($0, "  " p " ") == 1 && $(NF-2) + 0 > 0 { print $(NF-2) }' | median)
	off=$(cat "$tmp"/off.* | awk -v p="$p" 'index($0, "  " p " ") == 1 && $(NF-2) + 0 > 0 { print $(NF-2) }' | median)
	[ -n "$on" ] && [ -n "$off" ] || continue
	printf '%-10s %12s %12s %8.4f\n' "$p" "$on" "$off" "$(awk -v a="$on" -v b="$off" 'BEGIN { print (b > 0 ? a / b : 0) }')"
done
echo "(goal: within 1% of 1; each point is the fastest of many walks, so a wake-up of the sampler can only slow a walk it lands in)"
