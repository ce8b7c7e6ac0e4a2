#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks every #include "..." of src/ and ui/ against the parts table in docs/HACKING.md's Layout section.

    python3 tests/tools/include_rules.py [TOP]

The table (between `<!-- parts: begin` and `<!-- parts: end -->`) names each part, the files
it holds (shell patterns, so moving a part into its own folder is one edit of its row) and the
parts it may include. Its rows are floors, the lowest first: a part may include only parts of
the rows above its own, so no include runs up a floor and no two parts lean on each other (a
row naming a part below it in the table is a violation). Every source file must belong to a
part (the longest pattern matching its path decides); an include of a file of a part not in
the includer's row is a violation, and so is an include of a private header (NAME_int.h,
NAME_priv.h) from another folder: a part reached from outside offers a header named as what
it is (html.h, compare_plugin.h, import_scan.h). A module is a .c and its .h (same path
without the extension); an include cycle between modules is printed as the chain of modules.
Exit 0 when all holds, 1 with one line per problem.
"""
import fnmatch
import os
import re
import sys

TOP = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
# The Makefile's -Isrc, -Isrc/PART for each part's folder, and -Iui, after the includer's own folder.
INCLUDE_DIRS = ["src"] + sorted(
    os.path.join("src", d) for d in (os.listdir(os.path.join(TOP, "src")) if os.path.isdir(os.path.join(TOP, "src")) else [])
    if os.path.isdir(os.path.join(TOP, "src", d))) + ["ui"]


def read_parts(readme):
    """The table's rows: [(part, [patterns], {parts it may include})] in order."""
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"<!-- parts: begin.*?-->\n(.*?)<!-- parts: end -->", text, re.S)
    if not m:
        sys.exit(f"{readme}: no '<!-- parts: begin' ... '<!-- parts: end -->' table")
    parts = []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("Part", "") or set(cells[0]) <= set("-: "):
            continue
        name = cells[0].strip("*` ")
        pats = re.findall(r"`([^`]+)`", cells[2])
        may = {w.strip() for w in re.split(r"[,\s]+", cells[3]) if w.strip() not in ("", "-", "—")}
        parts.append((name, pats, may))
    if not parts:
        sys.exit(f"{readme}: the parts table has no rows")
    names = {p[0] for p in parts}
    for name, _, may in parts:
        for other in may - names:
            sys.exit(f"{readme}: part '{name}' may include '{other}', which is no part")
    return parts


def floor_problems(parts):
    """A part whose row names itself or a part of a later row (a higher floor)."""
    floor = {name: i for i, (name, _, _) in enumerate(parts)}
    out = []
    for name, _, may in parts:
        for other in sorted(may, key=lambda o: floor[o]):
            if floor[other] >= floor[name]:
                out.append(f"part '{name}' may include '{other}', which is not on a floor below it "
                           f"(rows {floor[name] + 1} and {floor[other] + 1} of the table)")
    return out


def module(path):
    """A .c and its .h are one module; NAME_int.h and NAME_priv.h are NAME's private header."""
    return re.sub(r"_(int|priv)$", "", os.path.splitext(path)[0])


def sources(top):
    out = []
    for d in ("src", "ui"):
        for root, _, files in os.walk(os.path.join(top, d)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(root, f), top))
    return sorted(out)


def resolve(top, includer, name):
    """The file "name" means in includer, as the compiler finds it, or None (a generated or
    system file)."""
    for d in [os.path.dirname(includer)] + INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(top, p)):
            return p
    return None


def find_cycle(graph, scc):
    """One shortest cycle through the smallest module of a strongly connected set."""
    start = min(scc)
    prev = {start: None}
    queue = [start]
    while queue:
        nxt = []
        for u in queue:
            for v in sorted(graph[u]):
                if v not in scc:
                    continue
                if v == start:
                    path = [u]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, u, start]
                if v not in prev:
                    prev[v] = u
                    nxt.append(v)
        queue = nxt
    return [start]


def sccs(graph):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            u, it = work[-1]
            for v in it:
                if v not in index:
                    index[v] = low[v] = counter[0]
                    counter[0] += 1
                    stack.append(v)
                    on.add(v)
                    work.append((v, iter(sorted(graph[v]))))
                    break
                if v in on:
                    low[u] = min(low[u], index[v])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[u])
                if low[u] == index[u]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == u:
                            break
                    out.append(comp)
    return out


def main():
    parts = read_parts(os.path.join(TOP, "docs", "HACKING.md"))
    problems = floor_problems(parts)
    part_of = {}
    for f in sources(TOP):
        # the longest pattern that matches decides: `src/workloads/memlat.c` beats `src/workloads/*`
        hits = sorted((len(p), name) for name, pats, _ in parts for p in pats if fnmatch.fnmatchcase(f, p))
        if not hits:
            problems.append(f"{f}: in no part of docs/HACKING.md's table")
            continue
        if len(hits) > 1 and hits[-1][0] == hits[-2][0] and hits[-1][1] != hits[-2][1]:
            problems.append(f"{f}: in two parts of docs/HACKING.md's table ({hits[-2][1]}, {hits[-1][1]})")
            continue
        part_of[f] = hits[-1][1]
    may = {name: m | {name} for name, _, m in parts}

    graph = {}
    for f in sources(TOP):
        mod = module(f)
        graph.setdefault(mod, set())
        for n, line in enumerate(open(os.path.join(TOP, f), encoding="utf-8", errors="replace"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = resolve(TOP, f, m.group(1))
            if target is None:
                continue
            tmod = module(target)
            if tmod != mod:
                graph[mod].add(tmod)
                graph.setdefault(tmod, set())
            a, b = part_of.get(f), part_of.get(target)
            if a and b and b not in may[a]:
                problems.append(f"{f}:{n}: includes {target}: {a} may not include {b}")
            if re.search(r"_(int|priv)\.h$", target) and os.path.dirname(target) != os.path.dirname(f):
                problems.append(f"{f}:{n}: includes {target}, private to {os.path.dirname(target)}/ "
                                "(another folder uses the API its module declares for it)")

    for comp in sccs(graph):
        if len(comp) > 1:
            cycle = find_cycle(graph, comp)
            problems.append("include cycle: " + " -> ".join(cycle) +
                            (f" (all {len(comp)} modules of its knot: {' '.join(sorted(comp))})"
                             if len(comp) > len(cycle) - 1 else ""))

    for p in problems:
        print(p)
    print(f"{len(part_of)} files in {len(parts)} parts (floors), {sum(len(v) for v in graph.values())} "
          f"includes between modules: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
