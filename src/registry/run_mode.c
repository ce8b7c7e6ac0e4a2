/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of run modes: what each means to the readers of a run, and what a mode with a command of its own does (run.h). */
#include "run.h"

#include <string.h>

#include "thermal.h"

static const struct run_mode_info run_modes[RUN_MODE_COUNT] = {
	[RUN_MODE_UNSAID] = { .name = "", .runs_tag = "", .measured = true },
	[RUN_MODE_FULL] = { .name = "full", .runs_tag = "", .measured = true },
	[RUN_MODE_QUICK] = { .name = "quick", .runs_tag = " (quick)", .measured = true, .quick = true },
	[RUN_MODE_THERMAL] = { .name = "thermal", .runs_tag = " (thermal)", .measured = true,
			       .compare_rows = thermal_compare_rows, .command = "thermal", .cmd = &thermal_command,
			       .operands_why = "--test ID names its test", .test = THERMAL_TEST,
			       .defaults = thermal_defaults, .idle_baseline = true, .watch = "temp.cpu",
			       .print = thermal_print,
			       .label = "a thermal check", .sample_seconds = THERMAL_SAMPLE_SECONDS,
			       .idle_settled = thermal_idle_settled, .settled_mark = THERMAL_IDLE_STEADY_MARK,
			       .finish = thermal_finish, .report_title = "Thermal check" },
	[RUN_MODE_IMPORTED] = { .name = "imported", .runs_tag = " (imported)" },
};

const struct run_mode_info *run_mode_info(enum run_mode m)
{
	return &run_modes[(unsigned)m < RUN_MODE_COUNT ? m : RUN_MODE_UNSAID];
}

enum run_mode run_mode_parse(const char *name)
{
	for (int m = RUN_MODE_FULL; m < RUN_MODE_COUNT; m++)
		if (name && !strcmp(name, run_modes[m].name))
			return (enum run_mode)m;
	return RUN_MODE_UNSAID;
}

const struct run_mode_info *run_mode_of_command(const char *cmd)
{
	for (int m = RUN_MODE_FULL; m < RUN_MODE_COUNT; m++)
		if (run_modes[m].command && cmd && !strcmp(cmd, run_modes[m].command))
			return &run_modes[m];
	return NULL;
}
