#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memcheck on the store's paths: imports of published results (a log, a collapsed paste, a
# table), listing, show, every compare and export format, the noise table, and a broken
# file in the store: no definite leak, no read of uninitialised memory.
# requires: valgrind
# cost: 11
. "$KBENCH_TOP/tests/system/lib.inc"
. "$KBENCH_TOP/tests/system/valgrind_lib.inc"
F="$KBENCH_TOP/tests/fixtures"

vg "import a UnixBench log" import "$F/messy.log"
vg "import a collapsed paste" import "$F/collapsed.txt"
vg "import a table" import "$F/table-spaces.txt" --name table
vg_want=1
vg "import a broken file (refused)" import "$F/broken-garbage.txt"
printf '{"format": 1, "meta": {' >"$KBENCH_HOME/deadbeef.json" # a broken run file in the store
vg "runs with a broken file" runs
vg "show" show last
vg "compare" compare last last~1
grep -q 'Dhrystone' "$T/vg.out" || { cat "$T/vg.out"; die "compare printed no table"; }
vg "compare --json" compare --json last last~2
vg "export json" export last --format json
vg "export unixbench" export last --format unixbench
vg "noise" noise
echo ok
