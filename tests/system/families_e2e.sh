#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every family of tests end to end, one row each in the table below: two short runs stored,
# then show, compare, every export format (one run and the pair), the HTML report of the one
# against the other, and the console's replay at 80x24 in the default theme and in mono,
# whose live view on the run screen and results view are checked against goldens
# (tests/golden/family_*.txt, UPDATE_GOLDEN=1 rewrites them; E2E_ONLY=NAME runs one row).
# A new family is one new row, and its four goldens.
# requires: tmux python3 make cc
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

S="$T/scratch"
mkdir -p "$S"
short="--samples 2 --pause 0 -c 1 --no-telemetry"
# One row per family, fields split by '|':
#   name | kbench arguments of a run (each is run twice, as NAME-a and NAME-b)
#   | the replay's speed (slow enough to see the live view: at least 2 s of it)
#   | how golden_mask.py masks its live view and its results (live results; thermal thermal)
#   | a line `kbench show` prints for it (grep -E) | a row `kbench compare` prints (grep -E)
#   | what the HTML report holds for it (grep -E) | the replay's live view (grep -E on the screen)
#   | the replay's results view (grep -E on the screen)
#   | for a family whose live view shows what a stored run does not keep (a build's
#     progress): the console's arguments for a live run of it, and (after a ';') its live
#     view (grep -E); its goldens are family_NAME_console_{live,results}_THEME
# Values must be numbers where the regexes say [0-9]: a value that became n/a fails the row.
FAMILIES="
rate|run syscall --duration 0.5 $short|0.5|live results|^System Call Overhead +[0-9.]+[kMG]? lps|^System Call +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? |System Call Overhead|^ #1 +[0-9]+ +[0-9.]+[kMG]? |^ System Call Overhead +1 +[0-9.]+[kM]? +[0-9.]+[kM]? 
memlat|run memlat --sizes 512:256K:2 --duration 0.5 $short|0.5|live results|^  rnd L1 +16 KiB +[0-9.]+[kMG]? ns|^memlat rnd L1 +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |<h3>Memory latency \(dependent loads\)|^ ▶ ×1 +Memory latency|^ memlat rnd L1 +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? 
latency|run timerlat wakelat interactive --duration 0.5 $short|1|live results|^  wake +[0-9]+\+-[0-9]+ |^wakelat wake rps +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |<h3>Scheduler wake-up latency \(futex\)|^ ▶ ×1 +Timer wake-up latency|^ other p50 +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? 
scaling|run scaling --tasks 1,2 --jobs 10 --samples 2 --pause 0 --no-telemetry --tmpdir $S|0.1|live results|^ +2 +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? |^scaling 2 tasks +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |scaling 2 tasks|^ ▶ ×1 +Throughput as tasks grow|^ scaling peak +1 +[0-9.]+[kM]? +[0-9.]+[kM]? 
kbuild|run kbuild --tree 1 --make-jobs 1 --samples 2 --pause 0 --no-telemetry --tmpdir $S|1|live results|^  -j1 +[0-9.]+[kMG]? \([0-9.]+\) +[0-9.]+[kMG]? |^kbuild -j1 +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |kbuild -j1|^ ▶ ×1 +Build time|^ kbuild -j1 +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? |kbuild --tree tiny --make-jobs 1 --samples 1 --pause 0 --copies 1 --no-telemetry --tmpdir $S;^ objects +[0-9]+ of 9 
buildload|run buildload --tree 1 --loads no_load,process_load --samples 1 --pause 0 --no-telemetry --tmpdir $S|1|live results|^NAME-a +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9]+\.[0-9]+$|^process_load +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |<h2 id=\"buildload\">Build under load|^ ▶ ×1 +Build under load|^ process_load +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? |buildload --tree 1 --loads no_load,process_load --samples 1 --pause 0 --copies 1 --no-telemetry --tmpdir $S;^ process_load: [0-9.,kM]+ laps/s
thermal|thermal --minutes 0.05 --idle 0 --duration 1 -c 1|1|thermal thermal|^Thermal check: dhry2reg, 1 copy, 0:0[0-9] of load in [0-9]+ samples|^sustained % +[0-9.]+ +-- +[0-9.]+ |<h2>Thermal check of the compared run|^ dhry2reg ×1 sample [0-9]+ of [0-9]+ · |^ dhry2reg ×1 done · 
"

# check WHAT FILE REGEX: FILE has a line matching REGEX, else the test fails showing FILE
check() {
	grep -Eq -- "$3" "$2" || { cat "$2"; die "$1: no line matching '$3'"; }
}

