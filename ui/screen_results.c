/* The results screen: big index scores, and the compare module's side-by-side table against a stored run. */
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
#include "store.h"

static struct compare *cmp;
static char cmp_why[300];
static bool by_change;
static int top;

/* A row of the table: a compare row, or (no comparison) a test of the run. */
struct line {
	int block, row;
	double change; /* as a gain: a latency or time that fell is positive */
	int point; /* no comparison, a points test: its headline point; else -1 */
	/* 1 + the index of a summary of test (block, row) of the run (not of the
	 * comparison) that says a part was refused ("mem_load refused: needs
	 * ..."), shown as a line of its own after the rows; 0 a row */
	int note;
};
static struct line lines[RUNNER_MAX_BLOCKS * RUNNER_MAX_TESTS + 8];
static int nlines;

static int by_change_cmp(const void *x, const void *y)
{
	const struct line *a = x, *b = y;
	double ca = isnan(a->change) ? -1e300 : a->change, cb = isnan(b->change) ? -1e300 : b->change;
	return ca < cb ? 1 : ca > cb ? -1 : 0;
}

static void build_lines(struct app *a)
{
	int max = (int)(sizeof lines / sizeof lines[0]);
	nlines = 0;
	if (cmp) {
		/* a curve's points have verdicts too, but the table shows the headlines */
		for (int b = 0; b < cmp->nblocks; b++)
			for (int r = 0; r < cmp->blocks[b].nrows && nlines < max; r++)
				if (!cmp->blocks[b].rows[r].detail) {
					const struct compare_row *row = &cmp->blocks[b].rows[r];
					double gain = row->lower_better ? -row->change : row->change;
					lines[nlines++] = (struct line){ b, r, gain, -1, 0 };
				}
	} else if (a->run) {
		for (int b = 0; b < a->run->nblocks; b++)
			for (int t = 0; t < a->run->blocks[b].ntests && nlines < max; t++) {
				const struct test_result *tr = &a->run->blocks[b].tests[t];
				int np = 0;
				for (int p = 0; p < tr->npoints && nlines < max; p++)
					if (tr->points[p].summary) {
						lines[nlines++] = (struct line){ b, t, NAN, p, 0 };
						np++;
					}
				if (!np && nlines < max)
					lines[nlines++] = (struct line){ b, t, NAN, -1, 0 };
			}
	}
	if (by_change && cmp)
		qsort(lines, (size_t)nlines, sizeof lines[0], by_change_cmp);
	/* what a run refused to measure (a load that did not fit), after the rows */
	for (int b = 0; a->run && b < a->run->nblocks; b++)
		for (int t = 0; t < a->run->blocks[b].ntests; t++) {
			const struct test_result *tr = &a->run->blocks[b].tests[t];
			for (int k = 0; k < tr->nsummary && nlines < max; k++)
				if (!strncmp(tr->summary[k].key, "refused ", 8) && tr->summary[k].text[0])
					lines[nlines++] = (struct line){ b, t, NAN, -1, k + 1 };
		}
}

/* A note line (line.note): its text across the table, dim; true when it was one. */
static bool draw_note(const struct app *a, struct canvas *c, const struct line *l, int yy)
{
	if (!l->note)
		return false;
	const struct run_block *bl = &a->run->blocks[l->block];
	const struct kv *kv = &bl->tests[l->row].summary[l->note - 1];
	char buf[200];
	if (a->run->nblocks > 1)
		snprintf(buf, sizeof buf, "%s: %s (%d cop%s)", bl->tests[l->row].id, kv->text, bl->copies,
			 bl->copies == 1 ? "y" : "ies");
	else
		snprintf(buf, sizeof buf, "%s: %s", bl->tests[l->row].id, kv->text);
	canvas_text(c, 1, yy, ROLE_WARN, buf, c->w - 2);
	return true;
}

static void recompare(struct app *a)
{
	if (cmp)
		compare_free(cmp);
	cmp = NULL;
	cmp_why[0] = '\0';
	if (a->run && a->base) {
		/* The same call as kbench compare: floors learned from the store. */
		const struct run *ra[1] = { a->base }, *rb[1] = { a->run };
		struct compare_opts o = { 0 };
		cmp = compare_stored(ra, 1, rb, 1, &o, cmp_why, sizeof cmp_why);
	} else {
		snprintf(cmp_why, sizeof cmp_why, "%s", a->base_why[0] ? a->base_why : "no stored run to compare with");
	}
	top = 0;
	build_lines(a);
}

