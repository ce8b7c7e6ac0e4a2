#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench beside UnixBench's programs as work per CPU-second, for a machine too loaded for
# bench-fidelity's wall-clock rates: `make bench-fidelity-cpu UNIXBENCH=DIR [ARCH=i686]`.
#
# On a shared machine a 1-copy rate is mostly the share of a CPU the test got; both
# programs' work divided by the CPU time they and their children used (user + system,
# from wait4's rusage) leaves out that share, so the two programs' work per loop can be
# compared while others load the machine. It is not UnixBench's score (that is per
# wall-clock second) and needs no quiet machine. Only the tests whose work is one
# process's CPU (and its waited-for children's: the shell tests' looper waits for every
# script) take part: not context1 (two processes, each waiting on the other) or the file
# tests (UnixBench's program also spends CPU on its write and read phases, which its
# copy score does not count). Each round runs UnixBench's program and kbench once each,
# in a random order, DURATION seconds; the ratio is kbench / UnixBench of the medians,
# with the Welch 95% interval on the logs, as bench-fidelity prints.
#
# Environment: UNIXBENCH (a built UnixBench directory, required), KBENCH, ROUNDS (5),
# DURATION (5), TESTS (default and all: dhry2reg whetstone-double execl pipe spawn
# syscall shell1 shell8), OUT (default /tmp/kbench-fidelity-cpu-DATE).
set -u
: "${KBENCH:=./kbench}"
UB=${UNIXBENCH:-}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-5}
TESTS=${TESTS:-dhry2reg whetstone-double execl pipe spawn syscall shell1 shell8}
OUT=${OUT:-/tmp/kbench-fidelity-cpu-$(date +%Y%m%d-%H%M%S)}
die() { echo "bench-fidelity-cpu: $*" >&2; exit 1; }

[ -n "$UB" ] || die "set UNIXBENCH to a built UnixBench directory (the one holding Run and pgms/)"
[ -x "$UB/pgms/dhry2reg" ] || die "$UB is not a built UnixBench (no pgms/dhry2reg: run make there first)"
[ -x "$KBENCH" ] || die "no kbench binary at $KBENCH"
command -v python3 >/dev/null 2>&1 || die "python3 is needed (it reads the CPU time from wait4)"
command -v shuf >/dev/null 2>&1 || die "shuf (coreutils) is needed for the random order"
for t in $TESTS; do
	case $t in dhry2reg|whetstone-double|execl|pipe|spawn|syscall|shell1|shell8) ;;
	*) die "$t: only dhry2reg whetstone-double execl pipe spawn syscall shell1 shell8 (their CPU is their work)" ;; esac
done
UB=$(cd "$UB" && pwd)
mkdir -p "$OUT/raw" "$OUT/tmp" || die "cannot create $OUT"
SCORES="$OUT/scores.tsv"
: >"$SCORES"

# cputime CMD...: runs CMD (stdout and stderr to $log), prints the user + system
# seconds it and its waited-for children used.
cputime() {
	python3 -c '
import os, sys, resource
pid = os.fork()
if pid == 0:
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1); os.dup2(fd, 2)
    os.execvp(sys.argv[2], sys.argv[2:])
_, st, ru = os.wait4(pid, 0)
print("%.4f" % (ru.ru_utime + ru.ru_stime) if os.waitstatus_to_exitcode(st) == 0 else "failed")
' "$log" "$@"
}

# The work a side did: UnixBench's programs print COUNT|n|1|lps (loops) or a rate with
# TIME|seconds; kbench's sample line is "1 x TEST: sample 1/1: RATE UNIT (SECONDS s)".
work_ub() {
	awk -F'|' '/^COUNT\|/ { c = $2; base = $3 } /^TIME\|/ { t = $2 }
		END { if (c == "") print "failed"; else if (base > 0) print c; else print c * t }' "$log"
}
work_kb() {
	awk '/^1 x [a-z0-9-]+: sample 1\/1: / { r = $(NF - 3); t = $(NF - 1); gsub(/\(/, "", t)
			print r * t / ($(NF - 2) == "lpm" ? 60 : 1); found = 1 }
		END { if (!found) print "failed" }' "$log"
}

