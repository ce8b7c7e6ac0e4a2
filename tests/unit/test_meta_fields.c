/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's metadata declared once (src/record/meta_fields.c): every row round-trips through the run file in its order, text is sanitised, the notes' places are one each, and an optional field is absent when unset. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "meta_fields.h"
#include "run.h"
#include "runfile.h"
#include "thermal.h"

/* A value of row i that no other row has. */
static void set_distinct(const struct meta_field *f, struct run_meta *m, int i)
{
	void *at = meta_at(f, m);
	switch (f->kind) {
	case MK_TEXT: snprintf(at, f->size, "v%d", i); break;
	case MK_DOUBLE: *(double *)at = 1.5 + i; break;
	case MK_INT: *(int *)at = 100 + i; break;
	case MK_U64: *(uint64_t *)at = 1000 + (uint64_t)i; break;
	case MK_TIME: *(time_t *)at = 1700000000 + i; break;
	case MK_UTC: break;
	case MK_MODE: *(const struct run_mode_info **)at = &thermal_mode; break;
	case MK_KNOWN_U64:
		*(bool *)((char *)m + f->known_off) = true;
		*(uint64_t *)at = 5000 + (uint64_t)i;
		break;
	}
}

static bool same_value(const struct meta_field *f, const struct run_meta *a, const struct run_meta *b)
{
	const void *x = meta_at_c(f, a), *y = meta_at_c(f, b);
	return f->kind == MK_TEXT ? !strcmp(x, y) : !memcmp(x, y, f->size);
}

/* Every row written and read back as it was, the file's keys the rows' in their order. */
static void every_field_round_trips(void **state)
{
	(void)state;
	struct run *r = run_new();
	for (size_t i = 0; i < meta_field_count; i++)
		set_distinct(&meta_fields[i], &r->meta, (int)i);
	char err[300];
	char *text = runfile_dump(r, err, sizeof err);
	assert_non_null(text);
	struct run *back = runfile_parse(text, strlen(text), "test", err, sizeof err);
	if (!back)
		fail_msg("%s", err);
	for (size_t i = 0; i < meta_field_count; i++)
		if (meta_fields[i].kind != MK_UTC && !same_value(&meta_fields[i], &r->meta, &back->meta))
			fail_msg("meta.%s did not come back", meta_fields[i].key);
	assert_true(back->meta.swap_known);
	/* the keys, in the rows' order */
	json_t *root = json_loads(text, 0, NULL), *meta = json_object_get(root, "meta");
	assert_non_null(meta);
	size_t k = 0;
	const char *key;
	json_t *v;
	json_object_foreach (meta, key, v) {
		assert_true(k < meta_field_count);
		assert_string_equal(key, meta_fields[k].key);
		k++;
	}
	assert_int_equal(k, meta_field_count);
	json_decref(root);
	free(text);
	run_free(back);
	run_free(r);
}

/* Unset optional fields are not written; swap unknown is null and reads back unknown. */
static void optional_and_unknown(void **state)
{
	(void)state;
	struct run *r = run_new();
	char err[300];
	char *text = runfile_dump(r, err, sizeof err);
	json_t *root = json_loads(text, 0, NULL), *meta = json_object_get(root, "meta");
	for (size_t i = 0; i < meta_field_count; i++)
		assert_int_equal(json_object_get(meta, meta_fields[i].key) != NULL, !meta_fields[i].optional);
	assert_true(json_is_null(json_object_get(meta, "swap_total_kib")));
	struct run *back = runfile_parse(text, strlen(text), "test", err, sizeof err);
	assert_non_null(back);
	assert_false(back->meta.swap_known);
	json_decref(root);
	free(text);
	run_free(back);
	run_free(r);
}

/* A positive row (budget) is written only above 0, even when what it belongs to is set (a
 * precision run has an allocation and no budget), and a reader refuses one below 0. */
static void positive_rows(void **state)
{
	(void)state;
	struct run *r = run_new();
	snprintf(r->meta.allocation, sizeof r->meta.allocation, "precision");
	char err[300];
	char *text = runfile_dump(r, err, sizeof err);
	json_t *root = json_loads(text, 0, NULL), *meta = json_object_get(root, "meta");
	assert_non_null(json_object_get(meta, "allocation"));
	assert_null(json_object_get(meta, "budget"));
	json_object_set_new(meta, "budget", json_real(-1));
	char *bad = json_dumps(root, 0);
	struct run *back = runfile_parse(bad, strlen(bad), "test", err, sizeof err);
	assert_null(back);
	assert_non_null(strstr(err, "budget is negative"));
	free(bad);
	json_decref(root);
	free(text);
	run_free(r);
}

/* Every text row is sanitised before it is written (a byte jansson refuses becomes '?'). */
static void text_is_sanitised(void **state)
{
	(void)state;
	struct run *r = run_new();
	for (size_t i = 0; i < meta_field_count; i++)
		if (meta_fields[i].kind == MK_TEXT)
			snprintf(meta_at(&meta_fields[i], &r->meta), meta_fields[i].size, "a\xff%zu", i);
	char err[300];
	free(runfile_dump(r, err, sizeof err)); /* sanitises the run it writes, in place */
	for (size_t i = 0; i < meta_field_count; i++)
		if (meta_fields[i].kind == MK_TEXT) {
			char want[32];
			snprintf(want, sizeof want, "a?%zu", i);
			assert_string_equal(meta_at(&meta_fields[i], &r->meta), want);
		}
	run_free(r);
}

/* The notes' places are 1, 2, ... once each, on text rows; every key once. */
static void notes_and_keys(void **state)
{
	(void)state;
	int n = 0;
	for (size_t i = 0; i < meta_field_count; i++) {
		for (size_t k = i + 1; k < meta_field_count; k++)
			assert_string_not_equal(meta_fields[i].key, meta_fields[k].key);
		if (!meta_fields[i].note)
			continue;
		n++;
		assert_int_equal(meta_fields[i].kind, MK_TEXT);
		assert_true(meta_fields[i].note_when != MN_NONE);
	}
	for (int rank = 1; rank <= n; rank++) {
		int found = 0;
		for (size_t i = 0; i < meta_field_count; i++)
			found += meta_fields[i].note && meta_fields[i].note_rank == rank;
		assert_int_equal(found, 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_field_round_trips),
		cmocka_unit_test(optional_and_unknown),
		cmocka_unit_test(positive_rows),
		cmocka_unit_test(text_is_sanitised),
		cmocka_unit_test(notes_and_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
