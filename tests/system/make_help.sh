#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make help` lists the targets a user and a contributor use, one line each, from the "##u " and
# "##d " comments beside their rules: every phony target of the Makefile has its line (but the
# ones a person does not call: all, FORCE, fuzzers, help, and format, said with format-check).
# requires: make
. "$KBENCH_TOP/tests/system/lib.inc"
make -s --no-print-directory -C "$KBENCH_TOP" help >"$T/help" 2>"$T/err" || { cat "$T/err"; die "make help failed"; }
head -n 1 "$T/help" | grep -qx 'Using kbench:' || die "make help does not begin with the user's targets: $(head -n 3 "$T/help")"
grep -qx 'Developing kbench (docs/HACKING.md):' "$T/help" || die "make help has no contributor's part"
targets=$(sed -n 's/^\.PHONY: *//p' "$KBENCH_TOP/Makefile" | tr ' ' '\n' | sort -u)
n=0
for t in $targets; do
	case $t in all | FORCE | fuzzers | help | format) continue ;; esac
	grep -Eq "^  make $t( |\$)" "$T/help" || die "make help has no line for 'make $t'"
	n=$((n + 1))
done
[ $n -ge 15 ] || die "only $n phony targets found in the Makefile"
# one line each: no line of the list wraps or runs past 100 columns
awk 'length > 100 { print; bad = 1 } END { exit bad }' "$T/help" || die "make help has lines over 100 columns"
echo "make help: $n targets, one line each"
