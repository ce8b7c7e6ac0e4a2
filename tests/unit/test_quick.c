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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stops_on_a_precise_series),
		cmocka_unit_test(keeps_going_on_a_noisy_series),
		cmocka_unit_test(respects_the_minimum),
		cmocka_unit_test(respects_the_time_limit),
		cmocka_unit_test(respects_the_sample_limit),
		cmocka_unit_test(precision_is_the_t_interval_of_the_log_rates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
