/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two thermal checks compared: which held its score longer (the rows and footer a
 * comparison adds when both sides are thermal checks, through the thermal mode's row). */
#include "thermal_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_plugin.h"
#include "noise.h"
#include "run.h"
#include "stats.h"

enum thermal_row { TR_FIRST, TR_LAST, TR_SUSTAINED, TR_COUNT };

/* One run's window: the mean log rate of its first or last window (the
 * thermal verdict's), and the variance of that mean; the sustained share is
 * their difference, with both variances. false when the run has no check here. */
static bool thermal_window(const struct run *r, int copies, enum thermal_row w, double *m, double *var,
			   int *nwin, double *secs)
{
	if (!thermal_is(r) || r->blocks[0].copies != copies)
		return false;
	struct thermal_inputs in;
	struct thermal_point *p = thermal_inputs_of(r, -1, INFINITY, &in);
	if (!p)
		return false;
	struct thermal_verdict v;
	thermal_decide(&in, &v);
	bool ok = v.ref_n >= 3;
	double mm[2] = { 0, 0 }, vv[2] = { 0, 0 };
	for (int side = 0; side < 2 && ok; side++) {
		int from = side ? in.n - v.ref_n : 0, k = 0;
		double l[v.ref_n > 0 ? v.ref_n : 1];
		for (int i = from; i < from + v.ref_n; i++)
			if (p[i].rate > 0 && isfinite(p[i].rate))
				l[k++] = log(p[i].rate);
		ok = k >= 2;
		if (ok) {
			mm[side] = stats_mean(l, k);
			double sd = stats_stddev(l, k);
			vv[side] = sd * sd / k;
		}
	}
	free(p);
	if (!ok)
		return false;
	*nwin = v.ref_n;
	*secs = v.ref_seconds;
	if (w == TR_SUSTAINED) {
		*m = mm[1] - mm[0];
		*var = vv[0] + vv[1];
	} else {
		*m = mm[w == TR_LAST];
		*var = vv[w == TR_LAST];
	}
	return true;
}

static void thermal_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs, int n,
			 int copies, enum thermal_row w, double *secs)
{
	compare_side_init(s, n);
	s->freq = NAN;
	cs->spread = -1;
	cs->others_cpu = cs->freq_mhz = NAN;
	for (int i = 0; i < n; i++) {
		double m, var;
		int nw;
		if (!thermal_window(runs[i], copies, w, &m, &var, &nw, secs))
			continue;
		if (!cs->present)
			cs->nsamples = nw;
		cs->present = true;
		s->all[s->nall++] = m;
		s->logs[s->k++] = m;
		s->within += var;
	}
	s->samples = s->nall > 0;
	if (s->k)
		s->within /= s->k;
	if (s->nall) {
		cs->nruns = s->nall;
		cs->score = exp(stats_mean(s->all, s->nall)) * (w == TR_SUSTAINED ? 100 : 1);
	}
}

/* Three rows after a block's test row when both sides are thermal checks:
 * the first window's score, the last window's and the sustained share
 * (last / first). The first and last rows are judged like any score: the
 * window's own spread (the variance of its mean log rate) plus the test's
 * run-to-run floor. The share is a ratio within each run, so the run-to-run
 * level cancels: its interval rests on the two windows' spreads alone.
 * Then a footer sentence says which check held its score longer. */
