#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Dumps every command's output on a store of runs into a directory, so a refactor can be
# checked byte for byte: run it with the old binary and the new one and diff the directories.
#   sh tests/corpus_dump.sh KBENCH STORE OUT
# KBENCH: the binary; STORE: a KBENCH_HOME holding runs named FAMILY-a and FAMILY-b (copied,
# never written); OUT: the directory to fill (emptied first). Each command's stdout, stderr
# and exit code go to two files; the store's temporary copy and OUT are replaced by words.
# Build both binaries with one version (make VERSION=x): help and reports print it.
set -u
[ $# -eq 3 ] || { echo "usage: $0 KBENCH STORE OUT" >&2; exit 2; }
[ -d "$2" ] || { echo "$0: no store $2" >&2; exit 2; }
K=$(realpath "$1")
STORE=$2
OUT=$3
rm -rf "$OUT"
mkdir -p "$OUT"
HOME_COPY=$(mktemp -d)
trap 'rm -rf "$HOME_COPY"' EXIT
cp -a "$STORE/." "$HOME_COPY/"
export KBENCH_HOME="$HOME_COPY" COLUMNS=80 LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1
n=0

# dump NAME ARGS...: the command's stdout, stderr and exit code into OUT/NAME
dump() {
	name=$1
	shift
	n=$((n + 1))
	(cd "$HOME_COPY" && "$K" "$@" >"$OUT/$name" 2>"$OUT/$name.err")
	echo "exit $?" >>"$OUT/$name.err"
}

dump help --help
for c in $("$K" --help | awk '/^commands:/{f=1;next} f && /^  [a-z]/{print $1}'); do
	dump "help-$c" "$c" --help
	dump "helpcmd-$c" help "$c"
done
dump help-markdown help --markdown
dump help-man help --man
dump completion completion bash
dump list list
dump runs runs
dump runs-size runs --size
for m in full quick thermal imported; do
	dump "runs-mode-$m" runs --mode "$m"
done

fams=$(cd "$HOME_COPY" && "$K" runs | awk '{for (i = 1; i <= NF; i++) if ($i ~ /-a$/) print $i}' |
	sed 's/-a$//' | sort -u)
[ -n "$fams" ] || { echo "$0: no runs named NAME-a in $STORE" >&2; exit 1; }
for f in $fams; do
	dump "show-$f" show "$f-a"
	for o in "" --json --csv; do
		dump "compare-$f$o" compare "$f-a" "$f-b" $o
	done
	for fmt in json csv unixbench markdown text bbcode lava; do
		dump "export-$f-$fmt" export "$f-a" --format $fmt
		dump "export2-$f-$fmt" export "$f-a" "$f-b" --format $fmt
	done
	dump "report-$f" report "$f-a" --vs "$f-b" -o "$OUT/report-$f.html"
	dump "report1-$f" report "$f-a" -o "$OUT/report1-$f.html"
done

# Settings: every family setting's bad values, and the pairs that do not go together.
i=0
while IFS='|' read -r args; do
	[ -n "$args" ] || continue
	i=$((i + 1))
	# shellcheck disable=SC2086 # the row's arguments are words
	dump "bad-$i" run --no-save $args
done <<'EOF'
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
EOF
# what differs between two dumps without a change: the store's copy and the directory
for f in "$OUT"/*; do
	sed -i -e "s|$HOME_COPY|STORE|g" -e "s|$OUT|OUT|g" "$f"
done
echo "$n commands" >&2
