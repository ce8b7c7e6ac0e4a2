/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of throughput as tasks grow: settings, the peak, crossover and stop rule on synthetic curves, collecting a sweep, the table, and verdicts on A/A and shifted curves. */
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "gauss.h"
#include "run.h"
#include "settings.h"
#include "tests.h"
#include "scaling.h"
#include "score.h"
#include "workload.h"

/* A family's settings as the runner fills them for a run with params (not quick). */
static const void *filled(const struct settings *f, const char *params)
{
	static _Alignas(max_align_t) char s[SETTINGS_MAX_SIZE];
	char err[300];
	assert_int_equal(test_settings_fill(f, params, false, s, err, sizeof err), 0);
	return s;
}
static void test_params(void **state)
{
	(void)state;
	struct scaling_params p;
	char err[200];
	assert_int_equal(test_settings_fill(&scaling_settings, NULL, false, &p, err, sizeof err), 0);
	assert_int_equal(p.jobs, SCALING_DEFAULT_JOBS);
	assert_int_equal(p.ntasks, 0);
	assert_int_equal(test_settings_fill(&scaling_settings, "sizes=1K:2K tasks=1,3,8 jobs=5 huge", false,
					    &p, err, sizeof err),
			 0);
	assert_int_equal(p.ntasks, 3);
	assert_int_equal(p.tasks[1], 3);
	assert_int_equal(p.jobs, 5);
	assert_int_equal(test_settings_fill(&scaling_settings, "max-tasks=12", false, &p, err, sizeof err),
			 0);
	assert_int_equal(p.max_tasks, 12);
	const char *bad[] = { "tasks=0", "tasks=2,1", "tasks=1,,2", "tasks=a", "tasks=1,2,", "jobs=0",
			      "max-tasks=0", "tasks=99999", "jobs=-3" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		if (test_settings_fill(&scaling_settings, bad[i], false, &p, err, sizeof err) != -1)
			fail_msg("'%s' was taken", bad[i]);
		assert_true(strlen(err) > 10);
	}
}

static void test_task_list(void **state)
{
	(void)state;
	struct scaling_params p = { .jobs = 1 };
	int t[SCALING_MAX_STEPS];
	int n = scaling_task_list(&p, 2, t, SCALING_MAX_STEPS);
	assert_int_equal(n, 5); /* 8x 2 CPUs */
	assert_int_equal(t[0], 1);
	assert_int_equal(t[4], 16);
	p.max_tasks = 12;
	n = scaling_task_list(&p, 2, t, SCALING_MAX_STEPS);
	assert_int_equal(n, 5);
	assert_int_equal(t[3], 8);
	assert_int_equal(t[4], 12);
	p.max_tasks = 1;
	assert_int_equal(scaling_task_list(&p, 2, t, SCALING_MAX_STEPS), 1);
	assert_int_equal(t[0], 1);
	p.ntasks = 2, p.tasks[0] = 3, p.tasks[1] = 5;
	assert_int_equal(scaling_task_list(&p, 64, t, SCALING_MAX_STEPS), 2);
	assert_int_equal(t[1], 5);
}

static void test_check_tasks(void **state)
{
	(void)state;
	char err[200] = "";
	assert_int_equal(scaling_check_tasks(4, err, sizeof err), 0);
	/* more than any pid_max allows (4194304 at most) */
	assert_int_equal(scaling_check_tasks(4000000, err, sizeof err), -1);
	assert_non_null(strstr(err, "4000000 tasks"));
}

static const double X[] = { 1, 2, 4, 8, 16, 32 };

