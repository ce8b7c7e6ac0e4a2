# Two copies of a CPU-bound test on a 2-core machine score about twice one copy.
. "$KBENCH_TOP/tests/system/lib.inc"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs, this machine has $(nproc)"
"$KBENCH" run -q -c 1 -c 2 --samples 3 --duration 1 --pause 0 dhry2reg >"$T/report" 2>"$T/err" || { cat "$T/err"; die "run failed"; }
one=$(awk '/^Benchmark Run:/{b++} /^Dhrystone 2 using register variables +[0-9]/ && b==1 {print $(NF-5)}' "$T/report" | head -1)
two=$(awk '/^Benchmark Run:/{b++} /^Dhrystone 2 using register variables +[0-9]/ && b==2 {print $(NF-5)}' "$T/report" | head -1)
[ -n "$one" ] && [ -n "$two" ] || { cat "$T/report"; die "no scores"; }
ratio=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.3f", b / a }')
echo "1 copy $one lps, 2 copies $two lps, ratio $ratio"
awk -v r="$ratio" 'BEGIN { exit !(r > 1.5 && r < 2.3) }' || die "2 copies / 1 copy = $ratio, expected about 2"
echo ok
