#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Dumps every command's output on one fixed store into a directory, so a refactor can be
# checked byte for byte: run it with the old binary and the new one on the same store and
# diff the two directories (nothing may differ). Every command is here: help (each command's,
# markdown, man, completion), list, runs and its filters, show, compare in every form, every
# export format, the HTML reports, and the error line of every bad family setting.
#
#   sh tests/tools/refactor_corpus.sh KBENCH STORE OUT
#
# STORE is made on the first call (two short runs of every family, named FAMILY-a and
# FAMILY-b as tests/system/families_e2e.sh makes them, two quick runs, quick-a and quick-b,
# plus the imports of the fixtures);
# later calls reuse it, so both binaries read the same runs. OUT is emptied and refilled.
# A version string that names a commit is replaced by VERSION in every file.
set -u
KBENCH=${1:?usage: refactor_corpus.sh KBENCH STORE OUT}
STORE=${2:?usage: refactor_corpus.sh KBENCH STORE OUT}
OUT=${3:?usage: refactor_corpus.sh KBENCH STORE OUT}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export KBENCH_HOME="$STORE/home"
export XDG_DATA_HOME="$STORE/xdg"
export COLUMNS=80
export KBENCH_DATADIR="${KBENCH_DATADIR:-$TOP/data}"
S="$STORE/scratch"
short="--samples 2 --pause 0 -c 1 --no-telemetry"
FAMILIES="
rate|run syscall --duration 0.5 $short
memlat|run memlat --sizes 512:256K:2 --duration 0.5 $short
latency|run timerlat wakelat interactive --duration 0.5 $short
scaling|run scaling --tasks 1,2 --jobs 10 --samples 2 --pause 0 --no-telemetry --tmpdir $S
kbuild|run kbuild --tree 1 --make-jobs 1 --samples 2 --pause 0 --no-telemetry --tmpdir $S
buildload|run buildload --tree 1 --loads no_load,process_load --samples 1 --pause 0 --no-telemetry --tmpdir $S
thermal|thermal --minutes 0.05 --idle 0 --duration 1 -c 1
quick|run syscall pipe --quick --max-test-seconds 2 --precision 20 --pause 0 -c 1 --no-telemetry
"
IMPORTS="contest-2.6.txt contest-old.txt kcbench-0.9.log kernbench-0.50.log ub5-2copies.log ub6-1copy.log
paste-2blocks.txt table.md run-1.1.json"

if [ ! -d "$STORE/home" ]; then
	mkdir -p "$S" "$STORE/home"
	echo "$FAMILIES" | while IFS='|' read -r fam args; do
		[ -n "$fam" ] || continue
		for side in a b; do
			# shellcheck disable=SC2086 # the row's arguments are words
			KBENCH_BUILDLOAD_LEAD=0.2 "$KBENCH" $args -q --name "$fam-$side" >/dev/null 2>&1 ||
				{ echo "the run $fam-$side failed" >&2; exit 1; }
		done
	done || exit 1
	for f in $IMPORTS; do
		"$KBENCH" import "$TOP/tests/fixtures/$f" --name "imp-${f%%.*}" >/dev/null 2>&1 ||
			{ echo "import $f failed" >&2; exit 1; }
	done
fi

rm -rf "$OUT"
mkdir -p "$OUT"
# The commands read a copy of the store: reading may write (the index, the noise floors'
# cache), and the next dump, with the other binary, must start from the same files.
WORK=$(mktemp -d /tmp/kbench-corpus.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cp -a "$STORE/home/." "$WORK/"
export KBENCH_HOME="$WORK"
n=0
# dump NAME CMD...: CMD's stdout, stderr and exit status into OUT/NAME
dump() {
	name=$1; shift
	"$@" >"$OUT/$name" 2>&1
	echo "exit $?" >>"$OUT/$name"
	n=$((n + 1))
}
names="$(echo "$FAMILIES" | cut -d'|' -f1 | tr '\n' ' ')"
# the export formats, as the binary's rows list them (the choices its completion offers for
# --format): every one of a run and of a pair (a format of one run only says so, exit 2)
formats=$("$KBENCH" completion bash | sed -n "/^	export:--format|/{n;s/.*-W '\([^']*\)'.*/\1/p;}")
[ -n "$formats" ] || { echo "no export formats listed" >&2; exit 1; }
imps=""
for f in $IMPORTS; do case $f in contest*) ;; *) imps="$imps imp-${f%%.*}" ;; esac; done
dump runs "$KBENCH" runs
dump runs-size "$KBENCH" runs --size
for m in full quick thermal imported; do
	dump "runs-mode-$m" "$KBENCH" runs --mode "$m"
done
dump list "$KBENCH" list
dump noise "$KBENCH" noise
dump man "$KBENCH" help --man
dump help "$KBENCH" --help
dump help-markdown "$KBENCH" help --markdown
dump completion "$KBENCH" completion bash
# every command's help, both ways of asking for it
for c in $("$KBENCH" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }'); do
	dump "help-$c" "$KBENCH" "$c" --help
	dump "helpcmd-$c" "$KBENCH" help "$c"
