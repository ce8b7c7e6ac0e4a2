/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build time, a family: its test row, and what it adds to the reports and the comparison. */
#include "family.h"

#include "compare_plugin.h"
#include "kbuild.h"
#include "report.h"
#include "run.h"
#include "tests.h"

static const struct test_def rows[] = {
	/* A points test: a sample is one timed build per -j value (the first
	 * sample also generates the tree and builds it once untimed). .seconds
	 * is a full sample's length here (three builds of the full tree, about
	 * 250 s here), quick_seconds a small tree's; the workload picks the small
	 * tree in a quick run. Five timed builds, three quick (kernbench's). */
	{ .id = "kbuild", .label = "Build time (make, generated C tree)",
	  .short_label = "kbuild",
	  .about = "s per build of a generated C tree at make -j CPUs/2, CPUs, 2xCPUs",
	  .unit = "s", .category = "build",
	  .workload = &wl_kbuild, .self_timed = true, .overrun = 1.2, .one_copy = true,
	  .collect = kbuild_collect, .sample_seconds = kbuild_sample_seconds,
	  .preflight = kbuild_preflight,
	  .seconds = 300, .samples = 5, .quick_seconds = 60, .quick_samples = 3,
	  .noise = { 0.020, 0.030 } },
};

static const char *const g_build[] = { "kbuild", NULL };
static const struct test_group groups[] = {
	{ "build", "build time: make builds a generated C tree at several -j", g_build },
};
/* kernbench's table, else its headline points. */
static void print(FILE *f, const struct test_result *t, const struct run *r)
{
	(void)r;
	if (!kbuild_print_test(f, t))
		report_points(f, t);
	fputc('\n', f);
}

/* What each of its tests built in A's first run and B's (the generated tree and
 * its hash, or a kernel's version and config): another tree is another
 * benchmark, so the comparison says so. */
static void compare(struct compare *c, const struct run *const *a, int na, const struct run *const *b,
		    int nb)
{
	(void)na, (void)nb;
	for (int i = 0; i < a[0]->nblocks; i++)
		for (int k = 0; k < a[0]->blocks[i].ntests; k++) {
			const struct test_result *ta = &a[0]->blocks[i].tests[k], *tb = NULL;
			const struct kv *x = test_summary_get(ta, "tree"), *y = NULL;
			if (test_result_family(ta) != &family_kbuild)
				continue;
			for (int j = 0; x && !tb && j < b[0]->nblocks; j++)
				tb = run_block_find_test(&b[0]->blocks[j], ta->id);
			if (tb && (y = test_summary_get(tb, "tree"))) {
				char what[160];
				snprintf(what, sizeof what, "%s built", ta->id);
				compare_add_diff(c, what, x->text, y->text);
			}
		}
}

/* kernbench's and kcbench's reports of kernel builds (import_kernbench.c, import_kcbench.c) */
static const struct family_import imports[] = {
	{ "kernbench", import_is_kernbench, import_kernbench },
	{ "kcbench", import_is_kcbench, import_kcbench },
};

const struct family family_kbuild = {
	.name = "kbuild",
	.settings = &kbuild_settings,
	.rows = rows, .nrows = sizeof rows / sizeof rows[0],
	.groups = groups, .ngroups = sizeof groups / sizeof groups[0],
	.print = print,
	.compare = compare,
	.imports = imports, .nimports = sizeof imports / sizeof imports[0],
};
