/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of how a run carries a family's settings: settings_fill, and the runner filling each struct once. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "family.h"
#include "run.h"
#include "runner.h"
#include "settings.h"
#include "sysinfo.h"
#include "tests.h"
#include "workload.h"

/* A family of one test whose settings are a number, a flag and what its defaults
 * hook computes from the run (quick, the CPUs). */
struct fake_settings {
	int n;
	bool flag;
	bool quick; /* the defaults hook's copy of env->quick */
	int ncpus;  /* ... and of env->ncpus */
};

static int defaults_calls;

static void fake_defaults(void *s, const struct settings_env *env)
{
	struct fake_settings *f = s;
	defaults_calls++;
	f->quick = env->quick;
	f->ncpus = env->ncpus;
}

static const struct setting fake_rows[] = {
	{ .name = "fake-n",
	  .kind = SET_INT,
	  .arg = "N",
	  .what = "a number",
	  .min = 1,
	  .max = 10,
	  .def = "3",
	  .offset = offsetof(struct fake_settings, n),
	  .help = "fake: a number" },
	{ .name = "fake-flag",
	  .kind = SET_FLAG,
	  .offset = offsetof(struct fake_settings, flag),
	  .help = "fake: a flag" },
};

static const struct settings fake_settings_rows = {
	.rows = fake_rows,
	.n = 2,
	.size = sizeof(struct fake_settings),
	.defaults = fake_defaults,
};

/* The worker's side: what it received, published as points (the worker is a
 * forked process: its memory is not the test's). */
enum { P_N, P_FLAG, P_QUICK, P_NCPUS, P_NONE };

static int fake_run(struct workload_ctx *ctx)
{
	const struct fake_settings *s = ctx->settings;
	if (!s) {
		wl_publish_point(ctx, P_NONE, 0, 0);
	} else {
		wl_publish_point(ctx, P_N, 0, s->n);
		wl_publish_point(ctx, P_FLAG, 0, s->flag);
		wl_publish_point(ctx, P_QUICK, 0, s->quick);
		wl_publish_point(ctx, P_NCPUS, 0, s->ncpus);
	}
	while (!wl_stopped(ctx))
		usleep(1000);
	return 0;
}

static const struct workload fake_wl = { .name = "fake", .run = fake_run };

/* The runner's side: each hook's settings pointer and what the worker published. */
static const void *collect_got, *preflight_got, *sample_got;
static int collects;
static double worker_saw[P_NONE + 1];
static bool worker_had_none;

static void fake_collect(struct test_result *t, const struct worker_slot *slots, int copies,
			 const void *settings)
{
	(void)t;
	collects++;
	collect_got = settings;
	for (int c = 0; c < copies; c++)
		for (int i = 0; i < atomic_load(&slots[c].npoints); i++) {
			const struct wl_point *p = &slots[c].points[i];
			worker_saw[p->series] = p->v;
			worker_had_none |= p->series == P_NONE;
		}
}

static double fake_sample_seconds(const void *settings, bool first, double length)
{
	(void)first;
	sample_got = settings;
	return length;
}

static int fake_preflight(const void *settings, char *err, size_t errlen)
{
	preflight_got = settings;
	const struct fake_settings *s = settings;
	if (s && s->n == 9) {
		snprintf(err, errlen, "fake: 9 is not allowed here");
		return -1;
	}
	return 0;
}

static const struct family fake_family = { .name = "fake", .settings = &fake_settings_rows };

static const struct test_def fake_row = {
	.id = "fake",
	.label = "Fake",
	.unit = "us",
	.workload = &fake_wl,
	.collect = fake_collect,
	.sample_seconds = fake_sample_seconds,
	.preflight = fake_preflight,
	.family = &fake_family,
	.seconds = 0.05,
	.samples = 2,
	.quick_seconds = 0.05,
	.noise = { 0.05, 0.1 },
};

/* A second test of the family: one fill serves both. */
static const struct test_def fake_row2 = {
	.id = "fake2", .label = "Fake 2", .unit = "us", .workload = &fake_wl, .collect = fake_collect,
	.family = &fake_family, .seconds = 0.05, .samples = 2, .quick_seconds = 0.05, .noise = { 0.05, 0.1 },
};

static void reset(void)
{
	defaults_calls = collects = 0;
	collect_got = preflight_got = sample_got = NULL;
	memset(worker_saw, 0, sizeof worker_saw);
	worker_had_none = false;
}

static struct runner_opts opts(const char *params, bool quick)
{
	struct runner_opts o = { .ncopies = 2,
				 .copies = { 1, 2 },
				 .ntests = 2,
				 .tests = { &fake_row, &fake_row2 },
				 .samples = 2,
				 .duration = 0.05,
				 .pause = 0,
				 .quick = quick,
				 .max_test_seconds = 1,
				 .params = params };
	return o;
}

static void fill_orders_defaults_rows_words(void **state)
{
	(void)state;
	struct fake_settings s;
	char err[200];
	struct settings_env env = { .quick = true, .ncpus = 0 };
	reset();
	memset(&s, 0x5a, sizeof s);
	assert_int_equal(settings_fill(&fake_settings_rows, NULL, &env, &s, err, sizeof err), 0);
	assert_int_equal(s.n, 3); /* the row's default */
	assert_false(s.flag);	  /* zeroed before the hook */
	assert_true(s.quick);
	assert_int_equal(s.ncpus, 1); /* fewer than one CPU counts as one */
	assert_int_equal(defaults_calls, 1);
	assert_int_equal(
		settings_fill(&fake_settings_rows, "other=1 fake-n=7 fake-flag", &env, &s, err, sizeof err),
		0);
	assert_int_equal(s.n, 7);
	assert_true(s.flag);
	assert_int_equal(settings_fill(&fake_settings_rows, "fake-n=11", &env, &s, err, sizeof err), -1);
	assert_string_equal(err, "--fake-n wants a number from 1 to 10, not '11'");
}

