/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A family of tests (rate tests, memory latency, latency histograms, ...) as one face of general verbs that shared code calls. */
#ifndef KBENCH_FAMILY_H
#define KBENCH_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct compare;
struct compare_block;
struct html;
struct point;
struct run;
struct run_block;
struct settings;
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

/* What the HTML report's per-test table gives a family to draw (html_rows): one
 * result of a run, or one test's rows of a comparison's block. */
struct family_html_rows {
	const struct run *run;         /* the report's run */
	const struct test_result *t;   /* its result of the test; NULL: only the compared run has it */
	const struct compare_block *b; /* a comparison's block; NULL: the run alone */
	int first, n;                  /* b's rows of the test: b->rows[first .. first + n) */
	double scale;                  /* alone: the block's highest index (its bars); with b: the
					  change axis's half width, in percent */
};

/* What a family is to the code that does not know it: its rows, settings and
 * foreign formats, and a few general verbs: describe a result, print it, compare
 * it, draw it (HTML here; the console's side is ui/family_view.h). Every family,
 * the rate tests' too, fills the verbs it needs in its own files
 * (family_NAME.c) and leaves the others NULL; NULL is the default a new family
 * gets for free: a points result (run.h) shown by its headline points and curves
 * (src/families/skeleton/family_skeleton.c is a whole family on the defaults). Shared
 * code finds a result's family (tests.h: test_family, test_result_family) and
 * calls through the verbs; it never names a family, and a family's own files
 * reach another's by pointer (family_memlat), never by name. The APIs a
 * family's verbs may use: src/compare/report.h (the text report's defaults),
 * compare_plugin.h, html.h and report_html_tests.h (the HTML defaults), and
 * src/store/import_scan.h. */
struct family {
	const char *name; /* what `kbench list` and messages call it */
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

	/* ---- describe a result ----
	 * label: the label a run of t with these workload parameters gets, in buf
	 * when it is not t->label (test_label). describe: a result as it was
	 * collected or read back from a run file (test_describe): its typed
	 * fields (run.h: a point's statistic, a summary's role), and what older
	 * files said otherwise put right. fmt_x: a point's x as a reader says it
	 * ("256 KiB"), true when it wrote buf; NULL or false: the number and its
	 * unit. */
	const char *(*label)(const struct test_def *t, const char *params, char *buf, size_t len);
	void (*describe)(struct test_result *t);
	bool (*fmt_x)(char *buf, size_t size, const struct point *p);

	/* ---- print it: the text report (report.c) ----
	 * print_block: what it prints of block b before the block's results one
	 * by one (the rate tests: UnixBench's rows and index tables). print: one
	 * of its results in the block's order; NULL: report_points and a blank
	 * line (its headline points, when it has points). print_run: after every
	 * block, its tables over the whole run. */
	void (*print_block)(FILE *f, const struct run *r, const struct run_block *b);
	void (*print)(FILE *f, const struct test_result *t, const struct run *r);
	void (*print_run)(FILE *f, const struct run *r);

	/* ---- compare it ----
	 * compare: what it adds to a comparison of sides a and b once its rows
	 * are decided (compare_plugin.h): an environment difference in its own
	 * terms (what a build test built), sentences under the table.
	 * compare_print: its own tables after kbench compare's (text only). */
	void (*compare)(struct compare *c, const struct run *const *a, int na, const struct run *const *b,
			int nb);
	void (*compare_print)(FILE *f, const struct compare *c);

	/* ---- draw it: the HTML report (report_html.c and its sections) ----
	 * html_rows: its rows in the per-test table, for one result or one test's
	 * comparison rows; NULL: html_rows_default (report_html_tests.h: a row per
	 * headline point, or the comparison's rows). html_section: a section of
	 * its own after the tables, where it draws its results whole (then the
	 * report draws no curves of them); NULL: its points' curves and
	 * percentiles. html_css: its section's style, after the report's own. */
	void (*html_rows)(struct html *h, const struct family_html_rows *w);
	void (*html_section)(struct html *h, const struct run *r, const struct compare *c);
	const char *html_css;
};

/* Every family, in the registry's order, NULL-terminated: the registry
 * (src/registry/family_list.c) points it at its list as the program starts, so shared code
 * below the registry reads the list without calling up to it (defined in tests.c). */
extern const struct family *const *family_list;

#endif
