#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""README.md's table of contents, made from its ## and ### headings.

readme_toc.py README.md          prints the table
readme_toc.py README.md --check  exit 1 (saying where) when the table in the file differs
readme_toc.py README.md --write  rewrites the table between its two markers
"""
import re
import sys

BEGIN, END = "<!-- toc: begin -->", "<!-- toc: end -->"


def anchor(title, seen):
    # GitHub's rule: lower case, drop what is not a letter, digit, space, hyphen or
    # underscore, spaces to hyphens; a repeated anchor gets -1, -2, ...
    a = re.sub(r"[^\w\- ]", "", title.lower().replace("`", "")).replace(" ", "-")
    n = seen.get(a, 0)
    seen[a] = n + 1
    return a if n == 0 else "%s-%d" % (a, n)


def toc(text):
    seen, lines, fence = {}, [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^(##|###) (.+)$", line)
        if not m:
            continue
        title = m.group(2).strip()
        indent = "" if m.group(1) == "##" else "  "
        lines.append("%s- [%s](#%s)" % (indent, title, anchor(title, seen)))
    return "\n".join(lines)


def main():
    path, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    text = open(path, encoding="utf-8").read()
    want = toc(text)
    if mode == "":
        print(want)
        return 0
    if BEGIN not in text or END not in text:
        print("%s: no table of contents between %s and %s" % (path, BEGIN, END))
        return 1
    head, rest = text.split(BEGIN, 1)
    have, tail = rest.split(END, 1)
    if mode == "--check":
        if have.strip("\n") != want:
            print("%s: the table of contents differs from the headings; "
                  "run: python3 tests/tools/readme_toc.py README.md --write" % path)
            return 1
        return 0
    open(path, "w", encoding="utf-8").write(head + BEGIN + "\n" + want + "\n" + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
