# SPDX-License-Identifier: GPL-2.0-or-later
# Every index test, 1 and 2 copies, short samples: positive scores, a report that adds up, no scratch left.
# cost: 36
. "$KBENCH_TOP/tests/system/lib.inc"
mkdir -p "$T/scratch"
"$KBENCH" run -q --name orig -c 1 -c 2 --samples 2 --duration 0.5 --pause 0 --tmpdir "$T/scratch" index >"$T/report" 2>"$T/err"
rc=$?
[ $rc = 0 ] || { cat "$T/err" "$T/report"; die "run exited $rc"; }

# Scratch files are gone.
[ -z "$(ls -A "$T/scratch")" ] || die "scratch left behind: $(ls -AR "$T/scratch" | head)"

grep -q '^   BYTE UNIX Benchmarks (Version ' "$T/report" || die "no report header"
[ "$(grep -c '^Benchmark Run: ' "$T/report")" = 2 ] || die "not two blocks"
grep -q 'running 1 parallel copy of tests' "$T/report" || die "no 1-copy block"
grep -q 'running 2 parallel copies of tests' "$T/report" || die "no 2-copy block"

# Per block: 12 result lines with positive scores, 12 index rows, and an index score
# that is the geometric mean of the printed indexes. Each printed index is its true
# value rounded to 0.1 (+-0.05), so the true score lies between the geometric means
# of the printed indexes less and plus 0.05, and the printed score within 0.05 of it.
awk '
/^Benchmark Run:/ { blk++; inidx = 0 }
/^System Benchmarks Index Values/ { inidx = 1; next }
inidx && /^========|^ +========/ { next }
inidx && /^System Benchmarks Index Score/ { score[blk] = $NF; inidx = 0; next }
inidx && NF > 3 { n[blk]++; if ($NF <= 0) bad = bad " nonpositive:" $0
	lo[blk] += log($NF > 0.05 ? $NF - 0.05 : 1e-9); hi[blk] += log($NF + 0.05) }
/ \((lps|MWIPS|KBps|lpm) *\)|\(([0-9.]+) s, [0-9]+ samples\)/ {
	if ($0 ~ /samples\)$/) { lines[blk]++ }
}
END {
	if (blk != 2) { print "blocks " blk; exit 1 }
	for (b = 1; b <= 2; b++) {
		if (n[b] != 12) { print "block " b ": " n[b] " index rows"; exit 1 }
		if (lines[b] != 12) { print "block " b ": " lines[b] " result lines"; exit 1 }
		l = exp(lo[b] / n[b]) - 0.05; h = exp(hi[b] / n[b]) + 0.05
		if (score[b] < l || score[b] > h) { print "block " b ": index " score[b] " outside the recomputed " l " .. " h; exit 1 }
	}
	if (bad != "") { print bad; exit 1 }
}' "$T/report" || { cat "$T/report"; die "report does not add up"; }

# The report parses back: imported, it gives the scores the run stored (to the printed 0.1).
"$KBENCH" import --name parsed "$T/report" >"$T/imp" 2>&1 || { cat "$T/imp"; die "the report does not import"; }
scores() { "$KBENCH" export "$1" --format csv | awk -F, 'NR > 1 && $2 != "index" && !seen[$1 "," $2]++ { print $1 "," $2 "," $6 }' | sort; }
scores orig >"$T/orig.csv"
scores parsed >"$T/parsed.csv"
[ "$(wc -l <"$T/orig.csv")" = 24 ] || { cat "$T/orig.csv"; die "stored run lacks 24 scores"; }
paste -d, "$T/orig.csv" "$T/parsed.csv" | awk -F, '
	$1 != $4 || $2 != $5 { print "rows differ: " $0; bad = 1; next }
	{ d = $3 - $6; if (d < 0) d = -d; if (d > 0.051) { print "score differs: " $0; bad = 1 } }
	END { exit bad }' || die "the report does not parse back to the same numbers"

# No worker is left.
sleep 0.2
[ -n "$(own_pgrep kbench-exec)" ] && die "execl chain left running"
echo ok
