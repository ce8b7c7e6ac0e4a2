/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the test table in src/record/tests.c: rows, groups and the index set agree with each other and with UnixBench. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "family.h"
#include "noise.h"
#include "quick.h"
#include "run.h"
#include "runner.h"
#include "runner_int.h"
#include "scaling.h"
#include "settings.h"
#include "tests.h"
#include "workloads/workloads.h"

static int group_size(const char *name)
{
	const struct test_group *g = test_group_find(name);
	int n = 0;

	assert_non_null(g);
	for (const char *const *id = g->ids; id && *id; id++)
		n++;
	return n;
}

static int in_group(const char *group, const char *id)
{
	const struct test_group *g = test_group_find(group);

	assert_non_null(g);
	for (const char *const *p = g->ids; p && *p; p++)
		if (!strcmp(*p, id))
			return 1;
	return 0;
}

/* Every row can be found by its id and its title, and fits the report's columns. */
static void rows_are_whole_and_fit_the_report(void **state)
{
	(void)state;
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		assert_ptr_equal(test_find(t->id), t);
		assert_true(strlen(t->id) < 32);
		assert_true(strlen(t->label) <= 40); /* "%-40s" in the report */
		assert_true(strlen(t->unit) <= 5);   /* "%-5s" */
		assert_true(t->timebase == 0 || t->timebase == 1 || t->timebase == 60);
		/* UnixBench's categories; a points test (no rate, no index) has its own */
		assert_true(!strcmp(t->category, "system") || !strcmp(t->category, "misc") ||
			    (t->collect && strcmp(t->category, "system") != 0 && t->baseline == 0));
		/* UnixBench's passes; a points test may keep its own protocol's
		 * (kbuild: kernbench's five timed builds) */
		assert_true(t->samples == 3 || t->samples == 10 || (t->collect && t->samples >= 2));
		/* a points test may take one quick sample (buildload: one build per load,
		 * its verdicts resting on the floor alone) */
		assert_true(t->quick_samples == 0 || (t->collect && t->quick_samples >= 1));
		assert_non_null(t->workload);
		assert_non_null(t->about);
		assert_true(test_quick_seconds(t) <= t->seconds);
		if (t->self_timed)
			assert_int_equal(t->timebase, 0);
	}
}

/* Every id a group names is a row, once. */
static void groups_name_rows(void **state)
{
	(void)state;
	for (size_t g = 0; g < test_group_count; g++)
		for (const char *const *id = test_groups[g].ids; id && *id; id++) {
			assert_non_null(test_find(*id));
			for (const char *const *k = id + 1; *k; k++)
				assert_string_not_equal(*id, *k);
		}
}

/* The index is UnixBench's twelve, and only they have a system baseline: so
 * a test added without one (the file read and write tests, shell64, C)
 * cannot turn a full index partial or enter its mean. */
static void the_index_is_the_twelve_with_system_baselines(void **state)
{
	int with_baseline = 0;

	(void)state;
	assert_int_equal(group_size("index"), 12);
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		int system_baseline = !strcmp(t->category, "system") && t->baseline > 0;
		with_baseline += system_baseline;
		assert_int_equal(system_baseline, in_group("index", t->id));
	}
	assert_int_equal(with_baseline, 12);
}

/* UnixBench's Run: fs has the nine file tests, misc starts with C, load is shell. */
static void unixbench_groups(void **state)
{
	static const char *const fs[] = { "fstime-w", "fstime-r", "fstime", "fsbuffer-w",
					  "fsbuffer-r", "fsbuffer", "fsdisk-w", "fsdisk-r", "fsdisk" };
	static const char *const added[] = { "fstime-w", "fstime-r", "fsbuffer-w", "fsbuffer-r",
					     "fsdisk-w", "fsdisk-r" };

	(void)state;
	assert_int_equal(group_size("fs"), 9);
	for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
		assert_string_equal(test_group_find("fs")->ids[i], fs[i]);
	for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
		const struct test_def *t = test_find(added[i]);
		assert_string_equal(t->category, "system"); /* as in Run */
		assert_true(t->baseline == 0);
		assert_string_equal(t->unit, "KBps");
		assert_int_equal(t->samples, 3);
		/* the copy's sibling: the same files, buffers and noise */
		char sibling[32];
		snprintf(sibling, sizeof sibling, "%.*s", (int)(strchr(t->id, '-') - t->id), t->id);
		assert_true(noise_default(t->id) == noise_default(sibling));
		assert_true(noise_default(t->id) > 0);
	}
	assert_ptr_equal(test_group_find("load"), test_group_find("shell"));
	assert_true(in_group("shell", "shell64"));
	assert_true(in_group("misc", "C"));
	assert_string_equal(test_find("C")->label, "C Compiler Throughput (gcc)");
	assert_string_equal(test_find("shell64")->label, "Shell Scripts (64 concurrent)");
	assert_string_equal(test_find("fsbuffer-r")->label, "File Read 256 bufsize 500 maxblocks");
	assert_null(test_group_find("all")->ids); /* every row */
}

