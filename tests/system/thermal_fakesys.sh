# SPDX-License-Identifier: GPL-2.0-or-later
# The thermal check against a fake /sys in a private mount namespace (thermal_lib.inc): a run
# whose package throttles, whose clock halves and whose temperature jumps to 96 °C at a known
# sample must name that sample (within one) and the throttle counters as the cause; a run on the
# same machine left alone must say "No throttling"; both are stored as thermal runs that
# `kbench runs` tags "(thermal)", `kbench show` prints per time step and `kbench compare`
# compares with its thermal rows; the idle baseline of the run left alone (at most 30 s) ends
# once its steady temperature has held for 10 s; and a check stopped with Ctrl-C keeps its finished samples, marked incomplete.
# requires: unshare
# cost: 41
. "$KBENCH_TOP/tests/system/thermal_lib.inc"

cat "$T/ns_lib.sh" - >"$T/ns.sh" <<'NS'
run() { KBENCH_SYSFS_ROOT="$R" "$KBENCH" thermal -c 1 --minutes 0.2 --duration 1 --idle 1 --interval 0.2 "$@"; }
# 1. Throttled from the 5th sample on: once the 4th is reported, the 5th runs (no pause).
run --name hot >"$T/hot.out" 2>"$T/hot.err" &
pid=$!
wait_sample "$T/hot.err" 4 $pid
throttle
wait $pid || fail "the throttled check failed: $(cat "$T/hot.err")"
# 2. The same machine left alone (the counters stay where they are: only their moving counts).
echo 2400000 >"$R/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"
echo 2400000 >"$R/sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq"
echo 45000 >$H/temp1_input
run --name flat --idle 30 >"$T/flat.out" 2>"$T/flat.err" || fail "the flat check failed: $(cat "$T/flat.err")"
# 3. Ctrl-C after the 3rd sample of a minute's check.
mkdir "$T/scratch"
KBENCH_SYSFS_ROOT="$R" "$KBENCH" thermal -c 1 --minutes 1 --duration 1 --idle 0 --name stopped --tmpdir "$T/scratch" \
	>"$T/int.out" 2>"$T/int.err" &
pid=$!
wait_sample "$T/int.err" 3 $pid
kill -INT $pid
wait $pid
echo $? >"$T/int.rc"
exit 0
NS
unshare -m sh "$T/ns.sh" || die "in the namespace (exit $?)"

# The verdict is wrapped at 78 columns: read it as one line.
joined() { sed -n '/^Thermal check/,/^Per/p' "$1" | tr '\n' ' ' | tr -s ' '; }

# The throttled run: the moment within one sample of the 5th, and the cause.
line=$(grep "Throttling from" "$T/hot.out") || die "no throttling verdict: $(sed -n '/Thermal check/,$p' "$T/hot.out")"
k=$(echo "$line" | sed -n 's/.*(sample \([0-9]*\)).*/\1/p')
[ "${k:-0}" -ge 5 ] && [ "$k" -le 6 ] || die "throttling named at sample '$k', wanted 5 (or 6): $line"
echo "$line" | grep -q "throttle counters moved (+3, 300 ms)" || die "cause not the counters: $line"
joined "$T/hot.out" | grep -q "clock 1200 MHz (was 2400)" || die "clock not named: $line"
grep -q "Energy: 10 J over" "$T/hot.out" || die "energy wrong: $(grep Energy "$T/hot.out")"
grep -q "<- throttling" "$T/hot.out" || die "the table does not mark the moment: $(sed -n '/^Per/,$p' "$T/hot.out")"
grep -q "Missing here" "$T/hot.out" && die "a source said missing on the fake machine: $(grep -A3 Missing "$T/hot.out")"

# The flat run: no throttling, the clock and temperature as they were.
joined "$T/flat.out" | grep -q "No throttling: no throttle counter moved, the clock held at 2400 MHz, hottest 45 °C (limit 100)" ||
	die "flat run: $(sed -n '/Thermal check/,/Per/p' "$T/flat.out")"

# Its idle baseline ended when the temperature had been steady for 10 s, not after 30 s.
"$KBENCH" show flat | grep -q "note: idle baseline: 1[0-2] s of at most 30: the temperature was steady (45.0-45.0 °C over 10 s)" ||
	die "the flat check's idle baseline: $("$KBENCH" show flat | grep 'idle baseline')"

# Stored as thermal runs: show prints the verdict and table; compare adds its rows.
"$KBENCH" show hot >"$T/show" || die "kbench show hot failed"
grep -q "Throttling from" "$T/show" && grep -q "^Per 5 s:" "$T/show" || die "show: $(sed -n '/Thermal/,$p' "$T/show")"
"$KBENCH" compare flat hot --width 80 >"$T/cmp" || die "compare failed: $(cat "$T/cmp")"
for row in "first 4 s" "last 4 s" "sustained %"; do
	grep -q "^$row .*\(faster\|slower\|no significant change\)" "$T/cmp" || die "compare has no '$row' row with a verdict: $(cat "$T/cmp")"
done
# kbench runs says which runs are thermal checks (their index is one test's, partial)
"$KBENCH" runs >"$T/runs" || die "kbench runs failed"
for n in hot flat; do
	grep -q "^[0-9a-f]\{8\}  $n .*p (thermal)\$" "$T/runs" || die "kbench runs does not tag $n as a thermal check: $(cat "$T/runs")"
done
grep -q "^Thermal: " "$T/cmp" || die "compare does not say which held its score longer: $(cat "$T/cmp")"
sed -n '/^Thermal:/,/^Verdicts/p' "$T/cmp" | tr '\n' ' ' | tr -s ' ' |
	grep -q "A's score \(held for all 0:12\|first fell at [0-9:]* (-[0-9]*%, no thermal evidence)\); B's" ||
	die "compare's sentence: $(grep -A2 '^Thermal' "$T/cmp")"

# Ctrl-C: 130, the finished samples stored, marked incomplete.
[ "$(cat "$T/int.rc")" = 130 ] || die "Ctrl-C exited $(cat "$T/int.rc"), wanted 130"
grep -q "marked incomplete" "$T/int.err" || die "the stopped check was not saved incomplete: $(tail -3 "$T/int.err")"
"$KBENCH" show stopped >"$T/show2" || die "kbench show stopped failed"
grep -q "^Thermal check: dhry2reg, 1 copy, .* (stopped early" "$T/show2" || die "stopped check: $(grep Thermal "$T/show2")"
[ -z "$(ls -A "$T/scratch")" ] || die "scratch left behind: $(ls -A "$T/scratch")"
exit 0
