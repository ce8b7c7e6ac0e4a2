/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The setup screen: tests grouped with checkboxes, presets, copies, samples, comparison run, estimate, start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "format.h"
#include "noise.h"
#include "options.h"
#include "run.h"
#include "setup_mode.h"
#include "store.h"
#include "sysinfo.h"
#include "term.h"

#include <sys/utsname.h>

/* The list: group headings and tests, index tests first as UnixBench orders them. */
struct item {
	int test; /* index into test_table, or -1 for a heading */
	const char *heading;
};
static struct item items[APP_MAX_TESTS + 2];
static int nitems, cursor, top, pane; /* pane 0: tests, 1: fields */

enum field { F_PRESET, F_COPIES, F_SAMPLES, F_LENGTH, F_PAUSE, F_COMPARE, F_START, F_COUNT };
static int field;

/* Stored runs the comparison field cycles through. */
static struct store_list stored;
static bool stored_loaded;

/* Every mode's presets (mode_views.c), counted once */
static int npresets(void)
{
	const struct setup_mode *m;
	int n = 0;
	while (setup_preset_at(n, &m))
		n++;
	return n;
}

/* The preset the current choices amount to, or -1 (so flags and toggles show "custom"). */
static int preset_of(const struct app *a)
{
	const struct setup_mode *m = setup_mode_of(a), *pm;
	const struct setup_preset *ps;
	for (int p = 0; (ps = setup_preset_at(p, &pm)); p++) {
		const struct test_group *g = test_group_find(ps->group);
		if (pm != m)
			continue;
		if (m->any_tests)
			return p; /* whichever test it loads with */
		bool same = a->req.run.samples == ps->samples && a->req.run.duration == ps->duration && a->req.run.pause == ps->pause &&
			    a->req.run.quick == ps->quick;
		for (size_t i = 0; same && i < test_count && i < APP_MAX_TESTS; i++) {
			bool in = false;
			for (const char *const *id = g->ids; id && *id; id++)
				in |= !strcmp(*id, test_table[i].id);
			same = in == app_chosen(a, i);
		}
		if (same)
			return p;
	}
	return -1;
}

/* The index group, not the "system" category: UnixBench files its file
 * read and write tests there too, without baselines, outside the index. */
static bool in_index(const struct test_def *t)
{
	const struct test_group *g = test_group_find("index");
	for (const char *const *id = g ? g->ids : NULL; id && *id; id++)
		if (!strcmp(*id, t->id))
			return true;
	return false;
}

static void build_items(void)
{
	nitems = 0;
	items[nitems++] = (struct item){ -1, "System Benchmarks Index" };
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++)
		if (in_index(&test_table[i]))
			items[nitems++] = (struct item){ (int)i, NULL };
	items[nitems++] = (struct item){ -1, "Other tests" };
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++)
		if (!in_index(&test_table[i]))
			items[nitems++] = (struct item){ (int)i, NULL };
}

static void setup_enter(struct app *a)
{
	build_items();
	if (cursor <= 0 || cursor >= nitems)
		cursor = 1;
}

static void setup_leave(struct app *a)
{
	if (stored_loaded) {
		store_list_free(&stored);
		stored_loaded = false;
	}
}

static void apply_preset(struct app *a, int p)
{
	const struct setup_mode *was = setup_mode_of(a), *m;
	const struct setup_preset *ps = setup_preset_at(p, &m);
	app_choose_group(a, ps->group);
	a->req.run.samples = ps->samples;
	a->req.run.duration = ps->duration;
	a->req.run.pause = ps->pause;
	a->req.run.quick = ps->quick;
	a->req.run.timed_seconds = 0; /* a run's, until the preset's mode says otherwise */
	if (m->enter)
		m->enter(a);
	else if (was->leave)
		was->leave(a);
}

/* The custom selection cycling left: one more stop on the preset cycle,
 * after the last preset, so going round the presets comes back to it
 * instead of dropping it for good. (A mode whose preset stands whatever test is ticked,
 * any_tests, is always its preset.) */
static struct {
	bool have;
	bool chosen[APP_MAX_TESTS];
	int ncopies, copies[RUNNER_MAX_BLOCKS];
	int samples;
	double duration, pause;
	bool quick;
} custom;

/* To the next (dir 1) or previous (-1) stop of the cycle: the presets, then
 * the custom selection when there is one. */
