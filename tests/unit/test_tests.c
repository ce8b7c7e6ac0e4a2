/* Tests of the test table in src/tests.c: rows, groups and the index set agree with each other and with UnixBench. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "noise.h"
#include "tests.h"

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
		assert_ptr_equal(test_find_label(t->label), t);
		assert_true(strlen(t->id) < 32);
		assert_true(strlen(t->label) <= 40); /* "%-40s" in the report */
		assert_true(strlen(t->unit) <= 5);   /* "%-5s" */
		assert_true(t->timebase == 0 || t->timebase == 1 || t->timebase == 60);
		assert_true(!strcmp(t->category, "system") || !strcmp(t->category, "misc"));
		assert_true(t->samples == 3 || t->samples == 10);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_whole_and_fit_the_report),
		cmocka_unit_test(groups_name_rows),
		cmocka_unit_test(the_index_is_the_twelve_with_system_baselines),
		cmocka_unit_test(unixbench_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
