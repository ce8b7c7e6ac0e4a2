#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the unit tests (cmocka, one line per case) and the system tests
# (tests/system/*.sh: exit 0 pass, 77 skipped with the reason as the last
# line, anything else fails), then prints one line: N passed, N failed.
# A system test whose outcome depends on a quiet machine says so in its header
# comment with a line "# tier: load (why)": those run last, as the
# load-sensitive tier, named before they start and in the failures they cause,
# each after up to 5 s for the CPUs to go quiet.
# A cmocka case that calls skip() counts as skipped and is named, with what it
# printed before skipping as the reason.
# A system test declares what it needs in its opening comment ("# requires: tmux root",
# tests/system/requires.inc): a missing need skips it, or fails it in CI (CI=true).
# TESTS="name ..." limits the run to tests whose file name matches; JOBS=N runs N ordinary
# system tests side by side (default 2, JOBS=1 one at a time).
: "${KBENCH:?KBENCH must name the kbench binary}"
: "${BUILD:=build}"
export KBENCH
top=$(cd "$(dirname "$0")/../.." && pwd)
export KBENCH_TOP="$top"
# Each system test's declared needs ("# requires: ..."): checked in one() before it starts.
. "$top/tests/system/requires.inc"
export KBENCH_NEEDS_CHECKED=1
pass=0 fail=0 skip=0
failed="" skipped="" load_failed=""
log=$(mktemp -d /tmp/kbench-test-log.XXXXXX)
trap 'rm -rf "$log"' EXIT

wanted() {
	[ -z "$TESTS" ] && return 0
	for w in $TESTS; do case "$1" in *"$w"*) return 0 ;; esac; done
	return 1
}

# tier FILE: the tier its header comment names ("load"), or "" for the ordinary one.
# Only the opening comment counts, so a test's own text cannot move it.
tier() {
	awk '!/^#/ { exit } /^# tier: / { print $3; exit }' "$1"
}

for bin in "$top/$BUILD"/tests/test_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	wanted "$name" || continue
	out="$log/$name.out"
	CMOCKA_MESSAGE_OUTPUT=stdout $KBENCH_EXEC "$bin" >"$out" 2>&1 # KBENCH_EXEC: an emulator (make unit ARCH=arm64)
	p=$(sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	f=$(sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	s=$(sed -n 's/.*\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	p=${p:-0} f=${f:-0} s=${s:-0}
	if [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$s" = 0 ]; then f=1; fi # crashed before its summary
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" != 0 ]; then
		failed="$failed $name"
		echo "FAIL $name"; sed 's/^/    /' "$out" | tail -n 30
	else
		echo "ok   $name ($p cases)"
	fi
	# Each skipped case by name, with what it printed between its RUN and SKIPPED lines.
	if [ "$s" != 0 ]; then
		awk -v t="$name" '
			/^\[ RUN      \] / { c = $4; why = ""; next }
			/^\[  SKIPPED \] / && $4 == c {
				print "skip " t ": " c ": " (why == "" ? "skip() called, no reason printed" : why)
				c = ""; next
			}
			c != "" { why = why (why == "" ? "" : "; ") $0 }
		' "$out"
		for c in $(awk '/^\[ RUN      \] / { c = $4 } /^\[  SKIPPED \] / && $4 == c { print c; c = "" }' "$out"); do
			skipped="$skipped $name:$c"
		done
	fi
done

# settle: before a load-sensitive test, up to 5 s for the CPUs to go quiet (the test before
# it may have just stopped its burners or builds), one second at a time.
settle() {
	for _ in 1 2 3 4 5; do
		a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat)
		sleep 1
		b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat)
		echo "$a $b" | awk '{ u = $3 - $1; i = $4 - $2; exit !(u + i > 0 && 100 * u / (u + i) < 15) }' && return 0
	done
}

# one NAME FILE TIER: runs one system test, prints its line (and a failure's output) as one
# write, and leaves its exit status in $log/NAME.rc for the tally.
one() {
	out="$log/$1.out"
	start=$(date +%s)
	missing=$(requires_missing "$2")
	if [ -z "$missing" ]; then
		KBENCH_TEST_NOTE="$log/$1.note" sh "$2" >"$out" 2>&1
		rc=$?
	elif requires_strict; then
		echo "needs $missing, which this machine lacks: in CI every declared need must be met ('make deps' installs the packages)" >"$out"
		rc=1
	else
		echo "needs $missing, which this machine lacks" >"$out"
		rc=77
	fi
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) line="ok   $1 (${secs}s)"
		# what a passing test has to say (a corpus's table): $KBENCH_TEST_NOTE, under its line
		[ -s "$log/$1.note" ] && line="$line
$(sed 's/^/    /' "$log/$1.note")" ;;
	77) line="skip $1: $(tail -n 1 "$out")" ;;
	*) line="FAIL $1 (exit $rc, ${secs}s)
$(sed 's/^/    /' "$out" | tail -n 40)" ;;
	esac
	printf '%s\n' "$line"
	echo $rc >"$log/$1.rc"
}

# system TIER: runs the system tests of that tier. The ordinary tier runs JOBS tests side by
# side (default 2: each test has its own store, scratch and tmux server, and looks only at
# its own processes); the load tier runs one at a time, each after settle.
system() {
	names=""
	for t in "$top"/tests/system/*.sh; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .sh)
		wanted "$name" || continue
		[ "$(tier "$t")" = "$1" ] || continue
		names="$names $name"
	done
	if [ "$1" = load ]; then
		for name in $names; do
			settle
			one "$name" "$top/tests/system/$name.sh"
		done
	else
		# Each lane takes the next test nobody has claimed (mkdir is the lock).
		lane=0
		while [ $lane -lt "${JOBS:-2}" ]; do
			(for name in $names; do
				mkdir "$log/$name.claim" 2>/dev/null || continue
				one "$name" "$top/tests/system/$name.sh"
			done) &
			lane=$((lane + 1))
		done
		wait
	fi
	for name in $names; do
		rc=$(cat "$log/$name.rc" 2>/dev/null || echo 1)
		if [ "$rc" = 0 ]; then
			pass=$((pass + 1))
		elif [ "$rc" = 77 ]; then
			skip=$((skip + 1)); skipped="$skipped $name"
		else
			fail=$((fail + 1)); failed="$failed $name"
			[ "$1" = load ] && load_failed="$load_failed $name"
		fi
	done
}

system ""
load=""
for t in "$top"/tests/system/*.sh; do
	[ -f "$t" ] && wanted "$(basename "$t" .sh)" && [ "$(tier "$t")" = load ] && load="$load $(basename "$t" .sh)"
done
if [ -n "$load" ]; then
	echo "load-sensitive tier:$load"
	system load
fi

[ -n "$failed" ] && echo "failed:$failed"
[ -n "$load_failed" ] && echo "failed in the load-sensitive tier (other load on the machine can cause these):$load_failed"
[ -n "$skipped" ] && echo "skipped:$skipped"
if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail = 0 ]
