/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's tables per test (report_html_tests.c): a run's results, or its comparison row by row, and the counters per test. */
#ifndef KBENCH_REPORT_HTML_TESTS_H
#define KBENCH_REPORT_HTML_TESTS_H

struct compare;
struct compare_row;
struct family_html_rows;
struct html;
struct run;
struct test_result;

/* The defaults a family's html_rows verb (family.h) has, or calls for what it
 * does not draw itself: a result alone as a row per headline point (or, with
 * none, one row of its score), a comparison's rows one by one. */
void html_rows_default(struct html *h, const struct family_html_rows *w);
/* The cells after a result's label: its score, unit, index, spread and index
 * bar (max_index: the block's highest), or its status and why. */
void html_result_cells(struct html *h, const struct test_result *t, double max_index);
/* The cells after a comparison row's label: both scores, the change and its
 * interval, its bar (range: the axis's half width, in percent), the verdict. */
void html_compare_cells(struct html *h, const struct compare_row *r, double range);

void html_alone_tables(struct html *h, const struct run *r);
void html_compare_tables(struct html *h, const struct run *r, const struct compare *c);
/* The run's counters per test; with base, the compared run's under each. */
void html_counters(struct html *h, const struct run *r, const struct run *base);

#endif
