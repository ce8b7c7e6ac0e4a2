/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of commands, in the order help shows them: each command's entry (usage, help, own options, what it runs) is in its own file. */
#include "options.h"

#include <stddef.h>

#include "ui.h"

extern const struct opt_command cmd_run_entry, cmd_calibrate_entry, cmd_list_entry, cmd_sensors_entry,
	cmd_events_entry, cmd_runs_entry, cmd_show_entry, cmd_compare_entry, cmd_import_entry, cmd_export_entry,
	cmd_report_entry, cmd_plan_entry, cmd_boot_entry, cmd_noise_entry, cmd_delete_entry, cmd_help_entry, cmd_completion_entry;

static const struct opt_command *const commands[] = {
	&cmd_run_entry,
	&cmd_calibrate_entry,
	NULL, /* the run modes' own commands (kbench thermal), from their rows */
	&cmd_list_entry,
	&cmd_console_entry, /* ui/cmd_console.c */
	&cmd_replay_entry,  /* ui/cmd_replay.c */
	&cmd_sensors_entry,
	&cmd_events_entry,
	&cmd_runs_entry,
	&cmd_show_entry,
	&cmd_compare_entry,
	&cmd_import_entry,
	&cmd_export_entry,
	&cmd_report_entry,
	&cmd_plan_entry,
	&cmd_boot_entry,
	&cmd_noise_entry,
	&cmd_delete_entry,
	&cmd_help_entry,
	&cmd_completion_entry,
};

/* Before every other constructor (the option table is composed from the list in one): the
 * option table, a floor below, holds the pointer and never names this file. */
__attribute__((constructor(101))) static void commands_install(void)
{
	command_list = commands;
	command_list_count = sizeof commands / sizeof commands[0];
}
