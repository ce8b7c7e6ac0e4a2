/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The export formats' rows (src/compare/export_list.c): each writes what it takes, and kbench export's --format choices, help and errors are made from them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "export.h"
#include "options.h"
#include "run.h"
#include "runfile.h"
#include "score.h"

static struct run *mk(double factor)
{
	struct run *r = run_new();
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.1.0");
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "box");
	r->meta.mode = &run_mode_full;
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, "dhry2reg", "Dhrystone 2 using register variables", "lps", 1,
						   116700, "system");
	t->status = TEST_DONE;
	for (int s = 0; s < 5; s++) {
		struct sample *sm = test_add_sample(t, 1);
		sm->count[0] = 3.8e7 * factor * (1 + 0.002 * (s % 3)) * 10;
		sm->elapsed[0] = 10;
	}
	run_rescore(r);
	return r;
}

/* Each format writes what it takes, something, without an error; every format takes one
 * thing at least, and names are unique. */
static void every_format_writes_what_it_takes(void **state)
{
	(void)state;
	struct run *a = mk(1), *b = mk(1.2);
	const struct run *av[] = { a }, *bv[] = { b };
	struct compare_opts o = { 0 };
	char err[300];
	struct compare *c = compare_runs(av, 1, bv, 1, &o, err, sizeof err);
	assert_non_null(c);
	assert_true(export_format_count >= 2);
	for (size_t i = 0; i < export_format_count; i++) {
		const struct export_format *x = &export_formats[i];
		assert_true(x->run || x->pair);
		assert_ptr_equal(export_format_find(x->name), x);
		for (int side = 0; side < 2; side++) {
			if (side ? !x->pair : !x->run)
				continue;
			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);
			int rc = side ? x->pair(f, c, x->arg, err, sizeof err) : x->run(f, a, x->arg, err, sizeof err);
			fclose(f);
			if (rc != 0 || len == 0)
				fail_msg("%s (%s) wrote %zu bytes, returned %d", x->name, side ? "A B" : "one run", len, rc);
			free(text);
		}
	}
	assert_null(export_format_find("html"));
	assert_null(export_format_find(""));
	/* the first format, the default, writes the run file: it reads back */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(export_formats[0].run(f, a, export_formats[0].arg, err, sizeof err), 0);
	fclose(f);
	struct run *back = runfile_parse(text, len, "export", err, sizeof err);
	if (!back)
		fail_msg("the default format is no run file: %s", err);
	run_free(back);
	free(text);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* The names as completion offers them, and those of A B as the usage error lists them. */
static void names_from_the_rows(void **state)
{
	(void)state;
	char all[256], pairs[256];
	export_format_names(all, sizeof all, false);
	export_format_names(pairs, sizeof pairs, true);
	size_t npairs = 0;
	for (size_t i = 0; i < export_format_count; i++) {
		const char *name = export_formats[i].name;
		assert_non_null(strstr(all, name));
		npairs += export_formats[i].pair != NULL;
		if (!export_formats[i].pair)
			continue;
		assert_non_null(strstr(pairs, name));
	}
	/* "a, b or c": commas between, " or " before the last */
	int commas = 0;
	for (const char *p = pairs; *p; p++)
		commas += *p == ',';
	assert_int_equal(commas, (int)npairs - 2);
	assert_non_null(strstr(pairs, " or "));
}

/* kbench export's --format row: its choices are the names, its help names every format and
 * its default (the first), and its check takes each name and nothing else. */
static void the_format_option_follows_the_rows(void **state)
{
	(void)state;
	const struct opt_command *ex = opts_command("export");
	assert_non_null(ex);
	const struct opt_def *d = NULL;
	for (size_t i = 0; i < opt_count && !d; i++)
		if ((opt_table[i].cmds & ex->bit) && !strcmp(opt_table[i].name, "format"))
			d = &opt_table[i];
	assert_non_null(d);
	char all[256], err[300];
	export_format_names(all, sizeof all, false);
	assert_string_equal(d->choices, all);
	assert_string_equal(d->def, export_formats[0].name);
	for (size_t i = 0; i < export_format_count; i++) {
		assert_non_null(strstr(d->help, export_formats[i].name));
		assert_int_equal(opts_value(d, "--format", export_formats[i].name, NULL, err, sizeof err), 0);
	}
	assert_int_equal(opts_value(d, "--format", "xml", NULL, err, sizeof err), -1);
	char want[300];
	snprintf(want, sizeof want, "; default %s", export_formats[0].name);
	assert_non_null(strstr(d->help, want));
	/* wrapped as the table's rows are: no line past 72 columns */
	for (const char *l = d->help; *l;) {
		size_t n = strcspn(l, "\n");
		assert_true(n <= 72);
		l += n + (l[n] == '\n');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_format_writes_what_it_takes),
		cmocka_unit_test(names_from_the_rows),
		cmocka_unit_test(the_format_option_follows_the_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
