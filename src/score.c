/* UnixBench's scoring rules, exactly as its Run script applies them (UNIXBENCH.md §3, §6). */
#include "score.h"

#include <math.h>
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

void score_test(struct test_result *t)
{
	int n = t->nsamples;
	if (n <= 0)
		return;
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
