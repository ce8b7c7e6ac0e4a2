/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds under load (contest-style), a family: its test row, and what it adds to the reports and the comparison. */
#include "family_buildload.h"

#include <string.h>

#include "buildload.h"
#include "report.h"
#include "run.h"
#include "tests.h"

static const struct test_def rows[] = {
	/* A points test: contest's model. A sample is one build of the full
	 * tree beside each load (the first also generates the tree and builds
	 * it once untimed): the sample's length follows the loads asked
	 * (buildload_sample_seconds). .seconds and .quick_seconds only tell
	 * the workload which set of loads a run without --ia-loads gets (every
	 * load, or the quick four). Three builds per load (contest's runs),
	 * one quick. The floor is kbuild's widened: a load moves a build more. */
	{ .id = "buildload", .label = "Build under load (contest-style)",
	  .short_label = "buildload",
	  .about = "s per build of the generated tree beside each load: no load, pipes, tar, I/O, memory",
	  .unit = "s", .category = "build",
	  .workload = &wl_buildload, .self_timed = true, .overrun = 1.2, .one_copy = true,
	  .collect = buildload_collect, .sample_seconds = buildload_sample_seconds,
	  .point_noise = buildload_noise,
	  .seconds = 600, .samples = 3, .quick_seconds = 300, .quick_samples = 1,
	  .noise = { 0.040, 0.060 } },
};

/* contest's blocks, a block per load; else its headline points */
static void print(FILE *f, const struct test_result *t, const struct run *r)
{
	if (!buildload_print_test(f, t, r->meta.name))
		report_points(f, t);
	fputc('\n', f);
}

/* A load that refused to run ("refused io_load": its file would not fit) is a
 * part refused; what a load could not do as asked, the test's note. */
static void describe(struct test_result *t)
{
	for (int i = 0; i < t->nsummary; i++)
		if (!strncmp(t->summary[i].key, "refused ", 8))
			t->summary[i].role = KV_REFUSED;
		else if (!strcmp(t->summary[i].key, "note"))
			t->summary[i].role = KV_NOTE;
}

/* contest's tables, one run per kernel (import_contest.c) */
static const struct family_import imports[] = {
	{ "contest", import_is_contest, import_contest },
};

const struct family family_buildload = {
	.name = "buildload",
	.settings = &buildload_settings,
	.rows = rows, .nrows = sizeof rows / sizeof rows[0],
	.describe = describe,
	.print = print,
	.compare_print = buildload_print_compare, /* contest's blocks, A's row then B's */
	.html_rows = family_buildload_html_rows,
	.html_section = family_buildload_html_section,
	.html_css = family_buildload_css,
	.imports = imports, .nimports = sizeof imports / sizeof imports[0],
};
