/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the family registries (src/registry/family_list.c, tests.c, ui/family_views.c): every test row and group comes from one family, found again by its id, and its live view by its pointer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "family.h"
#include "family_view.h"
#include "latency.h"
#include "report.h"
#include "run.h"
#include "runfile.h"
#include "tests.h"

/* Is row t one of family f's own (its rows or its rows listed last)? */
static bool declares(const struct family *f, const struct test_def *t)
{
	for (size_t i = 0; i < f->nrows; i++)
		if (!strcmp(f->rows[i].id, t->id))
			return true;
	for (size_t i = 0; i < f->nrows_last; i++)
		if (!strcmp(f->rows_last[i].id, t->id))
			return true;
	return false;
}

/* Each row of the table is its family's, and that family is in the list. */
static void test_every_row_has_its_family(void **state)
{
	(void)state;
	size_t rows = 0;
	for (int i = 0; family_list[i]; i++)
		rows += family_list[i]->nrows + family_list[i]->nrows_last;
	assert_int_equal(rows, test_count);
	for (size_t k = 0; k < test_count; k++) {
		const struct test_def *t = &test_table[k];
		bool listed = false;
		for (int i = 0; family_list[i]; i++)
			listed = listed || family_list[i] == t->family;
		assert_true(listed);
		assert_true(declares(t->family, t));
		assert_ptr_equal(test_family(t), t->family);
		assert_ptr_equal(test_id_family(t->id), t->family);
	}
}

/* The families' names are unique: `kbench list` and messages say them. */
static void test_names_are_unique(void **state)
{
	(void)state;
	for (int i = 0; family_list[i]; i++)
		for (int k = i + 1; family_list[k]; k++)
			assert_string_not_equal(family_list[i]->name, family_list[k]->name);
}

/* A compare row's id ("test:point") is its test's family; an id the table
 * does not know (an imported UnixBench test) is a rate test's. */
static void test_ids_find_their_family(void **state)
{
	(void)state;
	const struct test_def *t = &test_table[test_count - 1];
	char id[96];
	snprintf(id, sizeof id, "%s:some point", t->id);
	assert_ptr_equal(test_id_family(id), t->family);
	assert_ptr_equal(test_id_family("no-such-test"), family_list[0]);
	assert_ptr_equal(test_family(NULL), family_list[0]);
	struct test_result r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", t->id);
	assert_ptr_equal(test_result_family(&r), t->family);
}

/* The groups are the families' in order, then "all"; every id in one is a row. */
static void test_groups_are_the_families(void **state)
{
	(void)state;
	size_t n = 0;
	for (int i = 0; family_list[i]; i++)
		for (size_t k = 0; k < family_list[i]->ngroups; k++, n++)
			assert_string_equal(test_groups[n].name, family_list[i]->groups[k].name);
	assert_int_equal(n + 1, test_group_count);
	assert_string_equal(test_groups[n].name, "all");
	assert_null(test_groups[n].ids);
	for (size_t g = 0; g < test_group_count; g++)
		for (const char *const *id = test_groups[g].ids; id && *id; id++)
			assert_non_null(test_find(*id));
}

/* A view is found for its own family's results, by the family's pointer;
 * rate tests have none (the run screen's own rate and copies table). */
static void test_views_are_found_by_family(void **state)
{
	(void)state;
	int views = 0;
	for (int i = 0; family_list[i]; i++) {
		struct test_result r;
		memset(&r, 0, sizeof r);
		snprintf(r.id, sizeof r.id, "%s", family_list[i]->rows[0].id);
		const struct family_view *v = family_view_of(&r);
		if (i == 0 || !v) {
			assert_null(v);
			continue;
		}
		assert_ptr_equal(v->family, family_list[i]);
		assert_true(v->status || v->panel);
		views++;
	}
	assert_true(views > 0);
}

