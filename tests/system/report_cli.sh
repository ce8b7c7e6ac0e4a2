#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kbench report from the command line, without a browser: a run alone and against another, the
# file whole and script-free with every machine or user string escaped and no path of $HOME,
# and bad input (no such run, no -o, a path that cannot be written, extra operands) as one
# line with exit 1 or 2, leaving an existing report as it was.
. "$KBENCH_TOP/tests/system/lib.inc"
export HOME="$T/home"
mkdir -p "$HOME/scratch"
for name in base new; do
	"$KBENCH" run -q --samples 2 --duration 0.2 --pause 0 -c 1 --tmpdir "$HOME/scratch" --name $name syscall \
		>"$T/$name.out" 2>&1 || { cat "$T/$name.out"; die "could not store the run $name"; }
done
# a name with markup and a kernel string with a path of $HOME, as an imported file could bring
new=$(grep -l '"name": *"new"' "$KBENCH_HOME"/*.json) || die "the run 'new' was not stored"
sed -i 's|"name": *"new"|"name": "<script>alert(1)</script>\&\\"'"'"'"|; s|"kernel_version": *"[^"]*"|"kernel_version": "#1 built in '"$HOME"'/src/linux"|' "$new"
id=$(basename "$new" .json)

expect_exit 0 "$KBENCH" report "$id" --vs base -o "$T/r.html"
grep -qx "wrote $T/r.html" "$T/out" || die "report does not say what it wrote: $(cat "$T/out")"
f="$T/r.html"
head -c 15 "$f" | grep -q '<!DOCTYPE html>' || die "not an HTML document"
tail -c 8 "$f" | grep -q '</html>' || die "the document is not whole"
grep -q '<script' "$f" && die "a <script> in the report"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;' "$f" || die "the run's name is not escaped"
grep -qF "$HOME" "$f" && die "the report shows \$HOME: $(grep -oF "$HOME" "$f" | head -1)"
grep -qF '#1 built in ~/src/linux' "$f" || die "the kernel string is not there with ~ for \$HOME"
grep -qF 'class="cmp"' "$f" || die "no comparison table"
grep -qF 'System Call Overhead' "$f" || die "the test is not in the report"
[ "$(wc -c <"$f")" -lt 307200 ] || die "over 300 KB"

expect_exit 0 "$KBENCH" report base -o "$T/alone.html"
grep -qF 'class="cmp"' "$T/alone.html" && die "the run alone has a comparison table"
grep -qF 'UnixBench report of this run' "$T/alone.html" || die "no UnixBench text report"

# an imported UnixBench log (no samples, no telemetry) against a group of two runs
expect_exit 0 "$KBENCH" import --name published "$KBENCH_TOP/tests/fixtures/ub6-1copy.log"
expect_exit 0 "$KBENCH" report published --vs base,"$id" -o "$T/imported.html"
grep -qF 'No telemetry in this run' "$T/imported.html" || die "an imported run's report does not say it has no telemetry"
grep -qF '(2 runs)' "$T/imported.html" || die "the group of two runs is not named as such"
grep -qF '(2 runs) (2 runs)' "$T/imported.html" && die "the group's size is said twice"
grep -qF 'Execl Throughput' "$T/imported.html" || die "the imported tests are not in the report"
grep -q '<script' "$T/imported.html" && die "a <script> in the imported run's report"

# bad input: one line, exit 1 (a run or a file) or 2 (usage); the report already there stays
cp "$f" "$T/before"
bad() {
	want=$1; shift
	expect_exit "$want" "$KBENCH" "$@"
	[ "$(wc -l <"$T/err")" = 1 ] || die "'$*' said more than one line: $(cat "$T/err")"
	grep -q '^kbench: ' "$T/err" || die "'$*': $(cat "$T/err")"
}
bad 1 report nosuchrun -o "$f"
bad 1 report "$id" --vs nosuchrun -o "$f"
bad 2 report "$id"
bad 2 report -o "$f"
bad 2 report "$id" base -o "$f"
bad 2 report "$id" --bogus -o "$f"
bad 1 report "$id" -o "$T/no/such/dir/r.html"
bad 1 report "$id" -o "$T"
grep -q 'cannot write' "$T/err" || die "a directory as -o: $(cat "$T/err")"
cmp -s "$f" "$T/before" || die "a failed report changed the one already written"
ls -A "$T" | grep -q '^\.r\.html' && die "a temporary file was left behind"
exit 0
