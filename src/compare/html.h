/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML writer: what the report's files and a family's HTML verbs (family.h) write a page with. */
#ifndef KBENCH_HTML_H
#define KBENCH_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

struct run;
struct run_block;
struct test_result;

/* The page being written: its file, and the directory no path may show. */
struct html {
	FILE *f;
	const char *home;
};

/* Machine or user text, escaped. */
void html_esc(struct html *h, const char *s);
/* kbench's own markup and numbers; never a string from a run (html_esc is for those). */
void html_out(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A change in %, signed or not (num_pct, with its tenths); "&ndash;" when not finite. */
void html_fmt_pct(char *buf, size_t size, double v, bool sign);
/* A verdict's CSS class (faster, slower, same, na) and its glyph. */
const char *html_verdict_class(enum compare_verdict v);
const char *html_verdict_glyph(enum compare_verdict v);
/* A score with the digits its size needs; "&ndash;" when there is none. */
void html_fmt_score(char *buf, size_t size, double v);
/* Does the block have an index score (a run of the index tests)? */
bool html_block_indexed(const struct run_block *bl);
/* Run r's result of test id in its block of copies copies, or NULL (r may be NULL). */
const struct test_result *html_find_test(const struct run *r, int copies, const char *id);

#endif