static void results_enter(struct app *a)
{
	recompare(a);
}

static void results_leave(struct app *a)
{
	if (cmp)
		compare_free(cmp);
	cmp = NULL;
}

/* ---- keys ---- */

static unsigned act_up(struct app *a)
{
	if (top > 0)
		top--;
	return UI_REDRAW;
}

static unsigned act_down(struct app *a)
{
	if (top + 1 < nlines)
		top++;
	return UI_REDRAW;
}

static unsigned act_sort(struct app *a)
{
	by_change = !by_change;
	build_lines(a);
	app_message(a, ROLE_NORMAL, by_change ? "Sorted by change, largest gain first." : "In run order.");
	return UI_REDRAW;
}

static unsigned act_switch(struct app *a)
{
	/* the next stored run after the current base (none at the end) */
	char err[300];
	struct store_list l;
	if (store_list(&l, err, sizeof err) < 0) {
		app_message(a, ROLE_WARN, "%s", err);
		return UI_REDRAW;
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
	recompare(a);
	return UI_REDRAW;
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
		return UI_REDRAW;
	}
	do_save(a, false);
	return UI_REDRAW;
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
	return UI_REDRAW;
}

static unsigned act_setup(struct app *a)
{
	app_goto(a, &screen_setup);
	return UI_REDRAW;
}

static unsigned act_history(struct app *a)
{
	app_goto(a, &screen_history);
	return UI_REDRAW;
}

static unsigned calibrate_yes(struct app *a)
{
	if (!a->run_saved)
		do_save(a, true);
	app_calibrate(a, CALIBRATE_RUNS);
	return UI_REDRAW;
}

static unsigned act_calibrate(struct app *a)
{
	if (a->replay || !a->run) {
		app_message(a, ROLE_NORMAL, "A replay does not calibrate: use kbench calibrate, or C in a live console.");
		return UI_REDRAW;
	}
	struct runner_opts o;
	app_calibrate_opts(a, &o);
	char est[16];
	fmt_duration(est, sizeof est, runner_estimate(&o) * CALIBRATE_RUNS);
	static char q[160];
	snprintf(q, sizeof q, "Calibrate: %d runs of these %d test%s, %d cop%s, ~%s%s? y/n", CALIBRATE_RUNS,
		 o.ntests, o.ntests == 1 ? "" : "s", o.copies[0], o.copies[0] == 1 ? "y" : "ies", est,
		 a->run_saved ? "" : " (saves this run first)");
	app_ask(a, q, calibrate_yes);
	return UI_REDRAW;
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
		return UI_REDRAW;
	}
	char name[64];
	snprintf(name, sizeof name, "kbench-%s%s%s.html", a->run->meta.id[0] ? a->run->meta.id : "unsaved",
		 cmp && a->base ? "-vs-" : "", cmp && a->base ? a->base->meta.id : "");
	snprintf(path, sizeof path, "%s/%s", dir, name);
	/* the comparison on screen: the same call, the same store floors */
	const struct run *base[1] = { a->base };
	struct compare_opts o = { 0 };
	if (report_html_save(path, a->run, base, cmp && a->base ? 1 : 0, &o, err, sizeof err) < 0) {
		app_message(a, ROLE_WARN, "No report: %s", err);
		return UI_REDRAW;
	}
	/* the status line's width: the file's name whole, the directory shortened to fit */
	int room = a->canvas.w - 2 - canvas_strwidth("Report:  in ") - canvas_strwidth(name);
	fmt_path(shown, sizeof shown, dir, getenv("HOME"), room > 8 ? room : 8, a->canvas.utf8);
	app_message(a, ROLE_DONE, "Report: %s in %s", name, shown);
	return UI_REDRAW;
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
		return UI_REDRAW;
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

