/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds under load, their HTML: contest's blocks as a section of the report, and the one row each table gives them. */
#include "family_buildload.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "buildload.h"
#include "compare.h"
#include "html.h"
#include "report_html_tests.h"
#include "run.h"

const char family_buildload_css[] =
	"table.contest th.load{background:#fff;font-size:16px;padding-top:12px;"
	"border-bottom:2px solid #1a1a1a}"
	"table.contest td.k{font-weight:600}";

/* Build under load: one row that points to contest's blocks (the section). */
static void alone(struct html *h, const struct test_result *t)
{
	int n = 0;
	for (int i = 0; i < BL_NLOADS; i++)
		n += test_find_point(t, buildload_loads[i].id) != NULL;
	html_out(h, "<tr><td>");
	html_esc(h, t->label);
	html_out(h, "</td><td colspan=\"5\">%d load%s, in contest&#39;s layout <a href=\"#buildload\">below</a>"
	       "</td></tr>",
	    n, n == 1 ? "" : "s");
}

/* Build under load in the comparison table: one row, its loads' verdicts
 * counted, pointing to contest's blocks below. */
static void versus(struct html *h, const struct run *r, const struct compare_block *b)
{
	int n = 0, v[4] = { 0, 0, 0, 0 };
	for (int i = 0; i < b->nrows; i++) {
		const struct compare_row *row = &b->rows[i];
		if (row->detail || !buildload_compare_row(row))
			continue;
		n++;
		v[row->verdict == VERDICT_FASTER ? 0 : row->verdict == VERDICT_SLOWER ? 1
						   : row->verdict == VERDICT_SAME   ? 2
										    : 3]++;
	}
	const struct test_result *t = html_find_test(r, b->copies, "buildload");
	html_out(h, "<tr><td>");
	html_esc(h, t ? t->label : "buildload");
	html_out(h,
	    "</td><td colspan=\"6\">%d load%s: %d faster, %d slower, %d no significant change, %d n/a; "
	    "in contest&#39;s layout <a href=\"#buildload\">below</a></td></tr>",
	    n, n == 1 ? "" : "s", v[0], v[1], v[2], v[3]);
}

/* Its row in the per-test tables: one that points to contest's blocks, for a
 * result (alone) or the block's rows of its loads (summed up); a build with no
 * result, or none of its loads compared, as any test's. */
void family_buildload_html_rows(struct html *h, const struct family_html_rows *w)
{
	bool loads = false;
	for (int i = w->first; w->b && i < w->first + w->n; i++)
		loads = loads || (!w->b->rows[i].detail && buildload_compare_row(&w->b->rows[i]));
	if (!w->b && buildload_is(w->t))
		alone(h, w->t);
	else if (loads)
		versus(h, w->run, w->b);
	else
		html_rows_default(h, w);
}

/* ---- build under load: contest's blocks ----
 * As the text report and kbench compare print them (buildload.c gives the
 * rows): a block per load, a row per kernel; with --vs, A's row then this
 * run's with its +- and verdict. */

static void contest_head(struct html *h, int load, bool verdicts)
{
	html_out(h, "<tbody><tr><th class=\"load\" colspan=\"%d\">%s:</th></tr>", verdicts ? 9 : 7,
	    buildload_loads[load].id);
	html_out(h, "<tr><th>Kernel</th><th class=\"n\">[runs]</th><th class=\"n\">Time</th>"
	       "<th class=\"n\">CPU%%</th><th class=\"n\">Loads</th><th class=\"n\">LCPU%%</th>"
	       "<th class=\"n\">Ratio</th>%s</tr>",
	    verdicts ? "<th class=\"n\">&plusmn;</th><th>verdict</th>" : "");
}

