/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the console's formatting: numbers, times, column fitting at 80 columns, bars, sparklines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "canvas.h"
#include "format.h"

static void test_numbers_fit(void **state)
{
	char b[32];
	fmt_number(b, sizeof b, 12345678.94, 10);
	assert_string_equal(b, "12345678.9");
	fmt_number(b, sizeof b, 12345678.94, 8);
	assert_string_equal(b, "12345679");
	fmt_number(b, sizeof b, 12345678.94, 6);
	assert_string_equal(b, "12.35M"); /* as the compare table writes it */
	fmt_number(b, sizeof b, 12345678.94, 4);
	assert_string_equal(b, "12M");
	fmt_number(b, sizeof b, NAN, 6);
	assert_string_equal(b, "-");
	for (double v = 0.5; v < 1e15; v *= 7.3) {
		fmt_number(b, sizeof b, v, 7);
		assert_true(strlen(b) <= 7);
	}
}

/* A path for a status line: ~ for home, the middle cut, the end whole. */
static void test_paths_fit(void **state)
{
	char b[256];
	fmt_path(b, sizeof b, "/home/ann/src/kbench", "/home/ann", 40, true);
	assert_string_equal(b, "~/src/kbench");
	fmt_path(b, sizeof b, "/home/annex/kbench", "/home/ann", 40, true); /* not ann's home */
	assert_string_equal(b, "/home/annex/kbench");
	fmt_path(b, sizeof b, "/home/ann", "/home/ann/", 40, true);
	assert_string_equal(b, "~");
	const char *p = "/tmp/kbench-systest.AbCdEf/a-rather-long-directory-name/store/reports";
	fmt_path(b, sizeof b, p, "/root", 30, true);
	assert_string_equal(b, "/tmp/…/store/reports"); /* whole components only */
	assert_true(canvas_strwidth(b) <= 30);
	fmt_path(b, sizeof b, p, "/root", 30, false);
	assert_string_equal(b, "/tmp/.../store/reports");
	fmt_path(b, sizeof b, p, "/root", 12, true); /* no room for the head: the end */
	assert_string_equal(b, "…/reports");
	fmt_path(b, sizeof b, p, "/root", 6, true); /* nor for the last name: its end */
	assert_string_equal(b, "…ports");
	fmt_path(b, sizeof b, "/x/y", NULL, 0, true);
	assert_string_equal(b, "");
	for (int w = 1; w < 80; w++) {
		fmt_path(b, sizeof b, p, "/tmp", w, w % 2);
		assert_true(canvas_strwidth(b) <= w);
		assert_true(w < 6 || !strcmp(b + strlen(b) - 3, "rts")); /* "...s" below */
	}
}

/* The thermal screen's time axis: marks keep their columns, labels stay whole. */
static void test_axis_labels_whole(void **state)
{
	int want[3] = { 0, 74, 37 }, lw[3] = { 4, 4, 4 }, at[3];
	fmt_axis_place(78, NULL, 0, want, lw, 3, at); /* no marks: where asked */
	assert_int_equal(at[0], 0);
	assert_int_equal(at[1], 74);
	assert_int_equal(at[2], 37);
	int m1[] = { 39 }; /* a mark on the middle label's third column: it moves the least, whole */
	fmt_axis_place(78, m1, 1, want, lw, 3, at);
	assert_int_equal(at[2], 34);
	int m2[] = { 76, 2 }; /* marks inside both ends: the ends step inward */
	fmt_axis_place(78, m2, 2, want, lw, 3, at);
	assert_int_equal(at[0], 4);
	assert_int_equal(at[1], 71);
	assert_int_equal(at[2], 37);
	int m3[] = { 36, 38 }; /* blanks either side of every mark and label */
	fmt_axis_place(78, m3, 2, want, lw, 3, at);
	assert_int_equal(at[2], 40);
	int nw[3] = { 0, 8, 4 }; /* a narrow row: the middle label has no room and is left out */
	fmt_axis_place(12, NULL, 0, nw, lw, 3, at);
	assert_int_equal(at[0], 0);
	assert_int_equal(at[1], 8);
	assert_int_equal(at[2], -1);
	/* wherever the marks are, no label covers one or touches another */
	for (int a = 0; a < 78; a++)
		for (int b = 0; b < 78; b += 7) {
			int m[2] = { a, b };
			fmt_axis_place(78, m, 2, want, lw, 3, at);
			for (int i = 0; i < 3; i++) {
				if (at[i] < 0)
					continue;
				assert_true(at[i] + lw[i] <= 78);
				for (int k = 0; k < 2; k++)
					assert_false(m[k] >= at[i] - 1 && m[k] <= at[i] + lw[i]);
				for (int j = 0; j < i; j++)
					assert_true(at[j] < 0 || at[j] + lw[j] < at[i] || at[i] + lw[i] < at[j]);
			}
			for (int i = 0; i < 3; i++) /* a label no mark comes near stays put */
				if (!(m[0] >= want[i] - 1 && m[0] <= want[i] + lw[i]) &&
				    !(m[1] >= want[i] - 1 && m[1] <= want[i] + lw[i]))
					assert_int_equal(at[i], want[i]);
		}
}

