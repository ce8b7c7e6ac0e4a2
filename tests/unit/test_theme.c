/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for theme files: good files, every role named, broken lines reported with their number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

static void test_good_file(void **state)
{
	struct theme t;
	char err[256] = "";
	const char *text = "# a comment\n"
			   "faster = green bold   # trailing comment\n"
			   "\n"
			   "slower = bright-red on black underline\n"
			   "title  = 15 on 4\n";
	assert_int_equal(theme_parse(&t, "x", text, "x.theme", err, sizeof err), 0);
	assert_string_equal(t.name, "x");
	assert_int_equal(t.style[ROLE_FASTER].fg, 2);
	assert_int_equal(t.style[ROLE_FASTER].bg, -1);
	assert_int_equal(t.style[ROLE_FASTER].attrs, THEME_BOLD);
	assert_int_equal(t.style[ROLE_SLOWER].fg, 9);
	assert_int_equal(t.style[ROLE_SLOWER].bg, 0);
	assert_int_equal(t.style[ROLE_SLOWER].attrs, THEME_UNDERLINE);
	assert_int_equal(t.style[ROLE_TITLE].fg, 15);
	assert_int_equal(t.style[ROLE_TITLE].bg, 4);
	assert_false(t.mono);
}

static void test_broken_line_named(void **state)
{
	struct theme t;
	char err[256] = "";
	const char *text = "faster = green\n# fine\nslower = purple\n";
	assert_int_equal(theme_parse(&t, "bad", text, "bad.theme", err, sizeof err), -22);
	assert_non_null(strstr(err, "bad.theme:3:"));
	assert_non_null(strstr(err, "purple"));
	/* the default is used after a failure */
	struct theme d;
	theme_builtin_default(&d);
	assert_memory_equal(t.style, d.style, sizeof d.style);

	assert_int_equal(theme_parse(&t, "bad", "noequals\n", "f", err, sizeof err), -22);
	assert_non_null(strstr(err, "f:1:"));
	assert_int_equal(theme_parse(&t, "bad", "\n\nsparkle = red\n", "f", err, sizeof err), -22);
	assert_non_null(strstr(err, "f:3: unknown element 'sparkle'"));
	assert_int_equal(theme_parse(&t, "bad", "bar = red on\n", "f", err, sizeof err), -22);
	assert_int_equal(theme_parse(&t, "bad", "bar = red blue\n", "f", err, sizeof err), -22);
	assert_int_equal(theme_parse(&t, "bad", "bar = 256\n", "f", err, sizeof err), -22);
}

static void test_mono_base_and_roles(void **state)
{
	struct theme t;
	char err[256];
	assert_int_equal(theme_parse(&t, "mono", "base = mono\n", "m", err, sizeof err), 0);
	assert_true(t.mono);
	assert_string_equal(t.name, "mono");
	/* every role has a name, and the verdicts carry a glyph in both forms */
	for (int r = 0; r < ROLE_COUNT; r++)
		assert_non_null(theme_roles[r].name);
	assert_true(theme_roles[ROLE_FASTER].mono != 0);
	assert_string_not_equal(theme_roles[ROLE_FASTER].ascii, theme_roles[ROLE_SLOWER].ascii);
	assert_string_not_equal(theme_roles[ROLE_NOISE].glyph, "");
}

static void test_shipped_files_parse(void **state)
{
	/* the themes in the tree must all load (KBENCH_TOP or the current directory);
	 * one missing is a broken tree or install, not a reason to skip */
	const char *top = getenv("KBENCH_TOP");
	static const char *const names[] = { "default", "projector", "light", "mono" };
	for (int i = 0; i < 4; i++) {
		char path[512], text[8192], err[256];
		snprintf(path, sizeof path, "%s/themes/%s.theme", top ? top : ".", names[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			fail_msg("shipped theme %s: %s", path, strerror(errno));
		size_t n = fread(text, 1, sizeof text - 1, f);
		fclose(f);
		text[n] = '\0';
		struct theme t;
		if (theme_parse(&t, names[i], text, path, err, sizeof err) != 0)
			fail_msg("%s", err);
	}
}

static void test_load_unknown(void **state)
{
	struct theme t;
	char err[512];
	assert_true(theme_load(&t, "no-such-theme-xyz", err, sizeof err) < 0);
	assert_non_null(strstr(err, "no-such-theme-xyz"));
	assert_string_equal(t.name, "default");
	assert_true(theme_load(&t, "../etc/passwd", err, sizeof err) < 0);
	char names[16][32];
	assert_true(theme_names(names, 16) >= 4);
	assert_string_equal(names[0], "default");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_broken_line_named),
		cmocka_unit_test(test_mono_base_and_roles),
		cmocka_unit_test(test_shipped_files_parse),
		cmocka_unit_test(test_load_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
