/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's scoring rules, exactly as its Run script applies them (UNIXBENCH.md §3, §6). */
#include "score.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "tests.h"

double score_rate(double count, double time, int timebase)
{
	if (timebase > 0 && time > 0)
		return count / (time / timebase);
	return count;
}

int score_kept(int n)
{
	return n - n / 3;
}

double score_index(double score, double baseline)
{
	return baseline > 0 ? score / baseline * 10.0 : 0.0;
}

double score_geomean(const double *v, size_t n, double floor)
{
	if (n == 0)
		return 0;
	double logs = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] > floor)
			logs += log(v[i]);
	return exp(logs / (double)n);
}

struct ranked {
	double count;
	size_t order;
	const struct sample *s;
};

/* Perl's sort is stable: equal counts keep their order. */
static int by_count(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

double score_top_mean(int n, int keep)
{
	if (n < 1 || keep < 1 || keep > n)
		return NAN;
	/* Only (n, keep) matter, and every rescore of a stored quick run asks again. */
	static double memo[17][17];
	static bool known[17][17];
	if (n <= 16 && known[n][keep])
		return memo[n][keep];
	/* E[X(i:n)] = n!/((i-1)!(n-i)!) * integral of x phi(x) Phi(x)^(i-1) (1-Phi(x))^(n-i),
	 * by the midpoint rule over -9..9 (the tails beyond add nothing at double precision). */
	const double lo = -9.0, h = 1e-3;
	double sum = 0;
	for (int i = n - keep + 1; i <= n; i++) {
		double lc = lgamma(n + 1.0) - lgamma((double)i) - lgamma(n - i + 1.0), e = 0;
		for (int k = 0; k < 18000; k++) {
			double x = lo + (k + 0.5) * h;
			/* Phi(x) and 1 - Phi(x) each from its own erfc, both above 0 on
			 * -9..9: as 1 - cdf, i686's x87 compared cdf < 1 in extended
			 * precision and then took log1p(-1) of the double, and 0 * -inf
			 * made every score of a quick run NaN. */
			double cdf = 0.5 * erfc(-x / sqrt(2.0)), upper = 0.5 * erfc(x / sqrt(2.0));
			if (!(cdf > 0) || !(upper > 0))
				continue;
			e += x * exp(lc - 0.5 * x * x - 0.5 * log(2 * M_PI) + (i - 1) * log(cdf) +
				     (n - i) * log(upper)) * h;
		}
		sum += e;
	}
	if (n <= 16) {
		memo[n][keep] = sum / keep;
		known[n][keep] = true;
	}
	return sum / keep;
}

/*
 * A quick run's score is an estimate of what the full-length run would
 * print. Every sample counts (the 95% interval the run stopped on is the
 * interval of this mean), and then the score is raised by what UnixBench's
 * rule adds to a full run: keeping the best n - n/3 of n full-length samples
 * lifts their mean by E[mean of the top kept of n normals] standard
 * deviations of a full-length sample, which is taken as the quick samples'
 * deviation scaled by sqrt(quick length / full length), as for independent
 * noise. The lift is stored as the test's "quick_lift" summary.
 */
static void score_quick(struct test_result *t)
{
	int n = t->nsamples;
	double *rates = calloc((size_t)n * 2, sizeof *rates), *logs = rates + n;
	if (!rates)
		return;
	double mean = 0, time = 0, rmean = 0;
	for (int i = 0; i < n; i++) {
		double st = sample_time(&t->samples[i]);
		rates[i] = score_rate(sample_count(&t->samples[i]), st, t->timebase);
		logs[i] = rates[i] > 0 ? log(rates[i]) : 0;
		mean += logs[i] / n;
		time += st / n;
		rmean += rates[i] / n;
	}
	double var = 0, rvar = 0;
	for (int i = 0; i < n; i++) {
		var += (logs[i] - mean) * (logs[i] - mean);
		rvar += (rates[i] - rmean) * (rates[i] - rmean);
	}
	double lift = 0;
	const struct test_def *def = test_find(t->id);
	if (n > 1 && def && def->seconds > 0 && time > 0) {
		int full = def->samples;
		double sd = sqrt(var / (n - 1)) * sqrt(fmin(1.0, time / def->seconds));
		double c = score_top_mean(full, score_kept(full));
		if (isfinite(c))
			lift = c * sd;
	}
	test_summary_set(t, "quick_lift", expm1(lift), NULL);
	t->kept = n;
	t->time = time;
	t->score = exp(mean + lift);
	t->index = score_index(t->score, t->baseline);
	t->spread = (n > 1 && rmean > 0) ? sqrt(rvar / (n - 1)) / rmean : -1;
	free(rates);
}

void score_test(struct test_result *t)
{
	int n = t->nsamples;
	/* A points result has no rate: its points are its result, and it
	 * enters no index. */
	if (t->kind == RESULT_POINTS) {
		double time = 0;
		for (int i = 0; i < n; i++)
			time += sample_time(&t->samples[i]);
		t->score = t->index = 0;
		t->kept = n;
		t->time = n ? time / n : 0;
		t->spread = -1;
		return;
	}
	if (n <= 0)
		return;
	/* a quick run's test, by either rule (quick.h) */
	if (test_is_quick(t)) {
		score_quick(t);
		return;
	}
	struct ranked *r = calloc((size_t)n, sizeof *r);
	double *rates = calloc((size_t)n, sizeof *rates);
	if (!r || !rates) {
		free(r);
		free(rates);
		return;
	}
	for (int i = 0; i < n; i++) {
		r[i].count = sample_count(&t->samples[i]);
		r[i].order = (size_t)i;
		r[i].s = &t->samples[i];
	}
	qsort(r, (size_t)n, sizeof *r, by_count);
	int drop = n / 3, kept = n - drop;
	double time = 0, sum = 0;
	for (int i = 0; i < kept; i++) {
		const struct sample *s = r[drop + i].s;
		double st = sample_time(s);
		rates[i] = score_rate(r[drop + i].count, st, t->timebase);
		time += st;
		sum += rates[i];
	}
	t->kept = kept;
	t->time = time / kept;
	t->score = score_geomean(rates, (size_t)kept, 0.0);
	t->index = score_index(t->score, t->baseline);
	double mean = sum / kept, var = 0;
	for (int i = 0; i < kept; i++)
		var += (rates[i] - mean) * (rates[i] - mean);
	t->spread = (kept > 1 && mean > 0) ? sqrt(var / (kept - 1)) / mean : -1;
	free(r);
	free(rates);
}

static bool has_result(const struct test_result *t)
{
	return (t->status == TEST_DONE || t->status == TEST_IMPORTED) && t->score > 0;
}

void score_block(struct run_block *b)
{
	double ratios[64];
	size_t n = 0;
	int have = 0, want = 0;
	for (size_t i = 0; i < test_count; i++)
		if (strcmp(test_table[i].category, "system") == 0 && test_table[i].baseline > 0)
			want++;
	for (int i = 0; i < b->ntests && n < 64; i++) {
		const struct test_result *t = &b->tests[i];
		if (strcmp(t->category, "system") != 0 || t->baseline <= 0 || !has_result(t))
			continue;
		ratios[n++] = t->score / t->baseline;
		have++;
	}
	b->index_tests = (int)n;
	b->index_partial = have < want;
	b->index_score = n ? 10.0 * score_geomean(ratios, n, 1e-6) : 0;
}

void run_rescore(struct run *r)
{
	for (int b = 0; b < r->nblocks; b++) {
		for (int i = 0; i < r->blocks[b].ntests; i++)
			score_test(&r->blocks[b].tests[i]);
		score_block(&r->blocks[b]);
	}
}
