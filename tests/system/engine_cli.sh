# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input to `kbench run` and friends: one clear line on stderr, exit 2 (usage) or 1 (runtime), nothing on stdout.
# requires: unshare
. "$KBENCH_TOP/tests/system/lib.inc"

bad() { # bad CODE ARGS...: exit CODE, exactly one stderr line starting "kbench: ", empty stdout
	want=$1; shift
	expect_exit "$want" "$KBENCH" "$@"
	[ ! -s "$T/out" ] || die "'$*' printed on stdout: $(head -3 "$T/out")"
	[ "$(wc -l <"$T/err")" = 1 ] || die "'$*' printed $(wc -l <"$T/err") lines on stderr: $(cat "$T/err")"
	grep -q '^kbench: ' "$T/err" || die "'$*' error does not start with 'kbench: ': $(cat "$T/err")"
}
bad 2 run nosuchtest
bad 2 run -c 0 pipe
bad 2 run -c -1 pipe
bad 2 run -c abc pipe
bad 2 run -i -1 pipe
bad 2 run -i 0 pipe
bad 2 run --duration abc pipe
bad 2 run --duration -5 pipe
bad 2 run --duration nan pipe
bad 2 run --samples 1x pipe
bad 2 run --bogus pipe
bad 2 run -c
bad 2 nosuchcommand
bad 2 list extra
bad 1 run --tmpdir /nonexistent/dir --samples 1 --duration 0.1 --pause 0 pipe
: >"$T/afile"
bad 1 run --tmpdir "$T/afile" --samples 1 --duration 0.1 --pause 0 pipe
grep -q "afile" "$T/err" || die "the error does not name the directory: $(cat "$T/err")"

# A read-only scratch directory (root ignores permission bits, so use a read-only mount).
mkdir -p "$T/ro"
unshare -m sh -c "mount -t tmpfs -o ro tmpfs '$T/ro' && '$KBENCH' run --tmpdir '$T/ro' --samples 1 --duration 0.1 --pause 0 fstime" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || die "read-only --tmpdir exited $rc: $(cat "$T/err")"
[ ! -s "$T/out" ] || die "read-only --tmpdir printed a report"
grep -q "not writable" "$T/err" || die "read-only --tmpdir error unclear: $(cat "$T/err")"

# The good paths answer.
expect_exit 0 "$KBENCH" --version
grep -q '^kbench [0-9]' "$T/out" || die "--version: $(cat "$T/out")"
expect_exit 0 "$KBENCH" run --help
grep -q -- '--duration' "$T/out" || die "run --help lacks --duration"
expect_exit 0 "$KBENCH" list
for id in dhry2reg whetstone-double execl fstime fsbuffer fsdisk pipe context1 spawn syscall shell1 shell8 arithoh hanoi grep sysexec register; do
	grep -q "^$id " "$T/out" || die "list lacks $id"
done
grep -q "^index " "$T/out" || die "list lacks the index group"
# The quick sample length and the uncounted mark come from the test table.
grep -q '^shell1 .* 5 s \*$' "$T/out" || die "list: shell1 should show 5 s quick samples, uncounted: $(grep '^shell1 ' "$T/out")"
# the latency tests time context switches, which counting slows: uncounted too
for t in timerlat wakelat interactive; do
	grep -q "^$t .* \*\$" "$T/out" || die "list: $t should be uncounted: $(grep "^$t " "$T/out")"
done
grep -q '^dhry2reg .* 1 s$' "$T/out" || die "list: dhry2reg should show 1 s quick samples, counted: $(grep '^dhry2reg ' "$T/out")"
grep -q '^dhry2reg .* 116700.0 ' "$T/out" || die "list (a pipe): no baseline for dhry2reg"
# On an 80-column terminal (COLUMNS says so) the table fits: titles cut, the baselines
# left out (and said so), what a points test measures wrapped under it.
COLUMNS=80 "$KBENCH" list >"$T/out" 2>&1 || die "COLUMNS=80 kbench list failed"
awk 'length($0) > 79 { print; bad = 1 } END { exit bad }' "$T/out" || die "list at 80 columns: lines wider than 79"
grep -q '^shell1 .* 5s \*$' "$T/out" || die "list at 80 columns: shell1's quick length and mark: $(grep '^shell1 ' "$T/out")"
grep -q '^dhry2reg  *Dhrystone 2 using register.*~ ' "$T/out" || die "list at 80 columns: the long title is not cut"
grep -q 'BASELINE .* left out at 80 columns' "$T/out" || die "list at 80 columns: the missing baselines are not said"
grep -A2 '^memlat ' "$T/out" | tr -s ' \n' ' ' | grep -q 'L1, L2, L3, main memory, CPU clock' ||
	die "list at 80 columns: memlat's line of what it measures is lost in the wrap"
echo ok
