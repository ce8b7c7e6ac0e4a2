#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A terminal screen as an SVG picture, for the docs: the cells tmux captured, colours and all.

    tmux capture-pane -e -p -t PANE | screen_svg.py COLS ROWS "TITLE" >picture.svg

Reads the pane's text with its SGR escapes (colours 0-15, 256 and RGB; bold, dim, underline,
reverse), lays the cells on a grid and writes them as SVG: a rectangle per run of background,
a <text> per word of one style, each pinned to its columns (textLength), and the block
elements (▀ ▄ █ and the eighths) drawn as rectangles, so the picture does not depend on how a
viewer's font draws them. The same screen gives the same bytes, so a test can compare them.
"""
import html
import re
import sys
import unicodedata

FG, BG = "#d3d7cf", "#1c1f24"  # the default colours: a dark terminal
# The 16 colours (Tango, as GNOME Terminal shows them); bold lifts 0-7 to 8-15, as xterm does.
PALETTE = ["#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf",
           "#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec"]
CW, CH, FONT = 8.4, 17, 14  # cell width, cell height, font size (px)
PAD = 10


def color256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        v = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (v[n // 36], v[n // 6 % 6], v[n % 6])
    g = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (g, g, g)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = self.bg = None  # None: the default; an int: 0-15; a str: "#rrggbb"
        self.bold = self.dim = self.ul = self.rev = False

    def sgr(self, params):
        p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
        i = 0
        while i < len(p):
            c = p[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 2:
                self.dim = True
            elif c == 4:
                self.ul = True
            elif c == 7:
                self.rev = True
            elif c == 22:
                self.bold = self.dim = False
            elif c == 24:
                self.ul = False
            elif c == 27:
                self.rev = False
            elif 30 <= c <= 37:
                self.fg = c - 30
            elif 90 <= c <= 97:
                self.fg = c - 90 + 8
            elif c == 39:
                self.fg = None
            elif 40 <= c <= 47:
                self.bg = c - 40
            elif 100 <= c <= 107:
                self.bg = c - 100 + 8
            elif c == 49:
                self.bg = None
            elif c in (38, 48) and i + 1 < len(p):
                if p[i + 1] == 5 and i + 2 < len(p):
                    v = p[i + 2] if p[i + 2] < 16 else color256(p[i + 2])
                    i += 2
                elif p[i + 1] == 2 and i + 4 < len(p):
                    v = "#%02x%02x%02x" % tuple(p[i + 2:i + 5])
                    i += 4
                else:
                    v = None
                if c == 38:
                    self.fg = v
                else:
                    self.bg = v
            i += 1

    def colours(self):
        """(fg, bg, bold, dim, underline) as drawn: reverse swapped, bold brightened."""
        fg, bg = self.fg, self.bg
        if self.bold and isinstance(fg, int) and fg < 8:
            fg += 8
        fgc = FG if fg is None else fg if isinstance(fg, str) else PALETTE[fg]
        bgc = None if bg is None else bg if isinstance(bg, str) else PALETTE[bg]
        if self.rev:
            fgc, bgc = (bgc or BG), fgc
        return fgc, bgc, self.bold, self.dim, self.ul


def parse(text, cols, rows):
    grid = [[(" ", (FG, None, False, False, False)) for _ in range(cols)] for _ in range(rows)]
    st = Style()
    for y, line in enumerate(text.split("\n")[:rows]):
        x = 0
        for m in re.finditer(r"\x1b\[([0-9;]*)m|\x1b[^a-zA-Z]*[a-zA-Z]|(.)", line):
            if m.group(2) is None:
                if m.group(0).endswith("m") and m.group(0).startswith("\x1b["):
                    st.sgr(m.group(1))
                continue
            ch = m.group(2)
            w = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
            if x + w > cols:
                break
            grid[y][x] = (ch, st.colours())
            if w == 2:
                grid[y][x + 1] = ("", st.colours())
            x += w
    return grid


# Block elements as (x0, y0, x1, y1) fractions of the cell.
BLOCKS = {"█": (0, 0, 1, 1), "▀": (0, 0, 1, 0.5), "▄": (0, 0.5, 1, 1), "▌": (0, 0, 0.5, 1),
          "▐": (0.5, 0, 1, 1)}
for k in range(1, 8):
    BLOCKS[chr(0x2590 - k)] = (0, 0, k / 8, 1)  # U+258F ▏ 1/8 ... U+2589 ▉ 7/8, from the left
    BLOCKS[chr(0x2580 + k)] = (0, 1 - k / 8, 1, 1)  # U+2581 ▁ 1/8 ... U+2587 ▇ 7/8, from the bottom


def fmt(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")


def svg(grid, title):
    rows, cols = len(grid), len(grid[0])
    w, h = cols * CW + 2 * PAD, rows * CH + 2 * PAD
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" '
           'role="img" aria-label="%s">' % (fmt(w), fmt(h), fmt(w), fmt(h), html.escape(title)),
           "<title>%s</title>" % html.escape(title),
           '<rect width="100%%" height="100%%" rx="6" fill="%s"/>' % BG,
           '<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="%d">' % FONT]
    for y, row in enumerate(grid):
        top = PAD + y * CH
        x = 0
        while x < cols:  # backgrounds: runs of one colour
            bg = row[x][1][1]
            e = x
            while e < cols and row[e][1][1] == bg:
                e += 1
            if bg:
                out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'
                           % (fmt(PAD + x * CW), fmt(top), fmt((e - x) * CW), fmt(CH), bg))
            x = e
        x = 0
        while x < cols:  # text: runs of one style, blocks apart
            ch, sty = row[x]
            if ch in BLOCKS:
                x0, y0, x1, y1 = BLOCKS[ch]
                out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"%s/>'
                           % (fmt(PAD + (x + x0) * CW), fmt(top + y0 * CH), fmt((x1 - x0) * CW),
                              fmt((y1 - y0) * CH), sty[0], ' opacity="0.6"' if sty[3] else ""))
                x += 1
                continue
            e, s = x, ""  # a word: a run of one style without blanks, pinned to its columns
            while e < cols and row[e][1] == sty and row[e][0] not in BLOCKS and row[e][0] != " ":
                s += row[e][0]
                e += 1
            if not s:
                x += 1
                continue
            fg, _, bold, dim, ul = sty
            attrs = ' fill="%s"' % fg
            if bold:
                attrs += ' font-weight="bold"'
            if dim:
                attrs += ' opacity="0.6"'
            if ul:
                attrs += ' text-decoration="underline"'
            out.append('<text x="%s" y="%s" textLength="%s" lengthAdjust="spacingAndGlyphs"%s>%s</text>'
                       % (fmt(PAD + x * CW), fmt(top + CH * 0.78), fmt(len(s) * CW), attrs,
                          html.escape(s, quote=False)))
            x = e
    out.append("</g>\n</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: screen_svg.py COLS ROWS TITLE <capture")
    cols, rows = int(sys.argv[1]), int(sys.argv[2])
    sys.stdout.write(svg(parse(sys.stdin.read(), cols, rows), sys.argv[3]))


if __name__ == "__main__":
    main()
