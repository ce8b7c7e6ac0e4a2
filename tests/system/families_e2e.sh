#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every family of tests end to end, one row each in the table below (families_lib.inc says the
# steps): two short runs stored, then show, compare, every export format (one run and the
# pair), the HTML report of the one against the other, and the console's replay at 80x24 in
# the default theme and in mono, whose live view on the run screen and results view are
# checked against goldens (tests/golden/family_*.txt, UPDATE_GOLDEN=1 rewrites them;
# E2E_ONLY=NAME runs one row). A new family is one new row, and its four goldens.
# requires: tmux python3 make cc
# cost: 100
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"

S="$T/scratch"
mkdir -p "$S"
short="--samples 2 --pause 0 -c 1 --no-telemetry"
# One row per family, fields split by '|':
#   name | kbench arguments of a run (each is run twice, as NAME-a and NAME-b)
#   | the replay's speed (slow enough to see the live view: at least 4 s of it, so a loaded
#     machine's captures still find it)
#   | how golden_mask.py masks its live view and its results (live results; thermal thermal)
#   | a line `kbench show` prints for it (grep -E) | a row `kbench compare` prints (grep -E)
#   | what the HTML report holds for it (grep -E) | the replay's live view (grep -E on the screen)
#   | the replay's results view (grep -E on the screen)
#   | for a family whose live view shows what a stored run does not keep (a build's
#     progress): the console's arguments for a live run of it, and (after a ';') its live
#     view (grep -E); its goldens are family_NAME_console_{live,results}_THEME
# Values must be numbers where the regexes say [0-9]: a value that became n/a fails the row.
FAMILIES="
rate|run syscall --duration 0.5 $short|0.25|live results|^System Call Overhead +[0-9.]+[kMG]? lps|^System Call +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? |System Call Overhead|^ #1 +[0-9]+ +[0-9.]+[kMG]? |^ System Call Overhead +1 +[0-9.]+[kM]? +[0-9.]+[kM]? 
memlat|run memlat --sizes 512:256K:2 --duration 0.5 $short|0.5|live results|^  rnd L1 +16 KiB +[0-9.]+[kMG]? ns|^memlat rnd L1 +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |<h3>Memory latency \(dependent loads\)|^ ▶ ×1 +Memory latency|^ memlat rnd L1 +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? 
latency|run timerlat wakelat interactive --duration 0.5 $short|0.5|live results|^  wake +[0-9]+\+-[0-9]+ |^wakelat wake rps +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |<h3>Scheduler wake-up latency \(futex\)|^ ▶ ×1 +Timer wake-up latency|^ other p50 +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? 
scaling|run scaling --tasks 1,2 --jobs 10 --samples 2 --pause 0 --no-telemetry --tmpdir $S|0.1|live results|^ +2 +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? |^scaling 2 tasks +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |scaling 2 tasks|^ ▶ ×1 +Throughput as tasks grow|^ scaling peak +1 +[0-9.]+[kM]? +[0-9.]+[kM]? 
kbuild|run kbuild --tree 1 --make-jobs 1 --samples 2 --pause 0 --no-telemetry --tmpdir $S|1|live results|^  -j1 +[0-9.]+[kMG]? \([0-9.]+\) +[0-9.]+[kMG]? |^kbuild -j1 +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |kbuild -j1|^ ▶ ×1 +Build time|^ kbuild -j1 +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? |kbuild --tree tiny --make-jobs 1 --samples 1 --pause 0 --copies 1 --no-telemetry --tmpdir $S;^ objects +[0-9]+ of 9 
buildload|run buildload --tree 1 --loads no_load,process_load --samples 1 --pause 0 --no-telemetry --tmpdir $S|1|live results|^NAME-a +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9]+\.[0-9]+$|^process_load +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |<h2 id=\"buildload\">Build under load|^ ▶ ×1 +Build under load|^ process_load +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? |buildload --tree 1 --loads no_load,process_load --samples 1 --pause 0 --copies 1 --no-telemetry --tmpdir $S;^ process_load: [0-9.,kM]+ laps/s
thermal|thermal --minutes 0.05 --idle 0 --duration 1 -c 1|1|thermal thermal|^Thermal check: dhry2reg, 1 copy, 0:0[0-9] of load in [0-9]+ samples|^sustained % +[0-9.]+ +-- +[0-9.]+ |<h2>Thermal check of the compared run|^ dhry2reg ×1 sample [0-9]+ of [0-9]+ · |^ dhry2reg ×1 done · 
"

. "$KBENCH_TOP/tests/system/families_lib.inc"

# memlat's plateau rows follow the caches sysfs gives: its row runs on a fake cache tree
# (lib.inc's fake_caches), so its L1 row is at half of that L1 on any machine
fake_caches "$T/caches"

echo "$FAMILIES" | while IFS= read -r row; do
	fam=${row%%|*}
	[ -n "$fam" ] || continue
	[ -n "${E2E_ONLY:-}" ] && [ "$E2E_ONLY" != "$fam" ] && continue
	if [ "$fam" = memlat ]; then export KBENCH_SYSFS_ROOT="$T/caches"; else unset KBENCH_SYSFS_ROOT; fi
	e2e_family "$KBENCH" "$row" || exit 1
done || exit 1
echo ok
