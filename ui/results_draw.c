/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results screen's drawing: big index scores, and the compare module's side-by-side table or the run's own (screen_results.c keeps the state). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "compare.h"
#include "format.h"
#include "numfmt.h"
#include "run.h"
#include "screen_results_int.h"

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
static int draw_big(struct app *a, const struct results_state *st, struct canvas *c, int y)
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
		for (int i = 0; st->cmp && i < st->cmp->nblocks; i++)
			if (st->cmp->blocks[i].copies == bl->copies)
				cb = &st->cmp->blocks[i];
		if (cb && cb->in_a && cb->in_b && !isnan(cb->index.change)) {
			char ch[32];
			num_pct(ch, sizeof ch, cb->index.change, NUM_PCT_SIGN);
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
static bool test_labels_too_wide(const struct results_state *st, const struct compare_row *row, int width)
{
	size_t tl = (size_t)(strchr(row->id, ':') - row->id);
	for (int i = 0; i < st->nlines; i++) {
		const struct line *l = &st->lines[i];
		if (l->note)
			continue;
		const struct compare_row *o = &st->cmp->blocks[l->block].rows[l->row];
		if (o->point && !strncmp(o->id, row->id, tl + 1) && canvas_strwidth(o->label) > width)
			return true;
	}
	return false;
}

static void draw_compare(struct app *a, struct results_state *st, struct canvas *c, int y, int rows)
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
	for (int i = 0; i < st->nlines; i++) {
		if (st->lines[i].note)
			continue;
		double ch = st->cmp->blocks[st->lines[i].block].rows[st->lines[i].row].change;
		if (!isnan(ch) && fabs(ch) > maxc)
			maxc = fabs(ch);
	}
	if (st->top > st->nlines - rows + 1)
		st->top = st->nlines - rows + 1 < 0 ? 0 : st->nlines - rows + 1;
	for (int i = st->top; i < st->nlines && i - st->top < rows - 1; i++) {
		int yy = y + 1 + i - st->top;
		if (draw_note(a, c, &st->lines[i], yy))
			continue;
		const struct compare_row *row = &st->cmp->blocks[st->lines[i].block].rows[st->lines[i].row];
		int role = verdict_role(row->verdict);
		char buf[128], v[32];
		x = 1;
		/* a point's "test point" label too wide for the column: the point
		 * alone, for every point of that test, so its rows read alike */
		const char *lab = row->label;
		if (row->point && strchr(row->id, ':') && test_labels_too_wide(st, row, wd[0]))
			lab = strchr(row->id, ':') + 1;
		fmt_fit(buf, sizeof buf, lab, wd[0], FMT_LEFT);
		canvas_text(c, x, yy, ROLE_NORMAL, buf, -1);
		x += wd[0] + 1;
		snprintf(v, sizeof v, "%d", st->cmp->blocks[st->lines[i].block].copies);
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
		num_pct(v, sizeof v, row->change, NUM_PCT_SIGN);
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

static void draw_alone(struct app *a, struct results_state *st, struct canvas *c, int y, int rows)
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
	for (int i = 0; i < st->nlines; i++) {
		const struct test_result *t = &a->run->blocks[st->lines[i].block].tests[st->lines[i].row];
		if (t->index > maxi)
			maxi = t->index;
	}
	if (st->top > st->nlines - rows + 1)
		st->top = st->nlines - rows + 1 < 0 ? 0 : st->nlines - rows + 1;
	for (int i = st->top; i < st->nlines && i - st->top < rows - 1; i++) {
		int yy = y + 1 + i - st->top;
		if (draw_note(a, c, &st->lines[i], yy))
			continue;
		const struct run_block *bl = &a->run->blocks[st->lines[i].block];
		const struct test_result *t = &bl->tests[st->lines[i].row];
		bool ok = t->status == TEST_DONE || t->status == TEST_IMPORTED;
		char buf[128], v[32];
		x = 1;
		if (st->lines[i].point >= 0) {
			/* a headline point: its value and unit, no index */
			const struct point *p = &t->points[st->lines[i].point];
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
				/* a unit wider than the column in its short form ("jpm") */
				const char *u = p->unit_short[0] && canvas_strwidth(p->unit) > wd[3] ? p->unit_short
												     : p->unit;
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

void results_draw(struct app *a, struct results_state *st, struct canvas *c)
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
	y += draw_big(a, st, c, y);
	char title[200];
	if (st->cmp)
		snprintf(title, sizeof title, "vs %s%s", st->cmp->a_title, st->by_change ? ", by change" : "");
	else
		snprintf(title, sizeof title, "This run");
	canvas_rule(c, 0, y, c->w, ROLE_BORDER, title, ROLE_HEADER);
	y++;
	if (st->cmp) {
		/* What the verdicts rest on, in the engine's words; uncalibrated: how to fix it. */
		bool dflt = st->cmp->rows_default > 0;
		int x = 1 + canvas_text(c, 1, y, dflt ? ROLE_WARN : ROLE_DIM, st->cmp->basis, c->w - 2);
		if (dflt && !a->replay && x + 2 + 12 <= c->w - 1)
			canvas_text(c, x + 2, y, ROLE_KEY, "C calibrates", 12);
		y++;
	}
	int rows = c->h - 2 - y;
	if (!st->cmp) {
		canvas_text(c, 1, y++, ROLE_DIM, st->cmp_why, c->w - 2);
		rows--;
		draw_alone(a, st, c, y, rows);
	} else {
		draw_compare(a, st, c, y, rows);
	}
}