static int verdict_role(enum compare_verdict v)
{
	return v == VERDICT_FASTER ? ROLE_FASTER : v == VERDICT_SLOWER ? ROLE_SLOWER : ROLE_NOISE;
}

static const char *verdict_glyph(const struct canvas *c, enum compare_verdict v)
{
	int r = verdict_role(v);
	if (v == VERDICT_NA)
		return " ";
	return c->utf8 ? theme_roles[r].glyph : theme_roles[r].ascii;
}

static const char *verdict_word(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_FASTER: return "faster";
	case VERDICT_SLOWER: return "slower";
	case VERDICT_SAME: return "noise";
	default: return "n/a";
	}
}

/* The index scores in big digits, one panel per copy count (two fit at 80 columns). */
static int draw_big(struct app *a, struct canvas *c, int y)
{
	const struct run *r = a->run;
	int n = r->nblocks < 2 ? r->nblocks : 2;
	/* a run without a test of the index (memory latency, scaling, a build)
	 * has no index to show */
	bool indexed = false;
	for (int b = 0; b < r->nblocks; b++)
		indexed |= r->blocks[b].index_tests > 0 || r->blocks[b].index_score > 0;
	if (n == 0 || !indexed)
		return 0;
	int pw = c->w / n;
	for (int b = 0; b < n; b++) {
		const struct run_block *bl = &r->blocks[b];
		int x = b * pw + 1;
		char num[32], row[256];
		canvas_printf(c, x, y, ROLE_HEADER, "Index, %d cop%s%s", bl->copies,
			      bl->copies == 1 ? "y" : "ies", bl->index_partial ? " (partial)" : "");
		if (bl->index_score > 0)
			snprintf(num, sizeof num, "%.1f", bl->index_score);
		else
			snprintf(num, sizeof num, "-");
		for (int k = 0; k < FMT_BIG_ROWS; k++) {
			fmt_big_row(row, sizeof row, num, k, c->utf8);
			canvas_text(c, x, y + 1 + k, ROLE_BIG, row, pw - 2);
		}
		int nx = x + fmt_big_row(row, sizeof row, num, 0, c->utf8) + 1;
		const struct compare_block *cb = NULL;
		for (int i = 0; cmp && i < cmp->nblocks; i++)
			if (cmp->blocks[i].copies == bl->copies)
				cb = &cmp->blocks[i];
		if (cb && cb->in_a && cb->in_b && !isnan(cb->index.change)) {
			char ch[32];
			fmt_change(ch, sizeof ch, cb->index.change);
			int role = verdict_role(cb->index.verdict);
			canvas_printf(c, nx, y + 1, role, "%s %s", verdict_glyph(c, cb->index.verdict), ch);
			canvas_text(c, nx, y + 2, role, verdict_word(cb->index.verdict), pw - (nx - x) - 2);
			char was[32];
			fmt_number(was, sizeof was, cb->index.a.score, 8);
			canvas_printf(c, nx, y + 3, ROLE_DIM, "was %s", was);
		}
	}
	return 1 + FMT_BIG_ROWS;
}

/* Whether any point row of row's test (ids "test:point") has a label wider than width. */
static bool test_labels_too_wide(const struct line *ls, int n, const struct compare_row *row, int width)
{
	size_t tl = (size_t)(strchr(row->id, ':') - row->id);
	for (int i = 0; i < n; i++) {
		if (ls[i].note)
			continue;
		const struct compare_row *o = &cmp->blocks[ls[i].block].rows[ls[i].row];
		if (o->point && !strncmp(o->id, row->id, tl + 1) && canvas_strwidth(o->label) > width)
			return true;
	}
	return false;
}

