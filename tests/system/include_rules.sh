# SPDX-License-Identifier: GPL-2.0-or-later
# Every #include "..." of src/ and ui/ keeps docs/HACKING.md's rule of which part may include
# which (the parts table in its Layout section, whose rows are floors: none may lean on a
# higher one), and no modules include each other in a cycle;
# tests/tools/include_rules.py prints each broken rule and each cycle.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
# the checker itself: a cycle and a broken rule in a copy are found and named
mkdir -p "$T/top/src/record" "$T/top/src/base" "$T/top/src/cli" "$T/top/ui" "$T/top/docs"
sed -n '/<!-- parts: begin/,/<!-- parts: end -->/p' "$KBENCH_TOP/docs/HACKING.md" >"$T/top/docs/HACKING.md"
printf '#include "tests.h"\n' >"$T/top/src/record/run.h"
printf '#include "run.h"\n' >"$T/top/src/record/tests.h"
printf '#include "options.h"\n' >"$T/top/src/base/stats.c"
printf '\n' >"$T/top/src/cli/options.h"
python3 "$KBENCH_TOP/tests/tools/include_rules.py" "$T/top" >"$T/out" 2>&1 && { cat "$T/out"; die "a cycle passed"; }
grep -qx 'include cycle: src/record/run -> src/record/tests -> src/record/run' "$T/out" || { cat "$T/out"; die "the cycle was not printed"; }
grep -q '^src/base/stats.c:1: includes src/cli/options.h: base may not include cli$' "$T/out" ||
	{ cat "$T/out"; die "the broken rule was not printed"; }
# ... and a part that may include one on a higher floor (a later row) is refused
mkdir -p "$T/up/src/base" "$T/up/docs"
printf '<!-- parts: begin -->\n| Part | What | Files | May include |\n|-|-|-|-|\n' >"$T/up/docs/HACKING.md"
printf '| base | b | `src/base/*` | top |\n| top | t | `src/top/*` | base |\n<!-- parts: end -->\n' >>"$T/up/docs/HACKING.md"
python3 "$KBENCH_TOP/tests/tools/include_rules.py" "$T/up" >"$T/out" 2>&1 && { cat "$T/out"; die "an include up a floor passed"; }
grep -q "^part 'base' may include 'top', which is not on a floor below it" "$T/out" ||
	{ cat "$T/out"; die "the floor was not named"; }
# ... and a private header reached from another folder is refused
mkdir -p "$T/priv/src/base" "$T/priv/src/cli" "$T/priv/docs"
printf '<!-- parts: begin -->\n| Part | What | Files | May include |\n|-|-|-|-|\n' >"$T/priv/docs/HACKING.md"
printf '| base | b | `src/base/*` | — |\n| cli | c | `src/cli/*` | base |\n<!-- parts: end -->\n' >>"$T/priv/docs/HACKING.md"
printf '\n' >"$T/priv/src/base/stats_int.h"
printf '#include "stats_int.h"\n' >"$T/priv/src/base/stats.c"
printf '#include "../base/stats_int.h"\n' >"$T/priv/src/cli/cmd.c"
python3 "$KBENCH_TOP/tests/tools/include_rules.py" "$T/priv" >"$T/out" 2>&1 && { cat "$T/out"; die "a private header reached from outside passed"; }
grep -q '^src/cli/cmd.c:1: includes src/base/stats_int.h, private to src/base/' "$T/out" ||
	{ cat "$T/out"; die "the private header's outside include was not named"; }
grep -q '^src/base/stats.c' "$T/out" && { cat "$T/out"; die "its own folder's include was refused"; }
# the tree itself
python3 "$KBENCH_TOP/tests/tools/include_rules.py" "$KBENCH_TOP" >"$T/out" 2>&1 || { cat "$T/out"; die "include rules"; }
grep -q '^[0-9]* files in [0-9]* parts' "$T/out" || { cat "$T/out"; die "include_rules.py printed no summary"; }
