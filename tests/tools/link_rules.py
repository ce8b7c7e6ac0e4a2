#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks the parts table's floors at link time: no part uses a symbol another part defines
unless it may include that part.

    python3 tests/tools/link_rules.py BUILD TOP

BUILD is a build directory (its objects, BUILD/src/PART/NAME.o and BUILD/ui/NAME.o, as the
Makefile leaves them), TOP the source tree with docs/HACKING.md's parts table (read as
include_rules.py reads it). An include rule holds the headers; a call or a data reference up
a floor can still be made through an extern a lower file writes itself, or a declaration a
lower header makes of a symbol a higher part defines: nm sees both. Each object is its source
file's part; every undefined symbol it uses that an object of another part defines must be of
a part its row may include. Exit 0 when all holds, 1 with one line per symbol that crosses a
floor the wrong way.
"""
import fnmatch
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from include_rules import read_parts  # noqa: E402
from mutual_calls import objects, symbols  # noqa: E402


def part_of(parts, path):
    """The part whose longest pattern matches the source file, as include_rules.py decides."""
    hits = sorted((len(p), name) for name, pats, _ in parts for p in pats if fnmatch.fnmatchcase(path, p))
    return hits[-1][1] if hits else None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: link_rules.py BUILD TOP")
    build, top = sys.argv[1], sys.argv[2]
    parts = read_parts(os.path.join(top, "docs", "HACKING.md"))
    may = {name: m | {name} for name, _, m in parts}
    found = {obj: src for obj, (_, src) in objects(build, top).items() if part_of(parts, src)}
    syms = symbols(sorted(found)) if found else {}
    owner = {}
    for obj, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, found[obj])
    problems, uses = [], 0
    for obj, (_, used) in sorted(syms.items(), key=lambda kv: found[kv[0]]):
        src = found[obj]
        a = part_of(parts, src)
        for s in sorted(used):
            if s not in owner:
                continue  # a library's
            b = part_of(parts, owner[s])
            if b == a:
                continue
            uses += 1
            if b not in may[a]:
                problems.append(f"{src} uses {s} of {owner[s]}: {a} may not use {b}")
    print("\n".join(problems + [f"{len(found)} objects, {uses} uses between parts: {len(problems)} up a floor"]))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
