/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of commands, in the order help shows them: each command's entry (usage, help, own options, what it runs) is in its own file. */
#include "options.h"

#include <stddef.h>

#include "ui.h"

extern const struct opt_command cmd_run_entry, cmd_calibrate_entry, cmd_list_entry, cmd_sensors_entry,
	cmd_events_entry, cmd_runs_entry, cmd_show_entry, cmd_compare_entry, cmd_import_entry, cmd_export_entry,
	cmd_report_entry, cmd_plan_entry, cmd_boot_entry, cmd_noise_entry, cmd_delete_entry, cmd_help_entry, cmd_completion_entry;

const struct opt_command *const command_list[] = {
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
const size_t command_list_count = sizeof command_list / sizeof command_list[0];
