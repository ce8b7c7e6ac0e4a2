#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The latency tests in the console at 80x24, mono: while timerlat runs, a
# percentile bar per phase on a log axis (glyphs for p50, p99 and max, so
# no colour is needed) with p50, p99 and max in us, filling as the sample
# runs; interactive's rows show the share of deadlines met; the results
# show the percentile points with a verdict each against a stored run.
# With two copies the bars are both copies' histograms merged ("all
# copies"), the sample line's wake-ups are the copies' sum, and each copy
# has a row with its own wake-ups, the same numbers as in that sum.
# The run's test rows and its results name timerlat's period: 500 us
# with --period-us 500, not 1 ms.
# requires: tmux python3
# cost: 21
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

expect_exit 0 "$KBENCH" run timerlat --duration 1 --samples 2 --pause 0 -c 2 --no-telemetry --name base

ui_start env NO_COLOR=1 LANG=C LC_ALL=C "$KBENCH" console timerlat --period-us 500 --samples 1 --pause 0 --duration 0.5
ui_wait 'Setup'
ui_keys r
ui_wait 'Timer wake-up latency \(500 us' 20
grep -q '1 ms, absolute' "$T/screen" && die "a run at 500 us says 1 ms"
ui_wait 'Results' 30
ui_keys q
ui_wait 'not saved|quit' 5
ui_keys y
ui_exited 10
ui kill-session -t "$UI_PANE"

ui_start env NO_COLOR=1 LANG=C LC_ALL=C "$KBENCH" console timerlat interactive --samples 2 --pause 0 --duration 3 --copies 2
ui_wait 'Setup'
ui_keys r
ui_wait '^-- timerlat . 2 copies -' 20
ui_wait 'latency, log scale: +# to p50 += to p99 +- to max' 5
ui_wait '^ all copies +1us +10us +100us +1ms .* p50 +p99 +max us' 5
ui_wait '^ other +#+=*-* +[0-9.]+ +[0-9.]+ +[0-9.]+ *$' 10
ui_wait '^ other\+burn +#+=*-* +[0-9.]+ +[0-9.]+ +[0-9.]+ *$' 10
# one frame: the total is the sum of the copies' counts, and each copy's row says its own
ui_wait '^ #2 +[0-9]+ wake-ups, in (other|fifo)' 10
sed -n 's/.* \([0-9]*\) wake-ups (\([0-9]*\)+\([0-9]*\))$/\1 \2 \3/p' "$T/screen" >"$T/sum"
read -r all c1 c2 <"$T/sum" || { cat "$T/screen"; die "no 'N wake-ups (A+B)' on the sample line"; }
[ "$all" -gt 0 ] && [ "$all" -eq $((c1 + c2)) ] || die "wake-ups $all is not $c1 + $c2"
grep -Eq "^ #1 +$c1 wake-ups, in " "$T/screen" || { cat "$T/screen"; die "copy 1's row does not say $c1"; }
grep -Eq "^ #2 +$c2 wake-ups, in [a-z+]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ *$" "$T/screen" ||
	{ cat "$T/screen"; die "copy 2's row does not say $c2 with its p50, p99 and max"; }
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1])))' "$T/screen" ||
	die "a line is wider than 80 columns"
[ "$(wc -l <"$T/screen")" -le 24 ] || die "more than 24 lines"
ui_wait '^-- interactive . 2 copies -' 30
ui_wait '^ video +#+=*-* +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+%' 20
ui_wait 'Results' 60
ui_wait 'vs base' 5
for p in "other p50" "other p99" "other max" "other\\+burn p99"; do
	grep -Eq "^ (timerlat )?$p +2 .*(faster|slower|noise|n/a)" "$T/screen" ||
		{ cat "$T/screen"; die "results: no verdict row for $p"; }
done
# sorted by change, the largest gain first: for latencies (lower is better) the largest fall
ui_keys o
ui_wait ', by change -' 5 # the title (the key bar says "sort by change" all along)
# (timerlat's rows: the base ran no interactive, so no other row has a change)
grep -E '^ (timerlat )?(other|fifo)' "$T/screen" |
	sed -n 's/^ .* [0-9.]\{1,\} \{1,\}[0-9.]\{1,\} \{1,\}\([+-][0-9.]*\)%.*/\1/p' >"$T/changes"
[ "$(wc -l <"$T/changes")" -ge 5 ] || { cat "$T/screen"; die "sorted: fewer than 5 rows with a change"; }
sort -g -c "$T/changes" || { cat "$T/screen"; die "sorted by change: the latencies' falls (gains) are not first"; }
ui_keys q
ui_wait 'not saved|quit' 5
ui_keys y
ui_exited 10
exit 0