/* The text report of a run with one result of test id keeping a histogram (malloc'd). */
__attribute__((noinline)) static char *report_of_hist(const char *id, const char *point)
{
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, id, "A test with a histogram", "us", 0, 0, "misc");
	t->status = TEST_DONE;
	t->kind = RESULT_POINTS;
	struct lat_hist h;
	lathist_init(&h);
	for (int i = 1; i <= 100; i++)
		lathist_add(&h, (uint64_t)i * 1000);
	hist_set_push(test_hist_set(t, "wake"), &h);
	point_push(test_point(t, point, 50, "%", "us", true, true), 50);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_print(f, r);
	fclose(f);
	run_free(r);
	return buf;
}

/* A histogram is no family's mark: the latency family prints its own
 * results' tables, not those of another family's result that keeps one
 * (it asked nhists > 0 before, and took them all). */
static void test_latency_tables_are_its_own(void **state)
{
	(void)state;
	char *mine = report_of_hist("wakelat", "wake p50");
	assert_non_null(strstr(mine, "latency in microseconds"));
	free(mine);
	char *other = report_of_hist("memlat", "wake p50");
	assert_null(strstr(other, "latency in microseconds"));
	free(other);
}

/* Nor is a point's name: memlat's lmbench table takes memlat's results,
 * not another family's that has a point called "clock". */
static void test_memlat_table_is_its_own(void **state)
{
	(void)state;
	char *mine = report_of_hist("memlat", "clock");
	assert_non_null(strstr(mine, "Memory latencies in nanoseconds"));
	free(mine);
	char *other = report_of_hist("wakelat", "clock");
	assert_null(strstr(other, "Memory latencies in nanoseconds"));
	free(other);
}

/* A run of one result of each kind of convention, as a run file holds it:
 * nothing typed, only keys and names. */
static struct run *conventions_run(void)
{
	struct run *r = run_new();
	r->meta.mode = &run_mode_quick;
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, "memlat", "Memory latency", "ns", 0, 0, "memory");
	t->status = TEST_DONE;
	test_summary_set(t, "cache.L2", 524288, NULL);
	test_summary_set(t, "cache.L3", 0, "not found"); /* no size: no mark */
	point_push(test_point(t, "rnd L2", 262144, "B", "ns", true, true), 4.5);
	t = run_block_add_test(b, "timerlat", "Timer latency", "us", 0, 0, "latency");
	t->status = TEST_DONE;
	point_push(test_point(t, "fifo+burn p99.9", 99.9, "%", "us", true, true), 40);
	point_push(test_point(t, "fifo+burn mean", 0, "", "us", true, true), 4);
	point_push(test_point(t, "fifo+burn met", 0, "", "%", false, true), 100);
	test_summary_set(t, "note", 0, "SCHED_FIFO not permitted");
	t = run_block_add_test(b, "scaling", "Throughput", "jpm", 0, 0, "scaling");
	t->status = TEST_DONE;
	point_push(test_point(t, "2 tasks", 2, "tasks", "jobs/min", false, true), 900);
	point_push(test_point(t, "2 tasks s", 2, "tasks", "s", true, false), 12);
	t = run_block_add_test(b, "buildload", "Build under load", "s", 0, 0, "build");
	t->status = TEST_DONE;
	point_push(test_point(t, "no_load", 0, "", "s", true, true), 30);
	test_summary_set(t, "refused mem_load", 0, "needs 2 GiB");
	test_summary_set(t, "note", 0, "page cache not flushed");
	t = run_block_add_test(b, "syscall", "System Call Overhead", "lps", 1, 15000, "system");
	t->status = TEST_DONE;
	test_quick_asked(t, 0.02);
	t = run_block_add_test(b, "pipe", "Pipe Throughput", "lps", 1, 12440, "system");
	t->status = TEST_DONE;
	test_quick_alloc(t, 150);
	return r;
}

static const struct test_result *result(const struct run *r, const char *id)
{
	return run_block_find_test(&r->blocks[0], id);
}

