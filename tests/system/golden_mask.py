#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Masks a console screen (tmux capture-pane -p) for its golden in tests/golden/.

Only what differs between runs and machines is masked; every other character
keeps its column, so a label or a column that moves by one differs from the
golden. A volatile field becomes a one-letter placeholder put where the screen
anchors the field, and the blanks around it keep the line's width:

  L  a left-aligned column: the placeholder at the field's first column
  R  a right-aligned column: the placeholder at the field's last column
  F  running text: the field shrinks to the placeholder and the text after it
     follows, up to the next gap of two blanks, which takes up the difference

Placeholders: N a number or time, K the kernel release, I a stored run's id,
D a date, P a path, V a verdict (glyph and word), B the big index digits.
Bars are blanked in place. The title keeps its right-hand part's right edge.

Two screens hold a family's own view, drawn from its measurements:
  live     the run screen with a family's panel (a curve, histograms, bars):
           as run, and every number masked, chart glyphs and cache marks blanked
  thermal  the thermal check's screen: as live, and what this machine has or
           lacks (a chart's reason, a chart heading's range) kept to its label;
           the state in words after "·" is S; below the time axis (the per-CPU
           clocks, throttle, missing, or the verdict's sentences, whose lines
           depend on this machine's sensors) is blanked
Usage: golden_mask.py SCREEN KERNEL STORE_DIR <capture >masked
"""
import os
import re
import sys

screen, kernel, store = sys.argv[1:4]

NUM = r'[-+~]?\d[\d.,:]*[kMGT%]?'
BAR = re.compile('[▏▎▍▌▋▊▉█▀▄]')  # progress and change bars: blanked in place
VERDICT = r'[▲▼≈ ] (?:faster|slower|noise|n/a)'

# The kernel release, also as a column cuts it ("5.15.0-91-generi~").
KERNEL = '|'.join([re.escape(kernel)] +
                  [re.escape(kernel[:i]) + '~' for i in range(len(kernel) - 1, 2, -1)])
ids = sorted(f[:-5] for f in (os.listdir(store) if os.path.isdir(store) else [])
             if re.fullmatch(r'[0-9a-f]+\.json', f))
IDS = '|'.join(map(re.escape, ids)) or r'(?!x)x'

# Per screen: (line selector, field regex with named groups or none, {group: (placeholder, mode)}).
# A rule whose regex has no group masks every match whole, with the placeholder and mode under None.
RULES = {
    'run': [
        # the tests: state, copies, label, bar, sample k/n, live or final score, index
        (r'^ \S ×\d', r'(?<=  )(?P<k>\d+)/\d+', {'k': ('N', 'L')}),
        (r'^ \S ×\d', r'(?<=  )' + NUM + r'(?= |$)', {None: ('N', 'R')}),
        # the sample line: which sample, its elapsed time, the live rate
        (r'^ sample ', r'^ sample (?P<k>\d+)', {'k': ('N', 'F')}),
        (r'^ sample ', r'(?P<t>\d+:\d\d) of ', {'t': ('N', 'F')}),
        (r'^ sample ', r'live (?P<r>~?[\d.,]+|n/a)', {'r': ('N', 'F')}),
        # the workers' counters
        (r'^ #\d+ ', r'(?<= )(?:' + NUM + r'|n/a)(?= |$)', {None: ('N', 'R')}),
    ],
    'results': [
        (r'.', r'^ (?P<label>.+?) +(?P<cp>\d+) +(?P<this>\S+) +(?P<base>\S+) +(?P<change>\S+) +'
               r'(?P<pm>\S+) (?P<verdict>' + VERDICT + r'(?: \([^)]*\))?)',
         dict({g: ('N', 'R') for g in ('this', 'base', 'change', 'pm')}, verdict=('V', 'L'))),
    ],
    'history': [
        (r'^ . [0-9a-f]{8} ', r'\d\d(?:\d\d)?-\d\d(?:-\d\d)? \d\d:\d\d', {None: ('D', 'L')}),
        (r'^ . [0-9a-f]{8} ', r'(?<= )' + NUM + r'(?: ' + NUM + r')*$', {None: ('N', 'L')}),
    ],
}
# live, thermal: any number standing alone, a table's column (R) or in running text (F)
ANY_NUM = [
    (r'.', r'(?<![\w./×])' + NUM + r'(?![\w.])(?=  |$| [-+~\d])', {None: ('N', 'R')}),
    (r'.', r'(?<![\w./×])' + NUM + r'(?![\w.])', {None: ('N', 'F')}),
]
RULES['live'] = RULES['run'] + ANY_NUM
RULES['thermal'] = RULES['run'] + ANY_NUM
# chart glyphs standing alone (a curve's * and +, scaling's **), and cache marks
CHART = re.compile(r'(?<![\w+])[*+]+(?![\w+])|│|\bL[1-3]\b|[\u2580-\u259f]')
GLOBAL = [
    (r'.', r'(?<![\w.-])(?:' + KERNEL + r')(?![\w.-])', {None: ('K', 'L')}),
    (r'.', r'\b(?:' + IDS + r')\b', {None: ('I', 'L')}),
]


def fields(line, rules):
    """The (start, end, placeholder, mode) of every volatile field, not overlapping."""
    out = []
    for sel, rx, groups in rules:
        if not re.search(sel, line):
            continue
        for m in re.finditer(rx, line):
            for g, (ph, mode) in groups.items():
                s, e = m.span(g) if g else m.span()
                if s < 0 or s == e or any(s < e2 and s2 < e for s2, e2, _, _ in out):
                    continue
                out.append((s, e, ph, mode))
    return sorted(out)


def apply(line, edits):
    """Replaces the fields right to left, keeping the columns their modes anchor."""
    for s, e, ph, mode in sorted(edits, reverse=True):
        w = e - s
        ph = ph[:w]
        if mode == 'L':
            line = line[:s] + ph.ljust(w) + line[e:]
        elif mode == 'R':
            line = line[:s] + ph.rjust(w) + line[e:]
        else:
            gap = re.compile(r'  ').search(line, e)
            at = gap.start() if gap else len(line)
            line = line[:s] + ph + line[e:at] + ' ' * (w - len(ph)) + line[at:]
    return line


def title(line):
    """ kbench VERSION │ Screen ... right-hand facts: the facts keep their right edge."""
    m = re.match(r'^( kbench )(\S+)( . .*?)(?:(  +)(.*?))?\s*$', line)
    if not m:
        return line
    left = m.group(1) + 'N' + m.group(3)
    right = m.group(5) or ''
    if not right:
        return left
    end = m.end(5)
    right = re.sub(KERNEL, 'K', right)
    right = right.replace(store, 'P')
    right = re.sub(r'\b(?:' + IDS + r')\b', 'I', right)  # a replay's run id, before its digits
    right = re.sub(NUM, 'N', right)
    # A replay's "REPLAY 2x" stands apart from the facts after it by a gap that the
    # facts' numbers (masked above) widen and narrow: one width for that gap.
    right = re.sub(r'   +', '   ', right)
    return left + ' ' * max(2, end - len(right) - len(left)) + right


def big(lines, i):
    """The big index digits under each "Index, N copies" heading on line i: B where they
    start, the text beside them kept at its distance from their right edge (which moves
    with the number of digits). Returns the line after them."""
    heads = [m.start() for m in re.finditer(r'Index, \d+ cop', lines[i])]
    rows = range(i + 1, min(i + 4, len(lines)))
    for h, x in enumerate(heads):
        stop = heads[h + 1] if h + 1 < len(heads) else None
        end = x
        for k in rows:
            m = re.match(r'[▀▄█ ]*[▀▄█]', lines[k][x:stop])
            end = max(end, x + m.end()) if m else end
        for k in rows:
            line = lines[k].ljust(end)
            text = line[end:stop] if stop else line[end:]
            text = re.sub(r'[▲▼≈ ] (' + NUM + ')', 'V N', text)
            text = re.sub(r'\b(?:faster|slower|noise)\b|n/a', 'V', text)
            text = re.sub(NUM, 'N', text)
            text = 'B' + text
            if stop:
                text = text.ljust(stop - x)
            lines[k] = line[:x] + text + (line[stop:] if stop else '')
    return rows.stop


lines = sys.stdin.buffer.read().decode('utf-8').split('\n')
if lines and lines[-1] == '':
    lines.pop()
if lines:
    lines[0] = title(lines[0])
rules = GLOBAL + RULES.get(screen, [])
axis = None  # thermal: the line of the time axis under the charts
i = 1
while i < len(lines):
    line = lines[i]
    if screen == 'results' and re.match(r'^ Index, \d+ cop', line):
        i = big(lines, i)
        continue
    orig = line
    if screen == 'thermal' and axis is not None and axis < i < len(lines) - 1:
        lines[i] = ''
        i += 1
        continue
    if screen == 'thermal' and axis is None and re.match(r'^ +\d+:\d\d +\d+:\d\d', line):
        axis = i
    if screen in ('run', 'live', 'thermal'):
        # The machine panel shows this machine's sources: only its labels stay.
        line = re.sub(r'^ (freq|temp|power)\b.*', r' \1', line)
    if screen == 'thermal':
        line = re.sub(r'^( \S+ ×\d+ .*· )\S.*', r'\1S', line)
        line = re.sub(r'^(── \S+) .*', r'\1 ─', line)
        line = re.sub(r'^  \S.*', '', line)  # a chart's reason for being empty
    if screen in ('run', 'results', 'live', 'thermal'):
        line = BAR.sub(' ', line)
    if screen in ('live', 'thermal'):
        line = CHART.sub(lambda m: ' ' * len(m.group()), line)
    masked = apply(line, fields(line, rules))
    if screen in ('live', 'thermal') and orig.startswith('── ') and orig.endswith('─'):
        # a heading rule holding numbers keeps its width: the rule takes up the difference
        text = masked.rstrip(' ─')
        masked = text + ' ' + '─' * max(0, len(orig) - len(text) - 1)
    lines[i] = masked
    i += 1
for line in lines:
    sys.stdout.write(line.rstrip() + '\n')
