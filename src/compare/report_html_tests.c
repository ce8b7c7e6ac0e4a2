/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's tables per test: a run's results, or its comparison row by row, and the counters per test. */
#include "report_html_tests.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare.h"
#include "family.h"
#include "fileio.h"
#include "html.h"
#include "report.h"
#include "run.h"
#include "tests.h"
#include "svg.h"

/* ---- the default rows: how a result or a comparison row is drawn ---- */

void html_result_cells(struct html *h, const struct test_result *t, double max_index)
{
	bool ok = t->status == TEST_DONE || t->status == TEST_IMPORTED;
	if (!ok) {
		html_out(h, "<td colspan=\"5\" class=\"dim\">%s", test_status_name(t->status));
		if (t->reason[0]) {
			html_out(h, ": ");
			html_esc(h, t->reason);
		}
		html_out(h, "</td>");
		return;
	}
	char s[64], ix[64];
	html_fmt_score(s, sizeof s, t->score);
	html_fmt_score(ix, sizeof ix, t->index > 0 ? t->index : NAN);
	html_out(h, "<td class=\"n\">%s</td><td>", s);
	html_esc(h, t->unit);
	html_out(h, "</td><td class=\"n\"><b>%s</b></td>", ix);
	if (t->spread >= 0)
		html_out(h, "<td class=\"n\">&plusmn;%.1f%% <span class=\"dim\">(%d)</span></td>",
		    t->spread * 100, t->nsamples);
	else
		html_out(h, "<td class=\"n dim\">&ndash;</td>");
	html_out(h, "<td>");
	svg_value_bar(h->f, t->index > 0 ? t->index : NAN, max_index);
	html_out(h, "</td>");
}

void html_compare_cells(struct html *h, const struct compare_row *r, double range)
{
	char a[64], b[64], ch[32], pm[32], verdict[96];
	html_fmt_score(b, sizeof b, r->b.present ? r->b.score : NAN);
	html_fmt_score(a, sizeof a, r->a.present ? r->a.score : NAN);
	html_fmt_pct(ch, sizeof ch, r->change, true);
	html_fmt_pct(pm, sizeof pm, r->change_pm, false);
	compare_verdict_text(verdict, sizeof verdict, r);
	const char *cls = html_verdict_class(r->verdict);
	html_out(h, "<td class=\"n\">%s</td><td class=\"n dim\">%s</td><td class=\"n\">%s</td>", b, a, ch);
	html_out(h, "<td class=\"n dim\">%s%s</td><td>", isfinite(r->change_pm) ? "&plusmn;" : "", pm);
	svg_change_bar(h->f, r->change, r->change_lo, r->change_hi, range, cls);
	html_out(h, "</td><td class=\"v-%s\">%s", cls, html_verdict_glyph(r->verdict));
	html_esc(h, verdict);
	html_out(h, "</td>");
}

/* A result alone: a row per headline point (its mean over the samples, unit
 * and spread; no index; the curve is drawn below the table), or, with none
 * (a rate, a test that failed), one row of its score, index and spread. */
static void rows_alone(struct html *h, const struct test_result *t, double max_index)
{
	int shown = 0;
	for (int p = 0; p < t->npoints; p++) {
		const struct point *pt = &t->points[p];
		if (!pt->summary)
			continue;
		char v[64];
		html_fmt_score(v, sizeof v, point_mean(pt));
		html_out(h, "<tr><td>");
		html_esc(h, t->id);
		html_out(h, " ");
		html_esc(h, pt->name);
		html_out(h, "</td><td class=\"n\">%s</td><td>", v);
		html_esc(h, pt->unit);
		html_out(h, "</td><td class=\"n dim\">&ndash;</td>");
		double sp = point_spread(pt);
		if (sp >= 0)
			html_out(h, "<td class=\"n\">&plusmn;%.1f%% <span class=\"dim\">(%d)</span></td>", sp * 100,
			    pt->n);
		else
			html_out(h, "<td class=\"n dim\">&ndash;</td>");
		html_out(h, "<td class=\"dim\">%s</td></tr>", pt->lower_better ? "lower is better" : "higher is better");
		shown++;
	}
	if (!shown) {
		html_out(h, "<tr><td>");
		html_esc(h, t->label);
		html_out(h, "</td>");
		html_result_cells(h, t, max_index);
		html_out(h, "</tr>");
	}
}

void html_rows_default(struct html *h, const struct family_html_rows *w)
{
	if (!w->b) {
		rows_alone(h, w->t, w->scale);
		return;
	}
	for (int i = w->first; i < w->first + w->n; i++) {
		const struct compare_row *row = &w->b->rows[i];
		if (row->detail) /* a curve point: counted below the table, drawn in the curve */
			continue;
		html_out(h, "<tr><td>");
		html_esc(h, row->label);
		html_out(h, "</td>");
		html_compare_cells(h, row, w->scale);
		html_out(h, "</tr>");
	}
}

