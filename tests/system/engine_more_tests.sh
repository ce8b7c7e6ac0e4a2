# SPDX-License-Identifier: GPL-2.0-or-later
# The non-index tests older reports quote: file write/read, C compiler, shell64. Short headless runs:
# their report lines, `---` for no baseline, the index of the copies alone, the compiler kept, no leftovers.
# requires: gcc
# cost: 14
. "$KBENCH_TOP/tests/system/lib.inc"
mkdir -p "$T/scratch"

# No scratch file and no process of the run may remain (their cwd is in the scratch directory).
clean() {
	[ -z "$(ls -A "$T/scratch")" ] || die "$1: scratch left behind: $(ls -AR "$T/scratch" | head)"
	for p in /proc/[0-9]*; do
		case "$(readlink "$p/cwd" 2>/dev/null)" in "$T/scratch"*) die "$1: process ${p#/proc/} left running" ;; esac
	done
}

"$KBENCH" run -q -c 1 --samples 1 --duration 0.3 --pause 0 --tmpdir "$T/scratch" --name more fs C \
	>"$T/report" 2>"$T/err" || { rc=$?; cat "$T/err" "$T/report"; die "run exited $rc"; }
clean "fs C"

# A result line each, with a positive score.
for title in "File Write 1024 bufsize 2000 maxblocks" "File Read 1024 bufsize 2000 maxblocks" \
	"File Write 256 bufsize 500 maxblocks" "File Read 256 bufsize 500 maxblocks" \
	"File Write 4096 bufsize 8000 maxblocks" "File Read 4096 bufsize 8000 maxblocks" \
	"File Copy 1024 bufsize 2000 maxblocks" "C Compiler Throughput (gcc)"; do
	grep -Eq "^$(printf '%s' "$title" | sed 's/[()]/\\&/g') +[1-9][0-9]*\.[0-9] (KBps|lpm) +\([0-9.]+ s, 1 samples\)$" "$T/report" ||
		{ cat "$T/report"; die "no result line for $title"; }
done

# The System table: the six write/read tests with --- for baseline and index, and an index
# score that is the copies' alone (Partial); C under Non-Index with ---.
awk '
/^System Benchmarks Partial Index/ { sys = 1; next }
/^Non-Index Benchmarks/ { sys = 0; misc = 1; next }
sys && /^File (Write|Read) / { if ($(NF-2) == "---" && $NF == "---") dashes++; else print "not ---: " $0 }
sys && /^File Copy / { n++; lo += log($NF - 0.05); hi += log($NF + 0.05) }
sys && /^System Benchmarks Index Score \(Partial Only\)/ { score = $NF; sys = 0 }
misc && /^C Compiler Throughput \(gcc\) +--- +[0-9.]+ +---$/ { c = 1 }
END {
	if (dashes != 6) { print "write/read rows with ---: " dashes; exit 1 }
	if (n != 3) { print "copy rows: " n; exit 1 }
	# each printed index is its true value rounded to 0.1, and so is the score: on a slow
	# machine (indexes near 20) that rounding alone moves the mean by more than 0.1%
	l = exp(lo / n) - 0.05; h = exp(hi / n) + 0.05
	if (score < l || score > h) { print "index " score " outside the copies alone: " l " .. " h; exit 1 }
	if (!c) { print "no C row with ---"; exit 1 }
}' "$T/report" || { cat "$T/report"; die "the index tables are wrong"; }
grep -q '^System Benchmarks Index Values' "$T/report" && die "a partial index called full"

# The stored run says which compiler ran.
"$KBENCH" export more --format json >"$T/json" || die "export failed"
grep -Eq '"key": *"compiler"' "$T/json" || die "no compiler in the test summary"
grep -Eq '"text": *"gcc[^"]* at /[^"]*"' "$T/json" || die "the compiler summary lacks version and path: $(grep -A2 compiler "$T/json")"

# compare at 80 columns: the short labels.
"$KBENCH" compare --width 80 more more >"$T/cmp" 2>&1 || { cat "$T/cmp"; die "compare failed"; }
for l in "File Write 1024" "File Read 256" "File Write 4096" "C Compiler"; do
	grep -q "^$l " "$T/cmp" || { cat "$T/cmp"; die "compare lacks '$l'"; }
done
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$T/cmp" || die "compare is wider than 80"

# 64 scripts per copy, two copies: whole loops finish and count (a sample shorter than a
# loop measures that loop; a failed one would leave the score at 1.0, the geometric mean
# of nothing), and nothing is left.
"$KBENCH" run -q -c 2 --samples 1 --duration 0.5 --pause 0 --tmpdir "$T/scratch" --no-save shell64 \
	>"$T/report" 2>"$T/err" || { rc=$?; cat "$T/err" "$T/report"; die "shell64 exited $rc"; }
awk '/^Shell Scripts \(64 concurrent\) .* lpm / { if ($5 > 1.5) ok = 1 } END { exit !ok }' "$T/report" ||
	{ cat "$T/report"; die "shell64 finished no loop"; }
grep -Eq '^Shell Scripts \(64 concurrent\) +--- +[0-9.]+ +---$' "$T/report" || die "no shell64 row with ---"
clean shell64

# No compiler: the test fails with one sentence, the run says so and exits 1.
PATH=/nonexistent "$KBENCH" run -q -c 1 --samples 1 --duration 0.3 --pause 0 --tmpdir "$T/scratch" --no-save C \
	>"$T/report" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err" "$T/report"; die "without gcc the run exited $rc"; }
grep -q '^Failed: C Compiler Throughput (gcc) (.*gcc is not installed (no gcc in PATH): .*)$' "$T/report" ||
	{ cat "$T/report"; die "no clear failure"; }
clean "no gcc"

# No make (a package installed without its Recommends): the build test says so the same way.
PATH=/nonexistent "$KBENCH" run -q -c 1 --samples 1 --pause 0 --tmpdir "$T/scratch" --no-save kbuild \
	>"$T/report" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err" "$T/report"; die "without make the build test's run exited $rc"; }
grep -q '^Failed: Build time .*: make is not installed (no make in PATH): .*)$' "$T/report" ||
	{ cat "$T/report"; die "no clear failure without make"; }
clean "no make"
echo ok
