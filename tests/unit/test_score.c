/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of UnixBench's scoring rules in src/record/score.c, with known answers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "run.h"
#include "score.h"
#include "tests.h"

/* UnixBench 6.0.0's reference run on a 2-vCPU EPYC VM (UNIXBENCH.md §9). */
static const struct { const char *id; double score, index; } reference[] = {
	{ "dhry2reg", 38040918.7, 3259.7 },   { "whetstone-double", 7219.3, 1312.6 },
	{ "execl", 1674.8, 389.5 },           { "fstime", 450653.1, 1138.0 },
	{ "fsbuffer", 131364.7, 793.7 },      { "fsdisk", 1087437.6, 1874.9 },
	{ "pipe", 911212.4, 732.5 },          { "context1", 60608.9, 151.5 },
	{ "spawn", 3436.7, 272.8 },           { "shell1", 5368.1, 1266.1 },
	{ "shell8", 1131.6, 1886.0 },         { "syscall", 834212.7, 556.1 },
};

static struct test_result *add_def(struct run_block *b, const char *id)
{
	const struct test_def *d = test_find(id);
	assert_non_null(d);
	return run_block_add_test(b, d->id, d->label, d->unit, d->timebase, d->baseline, d->category);
}

static void reference_index_reproduces(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	for (size_t i = 0; i < sizeof reference / sizeof reference[0]; i++) {
		struct test_result *t = add_def(b, reference[i].id);
		t->status = TEST_IMPORTED;
		t->score = reference[i].score;
		/* Each printed index follows from score and baseline to the printed precision. */
		assert_true(fabs(score_index(t->score, t->baseline) - reference[i].index) < 0.05);
	}
	score_block(b);
	assert_false(b->index_partial);
	assert_int_equal(b->index_tests, 12);
	assert_true(fabs(b->index_score - 834.1) < 0.05);
	run_free(r);
}

/* UnixBench lists the file read/write tests, shell64 and C without a
 * baseline: beside the twelve, the index stays full and the same. */
static void tests_without_baseline_leave_the_index_alone(void **state)
{
	static const char *const extra[] = { "fstime-w", "fstime-r", "fsbuffer-w", "fsbuffer-r",
					     "fsdisk-w", "fsdisk-r", "shell64", "C", "shell16" };
	(void)state;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
		struct test_result *t = add_def(b, extra[i]);
		t->status = TEST_IMPORTED;
		t->score = 1e6;
	}
	score_block(b);
	assert_int_equal(b->index_tests, 0);
	assert_true(b->index_partial);
	for (size_t i = 0; i < sizeof reference / sizeof reference[0]; i++) {
		struct test_result *t = add_def(b, reference[i].id);
		t->status = TEST_IMPORTED;
		t->score = reference[i].score;
	}
	score_block(b);
	assert_false(b->index_partial);
	assert_int_equal(b->index_tests, 12);
	assert_true(fabs(b->index_score - 834.1) < 0.05);
	run_free(r);
}

static void partial_index_when_a_test_is_missing(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = add_def(b, "dhry2reg");
	t->status = TEST_IMPORTED;
	t->score = 116700.0 * 4; /* index 40 */
	t = add_def(b, "pipe");
	t->status = TEST_IMPORTED;
	t->score = 12440.0 * 9; /* index 90 */
	score_block(b);
	assert_true(b->index_partial);
	/* Geometric mean of 40 and 90 is 60. */
	assert_true(fabs(b->index_score - 60.0) < 1e-9);
	run_free(r);
}

static void add_samples(struct test_result *t, const double *counts, const double *times, int n)
{
	for (int i = 0; i < n; i++) {
		struct sample *s = test_add_sample(t, 1);
		s->count[0] = counts[i];
		s->elapsed[0] = times[i];
	}
}

static void drops_the_worst_third_by_count(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = add_def(b, "pipe");
	/* The three lowest counts (1, 2, 3) go; the rates of the rest are 10..70 per second. */
	double counts[10] = { 100, 1, 200, 300, 2, 400, 500, 600, 3, 700 };
	double times[10] = { 10, 10, 10, 10, 10, 10, 10, 10, 10, 10 };
	add_samples(t, counts, times, 10);
	score_test(t);
	assert_int_equal(t->kept, 7);
	double logs = 0;
	for (int i = 1; i <= 7; i++)
		logs += log(10.0 * i);
	assert_true(fabs(t->score - exp(logs / 7)) < 1e-9);
	assert_true(fabs(t->time - 10.0) < 1e-12);
	assert_true(fabs(t->index - t->score / 12440.0 * 10) < 1e-9);
	assert_true(t->spread > 0);
	run_free(r);
}

