#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench beside UnixBench on this machine, test by test: `make bench-fidelity UNIXBENCH=DIR`.
#
# DIR is a built UnixBench (the directory holding Run and pgms/, built with its
# own `make`). For every copy count and round, each test runs four times in the
# order UnixBench, kbench, kbench, UnixBench (ABBA), so that the machine's drift
# during a round falls on both sides alike. Then per test: both sides' scores,
# the ratio of the medians (kbench / UnixBench) with its 95% interval, each side's spread
# ((max - min) / median), and the index ratio (geometric mean of the index
# tests' ratios). With valgrind it first counts the instructions of one
# Dhrystone loop in both programs, which no noise moves.
#
# Environment: UNIXBENCH (required), KBENCH (the binary), ROUNDS (2), COPIES
# ("1 <CPUs>"), ITER (UnixBench's -i, 3: long tests 3 samples, short ones 1),
# TESTS (default: the twelve index tests; e.g. "arithoh hanoi grep sysexec
# shell16"), OUT (where the raw reports go; default /tmp/kbench-fidelity-DATE),
# REPORT_ONLY=1 (summarise OUT's scores again without running anything).
#
# DIRECT=1 compares the CPU loops (dhry2reg, arithoh, short, int, long, float,
# double, register, hanoi) more tightly: UnixBench's program itself (pgms/TEST
# DURATION, one process per copy, the counts summed) against `kbench run
# --samples 1 --duration DURATION --pause 0`, the four runs of a test in a
# random order each round (ORDER=random does the same for Run), DURATION 10 s.
# Many short rounds (ROUNDS=12) then give intervals of a few percent.
set -u
: "${KBENCH:=./kbench}"
UB=${UNIXBENCH:-}
ROUNDS=${ROUNDS:-2}
ITER=${ITER:-3}
DIRECT=${DIRECT:-0}
DURATION=${DURATION:-10}
ORDER=${ORDER:-abba}
[ "$DIRECT" = 1 ] && ORDER=random
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
	# A 64-bit UnixBench beside a 32-bit kbench (or the reverse) compares two
	# word sizes, not two programs: `long` and the CPU loops' counts differ.
	elf_bits() { case $(od -An -tx1 -j4 -N1 "$1" 2>/dev/null | tr -d ' ') in 01) echo 32 ;; 02) echo 64 ;; *) echo ? ;; esac; }
	ub_bits=$(elf_bits "$UB/pgms/dhry2reg"); kb_bits=$(elf_bits "$KBENCH")
	[ "$ub_bits" = "$kb_bits" ] || die "UnixBench's programs are $ub_bits-bit and kbench is $kb_bits-bit: build both alike (a 32-bit UnixBench: make CC=\"gcc -m32\" there, with make bench-fidelity ARCH=i686)"
	case $ORDER in abba|random) ;; *) die "ORDER is abba or random, not $ORDER" ;; esac
	[ "$ORDER" = abba ] || command -v shuf >/dev/null 2>&1 || die "ORDER=random needs shuf (coreutils)"
	if [ "$DIRECT" = 1 ]; then
		for t in $TESTS; do
			case $t in dhry2reg|arithoh|short|int|long|float|double|register|hanoi) ;;
			*) die "DIRECT=1 runs UnixBench's CPU loop programs only (dhry2reg arithoh short int long float double register hanoi), not $t" ;; esac
			[ -x "$UB/pgms/$t" ] || die "no $UB/pgms/$t: build UnixBench first"
		done
	fi
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

# DIRECT=1: UnixBench's program, one process per copy, each printing
# "COUNT|loops|1|lps" on stderr after DURATION seconds; the score is the
# copies' loops per second summed, as Run sums them.
run_ub_direct() { # copies test name
	( i=0; while [ "$i" -lt "$1" ]; do "$UB/pgms/$2" "$DURATION" & i=$((i + 1)); done; wait ) \
		>/dev/null 2>"$OUT/raw/$3"
	awk -F'|' -v d="$DURATION" -v c="$1" '/^COUNT\|/ { s += $2; n++ }
		END { if (n == c) printf "%.1f\n", s / d; else print "failed" }' "$OUT/raw/$3"
}

