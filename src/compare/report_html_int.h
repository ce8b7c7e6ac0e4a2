/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the HTML report: what its three files (report_html*.c) and the families' HTML hooks (family.h) share. Not for other files. */
#ifndef KBENCH_REPORT_HTML_INT_H
#define KBENCH_REPORT_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

struct run;
struct run_block;
struct test_result;

/* The report being written: its file, and the directory no path may show. */
struct html {
	FILE *f;
	const char *home;
};

/* Machine or user text, escaped. */
void html_esc(struct html *h, const char *s);
/* kbench's own markup and numbers; never a string from a run (html_esc is for those). */
void html_out(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A change in %, signed or not; "&ndash;" when not finite. */
void html_fmt_pct(char *buf, size_t size, double v, bool sign);
/* A verdict's CSS class (faster, slower, same, na) and its glyph. */
const char *html_verdict_class(enum compare_verdict v);
const char *html_verdict_glyph(enum compare_verdict v);
/* A score with the digits its size needs. */
void html_fmt_score(char *buf, size_t size, double v);
/* Does the block have an index score (a run of the index tests)? */
bool html_block_indexed(const struct run_block *bl);

/* The sections, in report_html_tests.c and report_html_charts.c. */
void html_alone_tables(struct html *h, const struct run *r);
void html_compare_tables(struct html *h, const struct run *r, const struct compare *c);
void html_counters(struct html *h, const struct run *r, const struct run *base);
void html_curves(struct html *h, const struct run *r);
void html_telemetry(struct html *h, const struct run *r);

/* Run r's result of test id in its block of copies copies, or NULL (r may be NULL). */
const struct test_result *html_find_test(const struct run *r, int copies, const char *id);

#endif
