/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison of two sides (runs or groups of runs): rows, honest intervals and verdicts.
 * compare_notes.c writes the environment differences and the footer,
 * compare_text.c and compare_export.c render the result. */
#include "compare.h"
#include "compare_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "noise.h"
#include "run.h"
#include "score.h"
#include "stats.h"
#include "telemetry/others.h"

#define MAX_MORE_RUNS 30 /* beyond this, "more runs" is not a useful answer */

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_FASTER: return "faster";
	case VERDICT_SLOWER: return "slower";
	case VERDICT_SAME: return "no significant change";
	case VERDICT_NA: break;
	}
	return "n/a";
}

/* What one side knows about one test (or the index) in one block. */

/* Rates of a test's samples, in the order they ran. */
static int sample_rates(const struct test_result *t, double *out)
{
	int n = 0;
	for (int i = 0; i < t->nsamples; i++) {
		double c = sample_count(&t->samples[i]);
		double r = score_rate(c, sample_time(&t->samples[i]), t->timebase);
		if (r > 0 && isfinite(r))
			out[n++] = r;
	}
	return n;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Variance of the log score from the kept samples (UnixBench keeps the
 * best two thirds), as the variance of a mean: s^2 / kept. */
static double within_var(const double *rates, int n)
{
	if (n < 2)
		return 0;
	double *v = malloc((size_t)n * sizeof *v);
	if (!v)
		abort();
	memcpy(v, rates, (size_t)n * sizeof *v);
	qsort(v, (size_t)n, sizeof *v, by_value);
	int drop = n / 3, kept = n - drop;
	for (int i = 0; i < kept; i++)
		v[i] = log(v[drop + i]);
	double sd = stats_stddev(v, kept);
	free(v);
	return kept > 1 ? sd * sd / kept : 0;
}

/* A trend from first to last sample, significant and larger than the floor. */
static double drift_of(const double *rates, int n, double sigma, bool *flag)
{
	*flag = false;
	if (n < 3)
		return 0;
	double *v = malloc((size_t)n * sizeof *v);
	if (!v)
		abort();
	for (int i = 0; i < n; i++)
		v[i] = log(rates[i]);
	struct stats_fit f = stats_linfit(v, n);
	free(v);
	if (!f.ok)
		return 0;
	double trend = f.slope * (n - 1);
	double q = stats_t_quantile(0.975, n - 2);
	if (fabs(trend) > sigma && (f.se == 0 || fabs(f.slope) > q * f.se))
		*flag = true;
	return trend;
}

void compare_side_free(struct side_vals *s)
{
	free(s->all);
	free(s->logs);
}



/* What the run saw besides its own work (src/telemetry): other processes'
 * CPU use (the side keeps the largest) and whether it was throttled. */
static void disturbed_by(const struct test_result *t, struct compare_side *cs, bool *busy, bool *throttled)
{
	double v;
	*busy = *throttled = false;
	if (compare_summary_value(t, "others.cpu", &v)) {
		cs->others_cpu = isnan(cs->others_cpu) || v > cs->others_cpu ? v : cs->others_cpu;
		*busy = v >= OTHERS_BUSY_CPU;
	}
	if (compare_summary_value(t, "throttled", &v))
		*throttled = v >= 1;
}

/* A side's values, empty, with room for n runs. */
void compare_side_init(struct side_vals *s, int n)
{
	memset(s, 0, sizeof *s);
	s->all = calloc((size_t)n + 1, sizeof *s->all);
	s->logs = calloc((size_t)n + 1, sizeof *s->logs);
	if (!s->all || !s->logs)
		abort();
}

void compare_fill_test_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
			     int n, int copies, const char *id, double sigma, enum placement only, bool by_time)
{
	compare_side_init(s, n);
	s->samples = true;
	s->freq = NAN;
	double lidx = 0, fsum = 0;
	int nidx = 0, nfreq = 0;
	cs->spread = -1;
	cs->others_cpu = NAN;
	cs->freq_mhz = NAN;
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, id) : NULL;
		/* a pair test compared on one placement: the run's samples of it alone; a
		 * run without one says nothing of that placement */
		struct test_result placed;
		if (t && only != PLACE_UNKNOWN) {
			if (!compare_place_subset(t, only, by_time, &placed))
				continue;
			t = &placed;
		}
		if (!t || !(t->status == TEST_DONE || t->status == TEST_IMPORTED) || !(t->score > 0)) {
			if (t == &placed)
				compare_place_free(&placed);
			continue;
		}
		if (!cs->present) {
			cs->present = true;
			cs->nsamples = t->nsamples;
			cs->spread = t->spread;
		}
		s->all[s->nall++] = log(t->score);
		if (t->index > 0) {
			lidx += log(t->index);
			nidx++;
		}
		/* What the run saw besides its own work (src/telemetry): a test that
		 * shared the CPUs with other processes, or was throttled, measured
		 * them, not the kernel. Such a run is not judged; the row says why. */
		double v;
		bool busy, throttled;
		disturbed_by(t, cs, &busy, &throttled);
		if (compare_summary_value(t, "freq.mean", &v) && v > 0) {
			fsum += v;
			nfreq++;
			const struct kv *m = test_summary_get(t, "freq.method");
			if (m && !s->freq_method[0])
				snprintf(s->freq_method, sizeof s->freq_method, "%s", m->text);
			else if (m && strcmp(s->freq_method, m->text))
				snprintf(s->freq_method, sizeof s->freq_method, "mixed");
		}
		double *rates = malloc(((size_t)t->nsamples + 1) * sizeof *rates);
		if (!rates)
			abort();
		int nr = sample_rates(t, rates);
		if (nr == 0)
			s->samples = false;
		bool fl;
		double tr = drift_of(rates, nr, sigma, &fl);
		if (fl && fabs(tr) > fabs(s->drift)) {
			s->drift = tr;
			s->drifted = true;
		}
		s->busy |= busy;
		s->throttled |= throttled;
		if (!busy && !throttled) {
			s->logs[s->k++] = log(t->score);
			s->within += within_var(rates, nr);
			/* A run whose samples trend did not measure one rate: where
			 * in that trend "the" score lies is uncertain by about half
			 * of it, so its interval widens by that much. */
			if (fl)
				s->extra += (tr / 2) * (tr / 2);
		}
		free(rates);
		if (t == &placed)
			compare_place_free(&placed);
	}
	if (s->k) {
		s->within /= s->k;
		s->extra /= s->k;
	}
	if (nfreq)
		s->freq = fsum / nfreq;
	if (s->nall) {
		cs->nruns = s->nall;
		cs->score = exp(stats_mean(s->all, s->nall));
		cs->index = nidx ? exp(lidx / nidx) : 0;
		cs->drift = s->drifted;
		cs->drift_pct = s->drifted ? (exp(s->drift) - 1) * 100 : 0;
		cs->busy = s->busy;
		cs->throttled = s->throttled;
		cs->freq_mhz = s->freq;
	} else {
		s->samples = false;
	}
}