/* Peak and crossover on the shapes a curve takes. */
static void test_peak_and_crossover(void **state)
{
	(void)state;
	const double m = SCALING_MARGIN;
	/* flat: the peak is the first step, there is no crossover */
	const double flat[] = { 100, 100, 100, 100, 100, 100 };
	assert_int_equal(scaling_peak(X, flat, 6, m), 0);
	assert_int_equal(scaling_crossover(X, flat, 6, m), -1);
	/* rising to the end: the last step, no crossover */
	const double rise[] = { 100, 190, 260, 300, 330, 350 };
	assert_int_equal(scaling_peak(X, rise, 6, m), 5);
	assert_int_equal(scaling_crossover(X, rise, 6, m), -1);
	/* rising, a peak at 4, then falling: crossover at 16 (8 is within 5%) */
	const double fall[] = { 100, 190, 250, 240, 200, 150 };
	assert_int_equal(scaling_peak(X, fall, 6, m), 2);
	assert_int_equal(scaling_crossover(X, fall, 6, m), 4);
	/* a plateau reached at 2 whose noise puts the highest value at 16:
	 * the peak stays at 2, and nothing falls past the margin */
	const double noisy[] = { 100, 200, 197, 203, 206, 199 };
	assert_int_equal(scaling_peak(X, noisy, 6, m), 1);
	assert_int_equal(scaling_crossover(X, noisy, 6, m), -1);
	/* the same with a wider margin is the same; with none, the highest */
	assert_int_equal(scaling_peak(X, noisy, 6, 0), 4);
	/* a noisy fall: 16 is within the margin of the top (206), 32 is not */
	const double nfall[] = { 100, 200, 204, 206, 197, 180 };
	assert_int_equal(scaling_crossover(X, nfall, 6, m), 5);
	/* a missing step does not count */
	const double gap[] = { 100, NAN, 180 };
	assert_int_equal(scaling_peak(X, gap, 3, m), 2);
	assert_int_equal(scaling_peak(X, gap, 0, m), -1);
}

/* The doubling stops once two steps in a row lie past the margin below the peak. */
static void test_stop_rule(void **state)
{
	(void)state;
	const double m = SCALING_MARGIN;
	const double v[] = { 100, 200, 180, 170, 300 };
	assert_false(scaling_should_stop(v, 1, m));
	assert_false(scaling_should_stop(v, 2, m));
	assert_false(scaling_should_stop(v, 3, m)); /* one step down */
	assert_true(scaling_should_stop(v, 4, m));  /* two steps down */
	/* the peak, a step within the margin, then one step down: not yet */
	const double one[] = { 100, 200, 195, 180 };
	assert_false(scaling_should_stop(one, 4, m));
	/* one step down, then back up: no */
	const double back[] = { 100, 200, 180, 199 };
	assert_false(scaling_should_stop(back, 4, m));
	/* a flat top with noise never stops the doubling */
	const double flat[] = { 100, 200, 196, 193, 197, 195 };
	for (int n = 1; n <= 6; n++)
		assert_false(scaling_should_stop(flat, n, m));
	/* falling from the first step on */
	const double down[] = { 200, 150, 120 };
	assert_true(scaling_should_stop(down, 3, m));
}