/* One fill per run, before preflight; the workers, collect and the sample
 * lengths all get that one struct, holding what the options gave. */
static void runner_fills_once_and_workers_get_it(void **state)
{
	(void)state;
	char err[300] = "";
	reset();
	struct runner_opts o = opts("fake-n=7 fake-flag", true);
	struct runner *r = runner_new(&o, err, sizeof err);
	assert_non_null(r);
	assert_int_equal(defaults_calls, 1);
	assert_non_null(preflight_got);
	struct run *run = run_new();
	assert_int_equal(runner_run(r, run), 0);
	assert_int_equal(defaults_calls, 1); /* two tests, two blocks, samples: still the one fill */
	assert_true(collects >= 4);
	assert_ptr_equal(collect_got, preflight_got);
	assert_ptr_equal(sample_got, preflight_got);
	const struct fake_settings *s = collect_got;
	assert_int_equal(s->n, 7);
	assert_true(s->flag);
	assert_true(s->quick);
	assert_int_equal(s->ncpus, sysinfo_ncpus());
	/* what the forked workers received is what the options gave */
	assert_false(worker_had_none);
	assert_int_equal((int)worker_saw[P_N], 7);
	assert_int_equal((int)worker_saw[P_FLAG], 1);
	assert_int_equal((int)worker_saw[P_QUICK], 1);
	assert_int_equal((int)worker_saw[P_NCPUS], sysinfo_ncpus());
	run_free(run);
	runner_free(r);
}

/* A full run's fill says not quick (a short --duration does not make it quick). */
static void a_full_run_is_not_quick(void **state)
{
	(void)state;
	char err[300] = "";
	reset();
	struct runner_opts o = opts(NULL, false);
	struct runner *r = runner_new(&o, err, sizeof err);
	assert_non_null(r);
	const struct fake_settings *s = preflight_got;
	assert_non_null(s);
	assert_int_equal(s->n, 3);
	assert_false(s->quick);
	assert_false(s->flag);
	runner_free(r);
}

/* A bad setting stops the run with the options' error line; preflight sees the filled struct. */
static void bad_settings_stop_the_run(void **state)
{
	(void)state;
	char err[300] = "";
	reset();
	struct runner_opts o = opts("fake-n=0", false);
	assert_null(runner_new(&o, err, sizeof err));
	assert_string_equal(err, "--fake-n wants a number from 1 to 10, not '0'");
	assert_null(preflight_got); /* not reached */
	o = opts("fake-n=9", false);
	assert_null(runner_new(&o, err, sizeof err));
	assert_string_equal(err, "fake: 9 is not allowed here");
}

/* Estimates outside a run read a fill of the same options, once per options. */
static void estimates_fill_once_per_options(void **state)
{
	(void)state;
	reset();
	struct runner_opts o = opts("fake-n=5", false);
	double a = runner_estimate_test(&o, &fake_row), b = runner_estimate_test(&o, &fake_row);
	assert_true(a > 0 && a == b);
	assert_int_equal(defaults_calls, 1);
	assert_int_equal(((const struct fake_settings *)sample_got)->n, 5);
	o = opts("fake-n=6", false);
	runner_estimate_test(&o, &fake_row);
	assert_int_equal(defaults_calls, 2);
	assert_int_equal(((const struct fake_settings *)sample_got)->n, 6);
}

/* A tests' knob in seconds: its value in range, the default for anything else. */
static void env_seconds_take_only_numbers_in_range(void **state)
{
	(void)state;
	unsetenv("KBENCH_UNIT_SECONDS");
	assert_true(settings_env_seconds("KBENCH_UNIT_SECONDS", 0.5, 0, 5) == 0.5);
	const char *def[] = { "", "abc", "0.1s", "-1", "6", "nan" };
	for (size_t i = 0; i < sizeof def / sizeof *def; i++) {
		setenv("KBENCH_UNIT_SECONDS", def[i], 1);
		assert_true(settings_env_seconds("KBENCH_UNIT_SECONDS", 0.5, 0, 5) == 0.5);
	}
	setenv("KBENCH_UNIT_SECONDS", "0.1", 1);
	assert_true(fabs(settings_env_seconds("KBENCH_UNIT_SECONDS", 0.5, 0, 5) - 0.1) < 1e-12);
	setenv("KBENCH_UNIT_SECONDS", "0", 1);
	assert_true(settings_env_seconds("KBENCH_UNIT_SECONDS", 0.5, 0, 5) == 0);
	assert_true(settings_env_seconds("KBENCH_UNIT_SECONDS", 0.5, 0.01, 5) == 0.5);
	unsetenv("KBENCH_UNIT_SECONDS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fill_orders_defaults_rows_words),
		cmocka_unit_test(runner_fills_once_and_workers_get_it),
		cmocka_unit_test(a_full_run_is_not_quick),
		cmocka_unit_test(bad_settings_stop_the_run),
		cmocka_unit_test(estimates_fill_once_per_options),
		cmocka_unit_test(env_seconds_take_only_numbers_in_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
