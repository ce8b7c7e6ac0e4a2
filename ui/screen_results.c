/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results screen: its keys and actions, and the comparison it shows against a stored run (results_draw.c draws it). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "compare.h"
#include "format.h"
#include "noise.h"
#include "report_html.h"
#include "run.h"
#include "runner.h"
#include "screen_results_int.h"
#include "store.h"

/* The screen's state (one console, one results screen), its own: drawing gets it passed. */
static struct results_state shown, *const rs = &shown;

static int by_change_cmp(const void *x, const void *y)
{
	const struct line *a = x, *b = y;
	double ca = isnan(a->change) ? -1e300 : a->change, cb = isnan(b->change) ? -1e300 : b->change;
	return ca < cb ? 1 : ca > cb ? -1 : 0;
}

/* The table's lines, again whenever the console's comparison changed (it is the session's:
 * the screen draws it, never makes it). */
static void build_lines(struct app *a)
{
	int max = (int)(sizeof rs->lines / sizeof rs->lines[0]);
	rs->cmp = a->cmp;
	rs->cmp_why = a->cmp_why;
	rs->nlines = 0;
	if (rs->cmp) {
		/* a curve's points have verdicts too, but the table shows the headlines */
		for (int b = 0; b < rs->cmp->nblocks; b++)
			for (int r = 0; r < rs->cmp->blocks[b].nrows && rs->nlines < max; r++)
				if (!rs->cmp->blocks[b].rows[r].detail) {
					const struct compare_row *row = &rs->cmp->blocks[b].rows[r];
					double gain = row->lower_better ? -row->change : row->change;
					rs->lines[rs->nlines++] = (struct line){ b, r, gain, -1, 0 };
				}
	} else if (a->run) {
		for (int b = 0; b < a->run->nblocks; b++)
			for (int t = 0; t < a->run->blocks[b].ntests && rs->nlines < max; t++) {
				const struct test_result *tr = &a->run->blocks[b].tests[t];
				int np = 0;
				for (int p = 0; p < tr->npoints && rs->nlines < max; p++)
					if (tr->points[p].summary) {
						rs->lines[rs->nlines++] = (struct line){ b, t, NAN, p, 0 };
						np++;
					}
				if (!np && rs->nlines < max)
					rs->lines[rs->nlines++] = (struct line){ b, t, NAN, -1, 0 };
			}
	}
	if (rs->by_change && rs->cmp)
		qsort(rs->lines, (size_t)rs->nlines, sizeof rs->lines[0], by_change_cmp);
	/* what a run refused to measure (a load that did not fit), after the rows */
	for (int b = 0; a->run && b < a->run->nblocks; b++)
		for (int t = 0; t < a->run->blocks[b].ntests; t++) {
			const struct test_result *tr = &a->run->blocks[b].tests[t];
			for (int k = 0; k < tr->nsummary && rs->nlines < max; k++)
				if (tr->summary[k].role == KV_REFUSED && tr->summary[k].text[0])
					rs->lines[rs->nlines++] = (struct line){ b, t, NAN, -1, k + 1 };
		}
}

static void results_enter(struct app *a)
{
	rs->top = 0;
	build_lines(a);
}

/* ---- keys ---- */

static unsigned act_up(struct app *a)
{
	if (rs->top > 0)
		rs->top--;
	return 0;
}

static unsigned act_down(struct app *a)
{
	if (rs->top + 1 < rs->nlines)
		rs->top++;
	return 0;
}

static unsigned act_sort(struct app *a)
{
	rs->by_change = !rs->by_change;
	build_lines(a);
	app_message(a, ROLE_NORMAL, rs->by_change ? "Sorted by change, largest gain first." : "In run order.");
	return 0;
}

static unsigned act_switch(struct app *a)
{
	/* the next stored run after the current base (none at the end) */
	char err[300];
	struct store_list l;
	if (store_list(&l, err, sizeof err) < 0) {
		app_message(a, ROLE_WARN, "%s", err);
		return 0;
	}
	int at = -1;
	for (int i = 0; i < l.n && a->base; i++)
		if (!strcmp(l.e[i].id, a->base->meta.id))
			at = i;
	struct run *next = NULL;
	for (int i = at + 1; i < l.n && !next; i++) {
		if (l.e[i].error || !strcmp(l.e[i].id, a->run->meta.id))
			continue;
		/* a file that went bad since it was indexed is passed over like a broken one */
		next = store_entry_load(&l.e[i], err, sizeof err);
	}
	store_list_free(&l);
	if (a->base)
		run_free(a->base);
	a->base = next;
	snprintf(a->base_why, sizeof a->base_why, "no comparison (c cycles through the stored runs)");
	app_compare(a);
	rs->top = 0;
	build_lines(a);
	return 0;
}

static void do_save(struct app *a, bool quiet)
{
	char err[400];
	if (a->run_saved) {
		/* a rename: the store never overwrites, so the old file goes first */
		char id[16];
		store_delete(a->run->meta.id, id, sizeof id, err, sizeof err);
	}
	if (!store_worth_saving(a->run, err, sizeof err) || store_save(a->run, err, sizeof err) != 0) {
		app_message(a, ROLE_WARN, "not saved: %s", err);
		return;
	}
	a->run_saved = true;
	/* the store changed: the floors the comparison learned from it may have */
	app_compare(a);
	build_lines(a);
	if (!quiet)
		app_message(a, ROLE_DONE, "Saved as %s (%s) in %s.", a->run->meta.id, a->run->meta.name,
			    store_dir());
}

static unsigned act_save(struct app *a)
{
	if (a->replay)
		return 0;
	if (a->run_saved) {
		app_message(a, ROLE_NORMAL, "Already saved as %s.", a->run->meta.id);
		return 0;
	}
	do_save(a, false);
	return 0;
}

