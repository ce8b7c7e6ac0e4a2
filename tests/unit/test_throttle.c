/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the throttle decision in src/telemetry/throttle.c: each kind of evidence at its boundary, and which combinations flag a test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "telemetry/throttle.h"

static struct throttle_verdict decide(const struct throttle_inputs *in)
{
	struct throttle_verdict v;
	memset(&v, 0x55, sizeof v); /* whatever was there before must not leak through */
	throttle_decide(in, &v);
	return v;
}

/* The inputs of a test that saw a known clock (2400 MHz nominal) and a known limit (crit 100 °C), all calm. */
static struct throttle_inputs calm(void)
{
	struct throttle_inputs in = throttle_inputs_none();
	in.nominal_mhz = 2400;
	in.busy_min_mhz = 2400;
	in.temp_max = 60;
	in.temp_limit = 100;
	in.limit_name = "crit";
	return in;
}

static void nothing_known_is_not_throttled(void **state)
{
	(void)state;
	struct throttle_inputs in = throttle_inputs_none();
	struct throttle_verdict v = decide(&in);
	assert_false(v.throttled);
	assert_false(v.counters || v.clock || v.heat || v.score);
	assert_string_equal(v.evidence, "");
	in = calm();
	v = decide(&in);
	assert_false(v.throttled);
	assert_string_equal(v.evidence, "");
}

/* The counters are the kernel saying so: enough on their own, events or time alone. */
static void counters_alone_flag_a_test(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.events = 3;
	in.ms = 300;
	struct throttle_verdict v = decide(&in);
	assert_true(v.throttled && v.counters);
	assert_string_equal(v.evidence, "throttled 3x (300 ms)");
	in.events = 0; /* an episode still going: the time moved, the count not yet */
	in.ms = 5;
	v = decide(&in);
	assert_true(v.throttled && v.counters);
	assert_string_equal(v.evidence, "throttled 0x (5 ms)");
	in.events = 1;
	in.ms = 0;
	assert_true(decide(&in).throttled);
}

static void clock_below_85_percent_of_nominal(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.busy_min_mhz = 2040; /* exactly 85 % of 2400: not below */
	struct throttle_verdict v = decide(&in);
	assert_false(v.clock);
	in.busy_min_mhz = 2039;
	v = decide(&in);
	assert_true(v.clock);
	assert_false(v.throttled); /* a slow clock alone can be the governor */
	assert_string_equal(v.evidence, "clock 2039 of 2400 MHz");
	in.nominal_mhz = 0; /* no nominal clock known: nothing to compare with */
	assert_false(decide(&in).clock);
	in = calm();
	in.busy_min_mhz = NAN; /* no busy sample */
	assert_false(decide(&in).clock);
}

/* The workers' own clock (cycles per task-clock) is said first; today the
 * sampled busy clock still counts when the workers' clock looks fine. */
static void workers_clock_first_then_sampled_clock(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.ghz = 2.0;
	struct throttle_verdict v = decide(&in);
	assert_true(v.clock);
	assert_string_equal(v.evidence, "workers 2.00 of 2.40 GHz");
	in.ghz = 2.04; /* exactly 85 %: not below */
	assert_false(decide(&in).clock);
	in.ghz = 2.039;
	assert_true(decide(&in).clock);
	in.ghz = 2.4;
	in.busy_min_mhz = 1200;
	v = decide(&in);
	assert_true(v.clock);
	assert_string_equal(v.evidence, "clock 1200 of 2400 MHz");
}

static void heat_within_5_degrees_of_the_limit(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.temp_max = 95; /* exactly limit - 5: near */
	struct throttle_verdict v = decide(&in);
	assert_true(v.heat);
	assert_false(v.throttled); /* hot alone is not throttled */
	assert_string_equal(v.evidence, "95 °C near crit 100");
	in.temp_max = 94.9;
	assert_false(decide(&in).heat);
	in.temp_max = 99;
	in.limit_name = "max";
	assert_string_equal(decide(&in).evidence, "99 °C near max 100");
	in.temp_limit = 0; /* no limit known */
	assert_false(decide(&in).heat);
	in = calm();
	in.temp_max = NAN;
	assert_false(decide(&in).heat);
}

/* Three samples whose rate falls as the temperature rises. */
static const double falling_rate[] = { 100, 98, 96 }, rising_temp[] = { 50, 52, 54 };