static void draw_compare(struct app *a, struct canvas *c, int y, int rows)
{
	/* test, copies, this score, base score, change, ±, verdict, bar */
	struct fmt_col cols[] = { { 12, 44, false }, { 3, 3, false }, { 9, 10, false },
				  { 9, 10, false }, { 7, 7, false }, { 5, 6, true },
				  { 8, 8, true }, { 9, 30, true } };
	int wd[8];
	fmt_columns(cols, 8, c->w - 2, wd);
	static const char *const head[] = { "Test", "cp", "this", "base", "change", "±", "verdict", "" };
	int x = 1;
	for (int i = 0; i < 8; i++) {
		if (!wd[i])
			continue;
		char buf[64];
		const char *h = i == 5 && !c->utf8 ? "+-" : head[i];
		fmt_fit(buf, sizeof buf, h, wd[i], i >= 2 && i <= 5 ? FMT_RIGHT : FMT_LEFT);
		canvas_text(c, x, y, ROLE_HEADER, buf, -1);
		x += wd[i] + 1;
	}
	double maxc = 5;
	for (int i = 0; i < nlines; i++) {
		if (lines[i].note)
			continue;
		double ch = cmp->blocks[lines[i].block].rows[lines[i].row].change;
		if (!isnan(ch) && fabs(ch) > maxc)
			maxc = fabs(ch);
	}
	if (top > nlines - rows + 1)
		top = nlines - rows + 1 < 0 ? 0 : nlines - rows + 1;
	for (int i = top; i < nlines && i - top < rows - 1; i++) {
		int yy = y + 1 + i - top;
		if (draw_note(a, c, &lines[i], yy))
			continue;
		const struct compare_row *row = &cmp->blocks[lines[i].block].rows[lines[i].row];
		int role = verdict_role(row->verdict);
		char buf[128], v[32];
		x = 1;
		/* a point's "test point" label too wide for the column: the point
		 * alone, for every point of that test, so its rows read alike */
		const char *lab = row->label;
		if (row->point && strchr(row->id, ':') && test_labels_too_wide(lines, nlines, row, wd[0]))
			lab = strchr(row->id, ':') + 1;
		fmt_fit(buf, sizeof buf, lab, wd[0], FMT_LEFT);
		canvas_text(c, x, yy, ROLE_NORMAL, buf, -1);
		x += wd[0] + 1;
		snprintf(v, sizeof v, "%d", cmp->blocks[lines[i].block].copies);
		fmt_fit(buf, sizeof buf, v, wd[1], FMT_RIGHT);
		canvas_text(c, x, yy, ROLE_DIM, buf, -1);
		x += wd[1] + 1;
		fmt_number(v, sizeof v, row->b.present ? row->b.score : NAN, wd[2]);
		if (row->point && row->b.present && row->b.score < 100)
			snprintf(v, sizeof v, "%.3f", row->b.score);
		fmt_fit(buf, sizeof buf, v, wd[2], FMT_RIGHT);
		canvas_text(c, x, yy, ROLE_NORMAL, buf, -1);
		x += wd[2] + 1;
		fmt_number(v, sizeof v, row->a.present ? row->a.score : NAN, wd[3]);
		if (row->point && row->a.present && row->a.score < 100)
			snprintf(v, sizeof v, "%.3f", row->a.score);
		fmt_fit(buf, sizeof buf, v, wd[3], FMT_RIGHT);
		canvas_text(c, x, yy, ROLE_DIM, buf, -1);
		x += wd[3] + 1;
		fmt_change(v, sizeof v, row->change);
		fmt_fit(buf, sizeof buf, v, wd[4], FMT_RIGHT);
		canvas_text(c, x, yy, role, buf, -1);
		x += wd[4] + 1;
		if (wd[5]) {
			/* the decimals that fit, then thousands: "2503", "88k", not "2503~" */
			if (isnan(row->change_pm))
				snprintf(v, sizeof v, "-");
			else if (snprintf(v, sizeof v, "%.1f", row->change_pm) > wd[5] &&
				 snprintf(v, sizeof v, "%.0f", row->change_pm) > wd[5])
				snprintf(v, sizeof v, "%.0fk", row->change_pm / 1000);
			fmt_fit(buf, sizeof buf, v, wd[5], FMT_RIGHT);
			canvas_text(c, x, yy, ROLE_DIM, buf, -1);
			x += wd[5] + 1;
		}
		if (wd[6]) {
			snprintf(v, sizeof v, "%s %s", verdict_glyph(c, row->verdict),
				 row->note && row->verdict == VERDICT_NA ? "n/a" : verdict_word(row->verdict));
			fmt_fit(buf, sizeof buf, v, wd[6], FMT_LEFT);
			canvas_text(c, x, yy, role, buf, -1);
			x += wd[6] + 1;
		}
		if (wd[7]) {
			fmt_bar_signed(buf, sizeof buf, isnan(row->change) ? 0 : row->change, maxc, wd[7], c->utf8);
			canvas_text(c, x, yy, role, buf, -1);
		}
	}
}