/* One point of a points test on one side: per run the log of its mean
 * over the samples; within a run the variance of that mean from the
 * samples' spread (every sample kept: a point has no worst third). */
void compare_fill_point_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
			      int n, int copies, const char *id, const char *point)
{
	compare_side_init(s, n);
	s->samples = true;
	s->freq = NAN;
	cs->spread = -1;
	cs->others_cpu = NAN;
	cs->freq_mhz = NAN;
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, id) : NULL;
		const struct point *p = t && test_has_result(t) ? test_find_point(t, point) : NULL;
		double m = p ? point_mean(p) : NAN;
		if (m == 0)
			s->zero = true;
		if (!(m > 0))
			continue;
		if (!cs->present) {
			cs->present = true;
			cs->nsamples = p->n;
			cs->spread = point_spread(p);
		}
		s->all[s->nall++] = log(m);
		bool busy, throttled;
		disturbed_by(t, cs, &busy, &throttled);
		s->busy |= busy;
		s->throttled |= throttled;
		double lv[64];
		int k = 0;
		for (int j = 0; j < p->n && k < 64; j++)
			if (p->v[j] > 0 && isfinite(p->v[j]))
				lv[k++] = log(p->v[j]);
		/* an imported point (kernbench's means) has no samples behind it */
		if (k == 0 || t->status == TEST_IMPORTED)
			s->samples = false;
		if (!busy && !throttled) {
			s->logs[s->k++] = log(m);
			double sd = stats_stddev(lv, k);
			s->within += k > 1 ? sd * sd / k : 0;
		}
	}
	if (s->k)
		s->within /= s->k;
	if (s->nall) {
		cs->nruns = s->nall;
		cs->score = exp(stats_mean(s->all, s->nall));
		cs->busy = s->busy;
		cs->throttled = s->throttled;
	} else {
		s->samples = false;
		if (s->zero) { /* shown as measured: 0 */
			cs->present = true;
			cs->score = 0;
		}
	}
}

