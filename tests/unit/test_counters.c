/* Tests of src/telemetry/counters.c: multiplex scaling, row states, derived ratios, event-name errors. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "telemetry/counters.h"

static void scales_by_enabled_over_running(void **state)
{
	(void)state;
	struct counter_value v;
	counter_scale(1000, 2000, 500, &v); /* on the PMU a quarter of the time */
	assert_int_equal(v.state, COUNTER_VALUE);
	assert_true(fabs(v.value - 4000) < 1e-9);
	assert_true(fabs(v.mux - 0.25) < 1e-12);
	char buf[64];
	counter_format(buf, sizeof buf, &v);
	assert_string_equal(buf, "4000 (mux 25%)");
}

static void unmultiplexed_is_the_raw_count(void **state)
{
	(void)state;
	struct counter_value v;
	counter_scale(12345, 700, 700, &v);
	assert_int_equal(v.state, COUNTER_VALUE);
	assert_true(v.value == 12345);
	assert_true(v.mux == 1);
	char buf[64];
	counter_format(buf, sizeof buf, &v);
	assert_string_equal(buf, "12345");
}

static void never_scheduled_is_not_counted_not_zero(void **state)
{
	(void)state;
	struct counter_value v;
	counter_scale(0, 5000, 0, &v);
	assert_int_equal(v.state, COUNTER_NOT_COUNTED);
	assert_true(isnan(v.value));
	char buf[64];
	counter_format(buf, sizeof buf, &v);
	assert_string_equal(buf, "<not counted>");
}

static void ipc_without_cycles_is_na(void **state)
{
	(void)state;
	struct counter_value ins, cyc;
	counter_scale(2000, 10, 10, &ins);
	memset(&cyc, 0, sizeof cyc);
	cyc.state = COUNTER_NOT_SUPPORTED;
	assert_true(isnan(counter_ratio(&ins, &cyc)));
	assert_true(isnan(counter_ratio(&ins, NULL)));
	/* Zero cycles counted: still n/a, never inf. */
	counter_scale(0, 10, 10, &cyc);
	assert_true(isnan(counter_ratio(&ins, &cyc)));
	counter_scale(1000, 10, 10, &cyc);
	assert_true(fabs(counter_ratio(&ins, &cyc) - 2.0) < 1e-12);
}

static void errno_maps_to_perf_states(void **state)
{
	(void)state;
	assert_int_equal(counter_state_for_errno(ENOENT), COUNTER_NOT_SUPPORTED);
	assert_int_equal(counter_state_for_errno(EOPNOTSUPP), COUNTER_NOT_SUPPORTED);
	assert_int_equal(counter_state_for_errno(ENOSYS), COUNTER_NOT_SUPPORTED); /* qemu-user */
	assert_int_equal(counter_state_for_errno(EACCES), COUNTER_NO_PERMISSION);
	assert_int_equal(counter_state_for_errno(EPERM), COUNTER_NO_PERMISSION);
	assert_int_equal(counter_state_for_errno(EMFILE), COUNTER_ERROR);
}

static void default_set_names_perf_stat_rows(void **state)
{
	(void)state;
	struct counters c;
	char err[200] = "";
	assert_int_equal(counters_init(&c, NULL, err, sizeof err), 0);
	assert_int_equal(c.nevents, 8);
	assert_string_equal(c.ev[0].label, "cycles");
	assert_int_equal(c.ev[0].role, ROLE_CYCLES);
	assert_int_equal(counters_find(&c, ROLE_INSTRUCTIONS), 1);
	assert_int_equal(counters_find(&c, ROLE_TASK_CLOCK), 4);
	assert_string_equal(c.ev[7].label, "page-faults");
	counters_free(&c);
}

static void misspelled_event_is_named(void **state)
{
	(void)state;
	struct counters c;
	char err[200] = "";
	assert_int_equal(counters_init(&c, "perf::TASK-CLOCK,perf::CYCELS", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "'perf::CYCELS'"));
	assert_null(strchr(err, '\n'));
	err[0] = 0;
	assert_int_equal(counters_init(&c, "nosuchpmu::FOO", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "nosuchpmu::FOO"));
	assert_int_equal(counters_init(&c, " , ", err, sizeof err), -EINVAL);
}

/* A PMU libpfm4 knows but this machine lacks: the row stays, not supported.
 * An AMD PMU on an Intel machine, an Intel one on an AMD machine: one of
 * the two is absent everywhere (a VM on a zen3 host has the zen3 one). */
static void absent_pmu_keeps_its_row(void **state)
{
	(void)state;
	static const char *const absent[][2] = {
#if defined(__aarch64__)
		/* libpfm4 for arm64 knows only ARM PMUs: a Cortex-A57 and a
		 * Neoverse N1, never in one machine */
		{ "perf::TASK-CLOCK,arm_ac57::INST_RETIRED", "arm_ac57" },
		{ "perf::TASK-CLOCK,arm_n1::INST_RETIRED", "arm_n1" },
#else
		{ "perf::TASK-CLOCK,amd64_fam19h_zen3::RETIRED_BRANCH_INSTRUCTIONS", "amd64_fam19h_zen3" },
		{ "perf::TASK-CLOCK,skl::BR_INST_RETIRED", "skl" },
#endif
	};
	for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
		struct counters c;
		char err[200] = "";
		int rc = counters_init(&c, absent[i][0], err, sizeof err);
		if (rc == 0 && c.ev[1].encoded) {
			counters_free(&c); /* this machine has that PMU: try the other */
			continue;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(c.nevents, 2);
		assert_int_equal(c.ev[1].state, COUNTER_NOT_SUPPORTED);
		assert_non_null(strstr(c.ev[1].why, absent[i][1]));
		counters_free(&c);
		return;
	}
	fail_msg("both PMUs of %s and %s are present: cannot be", absent[0][1], absent[1][1]);
}

/* Software counters work everywhere, a VM included: count this process. */
static void software_counters_count_this_process(void **state)
{
	(void)state;
	struct counters c;
	char err[200] = "";
	assert_int_equal(counters_init(&c, "perf::TASK-CLOCK,perf::PAGE-FAULTS", err, sizeof err), 0);
	pid_t self = getpid();
	counters_attach(&c, &self, 1);
	if (c.val[0].state == COUNTER_NO_PERMISSION) {
		counters_free(&c);
		skip();
	}
	/* No perf_event_open at all: a kernel without perf events, or qemu-user
	 * (ENOSYS), which does not emulate the call. */
	if (c.val[0].state == COUNTER_NOT_SUPPORTED && c.val[0].err == ENOSYS) {
		printf("perf_event_open: %s (qemu-user does not emulate it)\n", strerror(ENOSYS));
		counters_free(&c);
		skip();
	}
	counters_enable(&c);
	volatile double x = 0;
	for (int i = 0; i < 20000000; i++)
		x += i * 0.5;
	counters_read(&c);
	assert_int_equal(c.val[0].state, COUNTER_VALUE);
	assert_true(c.val[0].value > 1e6); /* more than a millisecond of task-clock */
	counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scales_by_enabled_over_running),
		cmocka_unit_test(unmultiplexed_is_the_raw_count),
		cmocka_unit_test(never_scheduled_is_not_counted_not_zero),
		cmocka_unit_test(ipc_without_cycles_is_na),
		cmocka_unit_test(errno_maps_to_perf_states),
		cmocka_unit_test(default_set_names_perf_stat_rows),
		cmocka_unit_test(misspelled_event_is_named),
		cmocka_unit_test(absent_pmu_keeps_its_row),
		cmocka_unit_test(software_counters_count_this_process),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
