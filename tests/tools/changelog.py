#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks CHANGELOG.md is what a user reads: Keep a Changelog's shape, one line per change.

    changelog.py [CHANGELOG.md]     exit 1, one line per problem, when any fails

- versions: `## [Unreleased]` first (when there is one), then `## [X.Y.Z] - YYYY-MM-DD`, newest
  first, each once;
- groups: `### Added`, `Changed`, `Deprecated`, `Removed`, `Fixed` or `Security`, each at most
  once per version, and no entry outside one;
- entries: `- ` then the change, one line, two at most (the second indented two spaces), no line
  over 100 columns: what changed for a user, not how it was found or measured (that goes in the
  commit);
- a version's prose before its groups: at most three lines.
"""
import re
import sys

GROUPS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
WIDTH = 100


def check(path):
    problems = []
    lines = open(path, encoding="utf-8").read().split("\n")
    versions, version, group, groups_seen = [], None, None, set()
    entry_start, entry_len, prose = 0, 0, 0

    def end_entry():
        if entry_len > 2:
            problems.append("%s:%d: an entry of %d lines: say what changed for a user in one line "
                            "(two at most); how it was found or measured goes in the commit"
                            % (path, entry_start, entry_len))

    for n, line in enumerate(lines, 1):
        if len(line) > WIDTH:
            problems.append("%s:%d: %d columns, more than %d" % (path, n, len(line), WIDTH))
        if line.startswith("## "):
            end_entry()
            entry_len = 0
            m = re.match(r"^## \[(Unreleased|\d+\.\d+\.\d+)\](?: - (\d{4}-\d\d-\d\d))?$", line)
            if not m or (m.group(1) != "Unreleased") != bool(m.group(2)):
                problems.append("%s:%d: a version is '## [Unreleased]' or '## [X.Y.Z] - YYYY-MM-DD', "
                                "not '%s'" % (path, n, line))
                continue
            version, group, groups_seen, prose = m.group(1), None, set(), 0
            if version in [v for v, _ in versions]:
                problems.append("%s:%d: [%s] twice" % (path, n, version))
            if version == "Unreleased" and versions:
                problems.append("%s:%d: [Unreleased] comes first" % (path, n))
            versions.append((version, m.group(2)))
        elif line.startswith("### "):
            end_entry()
            entry_len = 0
            group = line[4:].strip()
            if version is None:
                problems.append("%s:%d: a group before any version" % (path, n))
            if group not in GROUPS:
                problems.append("%s:%d: '%s' is not one of Keep a Changelog's groups (%s)"
                                % (path, n, group, ", ".join(GROUPS)))
            if group in groups_seen:
                problems.append("%s:%d: ### %s twice in [%s]" % (path, n, group, version))
            groups_seen.add(group)
        elif line.startswith("- "):
            end_entry()
            entry_start, entry_len = n, 1
            if group is None:
                problems.append("%s:%d: an entry outside a group (### Added, Changed, Fixed, ...)" % (path, n))
        elif line.startswith("  ") and entry_len:
            entry_len += 1
        elif line.strip() == "":
            end_entry()
            entry_len = 0
        elif version is not None:
            end_entry()
            entry_len = 0
            if group is not None:
                problems.append("%s:%d: text in a group that is not an entry ('- ...')" % (path, n))
            else:
                prose += 1
                if prose == 4:
                    problems.append("%s:%d: more than three lines of prose before [%s]'s groups"
                                    % (path, n, version))
    end_entry()
    released = [(v, d) for v, d in versions if v != "Unreleased"]
    key = lambda v: tuple(int(x) for x in v[0].split("."))
    if released != sorted(released, key=key, reverse=True):
        problems.append("%s: the versions are not newest first" % path)
    if not versions:
        problems.append("%s: no version" % path)
    return problems


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "CHANGELOG.md"
    problems = check(path)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