static void drop_is_by_count_not_rate(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = add_def(b, "spawn");
	/* Sample 0 has the lowest count but the highest rate: it is still the one dropped. */
	double counts[3] = { 100, 200, 300 };
	double times[3] = { 1, 100, 100 };
	add_samples(t, counts, times, 3);
	score_test(t);
	assert_int_equal(t->kept, 2);
	assert_true(fabs(t->score - sqrt(2.0 * 3.0)) < 1e-9);
	run_free(r);
}

static void copies_sum_counts_and_average_times(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 2);
	struct test_result *t = add_def(b, "shell8");
	struct sample *s = test_add_sample(t, 2);
	s->count[0] = 100;
	s->count[1] = 50;
	s->elapsed[0] = 60;
	s->elapsed[1] = 62;
	assert_true(fabs(sample_count(s) - 150) < 1e-12);
	assert_true(fabs(sample_time(s) - 61) < 1e-12);
	score_test(t);
	/* lpm: timebase 60 → count / (time / 60). */
	assert_true(fabs(t->score - 150.0 / (61.0 / 60.0)) < 1e-9);
	run_free(r);
}

static void rate_tests_take_the_count_as_the_rate(void **state)
{
	(void)state;
	assert_true(fabs(score_rate(7219.3, 9.7, 0) - 7219.3) < 1e-12);
	assert_true(fabs(score_rate(600, 10, 1) - 60) < 1e-12);
	assert_true(fabs(score_rate(600, 0, 1) - 600) < 1e-12);
}

static void geomean_of_positive_values(void **state)
{
	(void)state;
	const double v[] = { 1, 10, 100 };
	assert_true(fabs(score_geomean(v, 3, 0) - 10.0) < 1e-12);
	assert_true(score_geomean(v, 0, 0) == 0);
	/* Ratios at or under the index's floor (1e-6) add no log term. */
	const double r[] = { 4, 1e-7, 1 };
	assert_true(fabs(score_geomean(r, 3, 1e-6) - cbrt(4)) < 1e-12);
}

static void zero_counts_stay_in_the_divisor(void **state)
{
	(void)state;
	double v[4] = { 0, 16, 16, 16 };
	/* exp((3 ln 16) / 4) = 16^(3/4) = 8 */
	assert_true(fabs(score_geomean(v, 4, 0) - 8.0) < 1e-9);
	assert_int_equal(score_kept(10), 7);
	assert_int_equal(score_kept(3), 2);
	assert_int_equal(score_kept(1), 1);
}

static void top_mean_of_normals(void **state)
{
	(void)state;
	/* Known expected order statistics of N(0,1): n = 3: -0.8463, 0, 0.8463;
	 * n = 10: 1.5388, 1.0014, 0.6561, 0.3758, 0.1227 and their negatives. */
	assert_true(fabs(score_top_mean(3, 2) - 0.8463 / 2) < 1e-4);
	double top7 = 1.5388 + 1.0014 + 0.6561 + 0.3758 + 0.1227 - 0.1227 - 0.3758;
	assert_true(fabs(score_top_mean(10, 7) - top7 / 7) < 1e-4);
	assert_true(fabs(score_top_mean(10, 10)) < 1e-9);
	assert_true(fabs(score_top_mean(1, 1)) < 1e-9);
	assert_true(isnan(score_top_mean(3, 4)));
	assert_true(isnan(score_top_mean(0, 0)));
	/* every lift a run can ask for is a number, on i686's x87 too (it was NaN
	 * there), and the top kept of n are not below the mean */
	for (int n = 2; n <= 16; n++) {
		double c = score_top_mean(n, score_kept(n));
		assert_true(isfinite(c) && c > -1e-9);
	}
}

/* A one-copy test scored from its samples, as a quick run's test or a full run's. */
static struct test_result *scored(struct run *r, const char *id, const double *counts,
				  const double *times, int n, bool quick)
{
	struct test_result *t = add_def(run_add_block(r, 1), id);
	add_samples(t, counts, times, n);
	if (quick)
		test_quick_asked(t, 0.01);
	score_test(t);
	return t;
}

