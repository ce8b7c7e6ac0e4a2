/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The history screen: the stored runs, to open one, compare two, or delete one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "format.h"
#include "run.h"
#include "store.h"

/* The list is read from the index a window at a time, around the rows on
 * screen: ten thousand stored runs are never all in memory, and the screen
 * opens after one count and one page. */
static struct store_list win; /* entries win_off .. win_off + win.n - 1 of the list */
static long win_off, total;
static int want = 128;        /* entries a window holds: a few screens */
static bool loaded;
static char why[300];
static long cursor, top, marked = -1;
static struct store_entry mark; /* the marked run (its file kept): the base when another opens */
static int page = 10;         /* rows the last draw showed: PgUp/PgDn move by it */
static char needle[96];       /* the last '/' search; n finds the next */

static void forget_mark(void)
{
	free(mark.file);
	free(mark.error);
	memset(&mark, 0, sizeof mark);
	marked = -1;
}

/* The entry at position i of the list, its window read when not at hand;
 * NULL past the end (or when the store cannot be read: why says so). */
static const struct store_entry *entry_at(long i)
{
	if (!loaded || i < 0 || i >= total)
		return NULL;
	if (i < win_off || i >= win_off + win.n) {
		store_list_free(&win);
		win_off = i > want / 4 ? i - want / 4 : 0;
		if (store_page(win_off, want, &win, why, sizeof why) < 0) {
			loaded = false;
			return NULL;
		}
		if (i >= win_off + win.n)
			return NULL; /* the store shrank since it was counted */
	}
	return &win.e[i - win_off];
}

static void reload(void)
{
	store_list_free(&win);
	win_off = 0;
	loaded = store_count(&total, why, sizeof why) == 0;
	if (!loaded)
		total = 0;
	if (cursor >= total)
		cursor = total ? total - 1 : 0;
	forget_mark();
}

static void history_enter(struct app *a)
{
	reload();
}

static void history_leave(struct app *a)
{
	store_list_free(&win);
	forget_mark();
	loaded = false;
}

static unsigned act_up(struct app *a)
{
	if (cursor > 0)
		cursor--;
	return 0;
}

static unsigned act_down(struct app *a)
{
	if (loaded && cursor + 1 < total)
		cursor++;
	return 0;
}

static unsigned act_pgup(struct app *a)
{
	cursor = cursor > page ? cursor - page : 0;
	return 0;
}

static unsigned act_pgdn(struct app *a)
{
	if (loaded && total)
		cursor = cursor + page < total ? cursor + page : total - 1;
	return 0;
}

static unsigned act_home(struct app *a)
{
	cursor = 0;
	return 0;
}

static unsigned act_end(struct app *a)
{
	if (loaded && total)
		cursor = total - 1;
	return 0;
}

/* The next run after the cursor (wrapping) whose id, name, kernel, host or
 * tests hold the text: the index searches, not a loop over every run. */
static void find_next(struct app *a)
{
	if (!loaded || !total || !needle[0])
		return;
	char err[300];
	long found;
	if (store_find(cursor, needle, &found, err, sizeof err) < 0) {
		app_message(a, ROLE_WARN, "%s", err);
		return;
	}
	if (found < 0) {
		app_message(a, ROLE_WARN, "No stored run's id, name, kernel, host or tests hold '%s'.", needle);
		return;
	}
	cursor = found;
	app_message(a, ROLE_NORMAL, "'%s': run %ld of %ld (n: the next match).", needle, found + 1, total);
}

static void in_find(struct app *a, const char *text)
{
	snprintf(needle, sizeof needle, "%s", text);
	find_next(a);
}

static unsigned act_find(struct app *a)
{
	app_prompt(a, "Find:", needle, in_find);
	return 0;
}

static unsigned act_find_next(struct app *a)
{
	if (!needle[0])
		return act_find(a);
	find_next(a);
	return 0;
}