static void cycle_preset(struct app *a, int dir)
{
	int cur = preset_of(a);
	if (cur < 0) {
		custom.have = true;
		for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++)
			custom.chosen[i] = app_chosen(a, i);
		custom.ncopies = a->req.run.ncopies;
		memcpy(custom.copies, a->req.run.copies, sizeof custom.copies);
		custom.samples = a->req.run.samples;
		custom.duration = a->req.run.duration;
		custom.pause = a->req.run.pause;
		custom.quick = a->req.run.quick;
		cur = npresets();
	}
	int n = npresets() + custom.have;
	int next = (cur + dir + n) % n;
	if (next < npresets()) {
		apply_preset(a, next);
		return;
	}
	a->req.run.timed_seconds = 0;
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++)
		app_set_chosen(a, i, custom.chosen[i]);
	a->req.run.ncopies = custom.ncopies;
	memcpy(a->req.run.copies, custom.copies, sizeof a->req.run.copies);
	a->req.run.samples = custom.samples;
	a->req.run.duration = custom.duration;
	a->req.run.pause = custom.pause;
	a->req.run.quick = custom.quick;
}

/* ---- keys ---- */

static unsigned act_up(struct app *a)
{
	if (pane == 1) {
		field = (field + F_COUNT - 1) % F_COUNT;
		return 0;
	}
	do
		cursor = (cursor + nitems - 1) % nitems;
	while (items[cursor].test < 0);
	return 0;
}

static unsigned act_down(struct app *a)
{
	if (pane == 1) {
		field = (field + 1) % F_COUNT;
		return 0;
	}
	do
		cursor = (cursor + 1) % nitems;
	while (items[cursor].test < 0);
	return 0;
}

static unsigned act_toggle(struct app *a)
{
	if (pane != 0)
		return 0;
	int t = items[cursor].test;
	app_set_chosen(a, (size_t)t, !app_chosen(a, (size_t)t));
	return 0;
}

static unsigned act_all(struct app *a)
{
	bool any = false;
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++)
		any |= app_chosen(a, i);
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++)
		app_set_chosen(a, i, !any);
	return 0;
}

static unsigned act_tab(struct app *a)
{
	pane = !pane;
	return 0;
}

static const char *compare_label(const struct app *a, char *buf, size_t len)
{
	if (!a->req.compare[0])
		snprintf(buf, len, "auto");
	else
		snprintf(buf, len, "%s", a->req.compare);
	return buf;
}

static void cycle_compare(struct app *a, int dir)
{
	/* auto, none, then every readable stored run: listed the first time the
	 * field is stepped, not on every start (a store may hold thousands) */
	if (!stored_loaded) {
		char err[300];
		stored_loaded = store_list(&stored, err, sizeof err) == 0;
	}
	int n = 2 + (stored_loaded ? stored.n : 0), at = 0;
	if (!strcmp(a->req.compare, "none"))
		at = 1;
	for (int i = 0; stored_loaded && i < stored.n; i++)
		if (!strcmp(a->req.compare, stored.e[i].id))
			at = 2 + i;
	for (int k = 0; k < n; k++) {
		at = (at + dir + n) % n;
		if (at < 2 || !stored.e[at - 2].error)
			break;
	}
	if (at == 0)
		a->req.compare[0] = '\0';
	else if (at == 1)
		snprintf(a->req.compare, sizeof a->req.compare, "none");
	else
		snprintf(a->req.compare, sizeof a->req.compare, "%s", stored.e[at - 2].id);
}

static void change(struct app *a, int dir)
{
	static const double lengths[] = { 0, 0.5, 1, 2, 3, 5, 10, 20, 30, 60 };
	int n = sysinfo_ncpus();
	switch (field) {
	case F_PRESET:
		cycle_preset(a, dir);
		break;
	case F_COPIES: {
		/* 1, all, 1 and all */
		char cur[16];
		snprintf(cur, sizeof cur, "%d%s", a->req.run.copies[0], a->req.run.ncopies > 1 ? "+" : "");
		int at = a->req.run.ncopies > 1 ? 2 : a->req.run.copies[0] == n && n > 1 ? 1 : 0;
		at = (at + dir + 3) % 3;
		char spec[32];
		snprintf(spec, sizeof spec, at == 0 ? "1" : at == 1 ? "%d" : "1,%d", n);
		app_set_copies(a, spec);
		break;
	}
	case F_SAMPLES:
		setup_mode_of(a)->cycle_samples(a, dir);
		break;
	case F_LENGTH:
		a->req.run.duration = setup_cycle(lengths, (int)(sizeof lengths / sizeof lengths[0]), a->req.run.duration, 0, dir);
		a->req.run.quick = false;
		break;
	case F_PAUSE:
		setup_mode_of(a)->cycle_pause(a, dir);
		break;
	case F_COMPARE:
		cycle_compare(a, dir);
		break;
	}
}

