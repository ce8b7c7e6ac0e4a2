/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the throttle evidence beyond Intel's counters: the thermal framework's CPU cooling devices, n/a with the reason where nothing can show throttling, and power-limit events kept apart from throttling. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakesys.h"

#include "telemetry/throttle.h"

static int setup(void **state)
{
	(void)state;
	return fakesys_make("cool");
}

static int teardown(void **state)
{
	(void)state;
	return fakesys_remove();
}

/* A VM (or an AMD or ARM machine without cooling devices): no counters, nothing to say "none seen" with. */
static void nothing_can_show_it_says_so(void **state)
{
	(void)state;
	fakesys_put("sys/devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
	fakesys_put("sys/devices/system/cpu/cpu1/topology/physical_package_id", "0\n");
	fakesys_put("sys/class/thermal/cooling_device0/type", "Fan\n"); /* a fan slows nothing */
	fakesys_put("sys/class/thermal/cooling_device0/cur_state", "1\n");
	struct throttle th;
	throttle_open(&th);
	assert_false(th.available);
	assert_false(th.counters);
	assert_int_equal(th.ncool, 0);
	assert_non_null(strstr(th.why, "nothing here can show throttling"));
	assert_non_null(strstr(th.why, "not on AMD, ARM or in VMs"));
}

/* An ARM board: no counters, a cpufreq cooling device whose state and statistics are the evidence. */
static void cooling_devices_are_evidence(void **state)
{
	(void)state;
	fakesys_put("sys/devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
	fakesys_put("sys/class/thermal/cooling_device0/type", "cpufreq-cpu0\n");
	fakesys_put("sys/class/thermal/cooling_device0/max_state", "4\n");
	fakesys_put("sys/class/thermal/cooling_device0/cur_state", "0\n");
	fakesys_put("sys/class/thermal/cooling_device0/stats/total_trans", "10\n");
	fakesys_put("sys/class/thermal/cooling_device1/type", "Fan\n");
	fakesys_put("sys/class/thermal/cooling_device1/cur_state", "3\n");
	struct throttle th;
	throttle_open(&th);
	assert_true(th.available);
	assert_false(th.counters);
	assert_int_equal(th.ncool, 1);
	const char *type;
	assert_true(throttle_cooling_state(&th, &type) == 0);
	fakesys_put("sys/class/thermal/cooling_device0/cur_state", "2\n");
	fakesys_put("sys/class/thermal/cooling_device0/stats/total_trans", "12\n");
	assert_int_equal(throttle_sample(&th), 0);
	assert_true(throttle_cooling_state(&th, &type) == 2);
	assert_string_equal(type, "cpufreq-cpu0");
	assert_true(throttle_cooling_trans(&th) == 2);
	assert_true(throttle_cooling_is_cpu("Processor"));
	assert_true(throttle_cooling_is_cpu("thermal-cpufreq-0"));
	assert_true(throttle_cooling_is_cpu("intel_powerclamp"));
	assert_false(throttle_cooling_is_cpu("Fan"));
	assert_false(throttle_cooling_is_cpu("devfreq-gpu"));
}

static void a_cooling_device_at_work_is_throttling(void **state)
{
	(void)state;
	struct throttle_inputs in = throttle_inputs_none();
	in.cooling_state = 2;
	in.cooling_type = "Processor";
	struct throttle_verdict v;
	throttle_decide(&in, &v);
	assert_true(v.throttled);
	assert_true(v.cooling);
	assert_string_equal(v.evidence, "cooling Processor state 2");
	/* Back at 0 by the end, but it changed state during the test. */
	in.cooling_state = 0;
	in.cooling_trans = 4;
	throttle_decide(&in, &v);
	assert_true(v.throttled);
	assert_string_equal(v.evidence, "cooling changed state 4x");
}

/* Intel's *_power_limit_count: the firmware's power limit reached, a separate state, not throttling. */
static void power_limit_is_apart(void **state)
{
	(void)state;
	for (int c = 0; c < 2; c++) {
		char p[160];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		fakesys_put(p, "0\n");
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count",
			 c);
		fakesys_put(p, "0\n");
		snprintf(p, sizeof p,
			 "sys/devices/system/cpu/cpu%d/thermal_throttle/core_power_limit_count", c);
		fakesys_put(p, "1\n");
		snprintf(p, sizeof p,
			 "sys/devices/system/cpu/cpu%d/thermal_throttle/package_power_limit_count", c);
		fakesys_put(p, "7\n");
	}
	struct throttle th;
	throttle_open(&th);
	assert_true(th.counters);
	assert_true(th.power_limit);
	fakesys_put("sys/devices/system/cpu/cpu0/thermal_throttle/core_power_limit_count", "3\n");
	fakesys_put("sys/devices/system/cpu/cpu0/thermal_throttle/package_power_limit_count", "10\n");
	fakesys_put("sys/devices/system/cpu/cpu1/thermal_throttle/package_power_limit_count", "10\n");
	assert_int_equal(throttle_sample(&th), 0);
	assert_true(th.total.power_limit_events == 5); /* core 2 + package 3, counted once */
	assert_true(throttle_events(&th.total) == 0);
	struct throttle_inputs in = throttle_inputs_none();
	in.power_limit_events = th.total.power_limit_events;
	struct throttle_verdict v;
	throttle_decide(&in, &v);
	assert_false(v.throttled);
	assert_true(v.power_limit);
	assert_string_equal(v.evidence, "");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(nothing_can_show_it_says_so),
		T(cooling_devices_are_evidence),
		T(a_cooling_device_at_work_is_throttling),
		T(power_limit_is_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
