/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency histograms (timerlat, wakelat, interactive), a family: its test rows, and what it adds to the reports. */
#include "family.h"

#include "latency.h"
#include "report.h"
#include "run.h"
#include "tests.h"

static const struct test_def rows[] = {
	/* Points tests with latency histograms (latency.h): self-timed, their
	 * phases share a sample. Their floors are per point (latency_noise):
	 * a tail percentile moves far more between identical runs than a median. */
	/* its label in a run names the run's period (test_label) */
	{ .id = "timerlat", .label = "Timer wake-up latency (absolute)",
	  .short_label = "timerlat",
	  .about = "us late per timer wake-up (every 1 ms, or --period-us): SCHED_OTHER and FIFO, alone "
		   "and beside a burner",
	  .unit = "us", .category = "latency",
	  .workload = &wl_timerlat, .self_timed = true, .overrun = 1.05, .uncounted = true,
	  .collect = timerlat_collect, .point_noise = latency_noise,
	  .seconds = 6, .samples = 3, .quick_seconds = 2, .noise = { 0.10, 0.20 } },
	{ .id = "wakelat", .label = "Scheduler wake-up latency (futex)",
	  .short_label = "wakelat",
	  .about = "us from a futex wake to the worker running, 2 workers per CPU; requests/s",
	  .unit = "us", .category = "latency",
	  .workload = &wl_wakelat, .self_timed = true, .overrun = 1.05, .uncounted = true,
	  .collect = wakelat_collect, .point_noise = latency_noise,
	  .seconds = 4, .samples = 3, .quick_seconds = 1, .noise = { 0.10, 0.20 } },
	{ .id = "interactive", .label = "Interactive tasks under load",
	  .short_label = "interactive",
	  .about = "audio, video, desktop: us late and % deadlines met, alone and beside CPU, disk, memory loads",
	  .unit = "us", .category = "latency",
	  .workload = &wl_interactive, .self_timed = true, .overrun = 1.05, .uncounted = true,
	  .collect = interactive_collect, .point_noise = latency_noise,
	  .seconds = 12, .samples = 3, .quick_seconds = 3, .noise = { 0.10, 0.20 } },
};

static const char *const g_latency[] = { "timerlat", "wakelat", "interactive", NULL };
static const struct test_group groups[] = {
	{ "latency", "wake-up latency: timer, scheduler wake-up, interactive tasks under load", g_latency },
};
/* timerlat's label names its period ("Timer wake-up latency (500 us, absolute)"). */
static const char *label(const struct test_def *t, const char *params, char *buf, size_t len)
{
	struct lat_params lp;
	char err[200];
	if (t->collect != timerlat_collect ||
	    test_settings_fill(&lat_settings, params, false, &lp, err, sizeof err) < 0)
		return t->label;
	lat_timerlat_label(lp.period_us, buf, len);
	return buf;
}

/* Its results print in latency_print_tables, after the blocks (print_run); one
 * without histograms (an older file) by its headline points. */
static void print(FILE *f, const struct test_result *t, const struct run *r)
{
	(void)r;
	if (latency_is(t))
		return;
	report_points(f, t);
	fputc('\n', f);
}

const struct family family_latency = {
	.name = "latency",
	.settings = &lat_settings,
	.rows = rows, .nrows = sizeof rows / sizeof rows[0],
	.groups = groups, .ngroups = sizeof groups / sizeof groups[0],
	.label = label,
	.describe = lat_describe,
	.print = print,
	.print_run = latency_print_tables,
};
