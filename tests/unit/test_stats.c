/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the statistics: known answers for t quantiles, intervals and Welch. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "stats.h"

static void test_mean_sd(void **state)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	assert_float_equal(stats_mean(v, 8), 5.0, 1e-12);
	assert_float_equal(stats_stddev(v, 8), sqrt(32.0 / 7), 1e-12);
	assert_float_equal(stats_stddev(v, 1), 0.0, 0);
	assert_float_equal(stats_mean(v, 0), 0.0, 0);
}

/* Student t quantiles from printed tables (two-sided 95%). */
static void test_median(void **state)
{
	double odd[] = { 5, 1, 9, 3, 7 }, even[] = { 4, 1, 3, 2 }, one[] = { 2.5 };
	assert_float_equal(stats_median(odd, 5), 5, 0);
	assert_float_equal(odd[0], 1, 0); /* sorted in place */
	assert_float_equal(stats_median(even, 4), 2.5, 0);
	assert_float_equal(stats_median(one, 1), 2.5, 0);
	assert_true(isnan(stats_median(one, 0)));
}

static void test_t_quantile(void **state)
{
	assert_float_equal(stats_t_quantile(0.975, 1), 12.7062, 1e-3);
	assert_float_equal(stats_t_quantile(0.975, 2), 4.3027, 1e-4);
	assert_float_equal(stats_t_quantile(0.975, 5), 2.5706, 1e-4);
	assert_float_equal(stats_t_quantile(0.975, 10), 2.2281, 1e-4);
	assert_float_equal(stats_t_quantile(0.975, 30), 2.0423, 1e-4);
	assert_float_equal(stats_t_quantile(0.975, INFINITY), 1.95996, 1e-4);
	assert_float_equal(stats_t_quantile(0.95, 4), 2.1318, 1e-4);
	assert_float_equal(stats_t_quantile(0.025, 10), -2.2281, 1e-4);
	assert_true(isnan(stats_t_quantile(0.975, 0)));
	assert_true(isnan(stats_t_quantile(1.0, 3)));
	/* The cdf and the quantile undo each other. */
	assert_float_equal(stats_t_cdf(stats_t_quantile(0.9, 7.5), 7.5), 0.9, 1e-9);
}

static void test_ci(void **state)
{
	const double v[] = { 10, 12, 14 };
	struct stats_ci ci = stats_ci_mean(v, 3, 0.95);
	assert_float_equal(ci.mean, 12.0, 1e-12);
	assert_float_equal(ci.half, 4.3027 * 2 / sqrt(3), 1e-3);
	assert_float_equal(ci.lo, 12 - ci.half, 1e-12);
	struct stats_ci one = stats_ci_mean(v, 1, 0.95);
	assert_true(isinf(one.half));
}

/* Welch's first example from the literature: t = 2.46, df = 25.0, p = 0.021. */
static void test_welch(void **state)
{
	const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	struct stats_welch w = stats_welch(a, 15, b, 15, 0.95);
	assert_true(w.ok);
	assert_float_equal(w.t, 2.46, 0.01);
	assert_float_equal(w.df, 24.99, 0.02);
	assert_float_equal(w.p, 0.021, 0.001);
	assert_true(w.diff - w.half > 0); /* significant at 95% */
	struct stats_welch none = stats_welch(a, 1, b, 15, 0.95);
	assert_false(none.ok);
	const double flat[] = { 5, 5, 5 };
	assert_false(stats_welch(flat, 3, flat, 3, 0.95).ok);
}

static void test_linfit(void **state)
{
	const double v[] = { 1, 3, 5, 7, 9 };
	struct stats_fit f = stats_linfit(v, 5);
	assert_true(f.ok);
	assert_float_equal(f.slope, 2.0, 1e-12);
	assert_float_equal(f.resid_sd, 0.0, 1e-9);
	const double n[] = { 1, 2, 1, 2, 1, 2 };
	struct stats_fit g = stats_linfit(n, 6);
	assert_true(fabs(g.slope) < 2 * g.se); /* no real trend */
	assert_false(stats_linfit(v, 2).ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_sd), cmocka_unit_test(test_median),
		cmocka_unit_test(test_t_quantile), cmocka_unit_test(test_ci),
		cmocka_unit_test(test_welch), cmocka_unit_test(test_linfit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