/* The 80-column compare table has a 16-character label column: every test
 * whose label is longer says what goes there (the six arithmetic tests were
 * all "Arithmetic Test " there), no short label is cut, and no two are alike. */
static void short_labels_fit_the_compare_column(void **state)
{
	(void)state;
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		if (in_group("index", t->id) || strlen(t->label) > TEST_SHORT_LABEL_MAX)
			assert_non_null(t->short_label);
		if (!t->short_label)
			continue;
		assert_true(strlen(t->short_label) > 0);
		assert_true(strlen(t->short_label) <= TEST_SHORT_LABEL_MAX);
		for (size_t k = i + 1; k < test_count; k++)
			if (test_table[k].short_label)
				assert_string_not_equal(t->short_label, test_table[k].short_label);
	}
}

/* A run with one imported test (no samples: the verdict is n/a, the label is what we look at). */
static struct run *one_test_run(const struct test_def *t, double score)
{
	struct run *r = run_new();
	r->meta.mode = &run_mode_imported;
	struct run_block *b = run_add_block(r, 1);
	struct test_result *tr = run_block_add_test(b, t->id, t->label, t->unit, t->timebase,
						    t->baseline, t->category);
	tr->status = TEST_IMPORTED;
	tr->score = score;
	return r;
}

/* The compare table's 80-column layout shows the row's short label, and the
 * title cut to the column where a row has none. */
static void compare_table_reads_the_short_label(void **state)
{
	(void)state;
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		struct run *a = one_test_run(t, 100), *b = one_test_run(t, 110);
		const struct run *av[] = { a }, *bv[] = { b };
		struct compare_opts o = { 0 };
		char err[200], want[64];
		struct compare *c = compare_runs(av, 1, bv, 1, &o, err, sizeof err);
		assert_non_null(c);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		compare_print_text(f, c, 80);
		fclose(f);
		snprintf(want, sizeof want, "\n%-*.*s ", TEST_SHORT_LABEL_MAX, TEST_SHORT_LABEL_MAX,
			 t->short_label ? t->short_label : t->label);
		if (!strstr(buf, want))
			fail_msg("%s: no row starting '%s' in\n%s", t->id, want + 1, buf);
		free(buf);
		compare_free(c);
		run_free(a);
		run_free(b);
	}
}

/* Every row states its default floors, and noise.c uses them: a row left
 * without would give a zero floor and verdicts far too sure of themselves. */
static void every_row_has_its_noise_floors(void **state)
{
	struct run *quick = run_new();

	(void)state;
	quick->meta.mode = &run_mode_quick;
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		assert_true(t->noise.full > 0 && t->noise.full < 0.5);
		/* a quick run's score moves more than a full one's, never less */
		assert_true(t->noise.quick >= t->noise.full && t->noise.quick < 0.5);
		assert_true(noise_default(t->id) == t->noise.full);
		assert_true(noise_default_for(t->id, NULL) == t->noise.full);
		assert_true(noise_default_for(t->id, quick) == t->noise.quick);
	}
	/* The index score is no row; an id kbench does not know gets the unmeasured floor. */
	assert_null(test_find(NOISE_INDEX_ID));
	assert_true(noise_default(NOISE_INDEX_ID) > 0);
	const struct test_noise unmeasured = TEST_NOISE_UNMEASURED;
	assert_true(noise_default("no-such-test") == unmeasured.full);
	assert_true(noise_default_for("no-such-test", quick) == unmeasured.quick);
	run_free(quick);
}

/* The workloads that read data/ (grep -l datadir src/workloads/) are
 * flagged in every row that runs them, and a run of one without data/ is
 * refused before it starts instead of failing in its workers. */
static void rows_that_read_data_say_so(void **state)
{
	static const struct workload *const readers[] = { &wl_shell, &wl_grep, &wl_cc, &wl_scaling };

	(void)state;
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		bool reads = false;
		for (size_t k = 0; k < sizeof readers / sizeof readers[0]; k++)
			reads |= t->workload == readers[k];
		if (reads != t->needs_data)
			fail_msg("%s: needs_data is %d, its workload %s data/", t->id, t->needs_data,
				 reads ? "reads" : "does not read");
		for (size_t k = 0; k < test_count; k++)
			if (test_table[k].workload == t->workload)
				assert_int_equal(test_table[k].needs_data, t->needs_data);
		if (!t->needs_data)
			continue;
		struct runner_opts o = { .ncopies = 1, .copies = { 1 }, .ntests = 1, .tests = { t },
					 .pause = -1, .datadir = "/nonexistent/kbench-data" };
		char err[300] = "";
		struct runner *r = runner_new(&o, err, sizeof err);
		if (r)
			runner_free(r);
		assert_null(r);
		assert_non_null(strstr(err, "data files"));
		assert_true(strncmp(err, t->id, strlen(t->id)) == 0); /* names the test, not "the shell tests" */
	}
}

