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

static void fill_test_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
			   int n, int copies, const char *id, double sigma)
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
		if (!t || !(t->status == TEST_DONE || t->status == TEST_IMPORTED) || !(t->score > 0))
			continue;
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
static void fill_point_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
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


/* Tests of a block in row order: A's first run's order, then tests only later runs or B have. */
static int collect_ids(char (**ids)[32], const struct run *const *a, int na,
		       const struct run *const *b, int nb, int copies)
{
	int n = 0, cap = 0;
	*ids = NULL;
	for (int side = 0; side < 2; side++) {
		const struct run *const *runs = side ? b : a;
		int nr = side ? nb : na;
		for (int r = 0; r < nr; r++) {
			const struct run_block *bl = run_find_block(runs[r], copies);
			for (int i = 0; bl && i < bl->ntests; i++) {
				bool have = false;
				for (int k = 0; k < n && !have; k++)
					have = !strcmp((*ids)[k], bl->tests[i].id);
				if (have)
					continue;
				if (n == cap) {
					cap = cap ? cap * 2 : 16;
					char(*ni)[32] = realloc(*ids, (size_t)cap * sizeof *ni);
					if (!ni)
						abort();
					*ids = ni;
				}
				snprintf((*ids)[n++], 32, "%s", bl->tests[i].id);
			}
		}
	}
	return n;
}

/* A block's rows: a rate test is one row; a points test is a row per
 * point, in the order of the first run that has it, then points only
 * later runs have. */
struct row_id {
	char test[32];
	char point[32]; /* "" for a rate test */
};

static const struct test_result *find_any(const struct run *const *runs, int n, int copies,
					  const char *id);

/* Where on its curve a point was measured in the first of the runs that has it; NAN none. */
static double point_x(const struct run *const *runs, int n, int copies, const char *test,
		      const char *name)
{
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, test) : NULL;
		const struct point *p = t ? test_find_point(t, name) : NULL;
		if (p)
			return p->x;
	}
	return NAN;
}

static void push_row_id(struct row_id **v, int *n, int *cap, const char *test, const char *point)
{
	if (*n == *cap) {
		*cap *= 2;
		struct row_id *nv = realloc(*v, (size_t)*cap * sizeof *nv);
		if (!nv)
			abort();
		*v = nv;
	}
	snprintf((*v)[*n].test, sizeof (*v)[*n].test, "%s", test);
	snprintf((*v)[*n].point, sizeof (*v)[*n].point, "%s", point);
	(*n)++;
}

static int expand_points(struct row_id **out, char (*ids)[32], int nids, const struct run *const *a,
			 int na, const struct run *const *b, int nb, int copies)
{
	int n = 0, cap = nids + 1;
	struct row_id *v = calloc((size_t)cap, sizeof *v);
	if (!v)
		abort();
	for (int i = 0; i < nids; i++) {
		const struct test_result *t = find_any(a, na, copies, ids[i]);
		if (!t)
			t = find_any(b, nb, copies, ids[i]);
		bool points = t && t->kind == RESULT_POINTS;
		for (int side = 0; points && side < 2; side++)
			for (int r = 0; r < (side ? nb : na); r++) {
				const struct run_block *bl = run_find_block(side ? b[r] : a[r], copies);
				const struct test_result *tr = bl ? run_block_find_test(bl, ids[i]) : NULL;
				for (int p = 0; tr && p < tr->npoints; p++) {
					bool have = false;
					for (int k = n - 1; k >= 0 && !have && !strcmp(v[k].test, ids[i]); k--)
						have = !strcmp(v[k].point, tr->points[p].name);
					if (!have)
						push_row_id(&v, &n, &cap, ids[i], tr->points[p].name);
				}
			}
		if (!points)
			push_row_id(&v, &n, &cap, ids[i], "");
	}
	*out = v;
	return n;
}

