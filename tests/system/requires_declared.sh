# SPDX-License-Identifier: GPL-2.0-or-later
# Every system test declares what it needs ("# requires: ...", tests/system/requires.inc), so
# that CI fails on a missing need instead of skipping quietly: a test that runs tmux, unshare,
# python3, taskset, valgrind or chromium without declaring it fails here; and the checks
# themselves answer right for a need that is there, one that is not, and CI's strictness.
# requires: python3
# cost: 13
. "$KBENCH_TOP/tests/system/lib.inc"
cd "$KBENCH_TOP/tests/system" || die "no tests/system"

# The lint: commands a test runs, against the needs it declares (or its .inc files declare
# on its behalf: ui_lib.inc needs tmux and python3, thermal_lib.inc unshare, ...).
for t in *.sh; do
	decl=" $(requires_of "$t") "
	for inc in $(grep '^\. ' "$t" | grep -o '[a-z_]*_lib\.inc' | sort -u); do
		case $inc in
		ui_lib.inc | families_lib.inc) want="tmux python3" ;;
		thermal_lib.inc) want="unshare" ;;
		valgrind_lib.inc) want="valgrind" ;;
		reliability_lib.inc) want="pgrep" ;;
		*) want="" ;;
		esac
		for w in $want; do
			case $decl in *" $w "*) ;; *) die "$t sources $inc but does not declare '$w'" ;; esac
		done
	done
	# Commands run by the test itself (not in a comment; this file only names them).
	[ "$t" = requires_declared.sh ] && continue
	for w in tmux unshare python3 taskset valgrind chromium; do
		grep -v '^[[:space:]]*#' "$t" | grep -qE "(^|[^a-z_-])$w( |\$|\))" || continue
		case $decl in *" $w "*) ;; *) die "$t runs $w but does not declare it: add '# requires: $w'" ;; esac
	done
done

# The checks: a need that is there, one that is not, and where the declaration is read.
printf '#!/bin/sh\n# a test\n# requires: sh no-such-command-kbench\n: body\n# requires: not-this-one\n' >"$T/t.sh"
[ "$(requires_of "$T/t.sh")" = "sh no-such-command-kbench" ] || die "requires_of read '$(requires_of "$T/t.sh")'"
[ "$(requires_missing "$T/t.sh")" = "no-such-command-kbench" ] || die "a missing command was not named"
printf '# requires: sh\n: body\n' >"$T/ok.sh"
[ -z "$(requires_missing "$T/ok.sh")" ] || die "sh was taken for missing"
need_ok py:no_such_module_kbench && die "a missing python module was found"
need_ok py:json || die "python's json module was taken for missing"
CI=true requires_strict || die "CI=true is not strict"
(unset CI KBENCH_REQUIRE_ALL; requires_strict) && die "strict outside CI"

# The runner: a missing need is a skip by hand and a failure in CI, named in either case.
mkdir -p "$T/top/tests/system" "$T/top/tests/tools"
cp "$KBENCH_TOP/tests/tools/run.sh" "$T/top/tests/tools/"
cp "$KBENCH_TOP/tests/system/requires.inc" "$KBENCH_TOP/tests/system/lib.inc" "$T/top/tests/system/"
cp "$T/t.sh" "$T/top/tests/system/needy.sh"
(unset CI KBENCH_REQUIRE_ALL TESTS; BUILD=none sh "$T/top/tests/tools/run.sh") >"$T/hand.out" 2>&1
grep -q '^skip needy: needs no-such-command-kbench' "$T/hand.out" || { cat "$T/hand.out"; die "by hand, a missing need is not a named skip"; }
grep -q '^0 passed, 0 failed, 1 skipped$' "$T/hand.out" || { cat "$T/hand.out"; die "by hand: the tally"; }
CI=true TESTS= BUILD=none sh "$T/top/tests/tools/run.sh" >"$T/ci.out" 2>&1 && { cat "$T/ci.out"; die "in CI a missing need passed"; }
grep -q '^FAIL needy' "$T/ci.out" && grep -q 'needs no-such-command-kbench' "$T/ci.out" ||
	{ cat "$T/ci.out"; die "in CI a missing need is not a named failure"; }
echo "every system test declares its needs; a missing one skips by hand and fails in CI"
