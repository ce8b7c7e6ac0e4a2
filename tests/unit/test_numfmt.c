/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/base/numfmt.c: a percentage the one way every table writes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "numfmt.h"

static void test_pct(void **state)
{
	(void)state;
	char b[32];
	num_pct(b, sizeof b, 3.24, NUM_PCT_SIGN);
	assert_string_equal(b, "+3.2%");
	num_pct(b, sizeof b, -0.44, NUM_PCT_SIGN);
	assert_string_equal(b, "-0.4%");
	/* a tenth says nothing past 100%: whole percent from 99.95 on */
	num_pct(b, sizeof b, 250, NUM_PCT_SIGN);
	assert_string_equal(b, "+250%");
	num_pct(b, sizeof b, 99.94, NUM_PCT_SIGN);
	assert_string_equal(b, "+99.9%");
	num_pct(b, sizeof b, -99.95, NUM_PCT_SIGN);
	assert_string_equal(b, "-100%");
	/* ... except where the HTML report keeps it */
	num_pct(b, sizeof b, 1923.94, NUM_PCT_SIGN | NUM_PCT_TENTHS);
	assert_string_equal(b, "+1923.9%");
	/* an interval's half width: no sign; bare under a column that says "%" */
	num_pct(b, sizeof b, 2.25, 0);
	assert_string_equal(b, "2.2%");
	num_pct(b, sizeof b, 2.26, NUM_PCT_BARE);
	assert_string_equal(b, "2.3");
	num_pct(b, sizeof b, 120.4, NUM_PCT_BARE);
	assert_string_equal(b, "120");
	/* unknown, however it came to be, reads the same in every table */
	num_pct(b, sizeof b, NAN, NUM_PCT_SIGN);
	assert_string_equal(b, NUM_PCT_UNKNOWN);
	num_pct(b, sizeof b, INFINITY, NUM_PCT_SIGN);
	assert_string_equal(b, NUM_PCT_UNKNOWN);
	num_pct(b, sizeof b, -INFINITY, NUM_PCT_BARE | NUM_PCT_TENTHS);
	assert_string_equal(b, NUM_PCT_UNKNOWN);
	/* a short buffer is cut, never overrun */
	char s[4];
	num_pct(s, sizeof s, -12.34, NUM_PCT_SIGN);
	assert_string_equal(s, "-12");
}

static void test_fit(void **state)
{
	(void)state;
	char b[32];
	assert_int_equal(num_fit(b, sizeof b, 38040918.7, 6), 0);
	assert_string_equal(b, "38.04M");
	assert_int_equal(num_fit(b, sizeof b, 12.25, 4), 0);
	assert_string_equal(b, "12.2");
	assert_int_equal(num_fit(b, sizeof b, 123.6, 3), 0);
	assert_string_equal(b, "124");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