run_kb_direct() { # copies test name
	"$KBENCH" run -q --no-save -c "$1" --samples 1 --duration "$DURATION" --pause 0 "$2" \
		>"$OUT/raw/$3" 2>"$OUT/raw/$3.err"
	report_score "$OUT/raw/$3"
}

# A round's four runs of a test: UnixBench, kbench, kbench, UnixBench, or the
# same four shuffled (ORDER=random), against effects of position.
sides() {
	if [ "$ORDER" = random ]; then shuf -e ub kb kb ub | tr '\n' ' '; else echo ub kb kb ub; fi
}

# One Dhrystone loop's instructions in both programs (callgrind): the inclusive
# count of the loop's function over the calls of Proc_1 (one per loop).
dhry_instructions() {
	command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 || {
		echo "Dhrystone instructions per loop: skipped (valgrind is not installed)"; return; }
	d="$OUT/callgrind"; mkdir -p "$d"
	valgrind --tool=callgrind --callgrind-out-file="$d/ub.%p" "$UB/pgms/dhry2reg" 2 >/dev/null 2>"$d/ub.err"
	valgrind --tool=callgrind --callgrind-out-file="$d/kb.%p" "$KBENCH" run -q --no-save --no-telemetry \
		-c 1 --samples 1 --duration 2 --pause 0 dhry2reg >/dev/null 2>"$d/kb.err"
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
	why=""
	# valgrind's 32-bit x86 has no AVX: a -march=native build for an AVX CPU stops at
	# its first AVX instruction (kbench's parent may, while its worker is counted)
	case "$u $k" in *'?'*)
		grep -qs 'unhandled instruction' "$d/ub.err" "$d/kb.err" &&
			why=" (valgrind stopped at an instruction it cannot run, as its 32-bit x86 does at AVX: build both with -mno-avx to count them, docs/unixbench.md, 32-bit builds)" ;;
	esac
	echo "Dhrystone instructions per loop (callgrind): UnixBench $u, kbench $k$why" | tee "$OUT/dhry-instructions.txt"
}

if [ "${REPORT_ONLY:-}" != 1 ]; then
	ntests=$(echo $TESTS | wc -w); ncop=$(echo $COPIES | wc -w)
	if [ "$DIRECT" = 1 ]; then how="UnixBench's programs and kbench directly, $DURATION s, random order"
	else how="-i $ITER, $(echo $ORDER | tr a-z A-Z) order"; fi
	echo "bench-fidelity: $ntests tests x copies ($COPIES) x $ROUNDS rounds x 4 runs, $how; raw reports in $OUT"
	echo "  UnixBench: $UB ($ub_bits-bit)"
	echo "  kbench:    $KBENCH ($("$KBENCH" --version 2>/dev/null), $kb_bits-bit)"
	echo "  load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	dhry_instructions
	: >"$SCORES"
	for c in $COPIES; do
		r=1
		while [ "$r" -le "$ROUNDS" ]; do
			for t in $TESTS; do
				for side in $(sides); do
					k=$(grep -c "^$c	$t	$side	$r	" "$SCORES")
					name="$side-c$c-r$r-$t-$k"
					if [ "$DIRECT" = 1 ]; then s=$(run_${side}_direct "$c" "$t" "$name")
					else s=$(run_$side "$c" "$t" "$name"); fi
					printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$t" "$side" "$r" "$k" "$s" >>"$SCORES"
					printf '  %s copies=%s round=%s %-17s %s\n' "$(date +%H:%M:%S)" "$c" "$r" "$t" "$side $s"
				done
			done
			r=$((r + 1))
		done
	done
	echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
fi

