/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Throughput as tasks grow, a family: its test row, and what it adds to the reports and the comparison. */
#include "family.h"

#include <stdio.h>
#include <string.h>

#include "report.h"
#include "scaling.h"
#include "run.h"
#include "tests.h"

static const struct test_def rows[] = {
	/* A points test (run.h): jobs/min of a fixed job mix at 1, 2, 4, ...
	 * tasks. A sample is one sweep of the steps, each task doing
	 * SCALING_DEFAULT_JOBS jobs (--jobs): its length is its work's, not
	 * .seconds. .seconds is what a default sweep takes here (18 to 32 s
	 * while other processes loaded this 2-CPU VM) and its allowance (a
	 * self-timed sample is taken for hung after twice it and a minute). */
	{ .id = "scaling", .label = "Throughput as tasks grow (job mix)",
	  .short_label = "scaling",
	  .about = "jobs/min of a fixed job mix by 1, 2, 4 ... 8x CPUs tasks: peak and crossover",
	  .unit = "jpm", .category = "scaling",
	  .workload = &wl_scaling, .needs_data = true, .self_timed = true, .overrun = 1.0,
	  .one_copy = true, .uncounted = true, .collect = scaling_collect,
	  .seconds = 30, .samples = 3, .quick_seconds = 30, .noise = { 0.050, 0.080 } },
};

static const char *const g_scaling[] = { "scaling", NULL };
static const struct test_group groups[] = {
	{ "scaling", "throughput as tasks grow: a job mix by 1, 2, 4 ... tasks (AIM7-style)",
	  g_scaling },
};
/* jobs/min where a column is narrow: its test's unit, jpm. */
static void describe(struct test_result *t)
{
	for (int i = 0; i < t->npoints; i++)
		if (!strcmp(t->points[i].unit, "jobs/min"))
			snprintf(t->points[i].unit_short, sizeof t->points[i].unit_short, "jpm");
}

/* Its table per task count, else (too few steps) its headline points. */
static void print(FILE *f, const struct test_result *t, const struct run *r)
{
	(void)r;
	if (!scaling_print_table(f, t))
		report_points(f, t);
	fputc('\n', f);
}

const struct family family_scaling = {
	.name = "scaling",
	.settings = &scaling_settings,
	.rows = rows, .nrows = sizeof rows / sizeof rows[0],
	.groups = groups, .ngroups = sizeof groups / sizeof groups[0],
	.describe = describe,
	.print = print,
	.compare = scaling_compare_footer,
};
