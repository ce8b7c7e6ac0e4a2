# A run made slower on purpose is reported "slower" on the CPU-bound tests, and "faster" the
# other way round. The slowdown is a CPU quota (a cgroup allowing half a CPU), not another
# process: a hog beside the worker would make the machine busy, and busy rows are withheld
# (compare_busy checks that).
# tier: load (a known slowdown must stand out of the noise of both runs; skipped when the preflight says busy)
# requires: root cgroup-cpu
. "$KBENCH_TOP/tests/system/lib.inc"
cg=""
if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	cg=/sys/fs/cgroup/cpu/kbench-slowdown-$$
	mkdir "$cg" 2>/dev/null && echo 100000 >"$cg/cpu.cfs_period_us" && echo 50000 >"$cg/cpu.cfs_quota_us" || cg=""
elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cg=/sys/fs/cgroup/kbench-slowdown-$$
	echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir "$cg" 2>/dev/null && echo "50000 100000" >"$cg/cpu.max" || cg=""
fi
[ -n "$cg" ] || die "the cgroup for a known slowdown could not be made"
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$T"' EXIT
# Five 0.5 s samples a side: with three, one unlucky sample can widen a run's own interval;
# half a CPU doubles the time, far outside any interval that length gives.
R="run -c 1 --samples 5 --duration 0.5 --pause 0"
W="dhry2reg whetstone-double"

# Verdicts on a busy machine are withheld, rightly: a run whose preflight says busy is tried
# again, and after three the test's own measure must agree (busy_said).
for try in 1 2 3; do
	"$KBENCH" delete plain >/dev/null 2>&1
	expect_exit 0 "$KBENCH" $R --name plain $W
	grep -q 'preflight: busy' "$T/err" || break
	[ $try = 3 ] && busy_said "the plain run's preflight was busy three times: $(grep -o 'other processes used [0-9.]* CPU' "$T/err")"
done
# Half a CPU: 50 ms of every 100 ms, for kbench and every process it starts.
# A run whose preflight says busy is tried again: other processes may have used the CPUs
# in that half second (0.25 CPU once on a fresh clone here). Busy in all three tries is
# the quota itself taken for other processes.
for try in 1 2 3; do
	"$KBENCH" delete slowed >/dev/null 2>&1
	sh -c "echo \$\$ >'$cg/cgroup.procs' && exec \"\$@\"" sh "$KBENCH" $R --name slowed $W >"$T/out" 2>"$T/err" ||
		{ cat "$T/err"; die "the slowed run failed"; }
	grep -q 'preflight: busy' "$T/err" || break
	echo "try $try: $(grep busy "$T/err")"
	[ $try = 3 ] && die "a CPU quota was taken for other processes: $(grep busy "$T/err")"
done

expect_exit 0 "$KBENCH" compare --width 80 plain slowed
cat "$T/out"
grep -q '^Dhrystone 2 .* slower (.*sure)$' "$T/out" || die "Dhrystone not reported slower"
grep -q '^Whetstone .* slower (.*sure)$' "$T/out" || die "Whetstone not reported slower"
grep -q '^Index Score .* slower (.*sure)$' "$T/out" || die "the index score not reported slower"
# And the other way round it is faster, not merely "different".
expect_exit 0 "$KBENCH" compare slowed plain
grep -q '^Dhrystone 2 .* faster (.*sure)$' "$T/out" || die "reversed comparison not faster"
exit 0
