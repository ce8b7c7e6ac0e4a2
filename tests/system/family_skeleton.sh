#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The skeleton family (src/families/skeleton/, the recipe of docs/HACKING.md "Adding a
# family" on the defaults) end to end as every family is (families_lib.inc): `make test` builds
# kbench-skeleton, kbench with it listed, and this takes it through run, store, show,
# compare, every export, the HTML report and the console's replay against its goldens
# (tests/golden/family_skeleton_*.txt). A change to the family interface that the recipe
# no longer fits fails here, at the build or at a step.
# requires: tmux python3
# cost: 16
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/ui_lib.inc"
. "$KBENCH_TOP/tests/system/families_lib.inc"

SKEL="$(dirname "$KBENCH")/kbench-skeleton"
[ -x "$SKEL" ] || die "no $SKEL: make test builds it (make $(basename "$(dirname "$KBENCH")")/kbench-skeleton)"
S="$T/scratch"
mkdir -p "$S"
short="--samples 2 --pause 0 -c 1 --no-telemetry"

# listed in kbench-skeleton, not in kbench
expect_exit 0 "$SKEL" list
grep -q '^skeleton ' "$T/out" || { cat "$T/out"; die "kbench-skeleton does not list the skeleton test"; }
expect_exit 0 "$KBENCH" list
grep -q '^skeleton ' "$T/out" && die "kbench lists the skeleton test"

# its row as families_e2e.sh's table has them: every verb is a default, so the show is the
# headline points' table, compare its headline row, the report its curve
e2e_family "$SKEL" "skeleton|run skeleton --duration 0.5 $short|0.25|live results|^  ns +256 calls +[0-9.]+[kMG]? ns |^skeleton ns +[0-9.]+[kMG]? +-- +[0-9.]+[kMG]? |<h3>Skeleton: getppid\(\) per call, 1 copy: ns against calls</h3>|^ ▶ ×1 +Skeleton|^ skeleton ns +1 +[0-9.]+[kMG]? +[0-9.]+[kMG]? |"
# the defaults' own marks: its curve points counted under the table, its headline a row of the HTML table
expect_exit 0 "$SKEL" compare skeleton-a skeleton-b
grep -Eq '^Curve points \(not in the table; --csv lists each\): 5, ' "$T/out" || { cat "$T/out"; die "the comparison does not count the curve's 5 points"; }
grep -q '<td>skeleton ns</td>' "$T/skeleton.html" || die "the report has no row of the headline point"
echo ok
