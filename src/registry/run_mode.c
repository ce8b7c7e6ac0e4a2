/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of run modes: what each means to the readers of a run, and what a mode with a command of its own does (run.h). */
#include "run.h"

#include <string.h>

/* The modes every run file may name; a mode with more to it (a command, a
 * timed run, rows of its own in a comparison) is a row its own files define,
 * declared here by its name alone, as family_list.c declares the families. */
static const struct run_mode_info mode_unsaid = { .name = "", .runs_tag = "", .measured = true };
static const struct run_mode_info mode_full = { .name = "full", .runs_tag = "", .measured = true };
static const struct run_mode_info mode_quick = { .name = "quick", .runs_tag = " (quick)", .measured = true,
						 .quick = true };
static const struct run_mode_info mode_imported = { .name = "imported", .runs_tag = " (imported)" };
extern const struct run_mode_info thermal_mode; /* src/families/thermal_run.c: kbench thermal */

static const struct run_mode_info *const run_modes[RUN_MODE_COUNT] = {
	[RUN_MODE_UNSAID] = &mode_unsaid,
	[RUN_MODE_FULL] = &mode_full,
	[RUN_MODE_QUICK] = &mode_quick,
	[RUN_MODE_THERMAL] = &thermal_mode,
	[RUN_MODE_IMPORTED] = &mode_imported,
};

const struct run_mode_info *run_mode_info(enum run_mode m)
{
	return run_modes[(unsigned)m < RUN_MODE_COUNT ? m : RUN_MODE_UNSAID];
}

enum run_mode run_mode_parse(const char *name)
{
	for (int m = RUN_MODE_FULL; m < RUN_MODE_COUNT; m++)
		if (name && !strcmp(name, run_modes[m]->name))
			return (enum run_mode)m;
	return RUN_MODE_UNSAID;
}

const struct run_mode_info *run_mode_of_command(const char *cmd)
{
	for (int m = RUN_MODE_FULL; m < RUN_MODE_COUNT; m++)
		if (run_modes[m]->command && cmd && !strcmp(cmd, run_modes[m]->command))
			return run_modes[m];
	return NULL;
}