static unsigned act_left(struct app *a)
{
	if (pane == 0)
		return 0;
	change(a, -1);
	return 0;
}

static unsigned act_right(struct app *a)
{
	if (pane == 0) {
		pane = 1;
		return 0;
	}
	change(a, 1);
	return 0;
}

static unsigned act_start(struct app *a)
{
	static struct run_request rq;
	app_request(a, &rq);
	struct runner_opts o = *run_request_opts(&rq);
	if (o.ntests == 0) {
		app_message(a, ROLE_WARN, "Choose at least one test (Space toggles, a: all).");
		return 0;
	}
	const struct setup_mode *m = setup_mode_of(a);
	if (m->check && m->check(a, &o) < 0)
		return 0;
	app_start_run(a);
	return 0;
}

static unsigned calibrate_yes(struct app *a)
{
	app_calibrate(a, CALIBRATE_RUNS);
	return 0;
}

/* Calibrating: the chosen tests and settings, five times, stored as A/A runs. */
static unsigned act_calibrate(struct app *a)
{
	static struct run_request rq;
	app_calibrate_request(a, &rq);
	struct runner_opts o = *run_request_opts(&rq);
	if (o.ntests == 0) {
		app_message(a, ROLE_WARN, "Choose the tests to calibrate (Space toggles, a: all).");
		return 0;
	}
	char est[16];
	static char q[160];
	fmt_duration(est, sizeof est, runner_estimate(&o) * CALIBRATE_RUNS);
	snprintf(q, sizeof q, "Calibrate: %d runs of these %d test%s, ~%s, stored as A/A runs? y/n",
		 CALIBRATE_RUNS, o.ntests, o.ntests == 1 ? "" : "s", est);
	app_ask(a, q, calibrate_yes);
	return 0;
}

static void in_copies(struct app *a, const char *s)
{
	if (app_set_copies(a, s) < 0)
		app_message(a, ROLE_WARN, "copies: a list of counts like 1,2,4 or 'all', not '%s'", s);
}

static void in_length(struct app *a, const char *s)
{
	setup_in_number(a, s, opts_row(O_DURATION), "nominal");
	a->req.run.quick = false;
}

static void in_compare(struct app *a, const char *s)
{
	snprintf(a->req.compare, sizeof a->req.compare, "%s", !strcmp(s, "auto") ? "" : s);
}

static unsigned act_enter(struct app *a)
{
	if (pane == 0)
		return act_toggle(a);
	char buf[64];
	switch (field) {
	case F_PRESET:
		change(a, 1);
		break;
	case F_COPIES:
		buf[0] = '\0';
		for (int i = 0; i < a->req.run.ncopies; i++)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", i ? "," : "", a->req.run.copies[i]);
		app_prompt(a, "Copies (e.g. 1,2,4 or all):", buf, in_copies);
		break;
	case F_SAMPLES:
		setup_mode_of(a)->edit_samples(a);
		break;
	case F_LENGTH:
		snprintf(buf, sizeof buf, "%g", a->req.run.duration);
		app_prompt(a, "Seconds per sample (0 = nominal):", buf, in_length);
		break;
	case F_PAUSE:
		setup_mode_of(a)->edit_pause(a);
		break;
	case F_COMPARE:
		app_prompt(a, "Compare with (run id, name, last~N, auto, none):",
			   compare_label(a, buf, sizeof buf), in_compare);
		break;
	case F_START:
		return act_start(a);
	}
	return 0;
}

static unsigned act_preset(struct app *a)
{
	cycle_preset(a, 1);
	return 0;
}

static unsigned act_history(struct app *a)
{
	app_goto(a, &screen_history);
	return 0;
}

static unsigned act_plans(struct app *a)
{
	app_goto(a, &screen_plan);
	return 0;
}

static unsigned act_quit(struct app *a)
{
	return UI_QUIT;
}

