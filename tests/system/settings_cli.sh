# SPDX-License-Identifier: GPL-2.0-or-later
# Settings that do not go together are refused with one line and exit 2 by both faces,
# before anything runs: --quick decides the samples itself, so --samples and -i beside it
# (which it silently ignored) are refused in kbench run, calibrate and console alike.
. "$KBENCH_TOP/tests/system/lib.inc"

for cmd in run calibrate console; do
	for count in "--samples 2" "-i 3"; do
		# shellcheck disable=SC2086 # the count is two words
		expect_exit 2 "$KBENCH" $cmd --quick $count syscall </dev/null
		[ "$(wc -l <"$T/err")" -eq 1 ] || die "$cmd --quick $count: not one line: $(cat "$T/err")"
		grep -qE '^kbench: --(samples|iterations) does not go with --quick: --quick shares its samples out itself$' "$T/err" ||
			die "$cmd --quick $count: $(cat "$T/err")"
		[ ! -s "$T/out" ] || die "$cmd --quick $count printed on stdout: $(cat "$T/out")"
	done
done
# each alone is taken (a short run; nothing stored)
expect_exit 0 "$KBENCH" run --quick --max-test-seconds 1 --pause 0 -c 1 --no-save -q --no-telemetry syscall
expect_exit 0 "$KBENCH" run --samples 1 --duration 0.1 --pause 0 -c 1 --no-save -q --no-telemetry syscall
