/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A family of tests (rate tests, memory latency, latency histograms, ...) as one face that shared code calls. */
#ifndef KBENCH_FAMILY_H
#define KBENCH_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct compare;
struct settings;
struct compare_block;
struct compare_row;
struct html;
struct point;
struct run;
struct src;
struct test_def;
struct test_group;
struct test_result;

/* A foreign format that holds a family's results (kernbench's log): is()
 * recognises a text, import() turns it into runs (src/store/import_scan.h). */
struct family_import {
	const char *format;
	bool (*is)(const char *text, size_t len);
	void (*import)(struct src *s, const char *name);
};

/* What a family is to the code that does not know it: its test rows and
 * groups, and what it adds to each output. A family fills the hooks it
 * needs in its own file (family_NAME.c) and leaves the others NULL, which
 * is what rate tests do: NULL is the shared, rate-test way. Shared code
 * asks tests.h (test_family, test_result_family) and calls through the
 * hooks; it never names a family.
 * The console's side of a family (its live view) is ui/family_view.h. */
struct family {
	const char *name; /* the family's name: the key ui/'s views are found by */
	/* Its settings (src/base/settings.h), options of the run commands; NULL: none. */
	const struct settings *settings;

	/* Its tests and groups, in the order `kbench list` shows them. rows_last:
	 * rows listed after every family's (UnixBench's order puts one rate test
	 * there). A row's .family is set from here (tests.c). */
	const struct test_def *rows;
	size_t nrows;
	const struct test_def *rows_last;
	size_t nrows_last;
	const struct test_group *groups;
	size_t ngroups;

	/* The foreign formats kbench import reads into this family's results,
	 * tried in the registry's order before UnixBench's own. */
	const struct family_import *imports;
	size_t nimports;

	/* The label a run of t with these workload parameters gets, in buf
	 * when it is not t->label (test_label). */
	const char *(*label)(const struct test_def *t, const char *params, char *buf, size_t len);
	/* A result just read from a run file: put right what older files said
	 * otherwise (runfile.c). */
	void (*loaded)(struct test_result *t);
	/* A point's x as a reader says it ("256 KiB"): true when it wrote buf;
	 * false: the number and its unit. */
	bool (*fmt_x)(char *buf, size_t size, const struct point *p);

	/* The text report (report.c). report_test: a points result in the
	 * family's own layout, true when it printed it; false: the shared
	 * table of headline points, then report_notes under it. report_run:
	 * after every block, the family's tables over the whole run. */
	bool (*report_test)(FILE *f, const struct test_result *t, const struct run *r);
	void (*report_notes)(FILE *f, const struct test_result *t);
	void (*report_run)(FILE *f, const struct run *r);

	/* The comparison. compare_diffs: what differs between a's result ta
	 * and run b beyond the environment (a build test's tree). compare_footer:
	 * the family's sentences under the table. compare_text: its own tables
	 * after kbench compare's (text only). */
	void (*compare_diffs)(struct compare *c, const struct test_result *ta, const struct run *b);
	void (*compare_footer)(struct compare *c, const struct run *const *a, int na, const struct run *const *b,
			       int nb);
	void (*compare_text)(FILE *f, const struct compare *c);

	/* The HTML report (report_html.c). html_claims: the family draws this
	 * result in its own section (html_section), not as the tables' rows
	 * and curves; html_alone: its one row in a run's table; html_versus:
	 * its one row in a comparison's table, for the block's rows it claims
	 * (html_claims_row); html_section: its section after the tables;
	 * html_css: its section's style, after the report's own. */
	const char *html_css;
	bool (*html_claims)(const struct test_result *t);
	void (*html_alone)(struct html *h, const struct test_result *t);
	bool (*html_claims_row)(const struct compare_row *row);
	void (*html_versus)(struct html *h, const struct run *r, const struct compare_block *b);
	void (*html_section)(struct html *h, const struct run *r, const struct compare *c);
};

/* Every family, in the registry's order (family_list.c), NULL-terminated. */
extern const struct family *const family_list[];

#endif