static const struct key_def setup_keys[] = {
	{ UK_UP, 'k', NULL, "previous row", act_up, false },
	{ UK_DOWN, 'j', NULL, "next row", act_down, false },
	{ ' ', 0, NULL, "toggle", act_toggle, true },
	{ UK_TAB, 0, NULL, "pane", act_tab, true },
	{ UK_LEFT, 'h', NULL, "previous value", act_left, false },
	{ UK_RIGHT, 'l', NULL, "next value", act_right, false },
	{ UK_ENTER, 0, NULL, "toggle / edit field", act_enter, false },
	{ 'r', UK_F5, "r/F5", "run", act_start, true },
	{ 'a', 0, NULL, "all / none", act_all, false },
	{ 'p', 0, NULL, "next preset", act_preset, true },
	{ 'H', 0, NULL, "history", act_history, true },
	{ 'P', 0, NULL, "A/B plans across reboots", act_plans, false },
	{ 'C', 0, NULL, "calibrate this machine", act_calibrate, false },
	{ 'q', 0, NULL, "quit", act_quit, true },
};
static const struct key_table setup_table = KEY_TABLE("Setup", setup_keys);

static unsigned setup_key(struct app *a, int ch)
{
	if (ch == UK_MOUSE) {
		int mx, my;
		term_mouse(&mx, &my);
		int row = my - 2 + top;
		if (mx < a->canvas.w * 6 / 10 && row >= 0 && row < nitems && items[row].test >= 0) {
			pane = 0;
			cursor = row;
			return act_toggle(a);
		}
	}
	return 0;
}

/* ---- drawing ---- */

static void draw_tests(struct app *a, struct canvas *c, int x, int y, int w, int rows)
{
	canvas_rule(c, x, y, w, ROLE_BORDER, "Tests", pane == 0 ? ROLE_RUNNING : ROLE_HEADER);
	y++;
	if (cursor < top + 1)
		top = cursor - 1 < 0 ? 0 : cursor - 1;
	if (cursor >= top + rows)
		top = cursor - rows + 1;
	struct fmt_col cols[] = { { 3, 3, false }, { 12, 60, false }, { 5, 5, true }, { 7, 8, true } };
	int wd[4];
	fmt_columns(cols, 4, w - 1, wd);
	for (int r = 0; r < rows && top + r < nitems; r++) {
		const struct item *it = &items[top + r];
		int yy = y + r;
		if (it->test < 0) {
			canvas_text(c, x, yy, ROLE_HEADER, it->heading, w);
			continue;
		}
		const struct test_def *t = &test_table[it->test];
		bool sel = top + r == cursor;
		int role = sel && pane == 0 ? ROLE_SELECTED : ROLE_NORMAL;
		char buf[128], label[64];
		int xx = x + 1;
		canvas_text(c, xx, yy, role, app_chosen(a, (size_t)it->test) ? "[x]" : "[ ]", -1);
		xx += wd[0] + 1;
		/* the label the run will have (timerlat's names the period asked) */
		fmt_fit(buf, sizeof buf, test_label(t, a->req.params, label, sizeof label), wd[1], FMT_LEFT);
		canvas_text(c, xx, yy, role, buf, -1);
		xx += wd[1] + 1;
		if (wd[2]) {
			fmt_fit(buf, sizeof buf, t->unit, wd[2], FMT_LEFT);
			canvas_text(c, xx, yy, sel && pane == 0 ? role : ROLE_DIM, buf, -1);
			xx += wd[2] + 1;
		}
		if (wd[3]) {
			char len[32];
			snprintf(len, sizeof len, "%gs x%d", t->seconds, t->samples);
			fmt_fit(buf, sizeof buf, len, wd[3], FMT_RIGHT);
			canvas_text(c, xx, yy, sel && pane == 0 ? role : ROLE_DIM, buf, -1);
		}
		if (sel && pane == 0)
			canvas_paint(c, x, yy, w, ROLE_SELECTED);
	}
}

static void draw_field(struct app *a, struct canvas *c, int x, int y, int w, int f,
		       const char *name, const char *value)
{
	bool sel = pane == 1 && field == f;
	int role = sel ? ROLE_SELECTED : ROLE_NORMAL;
	canvas_fill(c, x, y, w, role, ' ');
	canvas_text(c, x + 1, y, sel ? role : ROLE_DIM, name, 12);
	char buf[96];
	snprintf(buf, sizeof buf, "%s %s %s", c->utf8 ? "◀" : "<", value, c->utf8 ? "▶" : ">");
	canvas_text(c, x + 13, y, role, buf, w - 14);
}

