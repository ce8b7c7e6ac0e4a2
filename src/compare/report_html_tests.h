/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's tables per test (report_html_tests.c): a run's results, or its comparison row by row, and the counters per test. */
#ifndef KBENCH_REPORT_HTML_TESTS_H
#define KBENCH_REPORT_HTML_TESTS_H

struct compare;
struct html;
struct run;

void html_alone_tables(struct html *h, const struct run *r);
void html_compare_tables(struct html *h, const struct run *r, const struct compare *c);
/* The run's counters per test; with base, the compared run's under each. */
void html_counters(struct html *h, const struct run *r, const struct run *base);

#endif