/* Is row one of test's: the test's own ("id"), or one of its points ("id:point")? */
static bool row_of(const struct compare_row *row, const char *test)
{
	size_t l = strlen(test);
	return !strncmp(row->id, test, l) && (row->id[l] == '\0' || row->id[l] == ':');
}

/* A result's rows, or one test's rows of a comparison's block, by its family. */
static void family_rows(struct html *h, const struct family *fam, const struct family_html_rows *w)
{
	if (fam->html_rows)
		fam->html_rows(h, w);
	else
		html_rows_default(h, w);
}

/* ---- per test ---- */

static void legend(struct html *h)
{
	static const char *const cls[] = { "faster", "slower", "same" };
	static const char *const word[] = { "faster", "slower", "no significant change" };
	html_out(h, "<p class=\"foot\">Bar: change of this run against the compared one; whisker: its 95%% "
	       "interval.");
	for (int i = 0; i < 3; i++)
		html_out(h,
		    "<span class=\"key\"><svg viewBox=\"0 0 26 12\" aria-hidden=\"true\"><rect "
		    "class=\"%s\" x=\"1\" y=\"1\" "
		    "width=\"24\" height=\"10\"/></svg></span>%s",
		    cls[i], word[i]);
	html_out(h, "</p>");
}

void html_compare_tables(struct html *h, const struct run *r, const struct compare *c)
{
	html_out(h, "<h2>Per test: this run against ");
	html_esc(h, c->a_title);
	html_out(h, "</h2><p class=\"basis\">");
	html_esc(h, c->basis);
	html_out(h, "</p>");
	legend(h);
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		double range = 5;
		for (int i = 0; i < b->nrows; i++) {
			const struct compare_row *row = &b->rows[i];
			double v[3] = { row->change, row->change_lo, row->change_hi };
			for (int j = 0; j < 3; j++)
				if (isfinite(v[j]) && fabs(v[j]) > range)
					range = fabs(v[j]);
		}
		range = range > 200 ? 200 : range * 1.05;
		html_out(h, "<h3>%d cop%s%s</h3>", b->copies, b->copies == 1 ? "y" : "ies",
		    !b->in_a   ? " (only in this run)"
		    : !b->in_b ? " (only in the compared run)"
			       : "");
		html_out(h, "<table class=\"cmp\"><tr><th style=\"width:22%%\">Test</th><th class=\"n\" "
		       "style=\"width:10%%\">this run</th>"
		       "<th class=\"n\" style=\"width:10%%\">compared</th><th class=\"n\" "
		       "style=\"width:8%%\">change</th>"
		       "<th class=\"n\" style=\"width:8%%\">95%%</th><th style=\"width:20%%\">change &amp; "
		       "interval</th>"
		       "<th style=\"width:22%%\">verdict</th></tr>");
		/* a test's rows (its id, or "id:point" for each of its points) stand together */
		for (int i = 0, n; i < b->nrows; i += n) {
			char test[32];
			snprintf(test, sizeof test, "%.*s", (int)strcspn(b->rows[i].id, ":"),
				 b->rows[i].id);
			for (n = 1; i + n < b->nrows && row_of(&b->rows[i + n], test); n++)
				;
			struct family_html_rows w = {
				.run = r, .t = html_find_test(r, b->copies, test), .b = b,
				.first = i, .n = n, .scale = range,
			};
			family_rows(h, test_id_family(test), &w);
		}
		if (b->has_index) {
			struct compare_row ix = b->index;
			ix.a.score = ix.a.index;
			ix.b.score = ix.b.index;
			html_out(h, "<tr><td><b>Index score%s</b></td>",
			    b->a_partial || b->b_partial ? " (partial)" : "");
			html_compare_cells(h, &ix, range);
			html_out(h, "</tr>");
		}
		html_out(h, "</table>");
		char m[32], g[32];
		html_fmt_pct(m, sizeof m, b->mean_change, true);
		html_fmt_pct(g, sizeof g, b->geomean_change, true);
		html_out(h, "<p class=\"foot\">");
		if (b->ncompared)
			html_out(h, "Mean of changes %s, geometric mean of ratios %s (%d tests): ", m, g,
			    b->ncompared);
		html_out(h, "%d faster, %d slower, %d no significant change, %d n/a.", b->nfaster, b->nslower,
		    b->nsame, b->nna);
		if (b->ndetail)
			html_out(h, " Curve points (in the run file, not listed): %d, %d faster, %d slower, %d no "
			       "significant change, %d n/a.",
			    b->ndetail, b->dfaster, b->dslower, b->dsame, b->dna);
		html_out(h, "</p>");
	}
	for (int i = 0; i < c->nfooter; i++) {
		html_out(h, "<p class=\"foot\">");
		html_esc(h, c->footer[i]);
		html_out(h, "</p>");
	}
}