/* A sweep published as the workload does becomes the points, peak and summary. */
static void test_collect(void **state)
{
	(void)state;
	struct worker_slot *slots = calloc(2, sizeof *slots);
	struct workload_ctx ctx = { .slot = &slots[0] };
	const double jpm[] = { 1000, 1900, 1950, 1500, 1200 };
	for (int i = 0; i < 5; i++) {
		wl_publish_point(&ctx, SCALING_REAL, X[i], X[i] * 10 * 60 / jpm[i]);
		wl_publish_point(&ctx, SCALING_CPU, X[i], X[i] * 0.3);
		wl_publish_point(&ctx, SCALING_JPM, X[i], jpm[i]);
	}
	struct run *r = run_new();
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "scaling", "Throughput as tasks grow",
						   "jobs/min", 0, 0, "scaling");
	scaling_collect(t, slots, 1, filled(&scaling_settings, "jobs=10"));
	scaling_collect(t, slots, 1, filled(&scaling_settings, "jobs=10")); /* a second sample, the same */
	t->status = TEST_DONE;
	const struct point *p = test_find_point(t, "4 tasks");
	assert_non_null(p);
	assert_int_equal(p->n, 2);
	assert_true(p->summary && !p->lower_better);
	assert_string_equal(p->unit, "jobs/min");
	assert_float_equal(point_mean(p), 1950, 1e-9);
	assert_non_null(test_find_point(t, "1 task"));
	p = test_find_point(t, "real 8");
	assert_non_null(p);
	assert_true(!p->summary && p->lower_better);
	assert_float_equal(point_mean(p), 8 * 10 * 60 / 1500.0, 1e-9);
	/* the peak: 2 tasks (1900 is within 5% of 1950), valued at the highest */
	p = test_find_point(t, "peak");
	assert_non_null(p);
	assert_float_equal(point_mean(p), 1950, 1e-9);
	assert_float_equal(test_summary_get(t, "peak.tasks")->value, 2, 0);
	assert_float_equal(test_summary_get(t, "crossover.tasks")->value, 8, 0);
	assert_float_equal(test_summary_get(t, "jobs")->value, 10, 0);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_true(scaling_print_table(f, t));
	fclose(f);
	assert_non_null(strstr(buf, "Tasks   Jobs/min      Real       CPU  JPM/task"));
	assert_non_null(strstr(buf, "      8     1500.0      3.20      2.40     187.5"));
	assert_non_null(strstr(buf, "Peak: 2 tasks, 1950.0 jobs/min"));
	assert_non_null(strstr(buf, "Crossover: 8 tasks"));
	/* every line fits 79 columns, as the rest of the report (the crossover sentence was 118) */
	for (const char *l = buf; *l;) {
		const char *nl = strchr(l, '\n');
		size_t w = nl ? (size_t)(nl - l) : strlen(l);
		if (w > 79)
			fail_msg("a line of %zu columns: %.*s", w, (int)w, l);
		l += w + (nl != NULL);
	}
	free(buf);
	/* another test's result has no such table */
	struct test_result *o = run_block_add_test(&r->blocks[0], "memlat", "Memory latency", "ns", 0, 0,
						   "memory");
	point_push(test_point(o, "rnd L1", 1, "B", "ns", true, true), 1.2);
	f = open_memstream(&buf, &len);
	assert_false(scaling_print_table(f, o));
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);

	/* a later sample reaches a count the first did not: its points come
	 * before the peak, which stays last (the order every view lists) */
	t = &r->blocks[0].tests[0]; /* adding the memlat result moved it */
	wl_publish_point(&ctx, SCALING_REAL, 32, 32 * 10 * 60 / 1000.0);
	wl_publish_point(&ctx, SCALING_CPU, 32, 32 * 0.3);
	wl_publish_point(&ctx, SCALING_JPM, 32, 1000);
	scaling_collect(t, slots, 1, filled(&scaling_settings, "jobs=10"));
	assert_string_equal(t->points[t->npoints - 1].name, "peak");
	assert_string_equal(t->points[t->npoints - 2].name, "32 tasks");
	assert_int_equal(test_find_point(t, "peak")->n, 3);
	assert_int_equal(test_find_point(t, "32 tasks")->n, 1);
	run_free(r);
	free(slots);
}

/* A run of one scaling result: a curve that peaks at `peak` tasks with
 * `top` jobs/min, samples with noise sd, a run offset of run_sd. */
static struct run *mk(const char *id, double top, int peak, double sd, double run_sd)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.1");
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "box");
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "scaling", "Throughput as tasks grow",
						   "jobs/min", 0, 0, "scaling");
	double off = 1 + run_sd * gauss();
	struct worker_slot *slots = calloc(1, sizeof *slots);
	for (int s = 0; s < 3; s++) {
		atomic_store(&slots[0].npoints, 0);
		struct workload_ctx ctx = { .slot = &slots[0] };
		for (int i = 0; i < 5; i++) {
			double shape = X[i] <= peak ? X[i] / peak : 1 - 0.1 * log2(X[i] / peak);
			double v = top * shape * off * (1 + sd * gauss());
			wl_publish_point(&ctx, SCALING_REAL, X[i], X[i] * 200 * 60 / v);
			wl_publish_point(&ctx, SCALING_CPU, X[i], X[i] * 0.5 * (1 + sd * gauss()));
			wl_publish_point(&ctx, SCALING_JPM, X[i], v);
		}
		scaling_collect(t, slots, 1, filled(&scaling_settings, NULL));
		struct sample *sm = test_add_sample(t, 1);
		sm->count[0] = 1e4;
		sm->elapsed[0] = 10;
	}
	free(slots);
	t->status = TEST_DONE;
	score_test(t);
	return r;
}

