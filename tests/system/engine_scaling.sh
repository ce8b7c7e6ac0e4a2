# SPDX-License-Identifier: GPL-2.0-or-later
# Two copies of a CPU-bound test score what two independent one-copy runs, started
# side by side, score together: kbench's copies run in parallel and their scores add.
# The pair's figure is twice the slower run's (the faster one may have had a CPU to
# itself while the other started).
# The expectation is taken from the machine, not assumed: two vCPUs that are one
# core's hyperthreads on the host give about 1.5 times one copy (a CI host did, in the
# sanitized build), two whole cores about 2. Other load on the machine skews one
# attempt; up to three attempts, one must fit.
# tier: load (two copies score twice one only when both CPUs are free)
# requires: cpus2
. "$KBENCH_TOP/tests/system/lib.inc"
score() { # score FILE BLOCK: the Dhrystone score of that block of a report
	awk -v want="$2" '/^Benchmark Run:/{b++} /^Dhrystone 2 using register variables +[0-9]/ && b==want {print $(NF-5)}' "$1" | head -1
}
run() { # run OUT COPIES...: one kbench run of Dhrystone
	out=$1; shift
	"$KBENCH" run -q --no-save "$@" --samples 3 --duration 1 --pause 0 dhry2reg >"$out" 2>"$out.err" ||
		{ cat "$out.err"; die "run failed"; }
}
for attempt in 1 2 3; do
	run "$T/report" -c 1 -c 2
	run "$T/solo_a" -c 1 & pa=$!
	run "$T/solo_b" -c 1 & pb=$!
	wait $pa || die "side-by-side run failed"
	wait $pb || die "side-by-side run failed"
	one=$(score "$T/report" 1) two=$(score "$T/report" 2)
	a=$(score "$T/solo_a" 1) b=$(score "$T/solo_b" 1)
	[ -n "$one" ] && [ -n "$two" ] && [ -n "$a" ] && [ -n "$b" ] || { cat "$T/report" "$T/solo_a"; die "no scores"; }
	line=$(awk -v one="$one" -v two="$two" -v a="$a" -v b="$b" \
		'BEGIN { p = 2 * (a < b ? a : b); printf "%.3f %.3f %.3f", two / one, p / one, two / p }')
	set -- $line
	echo "attempt $attempt: 1 copy $one lps, 2 copies $two lps ($1 x), two side-by-side runs $a and $b lps (twice the slower: $2 x); 2 copies / that $3"
	# Parallel at all (serial copies would read about 1), and as parallel as the machine allows.
	awk -v r="$1" -v s="$3" 'BEGIN { exit !(r > 1.3 && r < 2.2 && s > 0.8 && s < 1.2) }' && { echo ok; exit 0; }
done
die "2 copies did not score what two side-by-side runs do (last: $1 x one copy, $3 of the pair)"