static void in_name(struct app *a, const char *s)
{
	if (!*s || strpbrk(s, ",/\t\n") || strlen(s) >= sizeof a->run->meta.name) {
		app_message(a, ROLE_WARN, "A name is short, without ',' or '/'.");
		return;
	}
	snprintf(a->run->meta.name, sizeof a->run->meta.name, "%s", s);
	if (a->run_saved)
		do_save(a, false);
	else
		app_message(a, ROLE_NORMAL, "Named %s (not saved yet: s saves).", s);
}

static unsigned act_rename(struct app *a)
{
	if (a->replay || !a->run)
		return 0;
	app_prompt(a, "Name:", a->run->meta.name, in_name);
	return 0;
}

static unsigned act_setup(struct app *a)
{
	app_goto(a, &screen_setup);
	return 0;
}

static unsigned act_history(struct app *a)
{
	app_goto(a, &screen_history);
	return 0;
}

static unsigned calibrate_yes(struct app *a)
{
	if (!a->run_saved)
		do_save(a, true);
	app_calibrate(a, CALIBRATE_RUNS);
	return 0;
}

static unsigned act_calibrate(struct app *a)
{
	if (a->replay || !a->run) {
		app_message(a, ROLE_NORMAL, "A replay does not calibrate: use kbench calibrate, or C in a live console.");
		return 0;
	}
	static struct run_request rq;
	app_calibrate_request(a, &rq);
	struct runner_opts o = *run_request_opts(&rq);
	char est[16];
	fmt_duration(est, sizeof est, runner_estimate(&o) * CALIBRATE_RUNS);
	static char q[160];
	snprintf(q, sizeof q, "Calibrate: %d runs of these %d test%s, %d cop%s, ~%s%s? y/n", CALIBRATE_RUNS,
		 o.ntests, o.ntests == 1 ? "" : "s", o.copies[0], o.copies[0] == 1 ? "y" : "ies", est,
		 a->run_saved ? "" : " (saves this run first)");
	app_ask(a, q, calibrate_yes);
	return 0;
}

/* The directory a report goes to: where kbench was started, as a
 * screenshot tool would; the store's reports/ when that is not writable. */
static int report_dir(char *dir, size_t size)
{
	if (getcwd(dir, size) && access(dir, W_OK) == 0)
		return 0;
	snprintf(dir, size, "%s/reports", store_dir());
	if (mkdir(store_dir(), 0755) < 0 && errno != EEXIST)
		return -1;
	return mkdir(dir, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static unsigned act_report(struct app *a)
{
	if (!a->run)
		return 0;
	char dir[4096], path[4400], err[600], shown[4096];
	if (report_dir(dir, sizeof dir) < 0) {
		app_message(a, ROLE_WARN, "No report: cannot write here nor in %s: %s", dir, strerror(errno));
		return 0;
	}
	char name[64];
	snprintf(name, sizeof name, "kbench-%s%s%s.html", a->run->meta.id[0] ? a->run->meta.id : "unsaved",
		 a->cmp && a->base ? "-vs-" : "", a->cmp && a->base ? a->base->meta.id : "");
	snprintf(path, sizeof path, "%s/%s", dir, name);
	/* the comparison on screen: the same call, the same store floors */
	const struct run *base[1] = { a->base };
	struct compare_opts o = { 0 };
	if (report_html_save(path, a->run, base, a->cmp && a->base ? 1 : 0, &o, err, sizeof err) < 0) {
		app_message(a, ROLE_WARN, "No report: %s", err);
		return 0;
	}
	/* the status line's width: the file's name whole, the directory shortened to fit */
	int room = a->canvas.w - 2 - canvas_strwidth("Report:  in ") - canvas_strwidth(name);
	fmt_path(shown, sizeof shown, dir, getenv("HOME"), room > 8 ? room : 8, a->canvas.utf8);
	app_message(a, ROLE_DONE, "Report: %s in %s", name, shown);
	return 0;
}

static unsigned quit_yes(struct app *a)
{
	return UI_QUIT;
}

static unsigned act_quit(struct app *a)
{
	/* nothing measured: nothing to lose, and s would not save it */
	if (a->run && !a->run_saved && !a->replay && store_worth_saving(a->run, NULL, 0)) {
		app_ask(a, "This run is not saved. Quit anyway? (y/n; s saves)", quit_yes);
		return 0;
	}
	return UI_QUIT;
}

static const struct key_def results_keys[] = {
	{ UK_UP, 'k', NULL, "scroll up", act_up, false },
	{ UK_DOWN, 'j', NULL, "scroll down", act_down, false },
	{ 'c', 0, NULL, "compare with next", act_switch, true },
	{ 'o', 0, NULL, "sort by change", act_sort, true },
	{ 's', 0, NULL, "save", act_save, true },
	{ 'n', 0, NULL, "rename", act_rename, true },
	{ 'N', 0, NULL, "new run (setup)", act_setup, false },
	{ 'H', 0, NULL, "history", act_history, true },
	/* Not in the bar either: the help lists it. */
	{ 'r', 0, NULL, "HTML report to a file", act_report, false },
	/* Not in the bar (it is full at 80 columns): the line under the rule offers it. */
	{ 'C', 0, NULL, "calibrate this machine", act_calibrate, false },
	{ 'q', 0, NULL, "quit", act_quit, true },
};
static const struct key_table results_table = KEY_TABLE("Results", results_keys);

/* ---- drawing ---- */

static void draw(struct app *a, struct canvas *c)
{
	results_draw(a, rs, c);
}

const struct screen_ops screen_results = {
	.name = "results",
	.enter = results_enter,
	.draw = draw,
	.keys = &results_table,
};
