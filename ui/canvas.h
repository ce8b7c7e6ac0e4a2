/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A screen model: a grid of attributed cells that screens draw into and term.c copies to curses. */
#ifndef KBENCH_UI_CANVAS_H
#define KBENCH_UI_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One character cell: a Unicode code point and the colour role it is drawn in. */
struct cell {
	uint32_t ch;
	uint8_t role;
	uint8_t pad[3]; /* named so compound literals zero it and rows compare with memcmp */
};

struct canvas {
	int w, h;
	bool utf8; /* box drawing and blocks allowed; else ASCII stand-ins */
	struct cell *cells;
};

/* Allocates a w x h canvas of blanks. Returns 0 or -ENOMEM. */
int canvas_init(struct canvas *c, int w, int h, bool utf8);
int canvas_resize(struct canvas *c, int w, int h);
void canvas_free(struct canvas *c);
void canvas_clear(struct canvas *c);

static inline struct cell *canvas_at(const struct canvas *c, int x, int y)
{
	return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

/* Writes UTF-8 text at (x, y), clipped to the canvas and to maxw columns
 * (maxw < 0: up to the right edge). Returns the columns written. */
int canvas_text(struct canvas *c, int x, int y, int role, const char *s, int maxw);
int canvas_printf(struct canvas *c, int x, int y, int role, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Fills w cells with one code point. */
void canvas_fill(struct canvas *c, int x, int y, int w, int role, uint32_t ch);
/* Changes the role of w cells without touching their characters (selection bars). */
void canvas_paint(struct canvas *c, int x, int y, int w, int role);
/* A horizontal rule with an optional title: ──title──── (or --title---- in ASCII). */
void canvas_rule(struct canvas *c, int x, int y, int w, int role, const char *title, int title_role);

/* Row y as UTF-8, trailing blanks trimmed; for tests and goldens. Returns its length. */
size_t canvas_row(const struct canvas *c, int y, char *buf, size_t len);
bool canvas_row_equal(const struct canvas *a, const struct canvas *b, int y);

/* Decodes one UTF-8 code point from *s and advances it; invalid bytes give '?'. */
uint32_t canvas_utf8_next(const char **s);
/* Columns a UTF-8 string takes (every code point counts as one column). */
int canvas_strwidth(const char *s);

#endif
