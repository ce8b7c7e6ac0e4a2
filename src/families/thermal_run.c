/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal check as a run mode with a command of its own (kbench thermal): the mode's row, its usage, option rows and defaults (the row is listed in src/registry/run_mode.c). */
#include "thermal_int.h"

#include <stddef.h>
#include <stdio.h>

#include "run.h"
#include "runner.h"
#include "tests.h"

void thermal_defaults(struct runner_opts *o, int ncpus)
{
	o->mode = &thermal_mode;
	if (o->timed_seconds <= 0)
		o->timed_seconds = THERMAL_MINUTES * 60;
	if (o->idle < 0)
		o->idle = THERMAL_IDLE_SECONDS;
	if (o->ncopies == 0)
		o->copies[o->ncopies++] = ncpus;
}

/* A thermal check follows a rate sample by sample: a points test (a curve per
 * sample, memlat's taking seconds) has none to follow. */
int thermal_check_test(const char *opt, const char *arg, char *err, size_t errlen)
{
	const struct test_def *t = test_find(arg);
	if (!t) {
		snprintf(err, errlen, "%s: unknown test '%s' (try 'kbench list')", opt, arg);
		return -1;
	}
	if (t->collect) {
		snprintf(err, errlen,
			 "%s: %s gives a curve of points, not a rate a thermal check can follow sample by "
			 "sample (try dhry2reg or whetstone-double)",
			 opt, arg);
		return -1;
	}
	return 0;
}

/* kbench thermal's options, each saying where it lands in the run's options; --minutes and --idle
 * start the console's thermal preset too. */
static const struct run_mode_option thermal_options[] = {
	{ .name = "minutes", .arg = "M", .what = "a number of minutes",
	  .min = 0.05, .max = 1440, .def = THERMAL_DEF(THERMAL_MINUTES),
	  .help = "thermal check: minutes of load (default 10); the console: the thermal preset",
	  .console = true, .value = RMV_NUMBER, .off = offsetof(struct runner_opts, timed_seconds), .scale = 60 },
	{ .name = "test", .arg = "ID", .what = "a test id", .def = THERMAL_TEST,
	  .help = "the test whose copies load the CPU (default dhry2reg; whetstone-double)",
	  .check = thermal_check_test, .value = RMV_TEST },
	{ .name = "idle", .arg = "S", .what = "seconds",
	  .min = 0, .max = 3600, .def = THERMAL_DEF(THERMAL_IDLE_SECONDS),
	  .help = "thermal check: the idle baseline first, at most S s: it ends once the temperature is steady (default 30; 0 = none)",
	  .console = true, .value = RMV_NUMBER, .off = offsetof(struct runner_opts, idle) },
	{ .name = "copies", .short_name = 'c', .arg = "N", .what = "a number of copies",
	  .min = 1, .max = RUNNER_MAX_COPIES,
	  .help = "parallel copies (default: one per CPU)", .value = RMV_COPIES },
	{ .name = NULL },
};

static const struct run_mode_command thermal_command = {
	.args = "[--minutes M] [options]",
	.about = "sustained load: does the score fall as the CPU heats, and why",
	.text = "Runs N copies (default: one per CPU) of one CPU-bound test (default dhry2reg) in\n"
		"back-to-back samples of about 2 s for M minutes, after an idle baseline of the\n"
		"sensors, and says whether the score fell, when, by how much, and whether the\n"
		"temperature, clock and throttle counters say heat did it. Stored as a run (mode\n"
		"thermal): 'kbench show' prints its table, 'kbench compare' two such runs.",
	.after = "The samples are the index test's own measurement (same workers, same counting).",
	.options = thermal_options,
};

/* What the thermal mode is to the readers of a run and to the runner (run.h). */
const struct run_mode_info thermal_mode = {
	.name = "thermal", .runs_tag = " (thermal)", .measured = true,
	.compare_rows = thermal_compare_rows, .command = "thermal", .cmd = &thermal_command,
	.operands_why = "--test ID names its test", .test = THERMAL_TEST,
	.defaults = thermal_defaults, .idle_baseline = true, .watch = "temp.cpu", .print = thermal_print,
	.label = "a thermal check", .sample_seconds = THERMAL_SAMPLE_SECONDS,
	.idle_settled = thermal_idle_settled, .settled_mark = THERMAL_IDLE_STEADY_MARK,
	.finish = thermal_finish, .report_title = "Thermal check",
};