/* How sure a decided verdict is: 1 - the two-sided p value of the change
 * against the interval's own distribution. */
static double sureness(double d, double se, double dof)
{
	if (!(se > 0))
		return 1;
	double p = 2 * (1 - stats_t_cdf(fabs(d) / se, dof));
	return p < 0 ? 1 : 1 - p;
}

/* The interval and verdict from two sides' values and their floors. */
void compare_decide(struct compare_row *row, const struct side_vals *a, const struct side_vals *b,
		    const struct noise_floor *nfa, const struct noise_floor *nfb, double conf)
{
	row->change = row->change_lo = row->change_hi = row->change_pm = NAN;
	row->floor_pct = NAN;
	row->sure = NAN;
	row->verdict = VERDICT_NA;
	row->method = METHOD_NONE;
	if (!a->nall || !b->nall) {
		/* a point both runs have, measured as 0 on a side: a change
		 * from or to nothing has no ratio */
		if (a->zero || b->zero)
			row->note = a->zero && b->zero && !a->nall && !b->nall ? "0 in both"
				    : (a->zero && !a->nall)			   ? "0 in A"
										   : "0 in B";
		else
			row->note = a->nall ? "only in A" : "only in B";
		return;
	}
	row->change = (exp(stats_mean(b->all, b->nall) - stats_mean(a->all, a->nall)) - 1) * 100;
	/* A single run without samples carries no error bar at all: a guess
	 * would be dishonest, so it is n/a. A group has its own spread. */
	bool ua = a->nall >= 2 || a->samples, ub = b->nall >= 2 || b->samples;
	if (!ua || !ub) {
		row->note = "no samples";
		return;
	}
	if (!a->k || !b->k) {
		bool busy = (!a->k && a->busy) || (!b->k && b->busy);
		row->note = busy ? "busy" : "throttled";
		return;
	}
	double d = stats_mean(b->logs, b->k) - stats_mean(a->logs, a->k);
	double sa = noise_sigma(nfa), sb = noise_sigma(nfb);
	double dofa = noise_dof(nfa), dofb = noise_dof(nfb);
	/* Two clocks that differ measure two machines: when both runs know
	 * their busy clock and it moved, the interval takes that in too. */
	double clock = 0;
	/* Unless the clocks were read differently (the workers' CPUs against
	 * the busiest ones, an APERF/MPERF average against a requested figure):
	 * then the difference is the meters', and compare says so instead. */
	bool one_meter = !a->freq_method[0] || !b->freq_method[0] ||
			 (!strcmp(a->freq_method, b->freq_method) && strcmp(a->freq_method, "mixed"));
	if (one_meter && isfinite(a->freq) && isfinite(b->freq) && a->freq > 0 && b->freq > 0) {
		double r = log(b->freq / a->freq);
		if (fabs(r) > 0.02)
			clock = r * r;
	}
	row->widened = clock > 0 || a->extra > 0 || b->extra > 0;
	double half, q, se, dof;
	if (a->k == 1 && b->k == 1) {
		row->method = METHOD_FLOOR;
		double var = sa * sa + sb * sb + a->within + b->within + a->extra + b->extra + clock;
		/* A learned floor is an estimate: its t interval is wider the fewer runs it rests on. */
		dof = dofa < dofb ? dofa : dofb;
		se = sqrt(var);
		row->floor_pct = (sa > sb ? sa : sb) * 100;
		row->floor_learned = nfa->df > 0 || nfb->df > 0;
		row->floor_runs = nfa->runs > nfb->runs ? nfa->runs : nfb->runs;
	} else {
		row->method = METHOD_BETWEEN;
		/* Welch on per-run log scores; a lone run on one side borrows
		 * its floor as its variance, with the floor's degrees of freedom. */
		double va, vb, dfa, dfb;
		const struct side_vals *sv[2] = { a, b };
		const struct noise_floor *nfv[2] = { nfa, nfb };
		double *vv[2] = { &va, &vb }, *df[2] = { &dfa, &dfb };
		for (int i = 0; i < 2; i++) {
			const struct side_vals *s = sv[i];
			if (s->k >= 2) {
				double sd = stats_stddev(s->logs, s->k);
				/* Identical scores (a result imported twice) must not mean certainty. */
				double v = sd * sd > 1e-6 ? sd * sd : 1e-6;
				*vv[i] = v / s->k + s->extra / s->k;
				*df[i] = s->k - 1;
			} else {
				double sg = noise_sigma(nfv[i]);
				*vv[i] = sg * sg + s->within + s->extra;
				*df[i] = noise_dof(nfv[i]);
				row->floor_pct = sg * 100;
				row->floor_learned = row->floor_learned || nfv[i]->df > 0;
				if (nfv[i]->runs > row->floor_runs)
					row->floor_runs = nfv[i]->runs;
			}
		}
		double se2 = va + vb + clock;
		double den = (isinf(dfa) ? 0 : va * va / dfa) + (isinf(dfb) ? 0 : vb * vb / dfb);
		dof = den > 0 ? se2 * se2 / den : INFINITY;
		se = sqrt(se2);
	}
	q = stats_t_quantile(1 - (1 - conf) / 2, dof);
	half = q * se;
	row->change_lo = (exp(d - half) - 1) * 100;
	row->change_hi = (exp(d + half) - 1) * 100;
	row->change_pm = (row->change_hi - row->change_lo) / 2;
	if (d - half > 0)
		row->verdict = VERDICT_FASTER;
	else if (d + half < 0)
		row->verdict = VERDICT_SLOWER;
	else
		row->verdict = VERDICT_SAME;
	if (row->verdict != VERDICT_SAME) {
		row->sure = sureness(d, se, dof);
	} else {
		/* The interval narrows about as 1/sqrt(runs per side): how many
		 * runs would put the observed change outside it. */
		int now = a->k < b->k ? a->k : b->k;
		if (fabs(d) < 1e-9) {
			row->more_runs = -1;
		} else {
			double need = ceil(now * (half / fabs(d)) * (half / fabs(d)));
			row->more_runs = need - now > MAX_MORE_RUNS ? -1 : (int)(need - now);
			if (row->more_runs == 0)
				row->more_runs = 1;
		}
	}
}

