/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the quick-run stopping rule in src/record/quick.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "quick.h"

static const struct quick_rule rule = { .precision = 0.01, .min_samples = 3, .max_samples = 200,
					.max_seconds = 40 };

static void stops_on_a_precise_series(void **state)
{
	(void)state;
	double r[3] = { 1000.0, 1001.0, 999.5 };
	double got;
	assert_int_equal(quick_decide(&rule, r, 3, 3.0, &got), QUICK_PRECISE);
	assert_true(got < 0.01 && got > 0);
}

static void keeps_going_on_a_noisy_series(void **state)
{
	(void)state;
	double r[5] = { 1000, 1100, 900, 1150, 870 };
	double got;
	assert_int_equal(quick_decide(&rule, r, 5, 5.0, &got), QUICK_MORE);
	assert_true(got > 0.01);
}

static void respects_the_minimum(void **state)
{
	(void)state;
	double r[2] = { 1000, 1000.1 };
	/* Two nearly equal samples would look precise; the minimum is three, even past the limit. */
	assert_int_equal(quick_decide(&rule, r, 2, 2.0, NULL), QUICK_MORE);
	assert_int_equal(quick_decide(&rule, r, 2, 100.0, NULL), QUICK_MORE);
	assert_int_equal(quick_decide(&rule, r, 1, 1.0, NULL), QUICK_MORE);
}

static void respects_the_time_limit(void **state)
{
	(void)state;
	double r[4] = { 1000, 1300, 800, 1200 };
	assert_int_equal(quick_decide(&rule, r, 4, 39.9, NULL), QUICK_MORE);
	assert_int_equal(quick_decide(&rule, r, 4, 40.0, NULL), QUICK_TIME_UP);
}

static void respects_the_sample_limit(void **state)
{
	(void)state;
	struct quick_rule few = rule;
	few.max_samples = 4;
	double r[4] = { 1000, 1300, 800, 1200 };
	assert_int_equal(quick_decide(&few, r, 4, 1.0, NULL), QUICK_MAX_SAMPLES);
}

static void precision_is_the_t_interval_of_the_log_rates(void **state)
{
	(void)state;
	/* logs 0, ln 2, ln 4: mean ln 2, sd ln 2, t(0.975, 2) = 4.3027 → half = 4.3027 ln2 / sqrt 3 */
	double r[3] = { 1, 2, 4 };
	double want = expm1(4.302653 * log(2.0) / sqrt(3.0));
	assert_true(fabs(quick_precision(r, 3) - want) / want < 1e-4);
	assert_true(isinf(quick_precision(r, 1)));
	double z[3] = { 1, 0, 1 };
	assert_true(isinf(quick_precision(z, 3)));
}

/* Neyman's rule: samples go where weight times noise per root-second is largest, and the
 * seconds given are spent. */
static void allocates_by_noise_weight_and_cost(void **state)
{
	(void)state;
	struct quick_alloc t[3] = {
		{ .weight = 1.0 / 3, .cost = 1, .sd = 0.01, .n = 3 }, /* steady */
		{ .weight = 1.0 / 3, .cost = 1, .sd = 0.08, .n = 3 }, /* noisy */
		{ .weight = 1.0 / 3, .cost = 4, .sd = 0.08, .n = 3 }, /* as noisy, four times the cost */
	};
	quick_allocate(t, 3, 100, 3, 200);
	assert_true(t[1].target > t[0].target);
	/* per sample, the costly one gets half the noisy one's (1/sqrt(4)) */
	assert_true(t[2].target < t[1].target);
	double spent = 0;
	for (int i = 0; i < 3; i++)
		spent += t[i].cost * (t[i].target - t[i].n);
	assert_true(spent > 85 && spent < 115); /* the seconds given, to a sample's rounding */
	/* the index's variance at those targets is below an even split's of the same seconds */
	struct quick_alloc even[3], got[3];
	for (int i = 0; i < 3; i++) {
		even[i] = got[i] = t[i];
		got[i].n = t[i].target;
	}
	/* an even split in time: each gets a third of the seconds */
	for (int i = 0; i < 3; i++)
		even[i].n = t[i].n + (int)(spent / 3 / t[i].cost);
	assert_true(quick_index_variance(got, 3) < quick_index_variance(even, 3));
}

static void done_tests_keep_their_samples(void **state)
{
	(void)state;
	struct quick_alloc t[2] = {
		{ .weight = 0.5, .cost = 1, .sd = 0.05, .n = 7, .done = true },
		{ .weight = 0.5, .cost = 1, .sd = 0.001, .n = 5 },
	};
	quick_allocate(t, 2, 0, 3, 200); /* no time left: */
	assert_int_equal(t[0].target, 7);
	assert_int_equal(t[1].target, 5); /* no time left: what it has */
	/* the minimum and the maximum */
	struct quick_alloc u[2] = { { .weight = 0.5, .cost = 1, .sd = 1e-4, .n = 1 },
				    { .weight = 0.5, .cost = 1, .sd = 0.5, .n = 2 } };
	quick_allocate(u, 2, 1000, 3, 50);
	assert_int_equal(u[0].target >= 3, 1);
	assert_int_equal(u[1].target, 50);
}

/* Two samples that happen to agree do not make a test look steady: its sd is pulled
 * toward the others' before it is allocated. */
static void a_lucky_pair_does_not_starve_a_test(void **state)
{
	(void)state;
	struct quick_alloc t[4] = {
		{ .weight = 0.25, .cost = 1, .sd = 0.04, .n = 2 },
		{ .weight = 0.25, .cost = 1, .sd = 0.05, .n = 2 },
		{ .weight = 0.25, .cost = 1, .sd = 0.06, .n = 2 },
		{ .weight = 0.25, .cost = 1, .sd = 0.0001, .n = 2 },
	};
	quick_allocate(t, 4, 40, 3, 200);
	assert_true(t[3].target * 3 >= t[1].target);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stops_on_a_precise_series),
		cmocka_unit_test(allocates_by_noise_weight_and_cost),
		cmocka_unit_test(done_tests_keep_their_samples),
		cmocka_unit_test(a_lucky_pair_does_not_starve_a_test),
		cmocka_unit_test(keeps_going_on_a_noisy_series),
		cmocka_unit_test(respects_the_minimum),
		cmocka_unit_test(respects_the_time_limit),
		cmocka_unit_test(respects_the_sample_limit),
		cmocka_unit_test(precision_is_the_t_interval_of_the_log_rates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