echo "$FAMILIES" | while IFS='|' read -r fam args speed masks show cmp html live results console; do
	[ -n "$fam" ] || continue
	[ -n "${E2E_ONLY:-}" ] && [ "$E2E_ONLY" != "$fam" ] && continue
	show=$(echo "$show" | sed "s/NAME/$fam/")
	for side in a b; do
		# buildload's loads start 0.2 s into the build instead of 2 s: a short row
		# shellcheck disable=SC2086 # the row's arguments are words
		KBENCH_BUILDLOAD_LEAD=0.2 expect_exit 0 "$KBENCH" $args -q --name "$fam-$side"
		[ -z "$(ls -A "$S")" ] || die "$fam: the run left $(ls -A "$S") in its scratch directory"
	done
	expect_exit 0 "$KBENCH" runs
	check "$fam: runs" "$T/out" " $fam-a "
	expect_exit 0 "$KBENCH" show "$fam-a"
	check "$fam: show" "$T/out" "$show"
	expect_exit 0 "$KBENCH" compare "$fam-a" "$fam-b"
	check "$fam: compare" "$T/out" "$cmp"
	check "$fam: compare" "$T/out" '^[0-9]+ faster, [0-9]+ slower, [0-9]+ no significant change, [0-9]+ n/a$'
	# every format of one run, and every format of the pair (those that write one run only
	# refuse it, naming the ones that take A B); the formats are the binary's rows
	formats=$(export_formats)
	[ -n "$formats" ] || die "no export formats listed"
	for fmt in $formats; do
		expect_exit 0 "$KBENCH" export "$fam-a" --format $fmt -o "$T/$fam.$fmt"
		[ -s "$T/$fam.$fmt" ] || die "$fam: export --format $fmt wrote nothing"
	done
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["blocks"], "no blocks"' \
		"$T/$fam.json" || die "$fam: export json is no run file with its blocks of tests"
	"$KBENCH" import "$T/$fam.json" --name "$fam-again" >"$T/out" 2>&1 || { cat "$T/out"; die "$fam: its own json export does not import"; }
	check "$fam: export unixbench" "$T/$fam.unixbench" "^Benchmark Run: "
	check "$fam: export lava" "$T/$fam.lava" '^lava-test-case .* --result pass --measurement [0-9.]+'
	pairs=0
	for fmt in $formats; do
		"$KBENCH" export "$fam-a" "$fam-b" --format $fmt -o "$T/$fam.pair.$fmt" >"$T/out" 2>&1
		case $? in
		0) [ -s "$T/$fam.pair.$fmt" ] || die "$fam: export A B --format $fmt wrote nothing"
		   pairs=$((pairs + 1)) ;;
		2) grep -q "^kbench: --format $fmt writes one run; A B takes " "$T/out" ||
			   die "$fam: export A B --format $fmt: $(cat "$T/out")"
		   sed 's/.*A B takes //; s/,//g; s/ or / /' "$T/out" | tr ' ' '\n' | grep -qx "$fmt" &&
			   die "$fam: --format $fmt refuses A B but is named as taking it" ;;
		*) die "$fam: export A B --format $fmt: $(cat "$T/out")" ;;
		esac
	done
	[ "$pairs" -gt 0 ] || die "$fam: no export format takes A B"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/$fam.pair.json" ||
		die "$fam: export A B --format json is not JSON"
	expect_exit 0 "$KBENCH" report "$fam-a" --vs "$fam-b" -o "$T/$fam.html"
	check "$fam: report" "$T/$fam.html" "$html"
	check "$fam: report" "$T/$fam.html" '</body></html>$'
	# the replay at 80x24, in both themes: its live view, then its results
	for theme in default mono; do
		ui_start "$KBENCH" replay "$fam-a" --speed "$speed" --compare "$fam-b" --theme $theme
		ui_wait "REPLAY ${speed}x" 10
		ui_wait "$live" 15
		ui_golden "family_${fam}_live_$theme" 10 "${masks% *}"
		ui_wait "$results" 40
		ui_golden "family_${fam}_results_$theme" 5 "${masks#* }"
		ui_keys F10
		ui_exited 10
		[ "$UI_RC" = 0 ] || die "$fam: replay exited $UI_RC"
		ui kill-session -t "$UI_PANE"
	done
	[ -n "$console" ] || continue
	# the console's own run, live: what the replay cannot show
	for theme in default mono; do
		# shellcheck disable=SC2086 # the row's arguments are words
		ui_start KBENCH_BUILDLOAD_LEAD=1.5 "$KBENCH" console ${console%%;*} --theme $theme
		ui_wait 'Setup' 10
		ui_keys r
		ui_wait "${console#*;}" 30
		ui_golden "family_${fam}_console_live_$theme" 10 live
		ui_wait "$results" 60
		ui_golden "family_${fam}_console_results_$theme" 5 results
		ui_keys q
		ui_wait 'not saved|quit' 5
		ui_keys y
		ui_exited 10
		[ "$UI_RC" = 0 ] || die "$fam: the console exited $UI_RC"
		ui kill-session -t "$UI_PANE"
	done
done || exit 1
echo ok
