#!/bin/sh
# kbench beside UnixBench on this machine, test by test: `make bench-fidelity UNIXBENCH=DIR`.
#
# DIR is a built UnixBench (the directory holding Run and pgms/, built with its
# own `make`). For every copy count and round, each test runs four times in the
# order UnixBench, kbench, kbench, UnixBench (ABBA), so that the machine's drift
# during a round falls on both sides alike. Then per test: both sides' scores,
# the ratio of the medians (kbench / UnixBench), each side's spread
# ((max - min) / median), and the index ratio (geometric mean of the index
# tests' ratios). With valgrind it first counts the instructions of one
# Dhrystone loop in both programs, which no noise moves.
#
# Environment: UNIXBENCH (required), KBENCH (the binary), ROUNDS (2), COPIES
# ("1 <CPUs>"), ITER (UnixBench's -i, 3: long tests 3 samples, short ones 1),
# TESTS (default: the twelve index tests; e.g. "arithoh hanoi grep sysexec
# shell16"), OUT (where the raw reports go; default /tmp/kbench-fidelity-DATE),
# REPORT_ONLY=1 (summarise OUT's scores again without running anything).
set -u
: "${KBENCH:=./kbench}"
UB=${UNIXBENCH:-}
ROUNDS=${ROUNDS:-2}
ITER=${ITER:-3}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
COPIES=${COPIES:-$( [ "$NCPU" -gt 1 ] && echo "1 $NCPU" || echo 1 )}
INDEX="dhry2reg whetstone-double execl fstime fsbuffer fsdisk pipe context1 spawn syscall shell1 shell8"
TESTS=${TESTS:-$INDEX}
OUT=${OUT:-/tmp/kbench-fidelity-$(date +%Y%m%d-%H%M%S)}

die() { echo "bench-fidelity: $*" >&2; exit 1; }

if [ "${REPORT_ONLY:-}" != 1 ]; then
	[ -n "$UB" ] || die "set UNIXBENCH to a built UnixBench directory (the one holding Run), e.g. make bench-fidelity UNIXBENCH=~/byte-unixbench/UnixBench"
	[ -x "$UB/Run" ] && [ -x "$UB/pgms/dhry2reg" ] || die "$UB is not a built UnixBench (no Run or pgms/dhry2reg: run make there first)"
	[ -x "$KBENCH" ] || die "no kbench binary at $KBENCH"
	locale -a 2>/dev/null | grep -qi '^en_US.utf8$' ||
		echo "bench-fidelity: en_US.utf8 is not generated: both sides' shell tests fall back to another locale" >&2
fi
mkdir -p "$OUT/raw" "$OUT/tmp" || die "cannot create $OUT"
SCORES="$OUT/scores.tsv"
UB=$(cd "$UB" 2>/dev/null && pwd || echo "$UB")

# The score of the single result line of a UnixBench-format report:
# "<title, 40 wide> <score> <unit> (<time> s, <n> samples)".
report_score() {
	awk '/ \([0-9.]+ s, [0-9]+ samples\)$/ {
		sub(/ +\([0-9.]+ s, [0-9]+ samples\)$/, ""); n = split($0, f, " ")
		print f[n - 1]; found = 1; exit }
	END { if (!found) print "failed" }' "$1"
}

run_ub() { # copies test name
	(cd "$UB" && UB_TMPDIR="$OUT/tmp" UB_RESULTDIR="$OUT/raw" UB_OUTPUT_FILE_NAME="$3" \
		./Run -q -c "$1" -i "$ITER" "$2" >"$OUT/raw/$3.console" 2>&1)
	report_score "$OUT/raw/$3"
}

run_kb() { # copies test name
	"$KBENCH" run -q --no-save -c "$1" -i "$ITER" --tmpdir "$OUT/tmp" "$2" \
		>"$OUT/raw/$3" 2>"$OUT/raw/$3.err"
	report_score "$OUT/raw/$3"
}

