#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command of README's tour (between its tour markers) runs and gives what the line says.
# Each is run as written, with options appended that keep it short (a later option wins, so
# `--minutes 2 --minutes 0.05` is a 3 s thermal check, and test ids narrow a run to two tests);
# a command in the tour that this test does not know fails it, and so does one it knows that
# the tour no longer shows.
# requires: tmux python3
# cost: 46
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

sed -n '/^<!-- tour: begin/,/^<!-- tour: end/p' "$KBENCH_TOP/README.md" |
	sed -n 's/^    \(kbench[^#]*\)#.*$/\1/p' | sed 's/ *$//' >"$T/tour"
[ "$(wc -l <"$T/tour")" -ge 5 ] || die "README has no tour of five commands or more: $(cat "$T/tour")"
cd "$T" || die "no $T"
SHORT="-c 1 --max-test-seconds 1 dhry2reg syscall"

# the two runs compare, report and export read, made the tour's way
run_tour() { # CMD EXTRA...: the tour's command with EXTRA appended, its output in $T/out
	cmd=$1; shift
	# shellcheck disable=SC2086 # the tour's words, split as a shell splits them
	expect_exit 0 "$KBENCH" ${cmd#kbench } "$@"
}
seen=
while IFS= read -r line; do
	case $line in
	"kbench")
		ui_start "$KBENCH"
		ui_wait 'Setup' 10
		grep -q 'Dhrystone' "$T/screen" || die "the console's setup lists no tests"
		ui_keys F10
		ui_exited 10 ;;
	"kbench run --quick")
		# shellcheck disable=SC2086
		run_tour "$line" $SHORT
		grep -q 'System Benchmarks Index Score' "$T/out" || die "$line: no index score"
		grep -q '^Quick run: each test stopped once its 95% interval' "$T/out" || die "$line: no +- per score"
		grep -Eq 'Dhrystone.*\+-[0-9.]+%' "$T/out" || die "$line: no +- per score" ;;
	"kbench run")
		run_tour "$line" -c 1 --samples 2 --duration 0.2 --pause 0 dhry2reg syscall
		grep -q 'System Benchmarks Index Score' "$T/out" || die "$line: no index score"
		grep -q 'Quick run' "$T/out" && die "$line: a quick run"
		# "about half an hour per copy count": the index's tests at their own lengths
		expect_exit 0 "$KBENCH" list
		secs=$(awk 'NR == 1 { next } /^$/ { exit } { for (i = 1; i <= NF; i++) if ($i ~ /^~[0-9]+$/) s += substr($i, 2) }
			/^shell8 / { print s; exit }' "$T/out")
		[ "${secs:-0}" -ge 1200 ] && [ "$secs" -le 2400 ] ||
			die "$line: the index's tests take ${secs:-?} s per copy count, not about half an hour" ;;
	"kbench list")
		run_tour "$line"
		grep -q '^dhry2reg ' "$T/out" && grep -q '^GROUP ' "$T/out" && grep -q 'TIME' "$T/out" ||
			die "$line: not every test and group with its length" ;;
	"kbench runs")
		run_tour "$line"
		[ "$(grep -c '^[0-9a-f]\{8\}  ' "$T/out")" -ge 2 ] && grep -q '(quick)' "$T/out" ||
			die "$line: the stored runs are not listed: $(cat "$T/out")" ;;
	"kbench compare last~1 last")
		run_tour "$line"
		grep -q '^Verdicts: ' "$T/out" || die "$line: no line saying what the verdicts rest on"
		grep -Eq '^(Dhrystone|System Call).*(faster|slower|no significant change|n/a)' "$T/out" ||
			die "$line: no verdict per test: $(cat "$T/out")" ;;
	"kbench calibrate --quick")
		run_tour "$line" -n 2 -c 1 dhry2reg
		# on a busy machine the runs are stored but teach nothing: the table says so
		grep -q '^Noise floors for quick runs' "$T/out" && grep -q '^2 calibration runs stored' "$T/out" ||
			die "$line: no noise floors from its runs: $(cat "$T/out")"
		expect_exit 0 "$KBENCH" calibrate --help
		grep -q -- '-n, --runs N .*(default 5' "$T/out" || die "$line: the tour says five runs" ;;
	"kbench plan new pf --kernels 6.1.0-13-amd64,6.6.8-pf1")
		run_tour "$line" -c 1 dhry2reg syscall
		grep -Eq '^Before any run: 3 boots x 1 run a kernel, .* a change of [0-9.]+% in the index' "$T/out" &&
			grep -q '^Next: boot A (6.1.0-13-amd64) for boot 1 of 6' "$T/out" ||
			die "$line: no promise or no kernel named to boot: $(cat "$T/out")"
		expect_exit 0 "$KBENCH" plan
		grep -q '^Plan pf: A 6.1.0-13-amd64, B 6.6.8-pf1' "$T/out" || die "$line: kbench plan does not show it" ;;
	"kbench thermal --minutes 2")
		# not stored: last and last~1 stay two index runs of one copy for report and export
		run_tour "$line" --minutes 0.05 --idle 0 --duration 0.5 --no-save
		grep -q '^Thermal check: dhry2reg' "$T/out" || die "$line: no thermal check"
		grep -Eq '^  (No throttling|Throttling from)' "$T/out" || die "$line: nothing said of throttling"
		grep -Eq '^  Score (held|fell|rose)' "$T/out" || die "$line: nothing said of the score"
		expect_exit 0 "$KBENCH" thermal --help
		grep -q 'minutes of load' "$T/out" || die "$line: --minutes is not the minutes of load" ;;
	"kbench report last --vs last~1 -o report.html")
		run_tour "$line"
		grep -q '<svg' report.html && grep -Eq 'faster|slower|no significant change|n/a' report.html ||
			die "$line: no chart or verdict in report.html" ;;
	"kbench export last~1 last --format markdown")
		run_tour "$line"
		grep -Eq '^\| *Dhrystone.*\|.*(faster|slower|no significant change|n/a)' "$T/out" ||
			die "$line: no table to paste: $(cat "$T/out")" ;;
	*)
		die "README's tour shows '$line', which this test does not run: teach it what the line says" ;;
	esac
	seen="$seen|$line"
done <"$T/tour"
for known in "kbench" "kbench run --quick" "kbench run" "kbench list" "kbench runs" \
	"kbench compare last~1 last" "kbench calibrate --quick" "kbench thermal --minutes 2" \
	"kbench report last --vs last~1 -o report.html" "kbench export last~1 last --format markdown"; do
	case "$seen|" in *"|$known|"*) ;; *) die "README's tour no longer shows '$known': take it out of this test" ;; esac
done
echo "README's tour: $(wc -l <"$T/tour") commands run"