static void test_counts_whole(void **state)
{
	char b[32];
	fmt_count(b, sizeof b, 29441506.0, 12);
	assert_string_equal(b, "29441506");
	fmt_count(b, sizeof b, 1234.75, 12); /* a replay's share of a sample */
	assert_string_equal(b, "1234");
	fmt_count(b, sizeof b, 0, 12);
	assert_string_equal(b, "0");
	fmt_count(b, sizeof b, 29441506.0, 6);
	assert_string_equal(b, "29.44M"); /* as fmt_number shortens */
	fmt_count(b, sizeof b, NAN, 6);
	assert_string_equal(b, "-");
}

static void test_duration(void **state)
{
	char b[32];
	fmt_duration(b, sizeof b, 7.4);
	assert_string_equal(b, "0:07");
	fmt_duration(b, sizeof b, 725);
	assert_string_equal(b, "12:05");
	fmt_duration(b, sizeof b, 3723);
	assert_string_equal(b, "1:02:03");
	fmt_duration(b, sizeof b, -1);
	assert_string_equal(b, "-:--");
}

static void test_fit(void **state)
{
	char b[64];
	fmt_fit(b, sizeof b, "abc", 5, FMT_RIGHT);
	assert_string_equal(b, "  abc");
	fmt_fit(b, sizeof b, "abc", 5, FMT_LEFT);
	assert_string_equal(b, "abc  ");
	fmt_fit(b, sizeof b, "Dhrystone 2 using register variables", 10, FMT_LEFT);
	assert_string_equal(b, "Dhrystone~");
	fmt_fit(b, sizeof b, "±€x", 2, FMT_LEFT); /* cut on code points, not bytes */
	assert_string_equal(b, "±~");
	assert_int_equal(canvas_strwidth(b), 2);
}

static void test_columns_at_80(void **state)
{
	/* the results table: label, copies, this, base, change, ±, verdict, bar */
	struct fmt_col cols[] = { { 16, 34, false }, { 2, 2, false }, { 9, 10, false },
				  { 9, 10, false }, { 7, 7, false }, { 5, 6, true },
				  { 8, 8, true }, { 9, 30, true } };
	int w[8];
	int used = fmt_columns(cols, 8, 78, w);
	assert_true(used <= 78);
	for (int i = 0; i < 8; i++)
		assert_true(w[i] >= cols[i].min);
	assert_true(w[0] > 16); /* the spare goes to the label first */
	/* 60 columns: droppable columns go from the right, the rest stays */
	used = fmt_columns(cols, 8, 60, w);
	assert_true(used <= 60);
	assert_int_equal(w[7], 0);
	assert_true(w[0] >= 16 && w[4] == 7);
	/* wide: every column reaches its want and no further */
	used = fmt_columns(cols, 8, 200, w);
	assert_int_equal(w[0], 34);
	assert_int_equal(w[7], 30);
	assert_int_equal(used, 34 + 2 + 10 + 10 + 7 + 6 + 8 + 30 + 7);
}

static void test_bars(void **state)
{
	char b[128];
	fmt_bar(b, sizeof b, 0.5, 10, false);
	assert_string_equal(b, "#####.....");
	fmt_bar(b, sizeof b, 2, 4, false);
	assert_string_equal(b, "####");
	fmt_bar(b, sizeof b, 0.55, 10, true);
	assert_string_equal(b, "█████▌    ");
	assert_int_equal(canvas_strwidth(b), 10);
	fmt_bar_signed(b, sizeof b, 5, 10, 9, false);
	assert_string_equal(b, "    |>>  ");
	fmt_bar_signed(b, sizeof b, -10, 10, 9, false);
	assert_string_equal(b, "<<<<|    ");
	fmt_bar_signed(b, sizeof b, 0.01, 10, 9, true); /* any change shows its side */
	assert_string_equal(b, "    │█   ");
}

static void test_sparklines(void **state)
{
	char b[128];
	double v[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	fmt_sparkline(b, sizeof b, v, 8, 8, true);
	assert_string_equal(b, "▁▂▃▄▅▆▇█");
	fmt_sparkline(b, sizeof b, v, 8, 4, false); /* the last four, rescaled */
	assert_string_equal(b, "_-=#");
	double flat[] = { 3, 3, 3 };
	fmt_sparkline(b, sizeof b, flat, 3, 5, false);
	assert_string_equal(b, "~~~  ");
	double gap[] = { 1, NAN, 2 };
	fmt_sparkline(b, sizeof b, gap, 3, 3, true);
	assert_string_equal(b, "▁ █");
}

static void test_big_digits(void **state)
{
	char b[256];
	int w = fmt_big_row(b, sizeof b, "1.5", 0, false);
	assert_int_equal(w, 4 + 2 + 4);
	for (int r = 0; r < FMT_BIG_ROWS; r++) {
		fmt_big_row(b, sizeof b, "10", r, true);
		assert_int_equal(canvas_strwidth(b), 8);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_fit),   cmocka_unit_test(test_duration),
		cmocka_unit_test(test_fit),           cmocka_unit_test(test_columns_at_80),
		cmocka_unit_test(test_bars),          cmocka_unit_test(test_sparklines),
		cmocka_unit_test(test_big_digits),    cmocka_unit_test(test_counts_whole),
		cmocka_unit_test(test_paths_fit),
		cmocka_unit_test(test_axis_labels_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
