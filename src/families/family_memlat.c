/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory latency, a family: its test row, and what it adds to the reports and the comparison. */
#include "family.h"

#include <stdio.h>
#include <string.h>

#include "memlat.h"
#include "report.h"
#include "run.h"
#include "tests.h"

static const struct test_def rows[] = {
	/* A points test (run.h): ns per load per working-set size, not a rate.
	 * A sample is one sweep of every size: .seconds is its budget, spread
	 * over the sizes, and the sizes past the last cache add their fixed
	 * cost (a 6 s budget makes a sweep of about 12 s here: .overrun). Its floor is every
	 * point's: 3% left 2 of 18 headline rows of an A/A pair on this VM
	 * (other processes sharing its L3) outside their intervals, 4% none
	 * (an A/A pair of default runs, 2026-12-01). */
	{ .id = "memlat", .label = "Memory latency (dependent loads)",
	  .short_label = "memlat",
	  .about = "ns per load, 512 B to 4x the last cache: L1, L2, L3, main memory, CPU clock",
	  .unit = "ns", .category = "memory",
	  .workload = &wl_memlat, .self_timed = true, .overrun = 2.0,
	  .collect = memlat_collect, .sample_seconds = memlat_sample_seconds,
	  .seconds = MEMLAT_SWEEP_BUDGET, .samples = 3, .quick_seconds = 2, .noise = { 0.040, 0.060 } },
};

static const char *const g_memory[] = { "memlat", NULL };
static const struct test_group groups[] = {
	{ "memory", "memory latency: dependent loads from L1 to main memory", g_memory },
};
/* Its curve points' x is a working-set size in bytes: "256 KiB". */
static bool fmt_x(char *buf, size_t size, const struct point *p)
{
	if (strcmp(p->xunit, "B"))
		return false;
	memlat_fmt_size(buf, size, p->x);
	return true;
}

/* Each cache's size it read ("cache.L2") marks its place on the curve ("L2"). */
static void describe(struct test_result *t)
{
	for (int i = 0; i < t->nsummary; i++) {
		struct kv *k = &t->summary[i];
		int level;
		if (sscanf(k->key, "cache.L%d", &level) == 1 && k->has_value) {
			k->role = KV_MARK;
			snprintf(k->mark, sizeof k->mark, "L%d", level);
		}
	}
}

/* Its headline points, then what they say of the caches. */
static void print(FILE *f, const struct test_result *t, const struct run *r)
{
	(void)r;
	report_points(f, t);
	memlat_print_notes(f, t);
	fputc('\n', f);
}

const struct family family_memlat = {
	.name = "memlat",
	.settings = &memlat_settings,
	.rows = rows, .nrows = sizeof rows / sizeof rows[0],
	.groups = groups, .ngroups = sizeof groups / sizeof groups[0],
	.describe = describe,
	.fmt_x = fmt_x,
	.print = print,
	.print_run = memlat_print_table, /* lmbench's table, the run's memlat results */
};
