#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks that two files of one folder that use each other share a declared seam.

    python3 tests/tools/mutual_calls.py BUILD TOP

BUILD is a build directory (its objects, BUILD/src/PART/NAME.o and BUILD/ui/NAME.o, as the
Makefile leaves them), TOP the source tree. For every pair of files of one folder where each
uses a symbol the other defines (nm: a function or an object), every symbol crossing either
way must be declared in a header that both files read (their includes and theirs): the seam they share (a module's
own header, a folder's _int.h). A file cut in two for the line limit whose halves call each
other through nothing but ad hoc externs is what this refuses: merge the halves back, or
give them the header they share. Exit 0 when every pair has its seam, 1 with one line per
symbol that crosses outside one.
"""
import collections
import os
import re
import subprocess
import sys


def symbols(objs):
    """{object: (defined, used)}, the external symbol names of each object file, read by one
    nm for them all (one per object is most of the time on a busy machine)."""
    out = subprocess.run(["nm", "-g", "-A"] + objs, capture_output=True, text=True, check=True).stdout
    syms = {o: (set(), set()) for o in objs}
    for line in out.splitlines():
        cut = line.find(".o:") + 2  # nm -A: "OBJECT:VALUE TYPE NAME", or "OBJECT:   U NAME"
        obj, f = line[:cut], line[cut + 1:].split()
        if obj not in syms:
            continue
        if len(f) == 3 and f[1] in "TDBRCGS":
            syms[obj][0].add(f[2])
        elif len(f) == 2 and f[0] == "U":
            syms[obj][1].add(f[1])
    return syms


def includes(path):
    """The quoted includes of a source file, as written."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return set()
    return set(re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M))


def find_header(top, folder, header):
    """The header's path as the Makefile's -I finds it: beside the includer, else under src/,
    src/PART/ or ui/; None when it is not in the tree (a system header)."""
    dirs = [folder, "src", "ui"]
    if os.path.isdir(os.path.join(top, "src")):
        dirs += sorted(os.path.join("src", d) for d in os.listdir(os.path.join(top, "src")))
    for d in dirs:
        p = os.path.join(d, header)
        if os.path.isfile(os.path.join(top, p)):
            return os.path.normpath(p)
    return None


def seen_headers(top, src):
    """The tree's headers a source file reads, its includes' includes too."""
    seen, todo = set(), [src]
    while todo:
        f = todo.pop()
        for h in includes(os.path.join(top, f)):
            p = find_header(top, os.path.dirname(f), h)
            if p and p not in seen:
                seen.add(p)
                todo.append(p)
    return seen


def declares(top, header, sym):
    """Whether the header names the symbol outside its comments."""
    text = re.sub(r"/\*.*?\*/", "", open(os.path.join(top, header), encoding="utf-8", errors="replace").read(), flags=re.S)
    return re.search(r"\b" + re.escape(sym) + r"\b", text) is not None


def objects(build, top):
    """{object: (its folder, its source)}: BUILD's objects of src/ and ui/ whose source is in TOP."""
    found = {}
    for root, _, files in os.walk(build):
        rel = os.path.relpath(root, build)
        if not (rel == "ui" or rel.startswith("src" + os.sep)):
            continue
        for f in files:
            src = os.path.join(rel, f[:-2] + ".c")
            if f.endswith(".o") and os.path.isfile(os.path.join(top, src)):
                found[os.path.join(root, f)] = (rel, src)
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: mutual_calls.py BUILD TOP")
    build, top = sys.argv[1], sys.argv[2]
    found = objects(build, top)
    by_folder = collections.defaultdict(dict)
    if found:
        for obj, syms in symbols(sorted(found)).items():
            rel, src = found[obj]
            by_folder[rel][src] = syms
    problems, pairs = [], 0
    for folder, objs in sorted(by_folder.items()):
        names = sorted(objs)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                ab = objs[a][1] & objs[b][0]  # what a uses of b
                ba = objs[b][1] & objs[a][0]
                if not ab or not ba:
                    continue
                pairs += 1
                shared = seen_headers(top, a) & seen_headers(top, b)
                for user, owner, syms in ((a, b, ab), (b, a, ba)):
                    for s in sorted(syms):
                        if not any(declares(top, h, s) for h in shared):
                            problems.append(f"{user} uses {s} of {owner}, and {owner} uses {user}: "
                                            f"no header both include declares it")
    for p in problems:
        print(p)
    print(f"{pairs} pairs of files that use each other, {len(problems)} symbols outside a shared header")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
