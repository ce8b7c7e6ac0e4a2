# tier: load (a score that falls under a burner only stands out on a machine otherwise quiet)
# The thermal check against background load: on the fake machine of thermal_lib.inc, whose
# sensors stay level, two CPU burners started after the 5th sample make the score fall: the
# verdict must say "No throttling" and that the fall has no thermal evidence, from about the
# moment the burners began.
. "$KBENCH_TOP/tests/system/thermal_lib.inc"
[ "$(busy)" -lt 50 ] || skip "the machine is busy already: a burner's fall would not stand out"

cat "$T/ns_lib.sh" - >"$T/ns.sh" <<'NS'
: >"$T/err"
KBENCH_SYSFS_ROOT="$R" "$KBENCH" thermal -c 2 --minutes 0.3 --duration 1 --idle 0 --interval 0.2 \
	--name burned >"$T/out" 2>"$T/err" &
pid=$!
wait_sample "$T/err" 5 $pid
sh -c 'while :; do :; done' & b1=$!
sh -c 'while :; do :; done' & b2=$!
wait $pid; rc=$?
kill $b1 $b2
[ $rc = 0 ] || fail "the check failed: $(cat "$T/err")"
exit 0
NS
unshare -m sh "$T/ns.sh" || die "in the namespace (exit $?)"
v=$(sed -n '/^Thermal check/,/^Per/p' "$T/out" | tr '\n' ' ' | tr -s ' ')
echo "$v" | grep -q "No throttling: no throttle counter moved" || die "thermal verdict: $v"
echo "$v" | grep -q "Score fell [0-9]*% from [0-9:]* (sample [0-9]*, at 45 °C 2400 MHz) with no thermal evidence" ||
	die "the fall is not said to be without thermal evidence: $v"
echo "$v" | grep -q "not heat" || die "not called background load: $v"
k=$(echo "$v" | sed -n 's/.*Score fell [0-9]*% from [0-9:]* (sample \([0-9]*\).*/\1/p')
[ "$k" -ge 5 ] && [ "$k" -le 8 ] || die "the fall named at sample $k; the burners began in sample 6: $v"
exit 0