static void draw_alone(struct app *a, struct canvas *c, int y, int rows)
{
	struct fmt_col cols[] = { { 14, 40, false }, { 3, 3, false }, { 10, 12, false },
				  { 5, 5, true }, { 8, 8, false }, { 6, 7, true }, { 8, 16, true } };
	int wd[7];
	fmt_columns(cols, 7, c->w - 2, wd);
	static const char *const head[] = { "Test", "cp", "score", "unit", "index", "spread", "" };
	int x = 1;
	for (int i = 0; i < 7; i++) {
		if (!wd[i])
			continue;
		char buf[64];
		fmt_fit(buf, sizeof buf, head[i], wd[i], i == 2 || i == 4 || i == 5 ? FMT_RIGHT : FMT_LEFT);
		canvas_text(c, x, y, ROLE_HEADER, buf, -1);
		x += wd[i] + 1;
	}
	double maxi = 1;
	for (int i = 0; i < nlines; i++) {
		const struct test_result *t = &a->run->blocks[lines[i].block].tests[lines[i].row];
		if (t->index > maxi)
			maxi = t->index;
	}
	if (top > nlines - rows + 1)
		top = nlines - rows + 1 < 0 ? 0 : nlines - rows + 1;
	for (int i = top; i < nlines && i - top < rows - 1; i++) {
		int yy = y + 1 + i - top;
		if (draw_note(a, c, &lines[i], yy))
			continue;
		const struct run_block *bl = &a->run->blocks[lines[i].block];
		const struct test_result *t = &bl->tests[lines[i].row];
		bool ok = t->status == TEST_DONE || t->status == TEST_IMPORTED;
		char buf[128], v[32];
		x = 1;
		if (lines[i].point >= 0) {
			/* a headline point: its value and unit, no index */
			const struct point *p = &t->points[lines[i].point];
			snprintf(v, sizeof v, "%s %s", t->id, p->name);
			fmt_fit(buf, sizeof buf, canvas_strwidth(v) > wd[0] ? p->name : v, wd[0], FMT_LEFT);
			canvas_text(c, x, yy, ROLE_NORMAL, buf, -1);
			x += wd[0] + 1;
			snprintf(v, sizeof v, "%d", bl->copies);
			fmt_fit(buf, sizeof buf, v, wd[1], FMT_RIGHT);
			canvas_text(c, x, yy, ROLE_DIM, buf, -1);
			x += wd[1] + 1;
			double m = point_mean(p);
			snprintf(v, sizeof v, m < 100 ? "%.3f" : "%.0f", m);
			fmt_fit(buf, sizeof buf, v, wd[2], FMT_RIGHT);
			canvas_text(c, x, yy, ROLE_NORMAL, buf, -1);
			x += wd[2] + 1;
			if (wd[3]) {
				/* jobs/min is wider than the column: "jpm", as the
				 * setup lists the scaling test */
				const char *u = !strcmp(p->unit, "jobs/min") && wd[3] < 8 ? "jpm" : p->unit;
				fmt_fit(buf, sizeof buf, u, wd[3], FMT_LEFT);
				canvas_text(c, x, yy, ROLE_DIM, buf, -1);
				x += wd[3] + 1;
			}
			fmt_fit(buf, sizeof buf, "-", wd[4], FMT_RIGHT);
			canvas_text(c, x, yy, ROLE_DIM, buf, -1);
			x += wd[4] + 1;
			if (wd[5]) {
				double sp = point_spread(p);
				if (sp >= 0)
					snprintf(v, sizeof v, "%.1f%%", sp * 100);
				else
					snprintf(v, sizeof v, "-");
				fmt_fit(buf, sizeof buf, v, wd[5], FMT_RIGHT);
				canvas_text(c, x, yy, ROLE_DIM, buf, -1);
			}
			continue;
		}
		fmt_fit(buf, sizeof buf, t->label, wd[0], FMT_LEFT);
		canvas_text(c, x, yy, ok ? ROLE_NORMAL : ROLE_DIM, buf, -1);
		x += wd[0] + 1;
		snprintf(v, sizeof v, "%d", bl->copies);
		fmt_fit(buf, sizeof buf, v, wd[1], FMT_RIGHT);
		canvas_text(c, x, yy, ROLE_DIM, buf, -1);
		x += wd[1] + 1;
		if (!ok) {
			snprintf(buf, sizeof buf, "%s%s%s", test_status_name(t->status), t->reason[0] ? ": " : "",
				 t->reason);
			canvas_text(c, x, yy, t->status == TEST_FAILED ? ROLE_FAILED : ROLE_DIM, buf, c->w - x - 1);
			continue;
		}
		fmt_number(v, sizeof v, t->score, wd[2]);
		fmt_fit(buf, sizeof buf, v, wd[2], FMT_RIGHT);
		canvas_text(c, x, yy, ROLE_NORMAL, buf, -1);
		x += wd[2] + 1;
		if (wd[3]) {
			fmt_fit(buf, sizeof buf, t->unit, wd[3], FMT_LEFT);
			canvas_text(c, x, yy, ROLE_DIM, buf, -1);
			x += wd[3] + 1;
		}
		fmt_number(v, sizeof v, t->index > 0 ? t->index : NAN, wd[4]);
		fmt_fit(buf, sizeof buf, v, wd[4], FMT_RIGHT);
		canvas_text(c, x, yy, ROLE_HEADER, buf, -1);
		x += wd[4] + 1;
		if (wd[5]) {
			if (t->spread >= 0)
				snprintf(v, sizeof v, "%.1f%%", t->spread * 100);
			else
				snprintf(v, sizeof v, "-");
			fmt_fit(buf, sizeof buf, v, wd[5], FMT_RIGHT);
			canvas_text(c, x, yy, ROLE_DIM, buf, -1);
			x += wd[5] + 1;
		}
		if (wd[6] && t->index > 0) {
			fmt_bar(buf, sizeof buf, t->index / maxi, wd[6], c->utf8);
			canvas_text(c, x, yy, ROLE_BAR, buf, -1);
		}
	}
}

