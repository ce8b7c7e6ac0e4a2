/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help screen: every key, generated from the same tables as the key bar. */
#include <stdio.h>

#include "app.h"
#include "term.h"

static unsigned act_back(struct app *a)
{
	return UI_BACK;
}

static const struct key_def help_keys[] = {
	{ 'q', UK_ESC, "q/Esc", "back", act_back, true },
};
static const struct key_table help_table = KEY_TABLE("Help", help_keys);

static unsigned help_key(struct app *a, int ch)
{
	return UI_BACK; /* any key closes help, as in less and htop */
}

static void help_draw(struct app *a, struct canvas *c)
{
	const struct screen_ops *s = a->back ? a->back : &screen_setup;
	char title[64];
	snprintf(title, sizeof title, "Help (%s screen)", s->name);
	app_draw_title(a, c, title, "any key returns");
	const struct key_table *t[] = { s->keys, &app_global_keys };
	int used = keys_help(c, 2, c->h - 8, t, 2);
	int y = 2 + used + 1;
	canvas_rule(c, 0, y++, c->w, ROLE_BORDER, "Colours", ROLE_HEADER);
	int x = 1;
	static const int show[] = { ROLE_FASTER, ROLE_SLOWER, ROLE_NOISE, ROLE_RUNNING, ROLE_DONE,
				    ROLE_FAILED, ROLE_HOT };
	for (size_t i = 0; i < sizeof show / sizeof show[0]; i++) {
		const struct role_info *r = &theme_roles[show[i]];
		char buf[48];
		snprintf(buf, sizeof buf, "%s %s", c->utf8 ? r->glyph : r->ascii, r->name);
		x += canvas_text(c, x, y, show[i], buf, -1) + 2;
	}
	canvas_printf(c, 1, y + 1, ROLE_DIM, "theme %s%s; T cycles; --theme NAME; files: themes/*.theme",
		      a->theme.name, a->force_mono ? " (mono: NO_COLOR or no colours)" : "");
}

const struct screen_ops screen_help = {
	.name = "help",
	.draw = help_draw,
	.key = help_key,
	.keys = &help_table,
};