void thermal_compare_rows(struct compare *c, struct compare_block *cb, const struct run *const *a, int na,
			  const struct run *const *b, int nb, const struct noise_table *nt)
{
	if (!thermal_is(a[0]) || !thermal_is(b[0]) || a[0]->blocks[0].copies != cb->copies ||
	    b[0]->blocks[0].copies != cb->copies)
		return;
	const struct test_result *ta = thermal_test(a[0]);
	struct compare_row *nr = realloc(cb->rows, (size_t)(cb->nrows + TR_COUNT + 1) * sizeof *nr);
	if (!nr)
		abort();
	cb->rows = nr;
	struct compare_row *rows = &cb->rows[cb->nrows];
	memset(rows, 0, TR_COUNT * sizeof *rows);
	static const char *const ids[TR_COUNT] = { "thermal.first", "thermal.last", "thermal.sustained" };
	for (int w = 0; w < TR_COUNT; w++) {
		struct compare_row *row = &rows[w];
		struct side_vals sa, sb;
		double secs = 0;
		thermal_side(&sa, &row->a, a, na, cb->copies, w, &secs);
		thermal_side(&sb, &row->b, b, nb, cb->copies, w, &secs);
		char win[16];
		if (secs >= THERMAL_WINDOW_SECONDS - 1)
			snprintf(win, sizeof win, "minute");
		else
			snprintf(win, sizeof win, "%.0f s", secs);
		snprintf(row->id, sizeof row->id, "%s", ids[w]);
		if (w == TR_SUSTAINED)
			snprintf(row->label, sizeof row->label, "sustained %%");
		else
			snprintf(row->label, sizeof row->label, "%s %s", w == TR_FIRST ? "first" : "last", win);
		snprintf(row->unit, sizeof row->unit, "%s", w == TR_SUSTAINED ? "%" : ta->unit);
		struct noise_floor fa = *noise_get(nt, ta->id, a[0]), fb = *noise_get(nt, ta->id, b[0]);
		if (w == TR_SUSTAINED) {
			memset(&fa, 0, sizeof fa);
			memset(&fb, 0, sizeof fb);
		}
		compare_decide(row, &sa, &sb, &fa, &fb, c->conf);
		if (w == TR_SUSTAINED)
			row->floor_pct = NAN; /* none: a share within each run */
		compare_side_free(&sa);
		compare_side_free(&sb);
		switch (row->verdict) {
		case VERDICT_FASTER: cb->nfaster++; break;
		case VERDICT_SLOWER: cb->nslower++; break;
		case VERDICT_SAME: cb->nsame++; break;
		case VERDICT_NA: cb->nna++; break;
		}
	}
	cb->nrows += TR_COUNT;

	const struct compare_row *sus = &rows[TR_SUSTAINED];
	if (!sus->a.present || !sus->b.present)
		return;
	char when[2][120];
	const struct run *first[2] = { a[0], b[0] };
	for (int side = 0; side < 2; side++) {
		struct thermal_inputs in;
		struct thermal_point *p = thermal_inputs_of(first[side], -1, INFINITY, &in);
		struct thermal_verdict v;
		thermal_decide(&in, &v);
		double secs = in.n ? p[in.n - 1].t + p[in.n - 1].len : 0;
		free(p);
		char t[16];
		if (v.fall >= 0) {
			thermal_fmt_time(t, sizeof t, v.fall_t);
			snprintf(when[side], sizeof when[side], "first fell at %s (%.0f%%, %s)", t, v.fall_pct,
				 v.event >= 0 && v.event <= v.fall + 1 ? "the CPU slowed itself"
				 : v.any_sensor			       ? "no thermal evidence"
								       : "no sensor to say why");
		} else {
			thermal_fmt_time(t, sizeof t, secs);
			snprintf(when[side], sizeof when[side], "held for all %s", t);
		}
	}
	char sure[64], how[64];
	compare_verdict_text(sure, sizeof sure, sus);
	/* "faster (99.2% sure)": the part in brackets */
	const char *br = strchr(sure, '(');
	snprintf(how, sizeof how, "%s", br ? br + 1 : sure);
	if (br && how[0])
		how[strlen(how) - 1] = '\0';
	if (sus->verdict == VERDICT_FASTER || sus->verdict == VERDICT_SLOWER) {
		bool b_better = sus->verdict == VERDICT_FASTER;
		compare_push_footer(c,
				    "Thermal: %s held its score longer (%s): it kept %.1f%% of its first window, "
				    "%s %.1f%%. A's score %s; B's %s.",
				    b_better ? "B" : "A", how, b_better ? sus->b.score : sus->a.score,
				    b_better ? "A" : "B", b_better ? sus->a.score : sus->b.score, when[0], when[1]);
	} else {
		compare_push_footer(c,
				    "Thermal: neither held its score longer beyond the noise (A kept %.1f%%, B "
				    "%.1f%% of its first window). A's score %s; B's %s.",
				    sus->a.score, sus->b.score, when[0], when[1]);
	}
}
