/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text for the console: numbers, times, changes, fitted columns, bars and sparklines, all pure. */
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "canvas.h"
#include "numfmt.h"

void fmt_number(char *buf, size_t len, double v, int width)
{
	if (isnan(v) || v < 0 || width < 1)
		snprintf(buf, len, "-");
	else if (num_fit(buf, len, v, width) < 0)
		snprintf(buf, len, "%.*s", width, "################");
}

void fmt_count(char *buf, size_t len, double v, int width)
{
	char tmp[64];
	if (!isnan(v) && v >= 0 && width >= 1) {
		snprintf(tmp, sizeof tmp, "%.0f", floor(v));
		if ((int)strlen(tmp) <= width) {
			snprintf(buf, len, "%s", tmp);
			return;
		}
	}
	fmt_number(buf, len, v, width);
}

void fmt_duration(char *buf, size_t len, double secs)
{
	if (isnan(secs) || secs < 0) {
		snprintf(buf, len, "-:--");
		return;
	}
	long t = lround(secs);
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void fmt_fit(char *buf, size_t len, const char *s, int width, enum fmt_align align)
{
	if (!len)
		return;
	int w = canvas_strwidth(s);
	size_t at = 0;
	if (width <= 0) {
		buf[0] = '\0';
		return;
	}
	if (w > width) {
		/* copy width-1 code points then the cut mark */
		const char *p = s;
		for (int i = 0; i < width - 1; i++)
			canvas_utf8_next(&p);
		size_t n = (size_t)(p - s);
		if (n + 2 > len)
			n = len - 2;
		memcpy(buf, s, n);
		buf[n] = '~';
		buf[n + 1] = '\0';
		return;
	}
	int pad = width - w;
	if (align == FMT_RIGHT)
		for (; pad > 0 && at + 1 < len; pad--)
			buf[at++] = ' ';
	size_t n = strlen(s);
	if (at + n + 1 > len)
		n = len - at - 1;
	memcpy(buf + at, s, n);
	at += n;
	for (; pad > 0 && at + 1 < len; pad--)
		buf[at++] = ' ';
	buf[at] = '\0';
}

/* Where the suffix of s that is at most width columns starts (bytes, at a code point). */
static size_t tail_of(const char *s, int width)
{
	const char *p = s;
	for (int w = canvas_strwidth(s); *p && w > width; w--)
		canvas_utf8_next(&p);
	return (size_t)(p - s);
}

void fmt_path(char *buf, size_t len, const char *path, const char *home, int width, bool utf8)
{
	char s[4096], h[4096];
	if (!len)
		return;
	size_t hl = home && strcmp(home, "/") ? strlen(home) : 0;
	while (hl > 1 && home[hl - 1] == '/')
		hl--;
	if (hl && !strncmp(path, home, hl) && (path[hl] == '/' || !path[hl]))
		snprintf(s, sizeof s, "~%s", path + hl);
	else
		snprintf(s, sizeof s, "%s", path);
	if (width <= 0 || canvas_strwidth(s) <= width) {
		snprintf(buf, len, "%s", width > 0 ? s : "");
		return;
	}
	const char *ell = utf8 ? "…" : "...";
	int ew = utf8 ? 1 : 3;
	/* the head: up to the first directory's '/' ("~/", "/tmp/") */
	const char *slash = strchr(s + 1, '/');
	snprintf(h, sizeof h, "%.*s", slash ? (int)(slash - s) + 1 : 0, s);
	const char *last = strrchr(s, '/'); /* the last component, with its '/' */
	int budget = width - canvas_strwidth(h) - ew;
	if (!last || budget < canvas_strwidth(last)) {
		h[0] = '\0'; /* no room for both: the end alone */
		budget = width - ew;
	}
	if (budget <= 0) {
		snprintf(buf, len, "%s", s + tail_of(s, width));
		return;
	}
	/* as many whole trailing components as fit, else the end of the last */
	size_t t = strlen(h) + tail_of(s + strlen(h), budget);
	if (s[t] != '/' && strchr(s + t, '/'))
		t = (size_t)(strchr(s + t, '/') - s);
	snprintf(buf, len, "%s%s%s", h, ell, s + t);
}

/* Is [x, x+w) inside the row and a blank away from every mark and placed label? */
static bool axis_free(int width, const int *marks, int nmarks, const int *at, const int *lw, int placed,
		      int x, int w)
{
	if (x < 0 || x + w > width)
		return false;
	for (int m = 0; m < nmarks; m++)
		if (marks[m] >= x - 1 && marks[m] <= x + w)
			return false;
	for (int j = 0; j < placed; j++)
		if (at[j] >= 0 && at[j] <= x + w && at[j] + lw[j] >= x)
			return false;
	return true;
}

void fmt_axis_place(int width, const int *marks, int nmarks, const int *want, const int *lw, int n,
		    int *at)
{
	for (int i = 0; i < n; i++) {
		at[i] = -1;
		for (int d = 0; d <= lw[i] && at[i] < 0; d++)
			if (axis_free(width, marks, nmarks, at, lw, i, want[i] - d, lw[i]))
				at[i] = want[i] - d;
			else if (d && axis_free(width, marks, nmarks, at, lw, i, want[i] + d, lw[i]))
				at[i] = want[i] + d;
	}
}

int fmt_columns(const struct fmt_col *cols, int n, int total, int *widths)
{
	bool on[64];
	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++)
		on[i] = true;
	for (;;) {
		int need = 0, count = 0;
		for (int i = 0; i < n; i++)
			if (on[i]) {
				need += cols[i].min;
				count++;
			}
		need += count > 0 ? count - 1 : 0;
		if (need <= total)
			break;
		int victim = -1;
		for (int i = n - 1; i >= 0; i--)
			if (on[i] && cols[i].drop) {
				victim = i;
				break;
			}
		if (victim < 0)
			break; /* nothing left to drop: the caller's minimums overflow */
		on[victim] = false;
	}
	int used = 0, count = 0;
	for (int i = 0; i < n; i++) {
		widths[i] = on[i] ? cols[i].min : 0;
		if (on[i]) {
			used += widths[i];
			count++;
		}
	}
	used += count > 0 ? count - 1 : 0;
	for (int i = 0; i < n && used < total; i++) {
		if (!on[i] || cols[i].want <= widths[i])
			continue;
		int give = cols[i].want - widths[i];
		if (give > total - used)
			give = total - used;
		widths[i] += give;
		used += give;
	}
	return used;
}