static void results_draw(struct app *a, struct canvas *c)
{
	char right[200];
	if (!a->run) {
		app_draw_title(a, c, "Results", NULL);
		return;
	}
	snprintf(right, sizeof right, "%s%s%s%s", a->run->meta.name,
		 a->run->meta.id[0] ? " " : "", a->run->meta.id,
		 a->replay ? "" : a->run_saved ? "" : " (not saved)");
	app_draw_title(a, c, a->replay ? "Results (replayed run)" : "Results", right);
	int y = 1;
	if (a->run->incomplete)
		canvas_text(c, 1, y++, ROLE_WARN, " incomplete: the run was aborted; finished tests kept ", -1);
	y += draw_big(a, c, y);
	char title[200];
	if (cmp)
		snprintf(title, sizeof title, "vs %s%s", cmp->a_title, by_change ? ", by change" : "");
	else
		snprintf(title, sizeof title, "This run");
	canvas_rule(c, 0, y, c->w, ROLE_BORDER, title, ROLE_HEADER);
	y++;
	if (cmp) {
		/* What the verdicts rest on, in the engine's words; uncalibrated: how to fix it. */
		bool dflt = cmp->rows_default > 0;
		int x = 1 + canvas_text(c, 1, y, dflt ? ROLE_WARN : ROLE_DIM, cmp->basis, c->w - 2);
		if (dflt && !a->replay && x + 2 + 12 <= c->w - 1)
			canvas_text(c, x + 2, y, ROLE_KEY, "C calibrates", 12);
		y++;
	}
	int rows = c->h - 2 - y;
	if (!cmp) {
		canvas_text(c, 1, y++, ROLE_DIM, cmp_why, c->w - 2);
		rows--;
		draw_alone(a, c, y, rows);
	} else {
		draw_compare(a, c, y, rows);
	}
}

const struct screen_ops screen_results = {
	.name = "results",
	.enter = results_enter,
	.draw = results_draw,
	.leave = results_leave,
	.keys = &results_table,
};
