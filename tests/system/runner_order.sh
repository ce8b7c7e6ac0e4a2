#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make test's runner (tests/tools/run.sh) on a tree of made-up tests: the unit programs and the
# ordinary system tests start the costliest first ("# cost: N" atop a system test, "/* cost: N */"
# atop a unit test's source), those that say none after them in name order, those whose cost
# says "heavy" (they keep both CPUs busy) after all others, the load tier last;
# the ordinary tier's preflights watch 0.1 s (or what the caller says), the load tier's their 0.5 s;
# and the tally counts a unit program's cases, its skipped cases by name, and each system test.
. "$KBENCH_TOP/tests/system/lib.inc"

top="$T/tree"
mkdir -p "$top/tests/tools" "$top/tests/system" "$top/tests/unit" "$top/build/tests"
cp "$KBENCH_TOP/tests/tools/run.sh" "$top/tests/tools/"
cp "$KBENCH_TOP/tests/system/requires.inc" "$top/tests/system/"

# unit NAME COST PASSED [SKIPPED]: a program that prints cmocka's summary, its source's cost
unit() {
	printf '/* SPDX-License-Identifier: GPL-2.0-or-later */\n/* %s */\n' "$1" >"$top/tests/unit/$1.c"
	[ "$2" = - ] || printf '/* cost: %s */\n' "$2" >>"$top/tests/unit/$1.c"
	{
		echo '#!/bin/sh'
		[ -n "${4:-}" ] && printf 'echo "[ RUN      ] %s"; echo "no disk here"; echo "[  SKIPPED ] %s"\n' "$4" "$4"
		printf 'echo "[  PASSED  ] %s test(s)."\n' "$3"
		[ -n "${4:-}" ] && printf 'echo "[  SKIPPED ] 1 test(s), listed below:"; echo "[  SKIPPED ] %s"\n' "$4"
	} >"$top/build/tests/$1"
	chmod +x "$top/build/tests/$1"
}
# system NAME COST RC [TIER]: a test that exits RC
system() {
	{
		echo '#!/bin/sh'
		echo '# SPDX-License-Identifier: GPL-2.0-or-later'
		[ "$2" = - ] || echo "# cost: $2"
		[ -n "${4:-}" ] && echo "# tier: $4 (made up)"
		echo "echo \"$1 \${KBENCH_PREFLIGHT_WINDOW:-unset}\" >>'$T/windows'"
		echo "echo 'the reason'; exit $3"
	} >"$top/tests/system/$1.sh"
}
unit test_a - 2
unit test_big 30 3 disk_case
unit test_mid 12 1
system alpha - 0
system huge 90 0
system mid_sys 20 77
system small 5 1
system zeta - 0
system builds "95 heavy" 0
system quiet 50 0 load

(cd "$top" && env -u TESTS -u KBENCH_EXEC -u KBENCH_PREFLIGHT_WINDOW BUILD=build KBENCH=/bin/true JOBS=1 \
	sh tests/tools/run.sh) >"$T/out" 2>&1
rc=$?
cat "$T/out"
[ "$rc" = 1 ] || die "a failing test, and the runner exited $rc"
# one lane: the order the lines come in is the order the tests started
order=$(grep -Eo '^(ok  |FAIL|skip) [a-z_]+' "$T/out" | awk '{ print $2 }' | uniq | tr '\n' ' ')
want="huge test_big mid_sys test_mid small alpha test_a zeta builds quiet "
[ "$order" = "$want" ] || die "started in the order '$order', not '$want'"
grep -qx 'ok   test_big (3 cases, [0-9]*s)' "$T/out" || die "test_big's line does not count its 3 cases"
grep -qx 'skip test_big: disk_case: no disk here' "$T/out" || die "test_big's skipped case is not named with its reason"
grep -qx 'skip mid_sys: the reason' "$T/out" || die "mid_sys's skip does not give its reason"
grep -qx 'failed: small' "$T/out" || die "the failures are not 'small' alone"
grep -qx 'skipped: test_big:disk_case mid_sys' "$T/out" || die "the skipped are not test_big:disk_case and mid_sys"
# passed: 2 + 3 + 1 cases, alpha, huge, zeta, builds, quiet; failed: small; skipped: a case and mid_sys
tail -n 1 "$T/out" | grep -qx '11 passed, 1 failed, 2 skipped' || die "the tally is not 11 passed, 1 failed, 2 skipped"
grep -qx 'alpha 0.1' "$T/windows" && grep -qx 'builds 0.1' "$T/windows" && grep -qx 'quiet unset' "$T/windows" ||
	die "the preflight windows are not 0.1 s in the ordinary tier and the default in the load tier: $(cat "$T/windows")"
# each tier's wall time, where the whole suite ran
grep -qx 'ordinary tier: [0-9]* s' "$T/out" && grep -qx 'load-sensitive tier: [0-9]* s' "$T/out" ||
	die "the tiers' wall times are not printed"

# two lanes take the tests in the same order: the two costliest start first, side by side
rm "$top/tests/system/"*.sh "$top/build/tests/"* "$top/tests/unit/"*
# lane NAME COST: a test that notes when it starts
lane() {
	printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0-or-later\n' >"$top/tests/system/$1.sh"
	[ "$2" = - ] || echo "# cost: $2" >>"$top/tests/system/$1.sh"
	echo "echo $1 \$KBENCH_PREFLIGHT_WINDOW >>'$T/started'; sleep 0.2" >>"$top/tests/system/$1.sh"
}
for n in a b c d e f; do lane "s_$n" -; done
lane z_long 4
lane y_long 3
lane h_build "99 heavy"
(cd "$top" && env -u TESTS -u KBENCH_EXEC KBENCH_PREFLIGHT_WINDOW=0.3 BUILD=build KBENCH=/bin/true JOBS=2 \
	sh tests/tools/run.sh) >"$T/out2" 2>&1 || { cat "$T/out2"; die "two lanes failed"; }
cat "$T/out2"
tail -n 1 "$T/out2" | grep -qx '9 passed, 0 failed' || die "two lanes: not 9 passed"
[ "$(grep -c ' 0.3$' "$T/started")" = 9 ] || die "the caller's preflight window was not the tests': $(cat "$T/started")"
sed -i 's/ .*//' "$T/started"
tail -n 2 "$T/started" | grep -qx h_build || die "two lanes started the heavy test before the last two"
[ "$(head -n 2 "$T/started" | sort | tr '\n' ' ')" = "y_long z_long " ] ||
	die "two lanes started $(head -n 2 "$T/started" | tr '\n' ' ')first, not the two costliest"
exit 0
