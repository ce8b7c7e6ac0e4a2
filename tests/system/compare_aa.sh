# SPDX-License-Identifier: GPL-2.0-or-later
# A/A: short runs of the same kernel back to back compare as "no significant change" on all but as
# many rows as the verdicts' 95% confidence lets through by chance: at 95% each row of an A/A pair
# says "faster" or "slower" 5% of the time, so 2 of 24 is expected now and then (a host read 22 of
# 24 and failed a fixed 95%); the test fails when the rows with a verdict are more than the 99.9%
# quantile of Binomial(rows, 0.05) (5 of 24: one run in a thousand of a right comparison).
# The first runs teach the store this machine's noise; the pairs after them are compared
# (each comparison leaves its own two runs out of the learning). KBENCH_FORCE_AA=1 runs it on a busy machine.
# tier: load (its A/A statistic measures the whole machine; skipped when others use the CPUs)
. "$KBENCH_TOP/tests/system/lib.inc"
# An A/A test measures the machine, not kbench, when something else is eating the CPUs.
# The load average lags (the tests before this one raise it), so busy (lib.inc) looks at the
# CPU time spent in the last two seconds instead.
# Under ASan/UBSan the workloads run several times slower with noise of their own;
# the A/A statistic is checked on the normal build.
[ "${BUILD:-build}" = build-san ] && skip "A/A noise is measured on the normal build, not the sanitized one"
pct=$(busy)
if [ -z "${KBENCH_FORCE_AA:-}" ] && [ "$pct" -gt 25 ]; then
	skip "machine busy ($pct% of the CPUs used by others in the last 2 s): an A/A test would measure the other load"
fi
# 0.3 s samples: the statistic is the count of A/A rows called changed, decided at the same 24
# rows whatever the samples' length (the floors are learned for that length); 0.5 s cost 24 s more.
# Twelve runs of three tests (6 pairs of 4 rows, each pair learning from the other 10 runs), not
# eight of five (4 pairs of 6 rows, learning from 6): the same 24 rows, so the same bound and the
# same power against a verdict that calls changes too often, without Whetstone, whose calibration
# passes cost 1.1 s before each 0.3 s sample (26 s of this test's 69), or Pipe Throughput, the
# kind of row System Call already gives (the kernel's side of a cheap call).
R="run -c 1 -i 3 --duration 0.3 --pause 0 dhry2reg syscall context1"
runs=12
i=0
while [ $i -lt $runs ]; do
	expect_exit 0 "$KBENCH" $R
	i=$((i + 1))
done
"$KBENCH" runs | awk 'NR > 1 { print $1 }' >"$T/ids"
[ "$(wc -l <"$T/ids")" = $runs ] || die "not $runs runs stored"
rows=0 same=0
# Disjoint pairs: (1,2), (3,4), ...
set -- $(cat "$T/ids")
while [ $# -ge 2 ]; do
	"$KBENCH" compare --width 80 "$1" "$2" >"$T/cmp" 2>&1 || { cat "$T/cmp"; die "compare $1 $2 failed"; }
	cat "$T/cmp"
	# A decided row ends with how sure it is; a row withheld as busy is not counted.
	r=$(grep -c -E '((faster|slower) \(.*sure\)|no significant change)$' "$T/cmp")
	s=$(grep -c -E 'no significant change$' "$T/cmp")
	grep -q 'learned from' "$T/cmp" || die "compare $1 $2 did not learn from the stored runs"
	rows=$((rows + r)) same=$((same + s))
	shift 2
done
echo "A/A: $same of $rows rows no significant change"
[ "$rows" -gt 0 ] || die "no rows compared"
# the most rows a right comparison calls changed, 999 times in 1000
allowed=$(awk -v n="$rows" 'BEGIN { p = 0.05; pmf = (1 - p) ^ n; cdf = pmf; k = 0
	while (cdf < 0.999 && k < n) { pmf *= (n - k) / (k + 1) * p / (1 - p); k++; cdf += pmf }
	print k }')
[ $((rows - same)) -le "$allowed" ] ||
	die "$((rows - same)) of $rows A/A rows say faster or slower; chance at 95% confidence explains $allowed at most"
exit 0
