/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The only bridge to ncursesw: opens and restores the terminal, reads keys, copies a canvas out. */
#ifndef KBENCH_UI_TERM_H
#define KBENCH_UI_TERM_H

#include <stdbool.h>
#include <stddef.h>

struct canvas;
struct theme;

/* Sets up curses (locale, cbreak, no echo, keypad, hidden cursor). Reports
 * whether the locale is UTF-8 and whether the terminal has colours.
 * Returns 0 or -1 with err filled. */
int term_open(bool *utf8, bool *colour, char *err, size_t errlen);
/* Restores the terminal; safe to call twice and from atexit. */
void term_close(void);
/* Maps every role to curses attributes for this theme (mono: role forms only). */
void term_apply_theme(const struct theme *t, bool mono);
void term_size(int *w, int *h);
/* Copies the rows of c that changed since the last call (all when full) and
 * updates the screen once. */
void term_draw(const struct canvas *c, bool full);
/* The next key without waiting (-1: none), translated to UK_* codes. */
int term_key(void);
/* Row and column of the last mouse click (after UK_MOUSE). */
void term_mouse(int *x, int *y);

#endif
