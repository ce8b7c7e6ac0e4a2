/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test table: every family's rows and groups gathered in one table, and finding a test or group in it. */
#include "tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "run.h"
#include "settings.h"
#include "sysinfo.h"

/* Room for every family's rows and groups; tests_gather stops the program
 * at its start when a new family outgrows it (every test would fail). */
#define TEST_TABLE_MAX 96
#define TEST_GROUPS_MAX 48

static struct test_def table[TEST_TABLE_MAX];
static struct test_group groups[TEST_GROUPS_MAX];
const struct test_def *test_table = table;
size_t test_count;
const struct test_group *test_groups = groups;
size_t test_group_count;

/* Empty until the registry's constructor points it at its list (family.h). */
static const struct family *const no_families[] = { NULL };
const struct family *const *family_list = no_families;

static void add_rows(const struct family *f, const struct test_def *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (test_count == TEST_TABLE_MAX) {
			fprintf(stderr, "kbench: more than %d tests: raise TEST_TABLE_MAX (tests.c)\n",
				TEST_TABLE_MAX);
			abort();
		}
		table[test_count] = rows[i];
		table[test_count++].family = f;
	}
}

/* The families' rows in the registry's order, then the rows each lists
 * last; their groups in the same order, then "all". A constructor, as the
 * table was a constant before: every caller can read it from the start. */
__attribute__((constructor)) static void tests_gather(void)
{
	for (int i = 0; family_list[i]; i++)
		add_rows(family_list[i], family_list[i]->rows, family_list[i]->nrows);
	for (int i = 0; family_list[i]; i++)
		add_rows(family_list[i], family_list[i]->rows_last, family_list[i]->nrows_last);
	for (int i = 0; family_list[i]; i++)
		for (size_t k = 0; k < family_list[i]->ngroups; k++) {
			if (test_group_count + 1 == TEST_GROUPS_MAX) {
				fprintf(stderr, "kbench: more than %d groups: raise TEST_GROUPS_MAX (tests.c)\n",
					TEST_GROUPS_MAX - 1);
				abort();
			}
			groups[test_group_count++] = family_list[i]->groups[k];
		}
	groups[test_group_count++] = (struct test_group){ "all", "every test", NULL };
}

const struct test_def *test_find(const char *id)
{
	for (size_t i = 0; i < test_count; i++)
		if (strcmp(test_table[i].id, id) == 0)
			return &test_table[i];
	return NULL;
}

const struct test_group *test_group_find(const char *name)
{
	if (strcmp(name, "dhrystone") == 0)
		name = "dhry";
	else if (strcmp(name, "whetstone") == 0)
		name = "whets";
	else if (strcmp(name, "load") == 0) /* UnixBench's other name for shell */
		name = "shell";
	for (size_t i = 0; i < test_group_count; i++)
		if (strcmp(test_groups[i].name, name) == 0)
			return &test_groups[i];
	return NULL;
}

int test_samples_for_iterations(const struct test_def *t, int iterations)
{
	if (t->samples >= 10)
		return iterations;
	int n = (iterations + 1) / 3;
	return n < 1 ? 1 : n;
}

double test_quick_seconds(const struct test_def *t)
{
	return t->quick_seconds > 0 ? t->quick_seconds : 1.0;
}

const char *test_label(const struct test_def *t, const char *params, char *buf, size_t len)
{
	const struct family *f = test_family(t);
	return f->label ? f->label(t, params, buf, len) : t->label;
}

int test_settings_fill(const struct settings *f, const char *params, bool quick, void *s, char *err,
		       size_t errlen)
{
	struct settings_env env = { .quick = quick, .ncpus = sysinfo_ncpus() };
	return settings_fill(f, params, &env, s, err, errlen);
}

const struct family *test_family(const struct test_def *t)
{
	/* family_list[0] is the rate tests, the default */
	return t && t->family ? t->family : family_list[0];
}

const struct family *test_result_family(const struct test_result *t)
{
	return test_id_family(t->id);
}

const struct family *test_id_family(const char *id)
{
	char test[64];
	/* a compare row's id is "test:point" */
	snprintf(test, sizeof test, "%.*s", (int)strcspn(id, ":"), id);
	return test_family(test_find(test));
}

void test_describe(struct test_result *t)
{
	const struct kv *q = test_summary_get(t, RUN_KEY_QUICK_ASKED);
	if (q && q->has_value)
		t->quick_asked = q->value;
	const struct kv *b = test_summary_get(t, RUN_KEY_QUICK_ALLOC);
	if (b && b->has_value)
		t->quick_budget = b->value;
	const struct family *f = test_result_family(t);
	if (f->describe)
		f->describe(t);
}