[ -s "$SCORES" ] || die "no scores in $SCORES"
echo
awk -F'\t' -v index_ids="$INDEX" '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# Student t, two-sided 95%, by degrees of freedom (beyond 30: the normal 1.96).
function t975(df,    t) {
	split("12.71 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
	df = int(df)
	return df < 1 ? t[1] : df > 30 ? 1.96 : t[df]
}
# Mean and variance of the logs of a side: lm, lv (sample variance; 0 with one value).
function logstats(a, n,    i, s, d) {
	s = 0; for (i = 1; i <= n; i++) s += log(a[i]); lm = s / n
	d = 0; for (i = 1; i <= n; i++) d += (log(a[i]) - lm) ^ 2; lv = n > 1 ? d / (n - 1) : 0
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
	printf "%-6s %-17s %-28s %-28s %7s %6s %6s %15s\n", "copies", "test", "UnixBench", "kbench", "ratio", "ub+-", "kb+-", "95% interval"
	for (o = 1; o <= norder; o++) {
		key = order[o]; split(key, kk, SUBSEP)
		nu = cnt[key, "ub"]; nk = cnt[key, "kb"]
		if (nu == 0 || nk == 0) { printf "%-6s %-17s failed:%s\n", kk[1], kk[2], bad[key]; continue }
		for (i = 1; i <= nu; i++) u[i] = v[key, "ub", i]
		for (i = 1; i <= nk; i++) k[i] = v[key, "kb", i]
		mu = median(u, nu); mk = median(k, nk)
		su = (u[nu] - u[1]) / mu * 100; sk = (k[nk] - k[1]) / mk * 100
		ratio = mk / mu
		# Welch on the logs: how far the two programs could be apart given this noise.
		logstats(u, nu); um = lm; uv = lv
		logstats(k, nk); km = lm; kv = lv
		se2 = uv / nu + kv / nk
		den = (nu > 1 ? (uv / nu) ^ 2 / (nu - 1) : 0) + (nk > 1 ? (kv / nk) ^ 2 / (nk - 1) : 0)
		df = den > 0 ? se2 * se2 / den : 1
		half = t975(df) * sqrt(se2)
		lo = exp(km - um - half); hi = exp(km - um + half)
		ci = nu > 1 && nk > 1 ? sprintf("%.3f-%.3f", lo, hi) : "-"
		mark = ""
		if (ratio > 1.03 || ratio < 0.97)
			mark = nu > 1 && nk > 1 && lo <= 1 && hi >= 1 ? "  outside +-3%, within the noise" : "  outside +-3%"
		else if (nu > 1 && nk > 1 && (lo > 1 || hi < 1))
			mark = "  differs"
		if (bad[key] != "") mark = mark "  (failed:" bad[key] ")"
		printf "%-6s %-17s %-28s %-28s %7.3f %5.1f%% %5.1f%% %15s%s\n", kk[1], kk[2], list[key, "ub"], list[key, "kb"], ratio, su / 2, sk / 2, ci, mark
		if (isindex[kk[2]]) { lsum[kk[1]] += log(ratio); nidx[kk[1]]++; ivar[kk[1]] += se2 }
	}
	for (c in nidx) {
		il = lsum[c] / nidx[c]; ih = 1.96 * sqrt(ivar[c]) / nidx[c]
		printf "index ratio, %s %s (geometric mean of %d tests): %.3f (95%% interval %.3f-%.3f)%s\n", c,
			c == 1 ? "copy" : "copies", nidx[c], exp(il), exp(il - ih), exp(il + ih), nidx[c] == 12 ? "" : " (partial)"
	}
	print "ratio = median(kbench) / median(UnixBench); +- = half the range (max - min) over the median, per side;"
	print "95% interval of the ratio: Welch t on the logs of the scores (how far apart the two programs could be, given"
	print "this noise); \"within the noise\": the interval includes 1; \"differs\": it does not"
}' "$SCORES" | tee "$OUT/summary.txt"
