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
# tests side by side (default 2, JOBS=1 one at a time).
# The unit programs and the ordinary system tests share the lanes, the costliest first, so
# that the lanes end together: a test that takes long says about how long in its opening
# comment, "# cost: SECONDS" (a system test) or "/* cost: SECONDS */" (a unit test's source),
# as it took on a 2-CPU machine; tests that say none run after those that do, in name order.
# A test that keeps both CPUs busy (a build, a VM) says "heavy" after its cost: the heavy tests
# start after all others, side by side, so that none runs long beside a test that watches a
# console (families_e2e's live replays and ui_machines' consoles were missed beside the arm64
# build and VM).
# Every kbench run first watches what other processes use for half a second (its preflight);
# the ordinary tier's tests decide nothing on that finding (their lanes keep the CPUs busy
# anyway), so they watch 0.1 s (KBENCH_PREFLIGHT_WINDOW, which the caller's environment can
# set otherwise); the load-sensitive tier's tests decide on a busy machine and keep 0.5 s.
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

# cost FILE: "HEAVY SECONDS": the seconds FILE's opening comment says it takes ("# cost: N"
# atop a system test, "/* cost: N */" atop a unit test's source), 0 when it says none or FILE is
# not there; HEAVY 1 when the line goes on "heavy", else 0.
cost() {
	[ -f "$1" ] || { echo 0 0; return; }
	awk '/^(#|\/\*)? *cost: [0-9]+/ { sub(/.*cost: */, ""); print ($2 == "heavy"), $1 + 0; found = 1; exit }
		!/^(#|\/\*| \*)/ { exit } END { if (!found) print 0, 0 }' "$1"
}

# unit NAME BIN: runs one unit program, prints its line (and a failure's output, and its
# skipped cases) as one write, and leaves "passed failed skipped" in $log/NAME.cases and the
# skipped cases as NAME:CASE words in $log/NAME.skipped for the tally.
unit() {
	out="$log/$1.out"
	start=$(date +%s)
	CMOCKA_MESSAGE_OUTPUT=stdout $KBENCH_EXEC "$2" >"$out" 2>&1 # KBENCH_EXEC: an emulator (make unit ARCH=arm64)
	secs=$(( $(date +%s) - start ))
	p=$(sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	f=$(sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	s=$(sed -n 's/.*\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	p=${p:-0} f=${f:-0} s=${s:-0}
	if [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$s" = 0 ]; then f=1; fi # crashed before its summary
	if [ "$f" != 0 ]; then
		line="FAIL $1
$(sed 's/^/    /' "$out" | tail -n 30)"
	else
		line="ok   $1 ($p cases, ${secs}s)"
	fi
	# Each skipped case by name, with what it printed between its RUN and SKIPPED lines.
	if [ "$s" != 0 ]; then
		line="$line
$(awk -v t="$1" '
			/^\[ RUN      \] / { c = $4; why = ""; next }
			/^\[  SKIPPED \] / && $4 == c {
				print "skip " t ": " c ": " (why == "" ? "skip() called, no reason printed" : why)
				c = ""; next
			}
			c != "" { why = why (why == "" ? "" : "; ") $0 }
		' "$out")"
		awk -v t="$1" '/^\[ RUN      \] / { c = $4 } /^\[  SKIPPED \] / && $4 == c { print t ":" c; c = "" }' \
			"$out" >"$log/$1.skipped"
	fi
	printf '%s\n' "$line"
	echo "$p $f $s" >"$log/$1.cases"
}

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

# The CPU time a system test used, where a cgroup can be made for it (root): everything it
# started, the tmux servers and consoles that `time` does not see as its children, is in it.
# cgroup v1's cpuacct hierarchy, or v2's cpu.stat; none: the lines say no CPU time.
cg_root=
if [ -w /sys/fs/cgroup/cpuacct ] && [ -r /sys/fs/cgroup/cpuacct/cpuacct.usage ]; then
	cg_root=/sys/fs/cgroup/cpuacct
elif [ -w /sys/fs/cgroup/cgroup.procs ] && [ -r /sys/fs/cgroup/cgroup.controllers ]; then
	cg_root=/sys/fs/cgroup
fi

# cg_cpu DIR: the seconds of CPU the cgroup DIR has used
cg_cpu() {
	if [ -r "$1/cpuacct.usage" ]; then
		awk '{ printf "%.0f", $1 / 1e9 }' "$1/cpuacct.usage"
	else
		awk '$1 == "usage_usec" { printf "%.0f", $2 / 1e6 }' "$1/cpu.stat"
	fi
}

# cg_end DIR: what is left in DIR back to the root, and DIR gone
cg_end() {
	for p in $(cat "$1/cgroup.procs" 2>/dev/null); do echo "$p" >"$cg_root/cgroup.procs" 2>/dev/null; done
	rmdir "$1" 2>/dev/null
}

# one NAME FILE TIER: runs one system test, prints its line (and a failure's output) as one
# write, and leaves its exit status in $log/NAME.rc for the tally.
one() {
	out="$log/$1.out"
	start=$(date +%s)
	missing=$(requires_missing "$2")
	cg= cpu=
	if [ -z "$missing" ]; then
		[ -n "$cg_root" ] && mkdir "$cg_root/kbench-test-$$-$1" 2>/dev/null && cg="$cg_root/kbench-test-$$-$1"
		# the test joins its cgroup where there is one; it runs all the same where the move is
		# refused (a container's cgroup), and then gets no CPU figure
		# shellcheck disable=SC2016 # $$, $1 and $2 are the inner shell's
		KBENCH_TEST_NOTE="$log/$1.note" sh -c '[ -z "$1" ] || echo $$ 2>/dev/null >"$1/cgroup.procs" || : >"$2"
			shift 2; exec sh "$@"' sh "$cg" "$log/$1.nocg" "$2" >"$out" 2>&1
		rc=$?
		if [ -n "$cg" ]; then
			[ -e "$log/$1.nocg" ] || cpu=", $(cg_cpu "$cg") s CPU"
			cg_end "$cg"
		fi
	elif requires_strict; then
		echo "needs $missing, which this machine lacks: in CI every declared need must be met ('make deps' installs the packages)" >"$out"
		rc=1
	else
		echo "needs $missing, which this machine lacks" >"$out"
		rc=77
	fi
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) line="ok   $1 (${secs}s$cpu)"
		# what a passing test has to say (a corpus's table): $KBENCH_TEST_NOTE, under its line
		[ -s "$log/$1.note" ] && line="$line
$(sed 's/^/    /' "$log/$1.note")" ;;
	77) line="skip $1: $(tail -n 1 "$out")" ;;
	*) line="FAIL $1 (exit $rc, ${secs}s$cpu)
$(sed 's/^/    /' "$out" | tail -n 40)" ;;
	esac
	printf '%s\n' "$line"
	echo $rc >"$log/$1.rc"
}

# system TIER: runs the tests of that tier. The ordinary tier (the unit programs and the
# ordinary system tests) runs JOBS tests side by side (each test has its own store, scratch and
# tmux server, and looks only at its own processes), the costliest first; the load tier runs
# one at a time, each after settle. JOBS defaults to 2: counted with their consoles and tmux
# servers (the cgroup above), tests use most of a CPU each (ui_machines 45 s of CPU in 61 s,
# readme_tour 39 in 49), so a third lane kept 2 CPUs 93% busy and its tests took 17m24s, about
# what two lanes take (a fresh clone's 19m31s with its build; 2026-12-06, a quiet machine).
system() {
	: >"$log/items"
	if [ -z "$1" ]; then
		for bin in "$top/$BUILD"/tests/test_*; do
			[ -x "$bin" ] || continue
			name=$(basename "$bin")
			wanted "$name" || continue
			echo "$(cost "$top/tests/unit/$name.c") $name $bin" >>"$log/items"
		done
	fi
	for t in "$top"/tests/system/*.sh; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .sh)
		wanted "$name" || continue
		[ "$(tier "$t")" = "$1" ] || continue
		echo "$(cost "$t") $name $t" >>"$log/items"
	done
	if [ "$1" = load ]; then
		unset KBENCH_PREFLIGHT_WINDOW
		while read -r _ _ name t; do
			settle
			one "$name" "$t"
		done <"$log/items"
	else
		# the heavy last; the costliest first, equal costs in name order
		LC_ALL=C sort -k1,1n -k2,2nr -k3,3 "$log/items" >"$log/order"
		# Each lane takes the next test nobody has claimed (mkdir is the lock).
		export KBENCH_PREFLIGHT_WINDOW="${KBENCH_PREFLIGHT_WINDOW:-0.1}"
		lane=0
		while [ $lane -lt "${JOBS:-2}" ]; do
			(while read -r _ _ name t; do
				mkdir "$log/$name.claim" 2>/dev/null || continue
				case $t in
				*.sh) one "$name" "$t" ;;
				*) unit "$name" "$t" ;;
				esac
			done <"$log/order") &
			lane=$((lane + 1))
		done
		wait
	fi
	while read -r _ _ name t; do
		case $t in
		*.sh) ;;
		*)	read -r p f s <"$log/$name.cases" 2>/dev/null || { p=0 f=1 s=0; }
			pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
			[ "$f" != 0 ] && failed="$failed $name"
			[ -s "$log/$name.skipped" ] && skipped="$skipped $(echo $(cat "$log/$name.skipped"))"
			continue ;;
		esac
		rc=$(cat "$log/$name.rc" 2>/dev/null || echo 1)
		if [ "$rc" = 0 ]; then
			pass=$((pass + 1))
		elif [ "$rc" = 77 ]; then
			skip=$((skip + 1)); skipped="$skipped $name"
		else
			fail=$((fail + 1)); failed="$failed $name"
			[ "$1" = load ] && load_failed="$load_failed $name"
		fi
	done <"$log/items"
}

# Each tier's wall time, so a change to the suite's length can be placed (issue 34's budget).
t0=$(date +%s)
system ""
[ -n "$TESTS" ] || echo "ordinary tier: $(($(date +%s) - t0)) s"
load=""
for t in "$top"/tests/system/*.sh; do
	[ -f "$t" ] && wanted "$(basename "$t" .sh)" && [ "$(tier "$t")" = load ] && load="$load $(basename "$t" .sh)"
done
if [ -n "$load" ]; then
	echo "load-sensitive tier:$load"
	t0=$(date +%s)
	system load
	[ -n "$TESTS" ] || echo "load-sensitive tier: $(($(date +%s) - t0)) s"
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
