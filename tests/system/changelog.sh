#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CHANGELOG.md is a changelog of user-facing lines (tests/tools/changelog.py): Keep a Changelog's
# versions and groups, one line per change (two at most), no line over 100 columns. The checker
# itself must refuse an entry of three lines, a group it does not know and versions out of order.
# requires: python3
. "$KBENCH_TOP/tests/system/lib.inc"
C="$KBENCH_TOP/tests/tools/changelog.py"
python3 "$C" "$KBENCH_TOP/CHANGELOG.md" >"$T/out" 2>&1 || die "CHANGELOG.md: $(head -10 "$T/out")"

cat >"$T/bad.md" <<'CL'
# Changelog

## [Unreleased]

### Added
- one line: fine
- two lines: fine,
  as long as the second is indented
- three lines are a paragraph about how it was found,
  what was measured on which machine,
  and why: that is the commit's

### Improved
- not a group

## [0.1.0] - 2026-11-01

## [0.2.0] - 2026-12-03
CL
python3 "$C" "$T/bad.md" >"$T/out" 2>&1 && die "the checker passed a bad changelog"
grep -q 'bad.md:9: an entry of 3 lines' "$T/out" || die "a three-line entry passed: $(cat "$T/out")"
grep -q "'Improved' is not one of Keep a Changelog's groups" "$T/out" || die "an unknown group passed: $(cat "$T/out")"
grep -q 'not newest first' "$T/out" || die "versions out of order passed: $(cat "$T/out")"
grep -q 'bad.md:7:' "$T/out" && die "a two-line entry was refused: $(cat "$T/out")"
echo "CHANGELOG.md: $(grep -c '^- ' "$KBENCH_TOP/CHANGELOG.md") entries, each one or two lines"