done
# every family setting's bad values, and the pairs that do not go together: one error line each
i=0
while IFS='|' read -r args; do
	[ -n "$args" ] || continue
	i=$((i + 1))
	# shellcheck disable=SC2086 # the row's arguments are words
	dump "bad-$i" "$KBENCH" run --no-save $args
done <<'ROWS'
timerlat --period-us 10
timerlat --period-us x
timerlat --period-us 100001
timerlat --fifo maybe
wakelat --messages 0
wakelat --workers 0
wakelat --work-us -1
wakelat --work-us 100001
interactive --ia-tasks x
interactive --ia-tasks audio,audio
interactive --ia-loads burn,
memlat --sizes 1:2:3:4
memlat --sizes 1M:1K
memlat --huge=1
scaling --tasks 0
scaling --tasks 4,2
scaling --max-tasks 0
scaling --jobs 0
kbuild --tree huge
kbuild --make-jobs 0
kbuild --make-jobs x
kbuild --source /nonexistent
kbuild --config x
kbuild --config tinyconfig
kbuild --tree tiny --source /
buildload --loads x
buildload --hog 0
buildload --hog 96
syscall --samples 0
syscall --duration 0
ROWS
for fam in $names; do
	for side in a b; do
		r="$fam-$side"
		dump "show.$r" "$KBENCH" show "$r"
		for fmt in $formats; do
			dump "export.$r.$fmt" "$KBENCH" export "$r" --format $fmt
		done
		"$KBENCH" report "$r" -o "$OUT/report.$r.html" >/dev/null 2>&1
	done
	dump "compare.$fam" "$KBENCH" compare "$fam-a" "$fam-b"
	dump "compare.$fam.w120" "$KBENCH" compare "$fam-a" "$fam-b" --width 120
	dump "compare.$fam.json" "$KBENCH" compare "$fam-a" "$fam-b" --json
	dump "compare.$fam.csv" "$KBENCH" compare "$fam-a" "$fam-b" --csv
	dump "compare.$fam.self" "$KBENCH" compare "$fam-a" "$fam-a"
	for fmt in $formats; do
		dump "export.$fam.pair.$fmt" "$KBENCH" export "$fam-a" "$fam-b" --format $fmt
	done
	"$KBENCH" report "$fam-a" --vs "$fam-b" -o "$OUT/report.$fam.vs.html" >/dev/null 2>&1
	# groups of runs on a side (their spread between runs, not within one)
	dump "compare.$fam.group" "$KBENCH" compare "$fam-a,$fam-b" "$fam-b"
	dump "compare.$fam.group.json" "$KBENCH" compare "$fam-a,$fam-b" "$fam-a,$fam-b" --json
done
# every family against another (a compare of runs with different tests)
prev=""
for fam in $names; do
	[ -n "$prev" ] && dump "compare.$prev-$fam" "$KBENCH" compare "$prev-a" "$fam-a"
	prev=$fam
done
for r in $imps; do
	dump "show.$r" "$KBENCH" show "$r"
	for fmt in $formats; do
		dump "export.$r.$fmt" "$KBENCH" export "$r" --format $fmt
	done
	"$KBENCH" report "$r" -o "$OUT/report.$r.html" >/dev/null 2>&1
done
# contest's posts name a run per kernel: those runs by their ids
contest=$("$KBENCH" runs | awk '/imp-contest/ { print $1 }' | sort)
for r in $contest; do
	dump "show.contest.$r" "$KBENCH" show "$r"
	dump "export.contest.$r.markdown" "$KBENCH" export "$r" --format markdown
	"$KBENCH" report "$r" -o "$OUT/report.contest.$r.html" >/dev/null 2>&1
done
# shellcheck disable=SC2046,SC2086 # the two ids are two words
dump compare.contest "$KBENCH" compare $(echo $contest | cut -d" " -f1,2)
dump compare.contest2 "$KBENCH" compare $(echo $contest | cut -d" " -f3,4)
dump compare.imp-kc-kern "$KBENCH" compare imp-kcbench-0 imp-kernbench-0
dump compare.imp-ub "$KBENCH" compare imp-ub5-2copies imp-ub6-1copy
"$KBENCH" report "$(echo "$contest" | head -1)" --vs buildload-a -o "$OUT/report.contest.vs.html" >/dev/null 2>&1
# a version names its commit (0.2.0+g919c296, -dirty): the same output from two commits
# differs only there, in what the binary says of itself and what the store's runs recorded;
# the store's copy is named STORE
for f in "$OUT"/*; do
	sed -E -i -e 's/[0-9]+\.[0-9]+\.[0-9]+\+g[0-9a-f]+(-dirty)?/VERSION/g' -e "s|$WORK|STORE|g" "$f"
done
echo "$n outputs and $(ls "$OUT" | grep -c html) HTML reports in $OUT"
