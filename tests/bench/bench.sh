#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: what kbench's own machinery costs, measured here, side by side in one run.
#  1. Sample start-up: forking and releasing the copies, and reaping them after
#     the work ends, per sample, as a share of UnixBench's 10 s sample.
KBENCH=${1:-./kbench}
ncpu=$(nproc)
echo "kbench bench on $(uname -r), $ncpu CPUs, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "== Sample start-up and teardown (fork, barrier, shared memory, reaping) =="
printf '%-18s %8s %14s %14s\n' TEST COPIES "ms/sample" "share of 10 s"
for copies in 1 $ncpu; do
	for t in dhry2reg whetstone-double execl fstime pipe context1 spawn syscall shell1 shell8; do
		ms=$("$KBENCH" run -v -c "$copies" --samples 5 --duration 0.5 --pause 0 "$t" 2>&1 >/dev/null |
			sed -n 's/.*start-up and teardown \([0-9.]*\) ms per sample.*/\1/p' | tail -n 1)
		[ -n "$ms" ] || ms=nan
		printf '%-18s %8d %14s %13s%%\n' "$t" "$copies" "$ms" \
			"$(awk -v m="$ms" 'BEGIN { if (m == "nan") print "n/a"; else printf "%.4f", m / 10000 * 100 }')"
	done
done
for extra in tests/bench/bench.d/*.sh; do
	[ -f "$extra" ] && sh "$extra" "$KBENCH"
done
exit 0
