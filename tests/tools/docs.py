#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks README.md and the guide (docs/*.md) against the binary and against themselves.

    docs.py [--top DIR] [--kbench PATH]          exit 1, one line per problem, when any fails
    docs.py [--top DIR] [--kbench PATH] --write  remakes the tables of contents and option tables

What it checks, on README.md and every docs/*.md:
- length: README at most 300 lines, a docs page at most 400 (a page is read on its own);
- tables of contents: between `<!-- toc: begin -->` and `<!-- toc: end -->`, the page's ## and
  ### headings after the table, as links to GitHub's anchors;
- option tables: between `<!-- options: begin (kbench help --markdown ARGS) -->` and
  `<!-- options: end -->`, exactly what that command prints (needs --kbench);
- links: every relative link and image resolves to a file, and its #anchor to a heading there;
- figures of the development machine: no "this VM", "measured here" and the like, and a
  paragraph naming "a 2-CPU VM" or "the development machine" carries a date (YYYY-MM-DD), so
  that no figure reads as if it were the user's.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

TOC_BEGIN, TOC_END = "<!-- toc: begin -->", "<!-- toc: end -->"
OPT_BEGIN = re.compile(r"^<!-- options: begin \(kbench help --markdown([^)]*)\) -->$", re.M)
OPT_END = "<!-- options: end -->"
LIMITS = {"README.md": 300}
PAGE_LIMIT = 400

# Phrases that report the development machine's figures as the reader's own.
FORBIDDEN = [
    r"\bthis (?:\d-v?CPU |loaded |quiet |shared )?VM\b",
    r"\bthis host\b",
    r"\b(?:measured|took|ran|read|came|gave|learned|seen|moved) here\b",
    r"\bhere \(\d",
    r"(?<![\w.])\d[^.()\n]{0,60}\bhere\b",  # "in six runs here", "2 GiB here"
]
# Naming a machine of the development kind: then the paragraph says when.
NEEDS_DATE = re.compile(r"\b(?:a|one|the same) (?:\d-v?CPU )(?:[A-Z][\w ]* )?VM\b|\bdevelopment (?:VM|machine)\b")
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def anchor(title, seen):
    """GitHub's rule: lower case, drop what is not a letter, digit, space, hyphen or
    underscore, spaces to hyphens; a repeated anchor gets -1, -2, ..."""
    a = re.sub(r"[^\w\- ]", "", title.lower().replace("`", "")).replace(" ", "-")
    n = seen.get(a, 0)
    seen[a] = n + 1
    return a if n == 0 else "%s-%d" % (a, n)


def code_lines(text):
    """The line numbers (1-based) of indented code blocks: 4 spaces after a blank line (or
    after another code line), outside lists' continuation lines and fences."""
    lines = text.split("\n")
    code, fence, in_code, prev_blank, in_list = set(), False, False, True, False
    for i, line in enumerate(lines, 1):
        if line.startswith("```"):
            fence = not fence
            code.add(i)
            continue
        if fence:
            code.add(i)
            continue
        blank = line.strip() == ""
        if re.match(r"^\s*([-*]|\d+\.) ", line):
            in_list = True
        elif not blank and not line.startswith(" "):
            in_list = False
        if line.startswith("    ") and (in_code or (prev_blank and not in_list)):
            in_code = True
            code.add(i)
        elif not blank:
            in_code = False
        prev_blank = blank
    return code


def headings(text):
    code = code_lines(text)
    out = []
    for i, line in enumerate(text.split("\n"), 1):
        if i in code:
            continue
        m = re.match(r"^(#{1,6}) (.+?)\s*$", line)
        if m:
            out.append((len(m.group(1)), m.group(2), i))
    return out


def anchors(text):
    seen = {}
    return {anchor(t, seen) for _, t, _ in headings(text)}


def toc(text):
    """The table for the headings after the table's end marker (## and ###)."""
    start = text.index(TOC_END) if TOC_END in text else 0
    line0 = text[:start].count("\n") + 1
    seen, lines = {}, []
    for level, title, i in headings(text):
        a = anchor(title, seen)
        if i < line0 or level not in (2, 3):
            continue
        lines.append("%s- [%s](#%s)" % ("  " * (level - 2), title, a))
    return "\n".join(lines)


def strip_inline_code(line):
    return re.sub(r"`+[^`]*`+", "", line)


def links(text):
    """(line, target) of every Markdown link and image in prose."""
    code = code_lines(text)
    out = []
    for i, line in enumerate(text.split("\n"), 1):
        if i in code:
            continue
        for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", strip_inline_code(line)):
            out.append((i, m.group(1)))
    return out


def paragraphs(text):
    """(first line, text) of each prose paragraph (code blocks and tables left out)."""
    code = code_lines(text)
    out, cur, first = [], [], 0
    for i, line in enumerate(text.split("\n"), 1):
        if i in code or line.strip() == "" or line.startswith("|") or line.startswith("<!--"):
            if cur:
                out.append((first, " ".join(cur)))
            cur = []
            continue
        if not cur:
            first = i
        cur.append(line)
    if cur:
        out.append((first, " ".join(cur)))
    return out


def run_kbench(kbench, args):
    r = subprocess.run([kbench, "help", "--markdown"] + args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return r.stdout.rstrip("\n"), None


def check_file(top, rel, kbench, write, problems):
    path = os.path.join(top, rel)
    text = open(path, encoding="utf-8").read()
    new = text
    name = os.path.basename(rel)
    limit = LIMITS.get(rel, PAGE_LIMIT)
    n = text.count("\n")
    if n > limit:
        problems.append("%s: %d lines, more than %d: split it or say less" % (rel, n, limit))

    if (TOC_BEGIN in new) != (TOC_END in new):
        problems.append("%s: a table of contents needs both %s and %s" % (rel, TOC_BEGIN, TOC_END))
    elif TOC_BEGIN in new:
        head, rest = new.split(TOC_BEGIN, 1)
        have, tail = rest.split(TOC_END, 1)
        want = toc(new)
        if have.strip("\n") != want:
            if write:
                new = head + TOC_BEGIN + "\n" + want + "\n" + TOC_END + tail
            else:
                problems.append("%s: the table of contents differs from the headings "
                                "(python3 tests/tools/docs.py --write)" % rel)

    pos = 0
    while True:
        m = OPT_BEGIN.search(new, pos)
        if not m:
            break
        end = new.find(OPT_END, m.end())
        if end < 0:
            problems.append("%s:%d: an options table without %s" % (rel, new[:m.start()].count("\n") + 1, OPT_END))
            break
        args = m.group(1).split()
        if kbench:
            want, err = run_kbench(kbench, args)
            have = new[m.end():end].strip("\n")
            if err:
                problems.append("%s: kbench help --markdown %s failed: %s" % (rel, " ".join(args), err))
            elif have != want:
                if write:
                    new = new[:m.end()] + "\n" + want + "\n" + new[end:]
                    end = m.end() + len(want) + 2
                else:
                    problems.append("%s: the options table differs from 'kbench help --markdown %s' "
                                    "(python3 tests/tools/docs.py --write)" % (rel, " ".join(args)))
        pos = end + len(OPT_END)

    for line, target in links(new):
        if re.match(r"^[a-z]+:", target):
            continue  # http:, https:, mailto:
        file_part, _, frag = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if not os.path.exists(dest):
            problems.append("%s:%d: the link %s leads nowhere" % (rel, line, target))
            continue
        if frag and dest.endswith(".md"):
            if frag not in anchors(open(dest, encoding="utf-8").read()):
                problems.append("%s:%d: the link %s: no heading makes #%s there" % (rel, line, target, frag))

    for line, para in paragraphs(new):
        prose = strip_inline_code(para)
        for pat in FORBIDDEN:
            m = re.search(pat, prose)
            if m:
                problems.append("%s:%d: '%s' reports the development machine as if it were the "
                                "reader's: name the machine and the date" % (rel, line, m.group(0)))
        m = NEEDS_DATE.search(prose)
        if m and not DATE.search(prose):
            problems.append("%s:%d: '%s' without a date: a figure that illustrates says its machine "
                            "and date" % (rel, line, m.group(0)))

    if write and new != text:
        open(path, "w", encoding="utf-8").write(new)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--kbench", default=None, help="the binary whose option tables the pages hold")
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    top = os.path.normpath(a.top)
    files = ["README.md"] + sorted(os.path.relpath(p, top) for p in glob.glob(os.path.join(top, "docs", "*.md")))
    problems = []
    for rel in files:
        check_file(top, rel, a.kbench, a.write, problems)
    if a.write:
        problems = []
        for rel in files:
            check_file(top, rel, a.kbench, False, problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