# One Dhrystone loop's instructions in both programs (callgrind): the inclusive
# count of the loop's function over the calls of Proc_1 (one per loop).
dhry_instructions() {
	command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 || {
		echo "Dhrystone instructions per loop: skipped (valgrind is not installed)"; return; }
	d="$OUT/callgrind"; mkdir -p "$d"
	valgrind --tool=callgrind --callgrind-out-file="$d/ub.%p" "$UB/pgms/dhry2reg" 2 >/dev/null 2>&1
	valgrind --tool=callgrind --callgrind-out-file="$d/kb.%p" "$KBENCH" run -q --no-save --no-telemetry \
		-c 1 --samples 1 --duration 2 --pause 0 dhry2reg >/dev/null 2>&1
	per_loop() { # file-prefix loop-function proc1-name
		for f in "$d/$1".*; do
			grep -q "^c\{0,1\}fn=([0-9]*) $3\$" "$f" || continue
			# callgrind names a function once, "fn=(id) name" or "cfn=(id) name",
			# and then only by "(id)": find the id, then add the calls to it.
			calls=$(awk -v p="$3" '
				!id && $0 ~ "^c?fn=\\([0-9]+\\) " p "$" { id = $1; sub(/^c?fn=/, "", id) }
				id && $1 == "cfn=" id { want = 1; next }
				want && /^calls=/ { split($0, c, /[= ]/); n += c[2] }
				{ want = 0 }
				END { print n + 0 }' "$f")
			ir=$(callgrind_annotate --inclusive=yes "$f" 2>/dev/null |
				awk -v fn=":$2 " 'index($0, fn) && !/=>/ { gsub(/,/, "", $1); print $1; exit }')
			awk -v i="$ir" -v c="$calls" 'BEGIN { if (c > 0 && i > 0) printf "%.1f", i / c; else printf "?" }'
			return
		done
		printf "?"
	}
	u=$(per_loop ub main Proc_1)
	k=$(per_loop kb dhry_loop dhry_proc_1)
	echo "Dhrystone instructions per loop (callgrind): UnixBench $u, kbench $k" | tee "$OUT/dhry-instructions.txt"
}

if [ "${REPORT_ONLY:-}" != 1 ]; then
	ntests=$(echo $TESTS | wc -w); ncop=$(echo $COPIES | wc -w)
	echo "bench-fidelity: $ntests tests x copies ($COPIES) x $ROUNDS rounds x 4 runs, -i $ITER; raw reports in $OUT"
	echo "  UnixBench: $UB"
	echo "  kbench:    $KBENCH ($("$KBENCH" --version 2>/dev/null))"
	dhry_instructions
	: >"$SCORES"
	for c in $COPIES; do
		r=1
		while [ "$r" -le "$ROUNDS" ]; do
			for t in $TESTS; do
				for side in ub kb kb ub; do
					k=$(grep -c "^$c	$t	$side	$r	" "$SCORES")
					name="$side-c$c-r$r-$t-$k"
					s=$(run_$side "$c" "$t" "$name")
					printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$t" "$side" "$r" "$k" "$s" >>"$SCORES"
					printf '  %s copies=%s round=%s %-17s %s\n' "$(date +%H:%M:%S)" "$c" "$r" "$t" "$side $s"
				done
			done
			r=$((r + 1))
		done
	done
fi

[ -s "$SCORES" ] || die "no scores in $SCORES"
echo
awk -F'\t' -v index_ids="$INDEX" '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fmt(v) { return v >= 1000 ? sprintf("%.0f", v) : sprintf("%.1f", v) }
BEGIN { n = split(index_ids, ix, " "); for (i = 1; i <= n; i++) isindex[ix[i]] = 1 }
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++norder] = key }
	if ($6 == "failed" || $6 + 0 <= 0) { bad[key] = bad[key] " " $3 "#" $4; next }
	v[key, $3, ++cnt[key, $3]] = $6 + 0
	list[key, $3] = list[key, $3] (list[key, $3] == "" ? "" : ", ") fmt($6 + 0)
}
END {
	printf "%-6s %-17s %-28s %-28s %7s %6s %6s\n", "copies", "test", "UnixBench", "kbench", "ratio", "ub+-", "kb+-"
	for (o = 1; o <= norder; o++) {
		key = order[o]; split(key, kk, SUBSEP)
		nu = cnt[key, "ub"]; nk = cnt[key, "kb"]
		if (nu == 0 || nk == 0) { printf "%-6s %-17s failed:%s\n", kk[1], kk[2], bad[key]; continue }
		for (i = 1; i <= nu; i++) u[i] = v[key, "ub", i]
		for (i = 1; i <= nk; i++) k[i] = v[key, "kb", i]
		mu = median(u, nu); mk = median(k, nk)
		su = (u[nu] - u[1]) / mu * 100; sk = (k[nk] - k[1]) / mk * 100
		ratio = mk / mu
		mark = ratio > 1.03 || ratio < 0.97 ? "  outside +-3%" : ""
		if (bad[key] != "") mark = mark "  (failed:" bad[key] ")"
		printf "%-6s %-17s %-28s %-28s %7.3f %5.1f%% %5.1f%%%s\n", kk[1], kk[2], list[key, "ub"], list[key, "kb"], ratio, su / 2, sk / 2, mark
		if (isindex[kk[2]]) { lsum[kk[1]] += log(ratio); nidx[kk[1]]++ }
	}
	for (c in nidx)
		printf "index ratio, %s %s (geometric mean of %d tests): %.3f%s\n", c, c == 1 ? "copy" : "copies", nidx[c],
			exp(lsum[c] / nidx[c]), nidx[c] == 12 ? "" : " (partial)"
	print "ratio = median(kbench) / median(UnixBench); +- = half the range (max - min) over the median, per side"
}' "$SCORES" | tee "$OUT/summary.txt"