/* The facts of a point, from whichever run has it. */
static const struct point *point_any(const struct run *const *a, int na, const struct run *const *b,
				     int nb, int copies, const struct row_id *id)
{
	for (int side = 0; side < 2; side++)
		for (int r = 0; r < (side ? nb : na); r++) {
			const struct run_block *bl = run_find_block(side ? b[r] : a[r], copies);
			const struct test_result *t = bl ? run_block_find_test(bl, id->test) : NULL;
			const struct point *p = t ? test_find_point(t, id->point) : NULL;
			if (p)
				return p;
		}
	return NULL;
}

static const struct test_result *find_any(const struct run *const *runs, int n, int copies,
					  const char *id)
{
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, id) : NULL;
		if (t)
			return t;
	}
	return NULL;
}

static void index_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
		       int n, int copies, const struct compare_block *cb, bool side_b)
{
	compare_side_init(s, n);
	s->freq = NAN;
	cs->others_cpu = cs->freq_mhz = NAN;
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		if (b && b->index_score > 0)
			s->all[s->nall++] = log(b->index_score);
	}
	s->samples = s->nall > 0;
	for (int i = 0; i < cb->nrows; i++) {
		const struct compare_row *row = &cb->rows[i];
		const struct compare_side *side = side_b ? &row->b : &row->a;
		if (!side->present || !(side->index > 0))
			continue;
		if (side->nsamples == 0)
			s->samples = false;
		/* The index is made of its tests: one measured on a busy or
		 * throttled machine makes it so too. */
		s->busy |= side->busy;
		s->throttled |= side->throttled;
	}
	if (!s->busy && !s->throttled) {
		memcpy(s->logs, s->all, (size_t)s->nall * sizeof *s->logs);
		s->k = s->nall;
	}
	if (s->nall) {
		cs->present = true;
		cs->nruns = s->nall;
		cs->score = cs->index = exp(stats_mean(s->all, s->nall));
		cs->busy = s->busy;
		cs->throttled = s->throttled;
	}
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
	c->noise_runs = nt ? nt->runs : 0;

	/* Copy counts: A's order, then B's extra ones. */
	int copies[128], ncopies = 0;
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < (s ? nb : na); r++) {
			const struct run *run = s ? b[r] : a[r];
			for (int i = 0; i < run->nblocks && ncopies < 128; i++) {
				bool have = false;
				for (int k = 0; k < ncopies; k++)
					have = have || copies[k] == run->blocks[i].copies;
				if (!have)
					copies[ncopies++] = run->blocks[i].copies;
			}
		}
	if (ncopies == 0) {
		snprintf(err, errlen, "neither side has any results to compare");
		compare_free(c);
		return NULL;
	}
	c->blocks = calloc((size_t)ncopies, sizeof *c->blocks);
	if (!c->blocks)
		abort();
	c->nblocks = ncopies;
	int undecided = 0, settle = 0, na_rows = 0, drifts = 0, shared = 0;
	const struct run *uncalibrated = NULL; /* a side whose setting has no learned floors */
	for (int k = 0; k < ncopies; k++) {
		struct compare_block *cb = &c->blocks[k];
		cb->copies = copies[k];
		for (int r = 0; r < na; r++)
			cb->in_a = cb->in_a || run_find_block(a[r], cb->copies);
		for (int r = 0; r < nb; r++)
			cb->in_b = cb->in_b || run_find_block(b[r], cb->copies);
		shared += cb->in_a && cb->in_b;
		char(*ids)[32];
		int nids = collect_ids(&ids, a, na, b, nb, cb->copies);
		struct row_id *rid;
		cb->nrows = expand_points(&rid, ids, nids, a, na, b, nb, cb->copies);
		cb->rows = calloc((size_t)cb->nrows + 1, sizeof *cb->rows);
		if (!cb->rows)
			abort();
		double sum_change = 0, sum_log = 0;
		for (int i = 0; i < cb->nrows; i++) {
			struct compare_row *row = &cb->rows[i];
			const struct test_result *t = find_any(a, na, cb->copies, rid[i].test);
			if (!t)
				t = find_any(b, nb, cb->copies, rid[i].test);
			struct side_vals sa, sb;
			struct noise_floor fa, fb;
			if (rid[i].point[0]) {
				const struct point *p = point_any(a, na, b, nb, cb->copies, &rid[i]);
				row->point = true;
				row->detail = !p->summary;
				row->lower_better = p->lower_better;
				snprintf(row->id, sizeof row->id, "%s:%s", t->id, p->name);
				const struct family *fam = family_of_result(t);
				char size[24];
				if (row->detail && fam->fmt_x && fam->fmt_x(size, sizeof size, p)) {
					snprintf(row->label, sizeof row->label, "%s %.*s %s", t->id,
						 (int)strcspn(p->name, " "), p->name, size);
				} else {
					snprintf(row->label, sizeof row->label, "%s %s", t->id, p->name);
				}
				snprintf(row->unit, sizeof row->unit, "%s", p->unit);
				fa = *noise_get(nt, row->id, a[0]);
				fb = *noise_get(nt, row->id, b[0]);
				fill_point_side(&sa, &row->a, a, na, cb->copies, t->id, p->name);
				fill_point_side(&sb, &row->b, b, nb, cb->copies, t->id, p->name);
			} else {
				snprintf(row->id, sizeof row->id, "%s", t->id);
				snprintf(row->label, sizeof row->label, "%s", t->label[0] ? t->label : t->id);
				snprintf(row->unit, sizeof row->unit, "%s", t->unit);
				/* Each side's floor is its own setting's (a quick run moves more than a full one). */
				fa = *noise_get(nt, row->id, a[0]);
				fb = *noise_get(nt, row->id, b[0]);
				fill_test_side(&sa, &row->a, a, na, cb->copies, row->id, noise_sigma(&fa));
				fill_test_side(&sb, &row->b, b, nb, cb->copies, row->id, noise_sigma(&fb));
			}
			compare_decide(row, &sa, &sb, &fa, &fb, c->conf);
			/* lower is better: a fall is the better ("faster") way */
			if (row->lower_better && row->verdict == VERDICT_FASTER)
				row->verdict = VERDICT_SLOWER;
			else if (row->lower_better && row->verdict == VERDICT_SLOWER)
				row->verdict = VERDICT_FASTER;
			/* a plateau read at another size (runs with other --sizes) is not the same point */
			if (row->point && row->a.present && row->b.present) {
				const char *sep = strchr(row->id, ':');
				double xa = point_x(a, na, cb->copies, rid[i].test, sep ? sep + 1 : "");
				double xb = point_x(b, nb, cb->copies, rid[i].test, sep ? sep + 1 : "");
				if (isfinite(xa) && isfinite(xb) && fabs(xa - xb) > 1e-6 * fmax(fabs(xa), fabs(xb))) {
					row->verdict = VERDICT_NA;
					row->note = "at another size";
				}
			}
			/* a test run with other settings (the latency tests' --period-us,
			 * --ia-loads, ...: their summary's "settings") is not the same point */
			if (row->point && row->a.present && row->b.present) {
				const struct test_result *ta = find_any(a, na, cb->copies, rid[i].test);
				const struct test_result *tb = find_any(b, nb, cb->copies, rid[i].test);
				const struct kv *ka = ta ? test_summary_get(ta, "settings") : NULL;
				const struct kv *kb = tb ? test_summary_get(tb, "settings") : NULL;
				if (ka && kb && strcmp(ka->text, kb->text)) {
					row->verdict = VERDICT_NA;
					row->note = "other settings";
					bool told = false;
					for (int k = 0; k < c->nfooter && !told; k++)
						told = !strncmp(c->footer[k], rid[i].test, strlen(rid[i].test)) &&
						       !strncmp(c->footer[k] + strlen(rid[i].test), " ran with", 9);
					if (!told)
						compare_push_footer(c, "%s ran with other settings: A %s; B %s. Its points are n/a.",
								    rid[i].test, ka->text, kb->text);
				}
			}
			compare_side_free(&sa);
			compare_side_free(&sb);
			if (row->detail) {
				/* a curve's hundreds of points are counted apart from the table's rows */
				cb->ndetail++;
				cb->dfaster += row->verdict == VERDICT_FASTER;
				cb->dslower += row->verdict == VERDICT_SLOWER;
				cb->dsame += row->verdict == VERDICT_SAME;
				cb->dna += row->verdict == VERDICT_NA;
				continue;
			}
			drifts += row->a.drift + row->b.drift;
			compare_count_basis(c, row, &fa, &fb, a[0], b[0], na, nb, &uncalibrated);
			switch (row->verdict) {
			case VERDICT_FASTER: cb->nfaster++; break;
			case VERDICT_SLOWER: cb->nslower++; break;
			case VERDICT_SAME: cb->nsame++; break;
			case VERDICT_NA: cb->nna++; break;
			}
			if (row->verdict == VERDICT_NA && row->note &&
			    (!strcmp(row->note, "busy") || !strcmp(row->note, "throttled")))
				c->nbusy_rows++;
			else if (row->verdict == VERDICT_NA && row->a.present && row->b.present)
				na_rows++;
			if (row->verdict == VERDICT_SAME) {
				undecided++;
				if (row->more_runs > 0 && row->more_runs <= 2)
					settle++;
			}
			/* The mean change is over rates: a point's change has its own direction. */
			if (isfinite(row->change) && !row->point) {
				cb->ncompared++;
				sum_change += row->change;
				sum_log += log1p(row->change / 100);
			}
		}
		free(rid);
		free(ids);
		cb->mean_change = cb->ncompared ? sum_change / cb->ncompared : NAN;
		cb->geomean_change = cb->ncompared ? (exp(sum_log / cb->ncompared) - 1) * 100 : NAN;
		/* The index score, as one more row. */
		struct compare_row *ix = &cb->index;
		snprintf(ix->id, sizeof ix->id, NOISE_INDEX_ID);
		snprintf(ix->label, sizeof ix->label, "System Benchmarks Index Score");
		const struct run_block *ab = NULL, *bb = NULL;
		for (int r = 0; r < na && !ab; r++)
			ab = run_find_block(a[r], cb->copies);
		for (int r = 0; r < nb && !bb; r++)
			bb = run_find_block(b[r], cb->copies);
		cb->a_partial = ab && ab->index_partial;
		cb->b_partial = bb && bb->index_partial;
		struct noise_floor fa = *noise_get(nt, NOISE_INDEX_ID, a[0]);
		struct noise_floor fb = *noise_get(nt, NOISE_INDEX_ID, b[0]);
		struct side_vals sa, sb;
		index_side(&sa, &ix->a, a, na, cb->copies, cb, false);
		index_side(&sb, &ix->b, b, nb, cb->copies, cb, true);
		compare_decide(ix, &sa, &sb, &fa, &fb, c->conf);
		cb->has_index = ix->a.present || ix->b.present;
		/* An index over different test sets is not one number compared. */
		if (ab && bb && ab->index_tests != bb->index_tests && ix->verdict != VERDICT_NA) {
			ix->verdict = VERDICT_NA;
			ix->note = "index over different tests";
		}
		compare_side_free(&sa);
		compare_side_free(&sb);
		const struct run_mode_info *mode = run_mode_info(a[0]->meta.mode);
		if (mode->compare_rows)
			mode->compare_rows(c, cb, a, na, b, nb, nt);
	}
	if (!shared) {
		snprintf(err, errlen, "the two sides share no copy count (A: %s, B: %s)",
			 "see 'kbench show'", "see 'kbench show'");
		compare_free(c);
		return NULL;
	}
	compare_footer(c, a, na, b, nb, &(struct compare_tally){ .undecided = undecided, .settle = settle,
						       .na_rows = na_rows, .drifts = drifts,
						       .uncalibrated = uncalibrated });
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