/* A self-timed sample lasts longer than its nominal length (the work
 * before the timed part): the row says how much, and the estimate uses it.
 * A sample that ends at the deadline has no overrun to state. */
static void self_timed_rows_state_their_overrun(void **state)
{
	struct runner_opts o = { .pause = 0 };

	(void)state;
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		if (t->self_timed)
			assert_true(t->overrun >= 1 && t->overrun <= 3);
		else
			assert_true(t->overrun == 0);
		double len = t->self_timed ? t->seconds * t->overrun : t->seconds;
		/* a row whose samples follow the run's parameters estimates from them */
		if (t->sample_seconds) {
			_Alignas(max_align_t) char s[SETTINGS_MAX_SIZE];
			char err[300];
			const struct settings *f = test_family(t)->settings;
			assert_non_null(f);
			assert_int_equal(test_settings_fill(f, NULL, false, s, err, sizeof err), 0);
			len = (t->sample_seconds(s, true, t->seconds) +
			       (t->samples - 1) * t->sample_seconds(s, false, t->seconds)) /
			      t->samples;
		}
		assert_true(fabs(runner_estimate_test(&o, t) - t->samples * len) < 1e-9);
	}
}

/* A quick run in rounds (--allocate index) takes the index's minutes, 150 s for its 12 tests,
 * and each test's share of that for fewer: a quick run of one test takes seconds, not the
 * index's time. */
static void quick_budget_is_the_index_share_of_what_runs(void **state)
{
	struct runner_opts o = { .quick = true, .allocation = ALLOC_INDEX };

	(void)state;
	assert_int_equal(group_size("index"), QUICK_BUDGET_TESTS);
	for (size_t i = 0; i < test_count; i++)
		if (in_group("index", test_table[i].id))
			o.tests[o.ntests++] = &test_table[i];
	assert_true(fabs(runner_budget(&o) - QUICK_BUDGET_SECONDS) < 1e-9);
	o.ntests = 1;
	o.tests[0] = test_find("dhry2reg");
	double one = (double)QUICK_BUDGET_SECONDS / QUICK_BUDGET_TESTS;
	assert_true(fabs(runner_budget(&o) - one) < 1e-9);
	assert_true(fabs(runner_estimate_test(&o, o.tests[0]) - one) < 1e-9);
	o.budget = 60; /* --budget 1: the run's own */
	assert_true(fabs(runner_budget(&o) - 60) < 1e-9);
}

/* A budget below what every test's three samples take is spent on them (the runner never
 * gives a test fewer in rounds), so the estimate is theirs: `--quick --budget 0.1` of the
 * index takes about a minute and a half, and a plan must not promise "under a minute". */
static void a_small_budget_takes_the_least_samples(void **state)
{
	struct runner_opts o = { .quick = true, .budget = 6, .ncopies = 1, .copies = { 1 } };

	(void)state;
	for (size_t i = 0; i < test_count; i++)
		if (in_group("index", test_table[i].id))
			o.tests[o.ntests++] = &test_table[i];
	const struct test_def *d = test_find("dhry2reg"), *f = test_find("fsdisk");
	assert_true(runner_in_rounds(&o, d));
	double dl = runner_length_for(&o, d), fl = runner_length_for(&o, f) * f->overrun, p = runner_pause_for(&o);
	assert_true(fabs(runner_estimate_test(&o, d) - (QUICK_WARMUP_SECONDS + 3 * (dl + p))) < 1e-9);
	assert_true(fabs(runner_estimate_test(&o, f) - (QUICK_WARMUP_SECONDS + 3 * (fl + p))) < 1e-9);
	assert_true(runner_estimate(&o) > 60);
	o.budget = 3600; /* a budget above the least: the share, as before */
	assert_true(fabs(runner_estimate_test(&o, d) - 3600.0 / QUICK_BUDGET_TESTS) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_whole_and_fit_the_report),
		cmocka_unit_test(groups_name_rows),
		cmocka_unit_test(the_index_is_the_twelve_with_system_baselines),
		cmocka_unit_test(unixbench_groups),
		cmocka_unit_test(short_labels_fit_the_compare_column),
		cmocka_unit_test(compare_table_reads_the_short_label),
		cmocka_unit_test(every_row_has_its_noise_floors),
		cmocka_unit_test(rows_that_read_data_say_so),
		cmocka_unit_test(self_timed_rows_state_their_overrun),
		cmocka_unit_test(quick_budget_is_the_index_share_of_what_runs),
		cmocka_unit_test(a_small_budget_takes_the_least_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
