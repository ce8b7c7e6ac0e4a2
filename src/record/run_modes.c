/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run modes every run file may name, and finding a mode by the name a file stores or the command that makes it (run.h). */
#include "run.h"

#include <stddef.h>
#include <string.h>

const struct run_mode_info run_mode_unsaid = { .name = "", .runs_tag = "", .measured = true };
const struct run_mode_info run_mode_full = { .name = "full", .runs_tag = "", .measured = true };
const struct run_mode_info run_mode_quick = { .name = "quick", .runs_tag = " (quick)", .measured = true,
					      .quick = true };
const struct run_mode_info run_mode_imported = { .name = "imported", .runs_tag = " (imported)" };

static const struct run_mode_info *const own_modes[] = { &run_mode_full, &run_mode_quick, &run_mode_imported, NULL };
const struct run_mode_info *const *run_mode_list = own_modes;

const struct run_mode_info *run_mode_info(const struct run_mode_info *m)
{
	return m ? m : &run_mode_unsaid;
}

const struct run_mode_info *run_mode_parse(const char *name)
{
	for (const struct run_mode_info *const *m = run_mode_list; name && *m; m++)
		if (!strcmp(name, (*m)->name))
			return *m;
	return &run_mode_unsaid;
}

const struct run_mode_info *run_mode_of_command(const char *cmd)
{
	for (const struct run_mode_info *const *m = run_mode_list; cmd && *m; m++)
		if ((*m)->command && !strcmp(cmd, (*m)->command))
			return *m;
	return NULL;
}
