#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memlat in the console at 80x24, mono theme: while it runs, the latency
# curve so far (log-log, '*' random and '+' forward chain, the caches
# marked on the size axis), the sweep's length estimated ("of ~0:04": the
# row's length is only the budget of its timed walks, the sweep takes
# more), the second from the first's time; then the results show its headline points
# (plateaus and clock) with a verdict each against a stored memlat run.
# requires: tmux python3
# cost: 10
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"
# the caches marked on the axis and the plateau rows are the caches sysfs gives: a fake cache
# tree's (lib.inc's fake_caches, as memlat_cli)
fake_caches "$T/caches"
export KBENCH_SYSFS_ROOT="$T/caches"

small="--sizes 512:4M:4 --samples 2 --pause 0"
expect_exit 0 "$KBENCH" run memlat $small --duration 0.5 -c 1 --no-telemetry --name base

ui_start env NO_COLOR=1 KBENCH_SYSFS_ROOT="$T/caches" "$KBENCH" console memlat $small --duration 3 --copies 1
ui_wait 'Setup'
ui_keys r
ui_wait '^── memlat · 1 copy ─' 20
ui_wait 'latency so far, log-log: +\* random chain +\+ forward 64 B' 5
ui_wait '^ sample 1 of 2  [0-9]:[0-9]{2} (of|over) ~[0-9]:[0-9]{2} ' 5
# the curve: the y axis in ns, the size axis from 512 B with L1 marked, and plotted points
ui_wait '^ +[0-9.]+ .*\*' 20
ui_wait '^ +512 B .*L1' 5
grep -q 'ns/load' "$T/screen" || { cat "$T/screen"; die "the curve's axis has no unit"; }
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' "$T/screen" ||
	die "a line is wider than 80 columns"
[ "$(wc -l <"$T/screen")" -le 24 ] || die "more than 24 lines"
grep -Eq '^ ▶ .*Memory latency.* [0-9]+ pts$' "$T/screen" || { cat "$T/screen"; die "the running test's row does not count its points"; }
cp "$T/screen" "$T/curve"
# the curve grows: more points than at first
ui_wait '^ sample 2 of 2  [0-9]:[0-9]{2} (of|over) ~[0-9]:[0-9]{2} ' 30
[ "$(grep -o '[*+]' "$T/screen" | wc -l)" -gt "$(grep -o '[*+]' "$T/curve" | wc -l)" ] ||
	die "the curve did not grow"
ui_wait 'Results' 60
ui_wait 'vs base' 5
for p in "rnd L1" "rnd L2" "fwd L1" "clock"; do
	grep -Eq "^ memlat $p +1 .*(faster|slower|noise|n/a)" "$T/screen" ||
		{ cat "$T/screen"; die "results: no verdict row for $p"; }
done
grep -q 'memlat rnd 4096\|memlat rnd 4 KiB' "$T/screen" && die "results list curve points, not the headlines"
ui_keys q
ui_wait 'not saved|quit' 5
ui_keys y
ui_exited 10
exit 0
