/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The only bridge to ncursesw: opens and restores the terminal, reads keys, copies a canvas out. */
#include "term.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "canvas.h"
#include "keys.h"
#include "theme.h"

static bool is_open;
static attr_t role_attr[ROLE_COUNT];
static short role_pair[ROLE_COUNT];
static struct canvas shadow; /* what the screen shows now */
static int mouse_x = -1, mouse_y = -1;

int term_open(bool *utf8, bool *colour, char *err, size_t errlen)
{
	setlocale(LC_ALL, "");
	const char *cs = nl_langinfo(CODESET);
	*utf8 = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
	/* Esc alone must not wait a second for a sequence that never comes. */
	if (!getenv("ESCDELAY"))
		setenv("ESCDELAY", "25", 1);
	if (!newterm(NULL, stdout, stdin)) {
		snprintf(err, errlen, "cannot open the terminal '%s' with curses",
			 getenv("TERM") ? getenv("TERM") : "(TERM unset)");
		return -1;
	}
	is_open = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	*colour = has_colors();
	if (*colour) {
		start_color();
		use_default_colors();
	}
	return 0;
}

void term_close(void)
{
	if (!is_open)
		return;
	is_open = false;
	curs_set(1);
	endwin();
	canvas_free(&shadow);
}

static attr_t attrs_of(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & THEME_BOLD)
		r |= A_BOLD;
	if (a & THEME_REVERSE)
		r |= A_REVERSE;
	if (a & THEME_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THEME_DIM)
		r |= A_DIM;
	return r;
}

/* A colour the terminal lacks falls back to its base eight (bright-red → red, bold). */
static short fit_colour(short c, attr_t *extra)
{
	if (c < 0 || c < COLORS)
		return c;
	if (c >= 8 && c < 16) {
		*extra |= A_BOLD;
		return (short)(c - 8);
	}
	return -1;
}

void term_apply_theme(const struct theme *t, bool mono)
{
	bool colour = has_colors() && !mono && !t->mono;
	const struct theme_style *base = &t->style[ROLE_NORMAL];
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (!colour) {
			role_attr[r] = attrs_of(theme_roles[r].mono);
			role_pair[r] = 0;
			continue;
		}
		attr_t extra = 0;
		/* the terminal default inside a themed background means the theme's normal */
		short fg = t->style[r].fg < 0 ? base->fg : t->style[r].fg;
		short bg = t->style[r].bg < 0 ? base->bg : t->style[r].bg;
		fg = fit_colour(fg, &extra);
		bg = fit_colour(bg, &extra);
		init_pair((short)(r + 1), fg, bg);
		role_pair[r] = (short)(r + 1);
		role_attr[r] = attrs_of(t->style[r].attrs) | extra;
	}
	bkgdset(' ' | (colour ? COLOR_PAIR(1) : 0));
	/* every cell's attributes changed: the next draw repaints all */
	canvas_free(&shadow);
}

void term_size(int *w, int *h)
{
	getmaxyx(stdscr, *h, *w);
}

void term_draw(const struct canvas *c, bool full)
{
	if (full || shadow.w != c->w || shadow.h != c->h) {
		canvas_free(&shadow);
		canvas_init(&shadow, c->w, c->h, c->utf8);
		full = true;
		clearok(curscr, TRUE);
	}
	int sw, sh;
	getmaxyx(stdscr, sh, sw);
	for (int y = 0; y < c->h && y < sh; y++) {
		if (!full && canvas_row_equal(c, &shadow, y))
			continue;
		for (int x = 0; x < c->w && x < sw; x++) {
			const struct cell *cl = canvas_at(c, x, y);
			wchar_t wc[2] = { (wchar_t)cl->ch, 0 };
			cchar_t cc;
			int role = cl->role < ROLE_COUNT ? cl->role : 0;
			setcchar(&cc, wc, role_attr[role], role_pair[role], NULL);
			mvadd_wch(y, x, &cc); /* the bottom-right cell returns ERR; it is drawn anyway */
		}
		memcpy(canvas_at(&shadow, 0, y), canvas_at(c, 0, y), (size_t)c->w * sizeof(struct cell));
	}
	wnoutrefresh(stdscr);
	doupdate();
}

int term_key(void)
{
	wint_t wc;
	int rc = get_wch(&wc);
	if (rc == ERR)
		return -1;
	if (rc == KEY_CODE_YES) {
		switch (wc) {
		case KEY_UP: return UK_UP;
		case KEY_DOWN: return UK_DOWN;
		case KEY_LEFT: return UK_LEFT;
		case KEY_RIGHT: return UK_RIGHT;
		case KEY_PPAGE: return UK_PGUP;
		case KEY_NPAGE: return UK_PGDN;
		case KEY_HOME: return UK_HOME;
		case KEY_END: return UK_END;
		case KEY_ENTER: return UK_ENTER;
		case KEY_BTAB: return UK_BTAB;
		case KEY_BACKSPACE: return UK_BACKSPACE;
		case KEY_DC: return UK_DELETE;
		case KEY_RESIZE: return UK_RESIZE;
		case KEY_MOUSE: {
			MEVENT me;
			if (getmouse(&me) != OK)
				return 0;
			mouse_x = me.x;
			mouse_y = me.y;
			return UK_MOUSE;
		}
		default:
			if ((int)wc >= KEY_F(1) && (int)wc <= KEY_F(10))
				return UK_F1 + ((int)wc - KEY_F(1));
			return 0;
		}
	}
	switch (wc) {
	case '\r':
	case '\n': return UK_ENTER;
	case '\t': return UK_TAB;
	case 27: return UK_ESC;
	case 127:
	case 8: return UK_BACKSPACE;
	default: return (int)wc;
	}
}

void term_mouse(int *x, int *y)
{
	*x = mouse_x;
	*y = mouse_y;
}