static size_t put(char *buf, size_t len, size_t at, const char *s)
{
	size_t n = strlen(s);
	if (at + n + 1 > len)
		return at;
	memcpy(buf + at, s, n + 1);
	return at + n;
}

void fmt_bar(char *buf, size_t len, double frac, int width, bool utf8)
{
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	if (isnan(frac) || frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	int units = (int)lround(frac * width * (utf8 ? 8 : 1));
	int full = utf8 ? units / 8 : units;
	int part = utf8 ? units % 8 : 0;
	int i = 0;
	for (; i < full; i++)
		at = put(buf, len, at, utf8 ? "█" : "#");
	if (part && i < width) {
		at = put(buf, len, at, eighths[part]);
		i++;
	}
	for (; i < width; i++)
		at = put(buf, len, at, utf8 ? " " : ".");
}

void fmt_bar_signed(char *buf, size_t len, double v, double max, int width, bool utf8)
{
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	int half = width / 2;
	if (isnan(v) || max <= 0)
		v = 0;
	double frac = fabs(v) / max;
	if (frac > 1)
		frac = 1;
	int cells = (int)lround(frac * half);
	if (cells == 0 && v != 0)
		cells = 1; /* any change shows its side */
	const char *fill = utf8 ? "█" : (v < 0 ? "<" : ">");
	const char *mid = utf8 ? "│" : "|";
	for (int i = 0; i < half; i++)
		at = put(buf, len, at, v < 0 && i >= half - cells ? fill : " ");
	at = put(buf, len, at, mid);
	for (int i = 0; i < width - half - 1; i++)
		at = put(buf, len, at, v > 0 && i < cells ? fill : " ");
}

void fmt_sparkline(char *buf, size_t len, const double *v, int n, int width, bool utf8)
{
	static const char *const blocks[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char ascii[] = "_.-~=*#";
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	int first = n > width ? n - width : 0;
	double lo = INFINITY, hi = -INFINITY;
	for (int i = first; i < n; i++)
		if (!isnan(v[i])) {
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
	int levels = utf8 ? 8 : 7;
	for (int i = first; i < n; i++) {
		if (isnan(v[i])) {
			at = put(buf, len, at, " ");
			continue;
		}
		/* a flat series sits in the middle, so it reads as steady, not as zero */
		int k = hi > lo ? (int)lround((v[i] - lo) / (hi - lo) * (levels - 1)) : levels / 2;
		if (utf8) {
			at = put(buf, len, at, blocks[k]);
		} else {
			char c[2] = { ascii[k], 0 };
			at = put(buf, len, at, c);
		}
	}
	for (int i = n - first; i < width; i++)
		at = put(buf, len, at, " ");
}

/* A 3x5 pixel font; two pixel rows share a text row (half blocks in
 * UTF-8, '#', '"' and '.' in ASCII), so a digit is 3 rows high. */
static const char *big_glyph(char ch)
{
	static const char *const digits[10] = {
		"####.##.##.####", ".#.##..#..#.###", "###..#####..###", "###..####..####",
		"#.##.####..#..#", "####..###..####", "####..####.####", "###..#..#..#..#",
		"####.#####.####", "####.####..####",
	};
	if (ch >= '0' && ch <= '9')
		return digits[ch - '0'];
	switch (ch) {
	case '.': return ".............#.";
	case '+': return "....#.###.#....";
	case '-': return "......###......";
	case '%': return "#....#.#.#....#";
	default: return "...............";
	}
}

int fmt_big_row(char *buf, size_t len, const char *s, int row, bool utf8)
{
	static const char *const half[4] = { " ", "▀", "▄", "█" };
	static const char ascii[4] = { ' ', '"', '.', '#' };
	size_t at = 0;
	int cols = 0;
	if (len)
		buf[0] = '\0';
	for (; *s; s++) {
		const char *g = big_glyph(*s);
		/* the point is one column wide so numbers stay compact */
		int x0 = *s == '.' ? 1 : 0, x1 = *s == '.' ? 2 : 3;
		for (int x = x0; x < x1; x++) {
			int top = row * 2, bot = row * 2 + 1;
			int k = (g[top * 3 + x] == '#') | (bot < 5 && g[bot * 3 + x] == '#') << 1;
			if (utf8) {
				at = put(buf, len, at, half[k]);
			} else {
				char c[2] = { ascii[k], 0 };
				at = put(buf, len, at, c);
			}
		}
		at = put(buf, len, at, " ");
		cols += x1 - x0 + 1;
	}
	return cols;
}

int fmt_text_fit(struct canvas *c, int x, int y, int role, const char *s, int width)
{
	char buf[1024];
	if (width <= 0)
		return 0;
	if (canvas_strwidth(s) > width) {
		fmt_fit(buf, sizeof buf, s, width, FMT_LEFT);
		s = buf;
	}
	return canvas_text(c, x, y, role, s, width);
}
