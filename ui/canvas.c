/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A screen model: a grid of attributed cells that screens draw into and term.c copies to curses. */
#include "canvas.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int canvas_init(struct canvas *c, int w, int h, bool utf8)
{
	memset(c, 0, sizeof *c);
	c->utf8 = utf8;
	return canvas_resize(c, w, h);
}

int canvas_resize(struct canvas *c, int w, int h)
{
	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	struct cell *n = calloc((size_t)w * (size_t)h, sizeof *n);
	if (!n)
		return -ENOMEM;
	free(c->cells);
	c->cells = n;
	c->w = w;
	c->h = h;
	canvas_clear(c);
	return 0;
}

void canvas_free(struct canvas *c)
{
	free(c->cells);
	c->cells = NULL;
	c->w = c->h = 0;
}

void canvas_clear(struct canvas *c)
{
	size_t n = (size_t)c->w * (size_t)c->h;
	for (size_t i = 0; i < n; i++)
		c->cells[i] = (struct cell){ .ch = ' ' };
}

uint32_t canvas_utf8_next(const char **sp)
{
	const unsigned char *s = (const unsigned char *)*sp;
	uint32_t cp;
	int more;
	if (s[0] < 0x80) {
		*sp += 1;
		return s[0];
	} else if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		more = 1;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		more = 2;
	} else if ((s[0] & 0xf8) == 0xf0) {
		cp = s[0] & 0x07;
		more = 3;
	} else {
		*sp += 1;
		return '?';
	}
	for (int i = 1; i <= more; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*sp += i; /* stop at the bad byte so a NUL is never skipped */
			return '?';
		}
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*sp += more + 1;
	return cp;
}

int canvas_strwidth(const char *s)
{
	int n = 0;
	while (*s) {
		canvas_utf8_next(&s);
		n++;
	}
	return n;
}

int canvas_text(struct canvas *c, int x, int y, int role, const char *s, int maxw)
{
	if (y < 0 || y >= c->h || !s)
		return 0;
	int limit = c->w;
	if (maxw >= 0 && x + maxw < limit)
		limit = x + maxw;
	int n = 0;
	while (*s && x < limit) {
		uint32_t cp = canvas_utf8_next(&s);
		if (cp < 0x20 || cp == 0x7f)
			cp = ' '; /* control characters would move the real cursor */
		if (x >= 0)
			*canvas_at(c, x, y) = (struct cell){ .ch = cp, .role = (uint8_t)role };
		x++;
		n++;
	}
	return n;
}

int canvas_printf(struct canvas *c, int x, int y, int role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return canvas_text(c, x, y, role, buf, -1);
}

void canvas_fill(struct canvas *c, int x, int y, int w, int role, uint32_t ch)
{
	if (y < 0 || y >= c->h)
		return;
	for (int i = x < 0 ? 0 : x; i < x + w && i < c->w; i++)
		*canvas_at(c, i, y) = (struct cell){ .ch = ch, .role = (uint8_t)role };
}

void canvas_paint(struct canvas *c, int x, int y, int w, int role)
{
	if (y < 0 || y >= c->h)
		return;
	for (int i = x < 0 ? 0 : x; i < x + w && i < c->w; i++)
		canvas_at(c, i, y)->role = (uint8_t)role;
}

void canvas_rule(struct canvas *c, int x, int y, int w, int role, const char *title, int title_role)
{
	canvas_fill(c, x, y, w, role, c->utf8 ? 0x2500 : '-');
	if (title && *title && w > 4) {
		canvas_text(c, x + 2, y, title_role, " ", 1);
		int n = canvas_text(c, x + 3, y, title_role, title, w - 5);
		canvas_text(c, x + 3 + n, y, title_role, " ", 1);
	}
}

static size_t put_utf8(char *buf, size_t len, size_t at, uint32_t cp)
{
	char tmp[4];
	size_t n;
	if (cp < 0x80) {
		tmp[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		tmp[0] = (char)(0xc0 | cp >> 6);
		tmp[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		tmp[0] = (char)(0xe0 | cp >> 12);
		tmp[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		tmp[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		tmp[0] = (char)(0xf0 | cp >> 18);
		tmp[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		tmp[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		tmp[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (at + n + 1 > len)
		return at;
	memcpy(buf + at, tmp, n);
	return at + n;
}

size_t canvas_row(const struct canvas *c, int y, char *buf, size_t len)
{
	size_t at = 0, keep = 0;
	if (!len)
		return 0;
	if (y >= 0 && y < c->h) {
		for (int x = 0; x < c->w; x++) {
			uint32_t cp = canvas_at(c, x, y)->ch;
			at = put_utf8(buf, len, at, cp);
			if (cp != ' ')
				keep = at;
		}
	}
	buf[keep] = '\0';
	return keep;
}

bool canvas_row_equal(const struct canvas *a, const struct canvas *b, int y)
{
	if (a->w != b->w || y >= a->h || y >= b->h)
		return false;
	return memcmp(canvas_at(a, 0, y), canvas_at(b, 0, y), (size_t)a->w * sizeof(struct cell)) == 0;
}
