/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text for the console: numbers, times, changes, fitted columns, bars and sparklines, all pure. */
#ifndef KBENCH_UI_FORMAT_H
#define KBENCH_UI_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

/* A number in at most width columns: full precision when it fits
 * ("12345678.9"), else fewer decimals, else k/M/G ("12.3M"). NaN or < 0 → "-". */
void fmt_number(char *buf, size_t len, double v, int width);
/* A count, which is whole: "29441506", or shortened as fmt_number does when
 * wider than width ("29442k"); a fraction (a replay's share of a sample) is dropped. */
void fmt_count(char *buf, size_t len, double v, int width);
/* Seconds as m:ss or h:mm:ss ("0:07", "12:05", "1:02:03"); negative → "-:--". */
void fmt_duration(char *buf, size_t len, double secs);

enum fmt_align { FMT_LEFT, FMT_RIGHT };
/* Pads or cuts s to exactly width columns (a cut string ends in '~'). */
void fmt_fit(char *buf, size_t len, const char *s, int width, enum fmt_align align);

/* A directory or file path in at most width columns: home ($HOME) as "~",
 * then, when still too long, its middle cut out ("~/a/…/c/reports", ASCII
 * "..."): the first directory kept when there is room, and as many whole
 * trailing components as fit, so the end (a file's name) always shows. */
void fmt_path(char *buf, size_t len, const char *path, const char *home, int width, bool utf8);

/* A directory or file path in at most width columns: home ($HOME) as "~",
 * then, when still too long, its middle cut out ("~/a/…/c/reports", ASCII
 * "..."): the first directory kept when there is room, and as many whole
 * trailing components as fit, so the end (a file's name) always shows. */
void fmt_path(char *buf, size_t len, const char *path, const char *home, int width, bool utf8);

/* Where the labels of an axis row width columns wide go, when marks (one
 * column each, at fixed columns) share the row: each label (lw[i] columns)
 * at its wanted first column when it stays whole, clear of every mark and
 * label placed before it by a blank, else moved the least (at most its
 * width) to where it is; at[i] = -1 when nowhere near fits. Labels come in
 * order of importance: the first are placed first. */
void fmt_axis_place(int width, const int *marks, int nmarks, const int *want, const int *lw, int n,
		    int *at);

/* A column of a table: it gets at least min columns, grows to want, and a
 * column with drop set disappears (width 0) when even the minimums do not fit. */
struct fmt_col {
	int min, want;
	bool drop;
};
/* Fits n columns (with one blank between neighbours) into total columns:
 * drops droppable columns from the right until the minimums fit, then hands
 * out the rest in order up to each want. Returns the columns used. */
int fmt_columns(const struct fmt_col *cols, int n, int total, int *widths);

/* A bar of width cells filled to frac (0..1): eighths blocks in UTF-8
 * ("█████▌   "), '#' and '.' in ASCII. */
void fmt_bar(char *buf, size_t len, double frac, int width, bool utf8);
/* A change bar centred on the middle: grows right for v > 0, left for v < 0,
 * full half at |v| >= max. */
void fmt_bar_signed(char *buf, size_t len, double v, double max, int width, bool utf8);
/* The last width values as a sparkline scaled between their min and max
 * ("▁▂▄█" in UTF-8, "_.-=^" style in ASCII); missing (NaN) values are blanks. */
void fmt_sparkline(char *buf, size_t len, const double *v, int n, int width, bool utf8);

/* Big digits for the index scores: FMT_BIG_ROWS rows, each character 4 columns
 * wide (digits, '.', '+', '-', '%', ' '). Row r of s goes to buf. */
#define FMT_BIG_ROWS 3
int fmt_big_row(char *buf, size_t len, const char *s, int row, bool utf8);

/* Text in width columns at x, y, cut with fmt_fit's '~' when longer, so a
 * cut line says it is cut (and a long reason never runs into the next
 * field). Returns the columns drawn. */
struct canvas;
int fmt_text_fit(struct canvas *c, int x, int y, int role, const char *s, int width);

#endif