run_side() { # side test round
	log="$OUT/raw/$1-$2-$3"
	case $1 in
	ub)
		case $2 in
		shell1|shell8) # as Run runs them: the looper, in testdir (sort.src)
			cpu=$(cd "$UB/testdir" && LANG=en_US.utf8 UB_BINDIR="$UB/pgms" UB_TMPDIR="$OUT/tmp" \
				cputime "$UB/pgms/looper" "$DURATION" "$UB/pgms/multi.sh" "${2#shell}") ;;
		*) cpu=$(cd "$UB" && UB_BINDIR="$UB/pgms" cputime "$UB/pgms/$2" "$DURATION") ;;
		esac
		work=$(work_ub) ;;
	kb)
		# UnixBench's Whetstone calibrates itself to 10 s whatever it is told; the
		# same length here gives both the same share of calibration in their CPU.
		d=$DURATION; [ "$2" = whetstone-double ] && d=10
		cpu=$(cputime "$KBENCH" run -c 1 --samples 1 --duration "$d" --pause 0 --no-save \
			--no-telemetry --tmpdir "$OUT/tmp" "$2")
		work=$(work_kb) ;;
	esac
	case "$cpu $work" in *failed*) echo failed ;; *) awk -v w="$work" -v c="$cpu" 'BEGIN { printf "%.1f\n", (c > 0 ? w / c : 0) }' ;; esac
}

echo "bench-fidelity-cpu: work per CPU-second, $(echo $TESTS | wc -w) tests x $ROUNDS rounds, $DURATION s, random order; raw in $OUT"
echo "  UnixBench: $UB"
echo "  kbench:    $KBENCH ($("$KBENCH" --version 2>/dev/null))"
echo "  load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	for t in $TESTS; do
		for side in $(shuf -e ub kb); do
			s=$(run_side "$side" "$t" "$r")
			printf '%s\t%s\t%s\n' "$t" "$side" "$s" >>"$SCORES"
			printf '  %s round=%s %-17s %s %s\n' "$(date +%H:%M:%S)" "$r" "$t" "$side" "$s"
		done
	done
	r=$((r + 1))
done
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
awk -F'\t' '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function t975(df,    t) {
	split("12.71 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086", t, " ")
	df = int(df); return df < 1 ? t[1] : df > 20 ? 2.0 : t[df]
}
function logstats(a, n,    i, s, d) {
	s = 0; for (i = 1; i <= n; i++) s += log(a[i]); lm = s / n
	d = 0; for (i = 1; i <= n; i++) d += (log(a[i]) - lm) ^ 2; lv = n > 1 ? d / (n - 1) : 0
}
$3 != "failed" && $3 + 0 > 0 { if (!($1 in seen)) { seen[$1] = 1; order[++no] = $1 } v[$1, $2, ++n[$1, $2]] = $3 + 0 }
END {
	printf "%-17s %14s %14s %7s %15s\n", "test", "UnixBench", "kbench", "ratio", "95% interval"
	for (o = 1; o <= no; o++) {
		t = order[o]; nu = n[t, "ub"]; nk = n[t, "kb"]
		if (nu < 2 || nk < 2) { printf "%-17s too few runs\n", t; continue }
		for (i = 1; i <= nu; i++) u[i] = v[t, "ub", i]
		for (i = 1; i <= nk; i++) k[i] = v[t, "kb", i]
		mu = median(u, nu); mk = median(k, nk)
		logstats(u, nu); um = lm; uv = lv; logstats(k, nk); km = lm; kv = lv
		se2 = uv / nu + kv / nk
		den = (uv / nu) ^ 2 / (nu - 1) + (kv / nk) ^ 2 / (nk - 1)
		half = t975(den > 0 ? se2 * se2 / den : 1) * sqrt(se2)
		printf "%-17s %14.1f %14.1f %7.3f %7.3f-%.3f\n", t, mu, mk, mk / mu, exp(km - um - half), exp(km - um + half)
	}
	print "work per CPU-second (user + system of the program and its children); ratio = kbench / UnixBench of the medians"
}' "$SCORES" | tee "$OUT/summary.txt"