static void contest_row(struct html *h, const struct buildload_row *row, bool verdicts)
{
	html_out(h, "<tr><td class=\"k\">");
	html_esc(h, row->kernel);
	html_out(h, "</td>");
	if (row->refused) {
		html_out(h, "<td colspan=\"%d\" class=\"dim\">", verdicts ? 8 : 6);
		html_esc(h, row->refused);
		html_out(h, "</td></tr>");
		return;
	}
	struct buildload_cells c;
	buildload_fmt_cells(row, &c);
	html_out(h, "<td class=\"n\">%s</td><td class=\"n\"><b>%s</b></td><td class=\"n\">%s</td>"
	       "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
	    c.runs, c.time, c.cpu, c.loads, c.lcpu, c.ratio);
	if (verdicts && row->cmp) {
		char pm[32], verdict[96];
		html_fmt_pct(pm, sizeof pm, row->cmp->change_pm, false);
		compare_verdict_text(verdict, sizeof verdict, row->cmp);
		html_out(h, "<td class=\"n\">%s%s</td><td class=\"v-%s\">%s",
		    isfinite(row->cmp->change_pm) ? "&plusmn;" : "", pm, html_verdict_class(row->cmp->verdict),
		    html_verdict_glyph(row->cmp->verdict));
		html_esc(h, verdict);
		html_out(h, "</td>");
	} else if (verdicts) {
		html_out(h, "<td></td><td></td>");
	}
	html_out(h, "</tr>");
}

static void contest_table(struct html *h, bool verdicts)
{
	html_out(h, "<table class=\"contest\"><colgroup><col style=\"width:%s\">", verdicts ? "22%" : "28%");
	for (int i = 0; i < 6; i++)
		html_out(h, "<col style=\"width:%s\">", verdicts ? "8%" : "12%");
	if (verdicts)
		html_out(h, "<col style=\"width:9%%\"><col>");
	html_out(h, "</colgroup>");
}

static void contest_foot(struct html *h, bool io)
{
	html_out(h, "<p class=\"foot\">Time: seconds of the build, lower is better; CPU%%: the build&#39;s; "
	       "Loads: the load&#39;s work units in the build&#39;s window (laps, archives, MiB, dirs); "
	       "LCPU%%: the load&#39;s CPU in that window; Ratio: Time over no_load&#39;s.");
	if (io)
		html_out(h, " Under the disk loads the build waits for reads behind the load&#39;s writes: that "
		       "measures the block layer&#39;s read latency during a write flood as much as the "
		       "kernel&#39;s scheduler.");
	html_out(h, "</p>");
}

void family_buildload_html_section(struct html *h, const struct run *r, const struct compare *c)
{
	bool titled = false;
	for (int k = 0; c && k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		bool io = false, any = false;
		for (int i = 0; i < BL_NLOADS; i++) {
			struct buildload_row rows[2];
			int n = buildload_compare_rows(c, b, i, rows);
			if (!n)
				continue;
			if (!any) {
				if (!titled)
					html_out(h, "<h2 id=\"buildload\">Build under load, in contest&#39;s "
					       "layout</h2><p class=\"basis\">Time in s; &plusmn; and verdict: this "
					       "run&#39;s Time against the compared run&#39;s.</p>");
				titled = true;
				html_out(h, "<h3>%d cop%s</h3>", b->copies, b->copies == 1 ? "y" : "ies");
				contest_table(h, true);
			}
			any = true;
			io = io || buildload_loads[i].disk;
			contest_head(h, i, true);
			for (int j = 0; j < n; j++)
				contest_row(h, &rows[j], true);
			html_out(h, "</tbody>");
		}
		if (any) {
			html_out(h, "</table>");
			contest_foot(h, io);
		}
	}
	for (int b = 0; !c && b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			if (!buildload_is(t))
				continue;
			char line[200];
			buildload_fmt_title(line, sizeof line, t);
			html_out(h, "<h2%s>", titled ? "" : " id=\"buildload\"");
			titled = true;
			html_esc(h, line);
			html_out(h, "</h2>");
			buildload_fmt_setup(line, sizeof line, t);
			if (line[0]) {
				html_out(h, "<p class=\"basis\">");
				html_esc(h, line);
				html_out(h, "</p>");
			}
			contest_table(h, false);
			bool io = false;
			for (int l = 0; l < BL_NLOADS; l++) {
				struct buildload_row row;
				if (!buildload_test_row(t, l, r->meta.name, &row))
					continue;
				io = io || (buildload_loads[l].disk && !row.refused);
				contest_head(h, l, false);
				contest_row(h, &row, false);
				html_out(h, "</tbody>");
			}
			html_out(h, "</table>");
			contest_foot(h, io);
		}
	}
}