static void quick_keeps_every_sample_and_adds_the_full_runs_lift(void **state)
{
	(void)state;
	struct run *r = run_new();
	/* Six 1-s samples; a full pipe run keeps 7 of 10 samples of 10 s. */
	double counts[6] = { 1000, 1100, 900, 1050, 950, 1000 };
	double times[6] = { 1, 1, 1, 1, 1, 1 };
	struct test_result *t = scored(r, "pipe", counts, times, 6, true);
	assert_int_equal(t->kept, 6);
	double m = 0, v = 0;
	for (int i = 0; i < 6; i++)
		m += log(counts[i]) / 6;
	for (int i = 0; i < 6; i++)
		v += (log(counts[i]) - m) * (log(counts[i]) - m) / 5;
	double lift = score_top_mean(10, 7) * sqrt(v) * sqrt(1.0 / 10.0);
	assert_true(lift > 0.005 && lift < 0.02);
	assert_true(fabs(t->score - exp(m + lift)) < 1e-6);
	const struct kv *kv = test_summary_get(t, "quick_lift");
	assert_non_null(kv);
	assert_true(fabs(kv->value - expm1(lift)) < 1e-9);
	/* Below the worst-third rule's score on the same samples: short samples
	 * are noisier, so dropping their worst third would lift them more. */
	struct test_result *full = scored(r, "pipe", counts, times, 6, false);
	assert_int_equal(full->kept, 4);
	assert_true(full->score > t->score);
	run_free(r);
}

/* A quick run's test of the index allocation (rounds: no precision asked, a budget)
 * is scored as a quick one: every sample kept, the full run's lift added. */
static void quick_by_the_index_allocation_is_scored_as_quick(void **state)
{
	(void)state;
	struct run *r = run_new();
	double counts[6] = { 1000, 1100, 900, 1050, 950, 1000 };
	double times[6] = { 1, 1, 1, 1, 1, 1 };
	struct test_result *t = add_def(run_add_block(r, 1), "pipe");
	add_samples(t, counts, times, 6);
	test_quick_alloc(t, 150);
	score_test(t);
	assert_int_equal(t->kept, 6);
	assert_non_null(test_summary_get(t, "quick_lift"));
	assert_true(fabs(t->score - scored(r, "pipe", counts, times, 6, true)->score) < 1e-9);
	run_free(r);
}

static void quick_lift_is_zero_without_spread(void **state)
{
	(void)state;
	struct run *r = run_new();
	double counts[3] = { 600, 600, 600 };
	double times[3] = { 5, 5, 5 };
	struct test_result *t = scored(r, "shell1", counts, times, 3, true);
	assert_true(fabs(t->score - 7200.0) < 1e-6); /* 600 loops in 5 s = 7200 a minute */
	assert_true(fabs(test_summary_get(t, "quick_lift")->value) < 1e-12);
	run_free(r);
}

static void iterations_follow_unixbench(void **state)
{
	(void)state;
	assert_int_equal(test_samples_for_iterations(test_find("dhry2reg"), 10), 10);
	assert_int_equal(test_samples_for_iterations(test_find("execl"), 10), 3);
	assert_int_equal(test_samples_for_iterations(test_find("execl"), 1), 1);
	assert_int_equal(test_samples_for_iterations(test_find("spawn"), 5), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reference_index_reproduces),
		cmocka_unit_test(tests_without_baseline_leave_the_index_alone),
		cmocka_unit_test(partial_index_when_a_test_is_missing),
		cmocka_unit_test(drops_the_worst_third_by_count),
		cmocka_unit_test(drop_is_by_count_not_rate),
		cmocka_unit_test(copies_sum_counts_and_average_times),
		cmocka_unit_test(rate_tests_take_the_count_as_the_rate),
		cmocka_unit_test(geomean_of_positive_values),
		cmocka_unit_test(zero_counts_stay_in_the_divisor),
		cmocka_unit_test(iterations_follow_unixbench),
		cmocka_unit_test(top_mean_of_normals),
		cmocka_unit_test(quick_keeps_every_sample_and_adds_the_full_runs_lift),
		cmocka_unit_test(quick_by_the_index_allocation_is_scored_as_quick),
		cmocka_unit_test(quick_lift_is_zero_without_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
