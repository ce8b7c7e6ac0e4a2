/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keys as data: one table per screen plus a global one; they drive dispatch, the key bar and help. */
#ifndef KBENCH_UI_KEYS_H
#define KBENCH_UI_KEYS_H

#include <stdbool.h>

struct app;
struct canvas;

/* Keys beyond Unicode, so term.c can translate curses codes without the
 * rest of ui/ including curses. */
enum {
	UK_BASE = 0x110000,
	UK_UP, UK_DOWN, UK_LEFT, UK_RIGHT, UK_PGUP, UK_PGDN, UK_HOME, UK_END,
	UK_ENTER, UK_TAB, UK_BTAB, UK_BACKSPACE, UK_DELETE, UK_ESC,
	UK_F1, UK_F2, UK_F3, UK_F4, UK_F5, UK_F6, UK_F7, UK_F8, UK_F9, UK_F10,
	UK_RESIZE, UK_MOUSE,
	UK_CTRL_L = 12,
	UK_CTRL_C = 3,
};

/* Flags a handler returns, 0 for none; the main loop acts on every one. (It
 * draws after every key, tick and event, so no flag asks for a redraw.) */
enum {
	UI_QUIT = 4, /* leave the console */
	UI_BACK = 8, /* back to the previous screen */
};

struct key_def {
	int key, key2;       /* key2: an alias (j for Down), 0 = none */
	const char *name;    /* shown in the bar and help; NULL = from the key */
	const char *help;    /* what it does, a few words */
	unsigned (*act)(struct app *a);
	bool bar;            /* also in the bottom key bar */
};

struct key_table {
	const char *title;
	const struct key_def *keys;
	int n;
};
#define KEY_TABLE(title, arr) { title, arr, (int)(sizeof arr / sizeof arr[0]) }

/* The row for ch in the table, or NULL. */
const struct key_def *keys_find(const struct key_table *t, int ch);
/* A key's printable name: "q", "Space", "Enter", "F1", "Up". */
void keys_name(int key, char *buf, int len);
/* The key bar on row y from the bar entries of the tables, as many as fit. */
void keys_bar(struct canvas *c, int y, const struct key_table *const *tables, int ntables);
/* The help text for the tables from row y on, in columns; returns rows used. */
int keys_help(struct canvas *c, int y, int rows, const struct key_table *const *tables,
	      int ntables);

#endif
