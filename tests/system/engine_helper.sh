# SPDX-License-Identifier: GPL-2.0-or-later
# The fork and exec tests (and the looper tests) run in kbench-exec, found beside kbench, under an installed prefix, or not at all (a clear failure).
# requires: pgrep make
. "$KBENCH_TOP/tests/system/lib.inc"

# During a spawn sample the worker is kbench-exec (its loop runs there, not in kbench).
"$KBENCH" run -q --no-save -c 1 --samples 1 --duration 3 --pause 0 spawn >"$T/out" 2>"$T/err" &
pid=$!
seen=""
for i in $(seq 1 60); do
	[ -n "$(own_pgrep "kbench-exec spawn [0-9]+ 0$")" ] && { seen=1; break; }
	sleep 0.05
done
wait $pid || { cat "$T/err"; die "spawn run failed"; }
[ -n "$seen" ] || die "no kbench-exec spawn process during the spawn sample"
grep -q '^Process Creation  .* lps ' "$T/out" || die "no spawn score: $(cat "$T/out")"

# The grep loop (and the shell and C compiler loops) fork from kbench-exec too,
# as UnixBench's from its small looper: a grep found first in PATH writes down
# its parent's command line, then runs the real grep.
realgrep=$(command -v grep)
mkdir -p "$T/bin"
printf '#!/bin/sh\ntr "\\0" " " </proc/$PPID/cmdline >>"%s/parents"; echo >>"%s/parents"\nexec %s "$@"\n' \
	"$T" "$T" "$realgrep" >"$T/bin/grep"
chmod +x "$T/bin/grep"
PATH="$T/bin:$PATH" "$KBENCH" run -q --no-save -c 1 --samples 1 --duration 0.5 --pause 0 grep \
	>"$T/out" 2>"$T/err" || { cat "$T/err"; die "grep run failed"; }
grep -q '^Grep a large file .* lpm ' "$T/out" || die "no grep score: $(cat "$T/out")"
[ -s "$T/parents" ] || die "the grep loop did not run the grep found in PATH"
bad=$(grep -v "kbench-exec looper [0-9]* 0 grep " "$T/parents" | head -n 1)
[ -z "$bad" ] || die "a grep loop ran from '$bad', not from kbench-exec looper"

# execl's chain and sysexec's loop: positive scores, nothing left running.
"$KBENCH" run -q --no-save -c 2 --samples 1 --duration 0.5 --pause 0 execl sysexec >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; die "execl/sysexec run failed"; }
awk '/^(Execl Throughput|Exec System Call Overhead) / && $(NF-5) + 0 > 0 { n++ } END { exit n != 2 }' "$T/out" ||
	die "execl and sysexec lack positive scores: $(cat "$T/out")"
sleep 0.2
[ -n "$(own_pgrep kbench-exec)" ] && die "a kbench-exec process was left running"

# No helper: each such test fails with one sentence saying what to do; the others still run.
KBENCH_HELPER=/nonexistent/kbench-exec "$KBENCH" run --no-save -c 1 --samples 1 --duration 0.3 --pause 0 \
	execl pipe >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || die "a missing helper exited $rc, wanted 1"
grep -q '^Failed: Execl Throughput .*kbench-exec.*was not found.*set KBENCH_HELPER' "$T/out" ||
	die "no clear failure for a missing helper: $(cat "$T/out")"
grep -q '^Pipe Throughput  .* lps ' "$T/out" || die "the pipe test did not run beside the failed one"

# Installed: PREFIX/bin/kbench finds PREFIX/libexec/kbench/kbench-exec and PREFIX/share/kbench.
san=; [ "${BUILD:-build}" = build-san ] && san=1
make -s -C "$KBENCH_TOP" install DESTDIR="$T/inst" PREFIX=/usr BUILD="${BUILD:-build}" SAN="$san" \
	>"$T/make.out" 2>&1 || { cat "$T/make.out"; die "make install failed"; }
[ -x "$T/inst/usr/libexec/kbench/kbench-exec" ] || die "make install did not install kbench-exec"
"$T/inst/usr/bin/kbench" run -q --no-save -c 1 --samples 1 --duration 0.3 --pause 0 spawn shell1 \
	>"$T/out" 2>"$T/err" || { cat "$T/err" "$T/out"; die "the installed kbench could not run spawn and shell1"; }
grep -q '^Process Creation  .* lps ' "$T/out" || die "installed: no spawn score: $(cat "$T/out")"
# and the guide's pages in PREFIX/share/kbench/docs, which kbench help TOPIC prints
"$T/inst/usr/bin/kbench" help comparing >"$T/out" 2>"$T/err" || { cat "$T/err"; die "installed: no kbench help comparing"; }
cmp -s "$T/out" "$KBENCH_TOP/docs/comparing.md" || die "installed: kbench help comparing is not docs/comparing.md"
echo ok
