/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison as text: the table with verdicts, 80 columns or wide, and its footer. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "family.h"
#include "noise.h"
#include "numfmt.h"
#include "tests.h"

void compare_fmt_score(char *buf, size_t size, double v, int width)
{
	if (!isfinite(v) || v <= 0)
		snprintf(buf, size, "--");
	else
		num_fit(buf, size, v, width);
}

/* The 80-column layout's label: the row's short label (tests.c), cut to the
 * column like any other. The index score is not a row of the test table. */
static void label_for(char *buf, size_t size, const struct compare_row *r, int width, bool compact)
{
	const char *l = r->label;
	const struct test_def *t = compact ? test_find(r->id) : NULL;
	if (t && t->short_label)
		l = t->short_label;
	else if (compact && !strcmp(r->id, NOISE_INDEX_ID))
		l = "Index Score";
	/* a point whose "test point" label does not fit is its point name
	 * alone ("other+burn p99.9"): the rows of one test stand together */
	if (compact && r->point && (int)strlen(l) > width && strchr(r->id, ':'))
		l = strchr(r->id, ':') + 1;
	snprintf(buf, size, "%.*s", width, l);
}

void compare_verdict_text(char *buf, size_t size, const struct compare_row *r)
{
	if (r->verdict == VERDICT_NA && r->note) {
		snprintf(buf, size, "n/a (%s)", r->note);
	} else if ((r->verdict == VERDICT_FASTER || r->verdict == VERDICT_SLOWER) && isfinite(r->sure)) {
		/* Rounded down, so "99%" never overstates; 99.9% is as sure as it says. */
		double p = floor(r->sure * 1000) / 10;
		if (p >= 99.9)
			snprintf(buf, size, "%s (>99.9%% sure)", compare_verdict_name(r->verdict));
		else if (p >= 99)
			snprintf(buf, size, "%s (%.1f%% sure)", compare_verdict_name(r->verdict), p);
		else
			snprintf(buf, size, "%s (%.0f%% sure)", compare_verdict_name(r->verdict), floor(p));
	} else {
		snprintf(buf, size, "%s", compare_verdict_name(r->verdict));
	}
}

static void print_row(FILE *f, const struct compare_row *r, bool compact)
{
	int lw = compact ? 16 : 40, sw = compact ? 6 : 12, iw = compact ? 6 : 8;
	char label[80], as[24], ai[24], bs[24], bi[24], ch[24], pm[24];
	label_for(label, sizeof label, r, lw, compact);
	compare_fmt_score(as, sizeof as, r->a.present ? r->a.score : NAN, sw);
	compare_fmt_score(bs, sizeof bs, r->b.present ? r->b.score : NAN, sw);
	/* a point's value is small (ns per load): three decimals where they fit */
	for (int dec = 3; r->point && dec > 1; dec--) {
		char ta[24], tb[24];
		snprintf(ta, sizeof ta, "%.*f", dec, r->a.score);
		snprintf(tb, sizeof tb, "%.*f", dec, r->b.score);
		if ((int)strlen(ta) <= sw && (int)strlen(tb) <= sw) {
			if (r->a.present)
				snprintf(as, sizeof as, "%s", ta);
			if (r->b.present)
				snprintf(bs, sizeof bs, "%s", tb);
			break;
		}
	}
	compare_fmt_score(ai, sizeof ai, r->a.index, iw);
	compare_fmt_score(bi, sizeof bi, r->b.index, iw);
	num_pct(ch, sizeof ch, r->change, NUM_PCT_SIGN);
	char pmv[20];
	num_pct(pmv, sizeof pmv, r->change_pm, NUM_PCT_BARE);
	/* Five columns in the compact layout: no decimals from 10 on, and a cap. */
	if (compact && isfinite(r->change_pm) && r->change_pm >= 9.95)
		snprintf(pmv, sizeof pmv, r->change_pm < 999.5 ? "%.0f" : "999", r->change_pm);
	snprintf(pm, sizeof pm, "%s%s", isfinite(r->change_pm) ? "+-" : "", pmv);
	char flag = r->a.drift || r->b.drift ? '!' : ' ';
	char verdict[64];
	compare_verdict_text(verdict, sizeof verdict, r);
	if (compact)
		fprintf(f, "%-16s %6s %6s %6s %6s %6s %5s%c %.21s\n", label, as, ai, bs, bi, ch, pm, flag,
			verdict);
	else
		fprintf(f, "%-40s %12s %8s %12s %8s %7s %6s%c %s\n", label, as, ai, bs, bi, ch, pm, flag,
			verdict);
}

