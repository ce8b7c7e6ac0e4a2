/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The skeleton family: a whole family on the defaults, the recipe a new family starts from, built into kbench-skeleton and taken end to end by tests/system/family_skeleton.sh. */
#include "skeleton.h"

#include <stdatomic.h>
#include <stdio.h>

#include "family.h"
#include "run.h"
#include "tests.h"
#include "workload.h"

/* Required: the test rows (tests.h says every field; docs/HACKING.md "Adding a
 * test"). A points test has a collect; a self-timed one its overrun. */
static const struct test_def rows[] = {
	{ .id = "skeleton", .label = "Skeleton: getppid() per call",
	  .short_label = "skeleton",
	  .about = "ns per getppid() call, timed in batches of 1 to 256 calls (the recipe of a family)",
	  .unit = "ns", .category = "skeleton",
	  .workload = &wl_skeleton, .self_timed = true, .overrun = 1.1, .collect = skeleton_collect,
	  .seconds = 2, .samples = 3, .quick_seconds = 1, .noise = TEST_NOISE_UNMEASURED },
};

/* Not required: groups of its tests for the command line ("all" has them anyway). */
static const char *const g_skeleton[] = { "skeleton", NULL };
static const struct test_group groups[] = {
	{ "skeleton", "the skeleton family's test", g_skeleton },
};

/* Each copy's fastest ns per call at each batch size; the copies' mean is the
 * point ("ns 16": a curve point at x = 16 calls), the largest batch's also the
 * headline ("ns"), which the tables and the comparison's verdicts show. */
void skeleton_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		      const void *settings)
{
	(void)settings; /* a family with settings gets its struct, as the runner filled it */
	double sum[SKELETON_BATCHES] = { 0 }, x[SKELETON_BATCHES] = { 0 };
	int n[SKELETON_BATCHES] = { 0 };
	for (int c = 0; c < copies; c++) {
		int np = atomic_load_explicit(&slots[c].npoints, memory_order_acquire);
		for (int i = 0; i < np && i < SKELETON_BATCHES; i++)
			if (slots[c].points[i].series == SKELETON_NS) {
				x[i] = slots[c].points[i].x;
				sum[i] += slots[c].points[i].v;
				n[i]++;
			}
	}
	for (int i = 0; i < SKELETON_BATCHES && n[i]; i++) {
		char name[32];
		snprintf(name, sizeof name, "ns %.0f", x[i]);
		point_push(test_point(t, name, x[i], "calls", "ns", true, false), sum[i] / n[i]);
		if (i + 1 == SKELETON_BATCHES)
			point_push(test_point(t, "ns", x[i], "calls", "ns", true, true), sum[i] / n[i]);
	}
}

/* The family: what shared code knows of it (family.h). Only the name and the
 * rows are required; each verb left out is the default a points family gets:
 *   .settings      Not required: its options (src/base/settings.h), none here.
 *   .imports       Not required: foreign formats kbench import reads into it.
 *   .label         Not required: the test's label as the run's settings make it.
 *   .describe      Not required: typed fields of its results (run.h: a point's
 *                  statistic, a summary's role), after collect and after reading.
 *   .fmt_x         Not required: a point's x as a reader says it; default "16 calls".
 *   .print_block   Not required: what it prints of a block before its results.
 *   .print         Not required: default report_points, its headline points.
 *   .print_run     Not required: its tables over the whole run.
 *   .compare       Not required: its own differences and sentences in a comparison.
 *   .compare_print Not required: its own tables after kbench compare's.
 *   .html_rows     Not required: default html_rows_default, a row per headline point.
 *   .html_section  Not required: default, its curves and distributions are drawn.
 *   .html_css      Not required: its section's style.
 * On the console it has no live view of its own (ui/family_view.h, one line in
 * ui/family_views.c): the run screen counts its points as they come. */
const struct family family_skeleton = {
	.name = "skeleton",
	.rows = rows, .nrows = sizeof rows / sizeof rows[0],
	.groups = groups, .ngroups = sizeof groups / sizeof groups[0],
};