static unsigned act_open(struct app *a)
{
	const struct store_entry *e = entry_at(cursor);
	if (!e)
		return 0;
	if (e->error) {
		app_message(a, ROLE_WARN, "%s", e->error);
		return 0;
	}
	/* the list holds the index's summaries: the runs are read now, the two opened only */
	char err[300];
	bool two = marked >= 0 && marked != cursor && !mark.error;
	struct run *run = store_entry_load(e, err, sizeof err), *base = NULL;
	if (run && two)
		base = store_entry_load(&mark, err, sizeof err); /* compare two: the marked one is the base */
	if (!run || (two && !base)) {
		run_free(run);
		app_message(a, ROLE_WARN, "%s", err);
		return 0;
	}
	if (a->run)
		run_free(a->run);
	if (a->base)
		run_free(a->base);
	a->base = base;
	a->run = run;
	a->run_saved = true;
	a->replay = false;
	if (!a->base)
		app_pick_base(a);
	else
		app_compare(a);
	app_goto(a, &screen_results);
	return 0;
}

static unsigned act_mark(struct app *a)
{
	const struct store_entry *e = entry_at(cursor);
	if (!e)
		return 0;
	if (marked == cursor) {
		forget_mark();
		return 0;
	}
	forget_mark();
	mark = *e;
	if (!(mark.file = strdup(e->file)) || (e->error && !(mark.error = strdup(e->error))))
		abort();
	marked = cursor;
	app_message(a, ROLE_NORMAL, "Marked %s as the base: Enter on another run compares the two.", mark.id);
	return 0;
}

static char doomed[16]; /* the id the delete question names */

static unsigned delete_yes(struct app *a)
{
	char err[300], id[16];
	if (store_delete(doomed, id, sizeof id, err, sizeof err) < 0)
		app_message(a, ROLE_WARN, "%s", err);
	else
		app_message(a, ROLE_NORMAL, "Deleted %s.", id);
	app_compare(a); /* the shown run's comparison learned its floors from the store */
	reload();
	return 0;
}

static unsigned act_delete(struct app *a)
{
	const struct store_entry *e = entry_at(cursor);
	if (!e)
		return 0;
	char q[160];
	snprintf(doomed, sizeof doomed, "%s", e->id);
	snprintf(q, sizeof q, "Delete stored run %s for good? (y/n)", doomed);
	app_ask(a, q, delete_yes);
	return 0;
}

static unsigned act_back(struct app *a)
{
	app_goto(a, a->run ? &screen_results : &screen_setup);
	return 0;
}

static const struct key_def history_keys[] = {
	{ UK_UP, 'k', NULL, "previous run", act_up, false },
	{ UK_DOWN, 'j', NULL, "next run", act_down, false },
	{ UK_PGUP, 0, "PgUp", "a page up", act_pgup, false },
	{ UK_PGDN, 0, "PgDn", "a page down", act_pgdn, false },
	{ UK_HOME, 'g', "Home", "the newest run", act_home, false },
	{ UK_END, 'G', "End", "the oldest run", act_end, false },
	{ '/', 0, "/", "find a run by id, name, kernel, host or test", act_find, false },
	{ 'n', 0, "n", "the next run found", act_find_next, false },
	{ UK_ENTER, 0, NULL, "open", act_open, true },
	{ ' ', 0, NULL, "mark to compare", act_mark, true },
	{ 'd', UK_DELETE, "d", "delete", act_delete, true },
	{ 'q', UK_ESC, "q", "back", act_back, true },
};
static const struct key_table history_table = KEY_TABLE("History", history_keys);