static void draw_fields(struct app *a, struct canvas *c, int x, int y, int w, int rows)
{
	canvas_rule(c, x, y, w, ROLE_BORDER, "Run", pane == 1 ? ROLE_RUNNING : ROLE_HEADER);
	char v[96];
	int n = sysinfo_ncpus();
	int preset = preset_of(a); /* -1: custom */
	const struct setup_mode *pm;
	draw_field(a, c, x, y + 1, w, F_PRESET, "Preset", preset < 0 ? "custom" : setup_preset_at(preset, &pm)->name);
	v[0] = '\0';
	for (int i = 0; i < a->req.run.ncopies; i++)
		snprintf(v + strlen(v), sizeof v - strlen(v), "%s%d", i ? "," : "", a->req.run.copies[i]);
	if (a->req.run.ncopies == 1 && a->req.run.copies[0] == n && n > 1)
		snprintf(v + strlen(v), sizeof v - strlen(v), " (all)");
	draw_field(a, c, x, y + 2, w, F_COPIES, "Copies", v);
	const struct setup_mode *m = setup_mode_of(a);
	m->samples_value(a, v, sizeof v);
	draw_field(a, c, x, y + 3, w, F_SAMPLES, m->samples_name, v);
	m->length_value(a, v, sizeof v);
	draw_field(a, c, x, y + 4, w, F_LENGTH, "Sample len", v);
	m->pause_value(a, v, sizeof v);
	draw_field(a, c, x, y + 5, w, F_PAUSE, m->pause_name, v);
	compare_label(a, v, sizeof v);
	draw_field(a, c, x, y + 6, w, F_COMPARE, "Compare", v);

	static struct run_request rq;
	app_request(a, &rq);
	struct runner_opts o = *run_request_opts(&rq);
	char est[32];
	fmt_duration(est, sizeof est, runner_estimate(&o));
	canvas_text(c, x + 1, y + 8, ROLE_DIM, "Estimate", -1);
	canvas_printf(c, x + 13, y + 8, ROLE_HEADER, "%s", est);
	/* under the label too: at 80 columns the value column is too narrow for it */
	char what[64], once[64] = "";
	m->plan(&o, what, sizeof what, once, sizeof once);
	fmt_fit(v, sizeof v, what, w - 2, FMT_LEFT);
	canvas_text(c, x + 1, y + 9, ROLE_DIM, v, w - 2);
	if (once[0]) {
		fmt_fit(v, sizeof v, once, w - 2, FMT_LEFT);
		canvas_text(c, x + 1, y + 10, ROLE_DIM, v, w - 2);
	}
	bool sel = pane == 1 && field == F_START;
	canvas_text(c, x + 13, y + 11, sel ? ROLE_SELECTED : ROLE_KEY, "[ Start ]", -1);

	/* the test under the cursor, in a sentence */
	if (rows > 14 && cursor < nitems && items[cursor].test >= 0) {
		const struct test_def *t = &test_table[items[cursor].test];
		canvas_rule(c, x, y + 13, w, ROLE_BORDER, t->id, ROLE_HEADER);
		const char *s = t->about;
		int yy = y + 14;
		while (s && *s && yy < y + rows) {
			int len = (int)strlen(s), cut = len > w - 2 ? w - 2 : len;
			if (cut < len)
				while (cut > 0 && s[cut] != ' ')
					cut--;
			if (cut <= 0)
				cut = w - 2 < len ? w - 2 : len;
			char line[128];
			snprintf(line, sizeof line, "%.*s", cut, s);
			canvas_text(c, x + 1, yy++, ROLE_NORMAL, line, w - 2);
			s += cut;
			while (*s == ' ')
				s++;
		}
		if (yy < y + rows && t->baseline > 0)
			canvas_printf(c, x + 1, yy, ROLE_DIM, "baseline %g %s", t->baseline, t->unit);
	}
}

static void setup_draw(struct app *a, struct canvas *c)
{
	struct utsname u;
	char right[200];
	if (uname(&u) < 0)
		snprintf(u.release, sizeof u.release, "?");
	snprintf(right, sizeof right, "Linux %s %s %d CPU%s", u.release, c->utf8 ? "·" : "-",
		 sysinfo_ncpus(), sysinfo_ncpus() == 1 ? "" : "s");
	app_draw_title(a, c, "Setup", right);
	int rows = c->h - 4; /* title, rule, message, key bar */
	int lw = c->w * 6 / 10;
	draw_tests(a, c, 0, 1, lw, rows);
	draw_fields(a, c, lw + 1, 1, c->w - lw - 1, rows);
}

const struct screen_ops screen_setup = {
	.name = "setup",
	.enter = setup_enter,
	.draw = setup_draw,
	.key = setup_key,
	.leave = setup_leave,
	.keys = &setup_table,
};