/* The copy counts either side ran: A's order, then B's extra ones. */
static int copy_counts(int *copies, int max, const struct run *const *a, int na, const struct run *const *b, int nb)
{
	int n = 0;
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < (s ? nb : na); r++) {
			const struct run *run = s ? b[r] : a[r];
			for (int i = 0; i < run->nblocks && n < max; i++) {
				bool have = false;
				for (int k = 0; k < n; k++)
					have = have || copies[k] == run->blocks[i].copies;
				if (!have)
					copies[n++] = run->blocks[i].copies;
			}
		}
	return n;
}

/* Who is compared: each side's runs, named. */
static void name_sides(struct compare *c, const struct run *const *a, int na, const struct run *const *b, int nb)
{
	c->na = na;
	c->nb = nb;
	c->a_runs = calloc((size_t)na, sizeof *c->a_runs);
	c->b_runs = calloc((size_t)nb, sizeof *c->b_runs);
	if (!c->a_runs || !c->b_runs)
		abort();
	for (int s = 0; s < 2; s++) {
		const struct run *const *runs = s ? b : a;
		struct compare_ref *refs = s ? c->b_runs : c->a_runs;
		for (int i = 0; i < (s ? nb : na); i++) {
			snprintf(refs[i].id, sizeof refs[i].id, "%s", runs[i]->meta.id);
			snprintf(refs[i].name, sizeof refs[i].name, "%s", runs[i]->meta.name);
			snprintf(refs[i].kernel, sizeof refs[i].kernel, "%s", runs[i]->meta.kernel_release);
			snprintf(refs[i].mode, sizeof refs[i].mode, "%s", run_mode_info(runs[i]->meta.mode)->name);
			refs[i].date = (long long)runs[i]->meta.date;
		}
	}
	compare_title(c->a_title, sizeof c->a_title, a, na);
	compare_title(c->b_title, sizeof c->b_title, b, nb);
}