static void history_draw(struct app *a, struct canvas *c)
{
	char right[300];
	/* the store's path beside "kbench VERSION │ History": its end (the store) always shows */
	int room =
		c->w - 2 - canvas_strwidth("kbench  | History") - canvas_strwidth(app_title_version()) - 2;
	fmt_path(right, sizeof right, store_dir(), getenv("HOME"), room > 8 ? room : 8, c->utf8);
	app_draw_title(a, c, "History", right);
	canvas_rule(c, 0, 1, c->w, ROLE_BORDER, "Stored runs", ROLE_HEADER);
	if (!loaded) {
		canvas_text(c, 1, 2, ROLE_WARN, why, c->w - 2);
		return;
	}
	if (total == 0) {
		canvas_text(c, 1, 3, ROLE_DIM, "No stored runs yet: a finished run is saved with s on its results.", -1);
		return;
	}
	struct fmt_col cols[] = { { 1, 1, false }, { 8, 8, false }, { 10, 16, false }, { 10, 30, true },
				  { 11, 16, false }, { 6, 8, false }, { 8, 8, false }, { 13, 16, false } };
	int wd[8];
	fmt_columns(cols, 8, c->w - 2, wd);
	static const char *const head[] = { "", "id", "name", "kernel", "date", "copies", "mode", "index/tests" };
	int x = 1;
	for (int i = 0; i < 8; i++) {
		char buf[64];
		if (!wd[i])
			continue;
		fmt_fit(buf, sizeof buf, head[i], wd[i], FMT_LEFT);
		canvas_text(c, x, 2, ROLE_HEADER, buf, -1);
		x += wd[i] + 1;
	}
	int rows = c->h - 5;
	page = rows > 1 ? rows - 1 : 1;
	want = rows * 3 > 128 ? rows * 3 : 128;
	if (cursor < top)
		top = cursor;
	if (cursor >= top + rows)
		top = cursor - rows + 1;
	for (long i = top; i < total && i - top < rows; i++) {
		const struct store_entry *e = entry_at(i);
		if (!e)
			break;
		int y = 3 + (int)(i - top);
		bool sel = i == cursor;
		int role = sel ? ROLE_SELECTED : ROLE_NORMAL;
		char buf[200], v[160];
		x = 1;
		canvas_text(c, x, y, ROLE_RUNNING, i == marked ? "*" : " ", 1);
		x += wd[0] + 1;
		fmt_fit(buf, sizeof buf, e->id, wd[1], FMT_LEFT);
		canvas_text(c, x, y, role, buf, -1);
		x += wd[1] + 1;
		if (e->error) {
			canvas_text(c, x, y, ROLE_FAILED, e->error, c->w - x - 1);
			continue;
		}
		fmt_fit(buf, sizeof buf, e->name, wd[2], FMT_LEFT);
		canvas_text(c, x, y, role, buf, -1);
		x += wd[2] + 1;
		if (wd[3]) {
			fmt_fit(buf, sizeof buf, e->kernel, wd[3], FMT_LEFT);
			canvas_text(c, x, y, ROLE_DIM, buf, -1);
			x += wd[3] + 1;
		}
		struct tm tm;
		time_t d = e->date;
		localtime_r(&d, &tm);
		strftime(v, sizeof v, wd[4] >= 16 ? "%Y-%m-%d %H:%M" : "%m-%d %H:%M", &tm);
		canvas_text(c, x, y, ROLE_DIM, v, wd[4]);
		x += wd[4] + 1;
		v[0] = '\0';
		for (int b = 0; b < e->nblocks && b < STORE_LIST_BLOCKS; b++)
			snprintf(v + strlen(v), sizeof v - strlen(v), "%s%d", b ? "," : "", e->blocks[b].copies);
		fmt_fit(buf, sizeof buf, v, wd[5], FMT_LEFT);
		canvas_text(c, x, y, ROLE_NORMAL, buf, -1);
		x += wd[5] + 1;
		/* how it was made: a thermal check's partial index is not a short run's */
		if (wd[6]) {
			fmt_fit(buf, sizeof buf, run_mode_info(run_mode_parse(e->mode))->name, wd[6], FMT_LEFT);
			canvas_text(c, x, y, ROLE_DIM, buf, -1);
			x += wd[6] + 1;
		}
		v[0] = '\0';
		bool any_index = false;
		for (int b = 0; b < e->nblocks && b < STORE_LIST_BLOCKS; b++) {
			char n[32];
			double ix = e->blocks[b].index_score;
			any_index |= ix > 0;
			fmt_number(n, sizeof n, ix > 0 ? ix : -1, 7);
			snprintf(v + strlen(v), sizeof v - strlen(v), "%s%s", b ? " " : "", n);
		}
		/* no index (memlat, timerlat, ...): the tests say what the run was */
		if (!any_index && e->nblocks)
			snprintf(v, sizeof v, "%s", e->tests);
		fmt_fit(buf, sizeof buf, v, wd[7], FMT_LEFT);
		canvas_text(c, x, y, any_index ? ROLE_HEADER : ROLE_DIM, buf, -1);
		if (sel)
			canvas_paint(c, 1, y, c->w - 2, ROLE_SELECTED);
	}
}

const struct screen_ops screen_history = {
	.name = "history",
	.enter = history_enter,
	.draw = history_draw,
	.leave = history_leave,
	.keys = &history_table,
};