static void print_when(FILE *f, const char *side, const char *title, const struct compare_ref *r,
		       int n)
{
	char date[32] = "";
	time_t t = (time_t)r[0].date;
	struct tm tm;
	if (t && localtime_r(&t, &tm))
		strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm);
	fprintf(f, "%s: %s", side, title);
	if (n == 1)
		fprintf(f, "  %s  %s\n", r[0].kernel, date);
	else {
		fprintf(f, " ");
		for (int i = 0; i < n && i < 6; i++)
			fprintf(f, " %s", r[i].id);
		fprintf(f, "%s\n", n > 6 ? " ..." : "");
	}
}

/* Words wrapped at width, continuation lines indented. */
static void wrap(FILE *f, const char *text, int width, int indent)
{
	int col = 0;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		int len = (int)(e - p);
		if (col > indent && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > 0 && col != indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		p = e;
	}
	fputc('\n', f);
}

void compare_print_text(FILE *f, const struct compare *c, int width)
{
	if (width < 80)
		width = 80;
	bool compact = width < 122;
	print_when(f, "A", c->a_title, c->a_runs, c->na);
	print_when(f, "B", c->b_title, c->b_runs, c->nb);
	if (c->ndiffs) {
		char buf[4096] = "Differs:";
		for (int i = 0; i < c->ndiffs; i++) {
			size_t u = strlen(buf);
			snprintf(buf + u, sizeof buf - u, " %s %.60s -> %.60s%s", c->diffs[i].what,
				 c->diffs[i].a, c->diffs[i].b, i + 1 < c->ndiffs ? ";" : "");
		}
		wrap(f, buf, width, 2);
	} else {
		fprintf(f, "Same environment: kernel, command line, settings and kbench build match.\n");
	}
	wrap(f, c->basis, width, 2);
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		fprintf(f, "\n%d cop%s%s\n", b->copies, b->copies == 1 ? "y" : "ies",
			!b->in_a ? " (only in B)" : !b->in_b ? " (only in A)" : "");
		if (compact) {
			fprintf(f, "%-16s %-13s %-13s\n", "", "------ A ----", "------ B ----");
			fprintf(f, "%-16s %6s %6s %6s %6s %6s %5s  %s\n", "Test", "score", "index", "score",
				"index", "change", "+-", "verdict");
		} else {
			fprintf(f, "%-40s %-21s %-21s\n", "", "--------------- A ---", "--------------- B ---");
			fprintf(f, "%-40s %12s %8s %12s %8s %7s %6s  %s\n", "Test", "score", "index", "score",
				"index", "change", "+-", "verdict");
		}
		for (int i = 0; i < b->nrows; i++)
			if (!b->rows[i].detail)
				print_row(f, &b->rows[i], compact);
		if (b->has_index) {
			fprintf(f, "%s\n", compact ? "--------------------------------------------------------------------------------"
						   : "------------------------------------------------------------------------------------------------------------------------");
			struct compare_row ix = b->index;
			ix.a.score = ix.b.score = NAN; /* the index score has no separate score */
			if (b->a_partial || b->b_partial)
				snprintf(ix.label, sizeof ix.label, "%s", "Index Score (partial)");
			print_row(f, &ix, compact);
		}
		char m[24], g[24];
		num_pct(m, sizeof m, b->mean_change, NUM_PCT_SIGN);
		num_pct(g, sizeof g, b->geomean_change, NUM_PCT_SIGN);
		/* the means are of the rate tests' scores; a block of points has none */
		if (b->ncompared)
			fprintf(f, "Mean of changes %s, geometric mean of ratios %s (%d tests)\n", m, g,
				b->ncompared);
		fprintf(f, "%d faster, %d slower, %d no significant change, %d n/a\n", b->nfaster,
			b->nslower, b->nsame, b->nna);
		if (b->ndetail)
			fprintf(f, "Curve points (not in the table; --csv lists each): %d, %d faster, %d slower,\n"
				   "  %d no significant change, %d n/a\n",
				b->ndetail, b->dfaster, b->dslower, b->dsame, b->dna);
	}
	for (int i = 0; family_list[i]; i++) /* a family's own tables (contest's blocks) */
		if (family_list[i]->compare_print)
			family_list[i]->compare_print(f, c);
	fputc('\n', f);
	for (int i = 0; i < c->nfooter; i++)
		wrap(f, c->footer[i], width, 0);
}
