/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the console's canvas: text clipping, UTF-8, rules, row dumps and comparisons. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "canvas.h"

static void test_text_clips_at_edge(void **state)
{
	struct canvas c;
	char row[256];
	assert_int_equal(canvas_init(&c, 10, 3, false), 0);
	assert_int_equal(canvas_text(&c, 6, 1, 2, "abcdefgh", -1), 4);
	canvas_row(&c, 1, row, sizeof row);
	assert_string_equal(row, "      abcd");
	assert_int_equal(canvas_at(&c, 9, 1)->role, 2);
	assert_int_equal(canvas_text(&c, 0, 5, 0, "off", -1), 0); /* below the canvas */
	assert_int_equal(canvas_text(&c, 0, 0, 0, "abcdef", 3), 3);
	canvas_row(&c, 0, row, sizeof row);
	assert_string_equal(row, "abc");
	canvas_free(&c);
}

static void test_utf8_cells(void **state)
{
	struct canvas c;
	char row[256];
	canvas_init(&c, 8, 1, true);
	assert_int_equal(canvas_text(&c, 0, 0, 0, "▲ 5°C", -1), 5);
	assert_int_equal(canvas_at(&c, 0, 0)->ch, 0x25b2);
	assert_int_equal(canvas_at(&c, 3, 0)->ch, 0xb0);
	canvas_row(&c, 0, row, sizeof row);
	assert_string_equal(row, "▲ 5°C");
	assert_int_equal(canvas_strwidth("█▌ x"), 4);
	/* a broken sequence becomes '?', never a read past the end */
	const char bad[] = { (char)0xe2, 'a', 0 };
	const char *p = bad;
	assert_int_equal(canvas_utf8_next(&p), '?');
	assert_int_equal(*p, 'a');
	canvas_free(&c);
}

static void test_rule_and_fill(void **state)
{
	struct canvas c;
	char row[256];
	canvas_init(&c, 12, 2, false);
	canvas_rule(&c, 0, 0, 12, 1, "Run", 2);
	canvas_row(&c, 0, row, sizeof row);
	assert_string_equal(row, "-- Run -----");
	assert_int_equal(canvas_at(&c, 3, 0)->role, 2);
	c.utf8 = true;
	canvas_rule(&c, 0, 1, 4, 1, NULL, 1);
	assert_int_equal(canvas_at(&c, 0, 1)->ch, 0x2500);
	canvas_paint(&c, 0, 1, 2, 5);
	assert_int_equal(canvas_at(&c, 1, 1)->role, 5);
	assert_int_equal(canvas_at(&c, 2, 1)->role, 1);
	canvas_free(&c);
}

static void test_row_equal_and_resize(void **state)
{
	struct canvas a, b;
	canvas_init(&a, 5, 2, false);
	canvas_init(&b, 5, 2, false);
	canvas_text(&a, 0, 0, 0, "x", -1);
	canvas_text(&b, 0, 0, 0, "x", -1);
	assert_true(canvas_row_equal(&a, &b, 0));
	canvas_text(&b, 0, 1, 3, " ", -1); /* same character, another role */
	assert_false(canvas_row_equal(&a, &b, 1));
	assert_int_equal(canvas_resize(&a, 7, 3), 0);
	assert_int_equal(a.w, 7);
	assert_false(canvas_row_equal(&a, &b, 0)); /* widths differ */
	char row[8];
	canvas_text(&a, 0, 0, 0, "abcdefg", -1);
	canvas_row(&a, 0, row, 4); /* a short buffer is cut, not overrun */
	assert_string_equal(row, "abc");
	canvas_free(&a);
	canvas_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_clips_at_edge),
		cmocka_unit_test(test_utf8_cells),
		cmocka_unit_test(test_rule_and_fill),
		cmocka_unit_test(test_row_equal_and_resize),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