/* What shared code reads of a result beyond its numbers are typed fields its
 * family's describe verb sets, after collect and after a run file is read: a
 * cache's size marks the curve, a phase's percentiles and mean are its
 * distribution's, a narrow column's unit, a refused part and a note, a quick
 * run's precision. Read back from the file, where only keys and names are, each
 * is there again; a point or a summary of no convention stays a plain one. */
static void test_described_from_a_run_file(void **state)
{
	(void)state;
	struct run *w = conventions_run();
	char err[300];
	char *json = runfile_dump(w, err, sizeof err);
	assert_non_null(json);
	run_free(w);
	struct run *r = runfile_parse(json, strlen(json), "conventions", err, sizeof err);
	free(json);
	assert_non_null(r);

	const struct test_result *t = result(r, "memlat");
	const struct kv *l2 = test_summary_get(t, "cache.L2"), *l3 = test_summary_get(t, "cache.L3");
	assert_int_equal(l2->role, KV_MARK);
	assert_string_equal(l2->mark, "L2");
	assert_int_equal(l3->role, KV_FACT);
	assert_int_equal(test_find_point(t, "rnd L2")->stat, POINT_VALUE);

	t = result(r, "timerlat");
	const struct point *p = test_find_point(t, "fifo+burn p99.9");
	assert_int_equal(p->stat, POINT_P999);
	assert_string_equal(p->dist, "fifo+burn");
	assert_int_equal(test_find_point(t, "fifo+burn mean")->stat, POINT_MEAN);
	assert_int_equal(test_find_point(t, "fifo+burn met")->stat, POINT_VALUE);
	assert_int_equal(test_summary_get(t, "note")->role, KV_NOTE);

	t = result(r, "scaling");
	assert_string_equal(test_find_point(t, "2 tasks")->unit_short, "jpm");
	assert_string_equal(test_find_point(t, "2 tasks s")->unit_short, "");

	t = result(r, "buildload");
	assert_int_equal(test_summary_get(t, "refused mem_load")->role, KV_REFUSED);
	assert_int_equal(test_summary_get(t, "note")->role, KV_NOTE);

	assert_true(fabs(result(r, "syscall")->quick_asked - 0.02) < 1e-12);
	assert_true(result(r, "memlat")->quick_asked == 0);
	/* a quick run's test of the index allocation: its budget, and quick by either rule */
	assert_true(result(r, "pipe")->quick_budget == 150);
	assert_true(result(r, "pipe")->quick_asked == 0);
	assert_true(test_is_quick(result(r, "pipe")) && test_is_quick(result(r, "syscall")));
	assert_false(test_is_quick(result(r, "memlat")));
	run_free(r);
}

/* The same conventions in another family's result mean nothing there: a
 * family describes its own results, never another's. */
static void test_described_by_its_own_family(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "wakelat", "Wake", "us", 0, 0, "latency");
	test_summary_set(t, "cache.L1", 32768, NULL);
	test_summary_set(t, "refused mem_load", 0, "needs 2 GiB");
	point_push(test_point(t, "x jobs/min", 1, "tasks", "jobs/min", false, true), 1);
	test_describe(t);
	assert_int_equal(test_summary_get(t, "cache.L1")->role, KV_FACT);
	assert_int_equal(test_summary_get(t, "refused mem_load")->role, KV_FACT);
	assert_string_equal(test_find_point(t, "x jobs/min")->unit_short, "");
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_has_its_family),
		cmocka_unit_test(test_names_are_unique),
		cmocka_unit_test(test_ids_find_their_family),
		cmocka_unit_test(test_groups_are_the_families),
		cmocka_unit_test(test_views_are_found_by_family),
		cmocka_unit_test(test_latency_tables_are_its_own),
		cmocka_unit_test(test_memlat_table_is_its_own),
		cmocka_unit_test(test_described_from_a_run_file),
		cmocka_unit_test(test_described_by_its_own_family),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
