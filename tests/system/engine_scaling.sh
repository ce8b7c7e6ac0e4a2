# SPDX-License-Identifier: GPL-2.0-or-later
# Two copies of a CPU-bound test on a 2-core machine score about twice one copy.
# Other load on the machine skews one attempt; up to three attempts, one must fit.
# tier: load (two copies score twice one only when both CPUs are free)
# requires: cpus2
. "$KBENCH_TOP/tests/system/lib.inc"
score() { # score BLOCK: the Dhrystone score of that block of the report
	awk -v want="$1" '/^Benchmark Run:/{b++} /^Dhrystone 2 using register variables +[0-9]/ && b==want {print $(NF-5)}' "$T/report" | head -1
}
for attempt in 1 2 3; do
	"$KBENCH" run -q --no-save -c 1 -c 2 --samples 3 --duration 1 --pause 0 dhry2reg >"$T/report" 2>"$T/err" || { cat "$T/err"; die "run failed"; }
	one=$(score 1) two=$(score 2)
	[ -n "$one" ] && [ -n "$two" ] || { cat "$T/report"; die "no scores"; }
	ratio=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.3f", b / a }')
	echo "attempt $attempt: 1 copy $one lps, 2 copies $two lps, ratio $ratio"
	awk -v r="$ratio" 'BEGIN { exit !(r > 1.6 && r < 2.2) }' && { echo ok; exit 0; }
done
die "2 copies / 1 copy stayed outside 1.6-2.2 (last $ratio)"
