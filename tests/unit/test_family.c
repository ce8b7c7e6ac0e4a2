/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the family registries (src/registry/family_list.c, tests.c, ui/family_views.c): every test row and group comes from one family, found again by its id, and its live view by its pointer. */
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
