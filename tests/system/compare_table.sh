# SPDX-License-Identifier: GPL-2.0-or-later
# Two short runs stored, listed, shown, compared: the table, its widths, --json and --csv.
# tier: load (two same-kernel runs must show "Same environment": a busy preflight adds a warning to one)
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
# 0.3 s samples: what is checked is the table and its footers, not the figures in it
R="run -c 1 -i 3 --duration 0.3 --pause 0"
TESTS_RUN="dhry2reg syscall"

expect_exit 0 "$KBENCH" $R $TESTS_RUN
grep -q "saved as [0-9a-f]\{8\}" "$T/out" "$T/err" || die "run did not say where it was saved"
expect_exit 0 "$KBENCH" $R --name second $TESTS_RUN
expect_exit 0 "$KBENCH" runs
[ "$(grep -c '^[0-9a-f]\{8\} ' "$T/out")" = 2 ] || die "runs does not list 2 runs: $(cat "$T/out")"
head -2 "$T/out" | tail -1 | grep -q ' second ' || die "newest first: $(cat "$T/out")"

expect_exit 0 "$KBENCH" show last
grep -q 'Dhrystone 2 using register variables' "$T/out" || die "show lacks dhry"
grep -q 'System Benchmarks Partial Index' "$T/out" || die "show lacks the index table"

expect_exit 0 "$KBENCH" compare --width 80 last~1 second
cat "$T/out"
awk 'length > 80 { bad = 1; print "too wide: " $0 } END { exit bad }' "$T/out" || die "80-column layout is wider than 80"
for label in 'Dhrystone 2 ' 'System Call ' 'Index Score '; do
	grep -q "^$label" "$T/out" || die "no row '$label'"
done
# Each row ends with its verdict (a decided one with how sure it is, a busy one withheld).
n=$(grep -c -E '((faster|slower) \(.*sure\)|no significant change|n/a \(busy\))$' "$T/out")
[ "$n" = 3 ] || die "expected 3 rows with a verdict, got $n"
grep -q '^Verdicts: default noise floors, not calibrated (0.3 s samples, -i 3)' "$T/out" ||
	die "the table does not say its verdicts rest on default floors"
tr '\n' ' ' <"$T/out" | grep -q 'kbench calibrate --duration 0.3 -i 3 dhry2reg syscall' ||
	die "the footer does not say how to calibrate"
grep -q '^Same environment' "$T/out" || die "same-kernel runs show environment differences"
grep -q '^Verdicts: one run per side' "$T/out" || die "footer does not say what verdicts rest on"
# (A row withheld as busy has no interval, so no floor; a machine busy for both has none.)
grep -q '^Noise floor per run' "$T/out" || [ "$(grep -c 'n/a (busy)$' "$T/out")" = 3 ] ||
	die "footer does not state the floors"

expect_exit 0 "$KBENCH" compare --width 160 last~1 second
grep -q '^Dhrystone 2 using register variables ' "$T/out" || die "wide layout lacks full labels"

expect_exit 0 "$KBENCH" compare --json last~1 second
grep -q '"verdict": "' "$T/out" || die "json lacks verdicts"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["blocks"][0]["tests"]) == 2' "$T/out" ||
		die "json does not parse or lacks rows"
fi
expect_exit 0 "$KBENCH" compare --csv last~1 second
head -1 "$T/out" | grep -q '^copies,test,label,a_score' || die "csv header"
[ "$(wc -l <"$T/out")" = 4 ] || die "csv: header + 2 tests + index"

# Groups: both runs as one side against the last one.
expect_exit 0 "$KBENCH" $R --name second $TESTS_RUN
expect_exit 0 "$KBENCH" compare last~2 second
grep -q '^B: second (2 runs)' "$T/out" || die "a shared name is not a group: $(head -3 "$T/out")"
grep -q "Welch's on the per-run scores" "$T/out" || die "group verdicts do not say they use the spread between runs"

# Export json is a run file that show reads back.
expect_exit 0 "$KBENCH" export last --format json -o "$T/r.json"
expect_exit 0 "$KBENCH" show "$T/r.json"
expect_exit 2 "$KBENCH" compare --width x last last
expect_exit 1 "$KBENCH" compare last~9 last
exit 0
