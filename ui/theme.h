/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Colour roles and themes: what each UI element looks like in colour and without it. */
#ifndef KBENCH_UI_THEME_H
#define KBENCH_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>

/* A role names what a cell means, never how it looks. */
enum role {
	ROLE_NORMAL,
	ROLE_TITLE,    /* the top line */
	ROLE_HEADER,   /* table headings, pane titles */
	ROLE_BORDER,   /* rules and frames */
	ROLE_DIM,      /* units, lengths, secondary facts */
	ROLE_SELECTED, /* the cursor row */
	ROLE_KEY,      /* a key name in the key bar or help */
	ROLE_KEYBAR,   /* the key bar itself */
	ROLE_FASTER,   /* verdict: better beyond the noise */
	ROLE_SLOWER,   /* verdict: worse beyond the noise */
	ROLE_NOISE,    /* verdict: within the noise */
	ROLE_RUNNING,  /* the test or copy at work */
	ROLE_DONE,
	ROLE_FAILED,
	ROLE_BAR,      /* progress and score bars */
	ROLE_SPARK,    /* sparklines */
	ROLE_HOT,      /* high temperature, throttling */
	ROLE_WARN,     /* a message the user must see */
	ROLE_BIG,      /* the big index digits */
	ROLE_REPLAY,   /* the REPLAY badge */
	ROLE_COUNT
};

enum { THEME_BOLD = 1, THEME_REVERSE = 2, THEME_UNDERLINE = 4, THEME_DIM = 8 };

/* What a role is called in theme files, its monochrome form, and the glyph
 * that carries its meaning when neither colour nor attributes show. */
struct role_info {
	const char *name;
	unsigned mono;
	const char *glyph, *ascii;
};
extern const struct role_info theme_roles[ROLE_COUNT];

struct theme_style {
	short fg, bg; /* curses colour numbers; -1 = the terminal's default */
	unsigned attrs;
};

struct theme {
	char name[32];
	bool mono; /* draw with each role's monochrome form */
	struct theme_style style[ROLE_COUNT];
};

/* The built-in themes: default (also the fallback) and mono. */
void theme_builtin_default(struct theme *t);
void theme_builtin_mono(struct theme *t);

/* Parses theme text ("role = fg [on bg] [bold] [reverse] [underline] [dim]",
 * "base = mono|default", '#' comments) on top of the default. On error returns
 * -EINVAL and fills err with "FILE:LINE: what is wrong". */
int theme_parse(struct theme *t, const char *name, const char *text, const char *file,
		char *err, size_t errlen);

/* Finds NAME.theme in the user's themes ($XDG_CONFIG_HOME/kbench/themes), then
 * the shipped ones (next to the binary, then the install data directory), and
 * loads it. On failure t holds the default and err says why. */
int theme_load(struct theme *t, const char *name, char *err, size_t errlen);

/* The names a cycle key walks through: the shipped four, then user themes. */
int theme_names(char names[][32], int max);

/* The directories searched, in order (for the help screen and tests). */
int theme_dirs(char dirs[][512], int max);

#endif