static void score_falling_as_the_cpu_warms(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.nsamples = 3;
	in.rate = falling_rate;
	in.sample_temp = rising_temp;
	struct throttle_verdict v = decide(&in);
	assert_true(v.score);
	assert_false(v.throttled);
	assert_string_equal(v.evidence, "score -4% as +4 °C");

	double rate[] = { 100, 98.5, 97 }; /* spread exactly 3 %: not more */
	in.rate = rate;
	assert_false(decide(&in).score);
	rate[2] = 96.9;
	assert_true(decide(&in).score);

	double temp[] = { 50, 51.5, 53 }; /* warmed by exactly 3 °C: enough */
	in.rate = falling_rate;
	in.sample_temp = temp;
	assert_true(decide(&in).score);
	temp[2] = 52.9;
	assert_false(decide(&in).score);

	double up[] = { 96, 98, 100 }; /* faster as it warms: not heat's doing */
	in.rate = up;
	in.sample_temp = rising_temp;
	assert_false(decide(&in).score);
	double noisy[] = { 100, 96, 98 }; /* correlation -0.5: not below -0.7 */
	in.rate = noisy;
	assert_false(decide(&in).score);
}

static void score_needs_three_samples_with_both(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.rate = falling_rate;
	in.sample_temp = rising_temp;
	in.nsamples = 2;
	assert_false(decide(&in).score);
	double rate[] = { 100, NAN, 98, 96 }, temp[] = { 50, 51, NAN, 54 };
	in.rate = rate;
	in.sample_temp = temp;
	in.nsamples = 4; /* two samples lack one or the other: two left */
	assert_false(decide(&in).score);
	double rate5[] = { 100, NAN, 98, 97, 96 }, temp5[] = { 50, 51, 52, 53, 54 };
	in.rate = rate5;
	in.sample_temp = temp5;
	in.nsamples = 5; /* the gap is passed over */
	struct throttle_verdict v = decide(&in);
	assert_true(v.score);
	assert_string_equal(v.evidence, "score -4% as +4 °C");
	in.sample_temp = NULL; /* no temperature at all */
	assert_false(decide(&in).score);
}

/* Two of clock, heat and score flag a test; one does not. */
static void two_kinds_together_flag_a_test(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.busy_min_mhz = 1200;
	in.temp_max = 96;
	struct throttle_verdict v = decide(&in);
	assert_true(v.throttled && v.clock && v.heat && !v.score);
	assert_string_equal(v.evidence, "clock 1200 of 2400 MHz; 96 °C near crit 100");

	in = calm();
	in.busy_min_mhz = 1200;
	in.nsamples = 3;
	in.rate = falling_rate;
	in.sample_temp = rising_temp;
	v = decide(&in);
	assert_true(v.throttled && v.clock && v.score && !v.heat);

	in = calm();
	in.temp_max = 96;
	in.nsamples = 3;
	in.rate = falling_rate;
	in.sample_temp = rising_temp;
	v = decide(&in);
	assert_true(v.throttled && v.heat && v.score && !v.clock);

	/* Everything at once, in the order the evidence is told (telemetry_fakesys's pipe). */
	in.events = 3;
	in.ms = 300;
	in.busy_min_mhz = 1200;
	in.nsamples = 0;
	v = decide(&in);
	assert_true(v.throttled);
	assert_string_equal(v.evidence, "throttled 3x (300 ms); clock 1200 of 2400 MHz; 96 °C near crit 100");
}

/* Absurd numbers must not run past the evidence buffer. */
static void evidence_never_overflows(void **state)
{
	(void)state;
	struct throttle_inputs in = calm();
	in.events = UINT64_MAX;
	in.ms = UINT64_MAX;
	in.nominal_mhz = 1e150;
	in.ghz = 1;
	in.temp_max = 1e150;
	in.temp_limit = 1e150;
	struct throttle_verdict v = decide(&in);
	assert_true(v.throttled && v.counters && v.clock && v.heat);
	assert_true(strlen(v.evidence) < sizeof v.evidence);
	assert_memory_equal(v.evidence, "throttled 18446744073709551615x", 31);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_known_is_not_throttled),
		cmocka_unit_test(counters_alone_flag_a_test),
		cmocka_unit_test(clock_below_85_percent_of_nominal),
		cmocka_unit_test(workers_clock_first_then_sampled_clock),
		cmocka_unit_test(heat_within_5_degrees_of_the_limit),
		cmocka_unit_test(score_falling_as_the_cpu_warms),
		cmocka_unit_test(score_needs_three_samples_with_both),
		cmocka_unit_test(two_kinds_together_flag_a_test),
		cmocka_unit_test(evidence_never_overflows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
