#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two files of one folder that use each other share a declared seam (a header both read that
# declares what crosses), read from the built objects by tests/tools/mutual_calls.py: a file
# cut in two whose halves call each other through ad hoc externs fails here.
# requires: python3 cc
. "$KBENCH_TOP/tests/system/lib.inc"
BUILD=$(dirname "$KBENCH")
# the checker itself: halves that reach each other through externs are named, symbol by symbol
mkdir -p "$T/top/src/x" "$T/top/build/src/x"
printf 'extern int b_f(void);\nint a_f(void) { return b_f(); }\n' >"$T/top/src/x/a.c"
printf 'extern int a_f(void);\nint b_f(void) { return 1; }\nint b_g(void) { return a_f(); }\n' >"$T/top/src/x/b.c"
for f in a b; do
	cc -c -o "$T/top/build/src/x/$f.o" "$T/top/src/x/$f.c" || die "cc $f.c"
done
python3 "$KBENCH_TOP/tests/tools/mutual_calls.py" "$T/top/build" "$T/top" >"$T/out" 2>&1 &&
	{ cat "$T/out"; die "two files calling each other through externs passed"; }
grep -qx 'src/x/a.c uses b_f of src/x/b.c, and src/x/b.c uses src/x/a.c: no header both include declares it' "$T/out" ||
	{ cat "$T/out"; die "a's use of b_f was not named"; }
grep -q '^src/x/b.c uses a_f of src/x/a.c' "$T/out" || { cat "$T/out"; die "b's use of a_f was not named"; }
# ... and the same two with the header they share (reached through another header) pass
printf 'int a_f(void);\nint b_f(void);\n' >"$T/top/src/x/x_int.h"
printf '#include "x_int.h"\n' >"$T/top/src/x/x.h"
sed -i 's/^extern.*/#include "x.h"/' "$T/top/src/x/a.c" "$T/top/src/x/b.c"
python3 "$KBENCH_TOP/tests/tools/mutual_calls.py" "$T/top/build" "$T/top" >"$T/out" 2>&1 ||
	{ cat "$T/out"; die "two files sharing a header were refused"; }
grep -qx '1 pairs of files that use each other, 0 symbols outside a shared header' "$T/out" ||
	{ cat "$T/out"; die "the pair was not counted"; }
# the tree itself, as built
[ -d "$BUILD/src" ] || die "no objects in $BUILD/src: make builds them"
python3 "$KBENCH_TOP/tests/tools/mutual_calls.py" "$BUILD" "$KBENCH_TOP" >"$T/out" 2>&1 || { cat "$T/out"; die "mutual calls"; }
grep -q '^[1-9][0-9]* pairs of files that use each other, 0 symbols' "$T/out" || { cat "$T/out"; die "mutual_calls.py counted no pairs"; }
echo ok
