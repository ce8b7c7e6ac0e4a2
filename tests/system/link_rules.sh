#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/HACKING.md's floors hold at link time too: no part's objects use a symbol (a call, a
# list) that a part above it defines, even through an extern or a declaration a lower header
# makes; read from the built objects by tests/tools/link_rules.py.
# requires: python3 cc
. "$KBENCH_TOP/tests/system/lib.inc"
BUILD=$(dirname "$KBENCH")
# the checker itself: a call up a floor through an extern, and a list read up a floor, are named
mkdir -p "$T/top/src/base" "$T/top/src/top" "$T/top/docs" "$T/top/build/src/base" "$T/top/build/src/top"
printf '<!-- parts: begin -->\n| Part | What | Files | May include |\n|-|-|-|-|\n' >"$T/top/docs/HACKING.md"
printf '| base | b | `src/base/*` | — |\n| top | t | `src/top/*` | base |\n<!-- parts: end -->\n' >>"$T/top/docs/HACKING.md"
printf 'extern int top_f(void);\nextern const int top_list[];\nint base_f(void) { return top_f() + top_list[0]; }\n' >"$T/top/src/base/a.c"
printf 'extern int base_f(void);\nconst int top_list[] = { 1 };\nint top_f(void) { return 1; }\nint top_g(void) { return base_f(); }\n' >"$T/top/src/top/b.c"
cc -c -o "$T/top/build/src/base/a.o" "$T/top/src/base/a.c" || die "cc a.c"
cc -c -o "$T/top/build/src/top/b.o" "$T/top/src/top/b.c" || die "cc b.c"
python3 "$KBENCH_TOP/tests/tools/link_rules.py" "$T/top/build" "$T/top" >"$T/out" 2>&1 &&
	{ cat "$T/out"; die "a call up a floor passed"; }
grep -qx 'src/base/a.c uses top_f of src/top/b.c: base may not use top' "$T/out" || { cat "$T/out"; die "the call up was not named"; }
grep -qx 'src/base/a.c uses top_list of src/top/b.c: base may not use top' "$T/out" || { cat "$T/out"; die "the list read up was not named"; }
grep -q 'top_g\|base_f' "$T/out" && { cat "$T/out"; die "a use down a floor was refused"; }
grep -qx '2 objects, 3 uses between parts: 2 up a floor' "$T/out" || { cat "$T/out"; die "the uses were not counted"; }
# the tree itself, as built
[ -d "$BUILD/src" ] || die "no objects in $BUILD/src: make builds them"
python3 "$KBENCH_TOP/tests/tools/link_rules.py" "$BUILD" "$KBENCH_TOP" >"$T/out" 2>&1 || { cat "$T/out"; die "link rules"; }
grep -q '^[1-9][0-9]* objects, [1-9][0-9]* uses between parts: 0 up a floor' "$T/out" || { cat "$T/out"; die "link_rules.py counted no uses"; }
echo ok
