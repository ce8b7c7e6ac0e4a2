# SPDX-License-Identifier: GPL-2.0-or-later
# tier: load (a score that falls under a burner only stands out on a machine otherwise quiet)
# The thermal check against background load: on the fake machine of thermal_lib.inc, whose
# sensors stay level, two CPU burners started after the 6th sample make the score fall: the
# verdict must say "No throttling" and that the fall has no thermal evidence, from about the
# moment the burners began. They start after the 6th sample, so the check's first window (the
# first third of its 18 samples: 6) holds no burner: a burner in it made that window's noise,
# which the fall must beat, as wide as the fall itself (CI under SAN: first 6 s +-44%). The
# check decides by samples (windows a third of them, the level their median): 18 samples of
# 0.5 s are judged as 18 of 1 s were, in half the time.
# requires: unshare
. "$KBENCH_TOP/tests/system/thermal_lib.inc"
[ "$(busy)" -lt 50 ] || skip "the machine is busy already: a burner's fall would not stand out"

cat "$T/ns_lib.sh" - >"$T/ns.sh" <<'NS'
: >"$T/err"
KBENCH_SYSFS_ROOT="$R" "$KBENCH" thermal -c 2 --minutes 0.15 --duration 0.5 --idle 0 --interval 0.2 \
	--name burned >"$T/out" 2>"$T/err" &
pid=$!
wait_sample "$T/err" 6 $pid
sh -c 'while :; do :; done' & b1=$!
sh -c 'while :; do :; done' & b2=$!
wait $pid; rc=$?
kill $b1 $b2
[ $rc = 0 ] || fail "the check failed: $(cat "$T/err")"
exit 0
NS
# check: judge one check's report; "" when it holds, else why not
check() {
	v=$(sed -n '/^Thermal check/,/^Per/p' "$T/out" | tr '\n' ' ' | tr -s ' ')
	table=$(sed -n '/^Per /,$p' "$T/out" | tr '\n' '|' | tr -s ' ')
	echo "$v" | grep -q "No throttling: no throttle counter moved" || { echo "thermal verdict: $v"; return; }
	echo "$v" | grep -q "Score fell [0-9]*% from [0-9:]* (sample [0-9]*, at 45 °C 2400 MHz) with no thermal evidence" ||
		{ echo "the fall is not said to be without thermal evidence: $v $table"; return; }
	echo "$v" | grep -q "not heat" || { echo "not called background load: $v"; return; }
	k=$(echo "$v" | sed -n 's/.*Score fell [0-9]*% from [0-9:]* (sample \([0-9]*\).*/\1/p')
	[ "$k" -ge 6 ] && [ "$k" -le 9 ] || echo "the fall named at sample $k; the burners began in sample 7: $v $table"
}
# Two tries: the host's own noise in the first samples widens the noise the fall must beat.
for try in 1 2; do
	unshare -m sh "$T/ns.sh" || die "in the namespace (exit $?)"
	why=$(check)
	[ -z "$why" ] && exit 0
	echo "try $try: $why"
done
die "$why"
