#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-quick: full-length index vs quick index, 1 copy, interleaved
# (full, quick, full, quick, ...), on this machine, in one sitting.
# Prints per test the median full and quick scores, their ratio, the
# full-vs-full spread and the time each took; then the index and time ratios.
KBENCH=${KBENCH:-./kbench}
PAIRS=${PAIRS:-2}
out=${OUT:-$(mktemp -d /tmp/kbench-bench-quick.XXXXXX)}
mkdir -p "$out"
echo "bench-quick: $PAIRS pairs, reports in $out, runs stored in $out/store ($(uname -r), $(nproc) CPUs)"
# REPORT_ONLY=1: only summarise the reports already in $OUT (fullN.txt, quickN.txt, *.secs).
i=1
[ "${REPORT_ONLY:-}" = 1 ] && i=$((PAIRS + 1))
while [ $i -le "$PAIRS" ]; do
	for mode in full quick; do
		flag=; [ $mode = quick ] && flag=--quick
		start=$(date +%s.%N)
		# Stored in a store of its own: the samples are there to study afterwards.
		KBENCH_HOME="$out/store" "$KBENCH" run -q -c 1 --name "$mode$i" $flag index \
			>"$out/$mode$i.txt" 2>"$out/$mode$i.err" ||
			{ echo "run $mode $i failed:"; cat "$out/$mode$i.err"; exit 1; }
		end=$(date +%s.%N)
		echo "$mode $i took $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }') s"
		awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f\n", b - a }' >"$out/$mode$i.secs"
	done
	i=$((i + 1))
done
# One line per run and test: mode, label, score (and the index score as a test of its own).
for f in "$out"/full*.txt "$out"/quick*.txt; do
	mode=$(basename "$f" .txt | tr -d 0-9)
	awk -v m="$mode" '
		/^System Benchmarks Index Score/ { printf "%s\t%s\t%s\n", m, "System Benchmarks Index Score", $NF; next }
		/samples\)$/ { lab = substr($0, 1, 40); sub(/ +$/, "", lab); printf "%s\t%s\t%s\n", m, lab, $(NF-5) }
	' "$f"
done >"$out/scores.tsv"
for mode in full quick; do
	cat "$out"/$mode*.secs | awk -v m=$mode '{ s += $1; n++ } END { printf "%s\t%.1f\n", m, s / n }'
done >"$out/times.tsv"
awk -F'\t' '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FNR == NR { secs[$1] = $2; next }
{
	if (!($2 in seen)) { seen[$2] = 1; order[++nt] = $2 }
	k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3
}
END {
	printf "\n%-38s %12s %12s %7s %8s\n", "test (1 copy)", "full median", "quick median", "ratio", "full A/A"
	for (i = 1; i <= nt; i++) {
		t = order[i]
		kf = "full" SUBSEP t; kq = "quick" SUBSEP t
		for (j = 1; j <= n[kf]; j++) f[j] = v[kf, j]
		for (j = 1; j <= n[kq]; j++) q[j] = v[kq, j]
		mf = median(f, n[kf]); mq = median(q, n[kq])
		lo = hi = v[kf, 1]; for (j = 2; j <= n[kf]; j++) { if (v[kf, j] < lo) lo = v[kf, j]; if (v[kf, j] > hi) hi = v[kf, j] }
		spread = lo > 0 ? (hi / lo - 1) * 100 : 0
		ratio = mf > 0 ? mq / mf : 0
		lim = spread > 3 ? spread : 3
		if (t ~ /Index Score/) lim = spread > 1.5 ? spread : 1.5
		mark = (ratio - 1) * 100 > lim || (1 - ratio) * 100 > lim ? "  MISS" : ""
		printf "%-38s %12.1f %12.1f %7.3f %7.1f%%%s\n", substr(t, 1, 38), mf, mq, ratio, spread, mark
	}
	printf "\nmean time per run: full %.0f s, quick %.0f s, time ratio %.3f (goal <= 0.125)\n", secs["full"], secs["quick"], secs["quick"] / secs["full"]
}' "$out/times.tsv" "$out/scores.tsv"