static struct compare *cmp2(struct run *a, struct run *b)
{
	char err[200];
	const struct run *ra[1] = { a }, *rb[1] = { b };
	struct compare_opts o = { 0 };
	struct compare *c = compare_runs(ra, 1, rb, 1, &o, err, sizeof err);
	if (!c)
		fail_msg("%s", err);
	return c;
}

static bool footer_has(const struct compare *c, const char *text)
{
	for (int i = 0; i < c->nfooter; i++)
		if (strstr(c->footer[i], text))
			return true;
	return false;
}

/* The percent after `text` in the footer's sentence on the peak. */
static int footer_pct(const struct compare *c, const char *text)
{
	for (int i = 0; i < c->nfooter; i++) {
		const char *at = strstr(c->footer[i], text);
		if (at)
			return atoi(at + strlen(text));
	}
	for (int i = 0; i < c->nfooter; i++)
		print_message("footer: %s\n", c->footer[i]);
	fail_msg("no '%s' in the footer", text);
	return 0;
}

/* The verdict rule: identical kernels say "no significant change" on at
 * least 95% of the rows; a curve 20% higher is faster on every jobs/min
 * row; the footer names the peak's move. */
static void test_verdicts(void **state)
{
	(void)state;
	int same = 0, rows = 0;
	for (int k = 0; k < 60; k++) {
		struct run *a = mk("a", 2000, 2, 0.04, 0.04), *b = mk("b", 2000, 2, 0.04, 0.04);
		struct compare *c = cmp2(a, b);
		const struct compare_block *cb = &c->blocks[0];
		assert_int_equal(cb->nrows, 16); /* 5 steps x jobs/min, real, cpu; the peak */
		assert_int_equal(cb->ndetail, 10);
		for (int i = 0; i < cb->nrows; i++) {
			assert_true(cb->rows[i].verdict != VERDICT_NA);
			rows++;
			same += cb->rows[i].verdict == VERDICT_SAME;
		}
		assert_true(footer_has(c, "peak at 2 tasks on both"));
		compare_free(c);
		run_free(a);
		run_free(b);
	}
	if (same < rows * 95 / 100)
		fail_msg("A/A: %d of %d rows no significant change", same, rows);
	print_message("synthetic A/A: %d of %d rows no significant change\n", same, rows);
	/* 20% more throughput, and the peak moved from 2 to 4 tasks */
	struct run *a = mk("a", 2000, 2, 0.02, 0.01), *b = mk("b", 2400, 4, 0.02, 0.01);
	struct compare *c = cmp2(a, b);
	const struct compare_block *cb = &c->blocks[0];
	int faster = 0;
	for (int i = 0; i < cb->nrows; i++) {
		const struct compare_row *row = &cb->rows[i];
		if (!strcmp(row->id, "scaling:peak") || !strcmp(row->id, "scaling:4 tasks") ||
		    !strcmp(row->id, "scaling:16 tasks")) {
			if (row->verdict != VERDICT_FASTER)
				fail_msg("%s: %s at %+.1f%%", row->id, compare_verdict_name(row->verdict),
					 row->change);
			faster++;
		}
	}
	assert_int_equal(faster, 3);
	int pct = footer_pct(c, "peak 2 -> 4 tasks, ");
	assert_in_range(pct, 15, 25);
	compare_free(c);
	/* the other way round: slower, and the peak back from 4 to 2 */
	c = cmp2(b, a);
	for (int i = 0; i < c->blocks[0].nrows; i++)
		if (!strcmp(c->blocks[0].rows[i].id, "scaling:peak"))
			assert_int_equal(c->blocks[0].rows[i].verdict, VERDICT_SLOWER);
	pct = footer_pct(c, "peak 4 -> 2 tasks, ");
	assert_true(pct <= -13 && pct >= -21);
	compare_free(c);
	run_free(a);
	run_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_task_list),
		cmocka_unit_test(test_check_tasks),
		cmocka_unit_test(test_peak_and_crossover),
		cmocka_unit_test(test_stop_rule),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