void html_alone_tables(struct html *h, const struct run *r)
{
	html_out(h, "<h2>Per test</h2>");
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		double max_index = 0;
		for (int i = 0; i < bl->ntests; i++)
			if (bl->tests[i].index > max_index)
				max_index = bl->tests[i].index;
		html_out(h, "<h3>%d cop%s</h3>", bl->copies, bl->copies == 1 ? "y" : "ies");
		html_out(h, "<table><tr><th style=\"width:30%%\">Test</th><th class=\"n\" "
		       "style=\"width:14%%\">score</th>"
		       "<th style=\"width:8%%\">unit</th><th class=\"n\" style=\"width:10%%\">index</th>"
		       "<th class=\"n\" style=\"width:12%%\">spread (samples)</th><th>index</th></tr>");
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			struct family_html_rows w = { .run = r, .t = t, .scale = max_index };
			family_rows(h, test_result_family(t), &w);
		}
		if (html_block_indexed(bl)) {
			char ix[64];
			html_fmt_score(ix, sizeof ix, bl->index_score);
			html_out(h,
			    "<tr><td><b>Index score%s</b></td><td></td><td></td><td "
			    "class=\"n\"><b>%s</b></td><td></td><td></td></tr>",
			    bl->index_partial ? " (partial)" : "", ix);
		}
		html_out(h, "</table>");
	}
}

/* ---- counters ---- */

/* A counter's rate per second of the test's samples, or why there is none. */
static void counter_cell(struct html *h, const struct test_result *t, const char *key, double secs)
{
	const struct kv *kv = test_summary_get(t, key);
	if (!kv) {
		html_out(h, "<td class=\"n dim\">not counted</td>");
		return;
	}
	if (!kv->has_value) {
		html_out(h, "<td class=\"n dim\">");
		html_esc(h, kv->text);
		html_out(h, "</td>");
		return;
	}
	if (secs > 0)
		html_out(h, "<td class=\"n\">%.4g</td>", kv->value / secs);
	else
		html_out(h, "<td class=\"n dim\">no time</td>");
}

/* IPC, cache misses/s and context switches/s of one test, or why not. */
static void counter_cells(struct html *h, const struct test_result *t)
{
	if (!t) {
		html_out(h, "<td colspan=\"3\" class=\"dim\">not in this run</td>");
		return;
	}
	double secs = 0;
	for (int s = 0; s < t->nsamples; s++)
		secs += sample_time(&t->samples[s]);
	const struct kv *off = test_summary_get(t, "counters");
	if (off && !off->has_value) {
		html_out(h, "<td colspan=\"3\" class=\"dim\">");
		html_esc(h, off->text);
		html_out(h, "</td>");
		return;
	}
	const struct kv *ipc = test_summary_get(t, "ipc");
	const struct kv *cyc = test_summary_get(t, "counter.cycles");
	if (ipc && ipc->has_value)
		html_out(h, "<td class=\"n\">%.2f</td>", ipc->value);
	else if (cyc && !cyc->has_value)
		counter_cell(h, t, "counter.cycles", secs); /* "not supported", as perf says */
	else
		counter_cell(h, t, "ipc", secs);
	counter_cell(h, t, "counter.cache-misses", secs);
	counter_cell(h, t, "counter.context-switches", secs);
}

static bool counted(const struct run *r)
{
	for (int b = 0; r && b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests; i++)
			if (r->blocks[b].tests[i].nsummary > 0)
				return true;
	return false;
}

/* The run's counters per test; with base, the compared run's under each. */
void html_counters(struct html *h, const struct run *r, const struct run *base)
{
	html_out(h, "<h2>Counters per test</h2>");
	if (!counted(r) && !counted(base)) {
		html_out(h, "<p class=\"dim\">Not counted in this run (imported, or run without "
		       "telemetry).</p>");
		return;
	}
	html_out(h, "<p class=\"foot\">Per second of the test's samples, all copies together. IPC: "
	       "instructions per cycle of the workers.</p>");
	html_out(h,
	    "<table><tr><th style=\"width:30%%\">Test</th>"
	    "<th class=\"n\" style=\"width:8%%\">copies</th>%s"
	    "<th class=\"n\">IPC</th><th class=\"n\">cache misses/s</th>"
	    "<th class=\"n\">context switches/s</th></tr>",
	    base ? "<th style=\"width:13%%\">run</th>" : "");
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			html_out(h, "<tr><td%s>", base ? " rowspan=\"2\"" : "");
			html_esc(h, t->label);
			html_out(h, "</td><td class=\"n\"%s>%d</td>", base ? " rowspan=\"2\"" : "", bl->copies);
			if (base)
				html_out(h, "<td>this run</td>");
			counter_cells(h, t);
			html_out(h, "</tr>");
			if (base) {
				html_out(h, "<tr><td class=\"dim\">compared</td>");
				counter_cells(h, html_find_test(base, bl->copies, t->id));
				html_out(h, "</tr>");
			}
		}
	}
	html_out(h, "</table>");
}

