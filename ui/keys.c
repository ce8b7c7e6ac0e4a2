/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keys as data: one table per screen plus a global one; they drive dispatch, the key bar and help. */
#include "keys.h"

#include <stdio.h>
#include <string.h>

#include "canvas.h"
#include "theme.h"

const struct key_def *keys_find(const struct key_table *t, int ch)
{
	if (!t)
		return NULL;
	for (int i = 0; i < t->n; i++)
		if (t->keys[i].key == ch || (t->keys[i].key2 && t->keys[i].key2 == ch))
			return &t->keys[i];
	return NULL;
}

void keys_name(int key, char *buf, int len)
{
	static const struct { int key; const char *name; } names[] = {
		{ UK_UP, "Up" }, { UK_DOWN, "Down" }, { UK_LEFT, "Left" }, { UK_RIGHT, "Right" },
		{ UK_PGUP, "PgUp" }, { UK_PGDN, "PgDn" }, { UK_HOME, "Home" }, { UK_END, "End" },
		{ UK_ENTER, "Enter" }, { UK_TAB, "Tab" }, { UK_BTAB, "S-Tab" },
		{ UK_BACKSPACE, "Bksp" }, { UK_DELETE, "Del" }, { UK_ESC, "Esc" },
		{ UK_CTRL_L, "^L" }, { ' ', "Space" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].key == key) {
			snprintf(buf, (size_t)len, "%s", names[i].name);
			return;
		}
	if (key >= UK_F1 && key <= UK_F10)
		snprintf(buf, (size_t)len, "F%d", key - UK_F1 + 1);
	else if (key > ' ' && key < 127)
		snprintf(buf, (size_t)len, "%c", key);
	else
		snprintf(buf, (size_t)len, "#%d", key);
}

static void def_name(const struct key_def *k, char *buf, int len)
{
	if (k->name) {
		snprintf(buf, (size_t)len, "%s", k->name);
		return;
	}
	keys_name(k->key, buf, len);
	if (k->key2) {
		char two[16];
		keys_name(k->key2, two, sizeof two);
		size_t n = strlen(buf);
		snprintf(buf + n, (size_t)len - n, "/%s", two);
	}
}

void keys_bar(struct canvas *c, int y, const struct key_table *const *tables, int ntables)
{
	canvas_fill(c, 0, y, c->w, ROLE_KEYBAR, ' ');
	int x = 0;
	for (int t = 0; t < ntables; t++) {
		if (!tables[t])
			continue;
		for (int i = 0; i < tables[t]->n; i++) {
			const struct key_def *k = &tables[t]->keys[i];
			if (!k->bar)
				continue;
			char name[32];
			def_name(k, name, sizeof name);
			int need = canvas_strwidth(name) + 1 + canvas_strwidth(k->help);
			if (x + need > c->w)
				return; /* the help screen lists the rest */
			x += canvas_text(c, x, y, ROLE_KEY, name, -1);
			x += canvas_text(c, x, y, ROLE_KEYBAR, " ", -1);
			x += canvas_text(c, x, y, ROLE_KEYBAR, k->help, -1);
			x += canvas_text(c, x, y, ROLE_KEYBAR, " ", -1);
		}
	}
}

int keys_help(struct canvas *c, int y, int rows, const struct key_table *const *tables,
	      int ntables)
{
	/* two columns when the terminal is wide enough, so 80x24 holds them all */
	int ncols = c->w >= 80 ? 2 : 1;
	int colw = c->w / ncols;
	int col = 0, row = 0, used = 0;
	for (int t = 0; t < ntables; t++) {
		if (!tables[t])
			continue;
		int need = tables[t]->n + 1;
		if (row + need > rows && col + 1 < ncols) {
			col++;
			row = 0;
		}
		int x = col * colw + 1;
		canvas_text(c, x, y + row, ROLE_HEADER, tables[t]->title, colw - 2);
		row++;
		for (int i = 0; i < tables[t]->n && row < rows; i++, row++) {
			const struct key_def *k = &tables[t]->keys[i];
			char name[32];
			def_name(k, name, sizeof name);
			canvas_text(c, x + 1, y + row, ROLE_KEY, name, 11);
			canvas_text(c, x + 13, y + row, ROLE_NORMAL, k->help, colw - 15);
		}
		if (row > used)
			used = row;
		if (row < rows)
			row++; /* a blank between tables */
	}
	return used;
}