struct compare *compare_runs(const struct run *const *a, int na, const struct run *const *b, int nb,
			     const struct compare_opts *o, char *err, size_t errlen)
{
	if (na < 1 || nb < 1 || !a || !b) {
		snprintf(err, errlen, "a comparison needs at least one run on each side");
		return NULL;
	}
	struct compare *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	c->conf = o && o->conf > 0 && o->conf < 1 ? o->conf : 0.95;
	const struct noise_table *nt = o ? o->noise : NULL;
	name_sides(c, a, na, b, nb);
	c->noise_runs = nt ? nt->runs : 0;
	int copies[128];
	int ncopies = copy_counts(copies, 128, a, na, b, nb);
	if (ncopies == 0) {
		snprintf(err, errlen, "neither side has any results to compare");
		compare_free(c);
		return NULL;
	}
	c->blocks = calloc((size_t)ncopies, sizeof *c->blocks);
	if (!c->blocks)
		abort();
	c->nblocks = ncopies;
	int shared = 0;
	struct compare_tally tally = { 0 };
	for (int k = 0; k < ncopies; k++) {
		struct compare_block *cb = &c->blocks[k];
		cb->copies = copies[k];
		for (int r = 0; r < na; r++)
			cb->in_a = cb->in_a || run_find_block(a[r], cb->copies);
		for (int r = 0; r < nb; r++)
			cb->in_b = cb->in_b || run_find_block(b[r], cb->copies);
		shared += cb->in_a && cb->in_b;
		compare_block_rows(c, cb, a, na, b, nb, nt, &tally);
	}
	if (!shared) {
		snprintf(err, errlen, "the two sides share no copy count (A: %s, B: %s)",
			 "see 'kbench show'", "see 'kbench show'");
		compare_free(c);
		return NULL;
	}
	compare_footer(c, a, na, b, nb, &tally);
	return c;
}

struct compare *compare_stored(const struct run *const *a, int na, const struct run *const *b, int nb,
			       const struct compare_opts *o, char *err, size_t errlen)
{
	struct compare_opts opts = o ? *o : (struct compare_opts){ 0 };
	struct noise_table nt = { 0 };
	char why[400] = "";
	if (!opts.default_noise && na > 0 && nb > 0 && a && b) {
		/* The runs being compared must not teach the floor their own difference. */
		const char **ex = calloc((size_t)(na + nb), sizeof *ex);
		if (!ex)
			abort();
		for (int i = 0; i < na; i++)
			ex[i] = a[i]->meta.id;
		for (int i = 0; i < nb; i++)
			ex[na + i] = b[i]->meta.id;
		if (noise_learn_store(&nt, ex, na + nb, why, sizeof why) < 0)
			noise_free(&nt);
		free(ex);
	}
	opts.noise = opts.default_noise ? NULL : &nt;
	struct compare *c = compare_runs(a, na, b, nb, &opts, err, errlen);
	if (c && why[0])
		compare_push_footer(c, "The store could not be read (%s): default noise floors were used.", why);
	noise_free(&nt);
	return c;
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nblocks; i++)
		free(c->blocks[i].rows);
	free(c->blocks);
	free(c->diffs);
	free(c->a_runs);
	free(c->b_runs);
	for (int i = 0; i < c->nfooter; i++)
		free(c->footer[i]);
	free(c->footer);
	free(c);
}
