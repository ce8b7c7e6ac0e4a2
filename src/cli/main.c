/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kbench's command line: dispatches to a command, or opens the console on a terminal. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "run.h"
#include "ui.h"

/* What each command runs; its usage, help and options are rows in src/cli/options_table.c. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "run", cmd_run },	    { "calibrate", cmd_calibrate }, { "list", cmd_list },
	{ "console", ui_main },	    { "replay", ui_replay },	    { "sensors", cmd_sensors },
	{ "events", cmd_events },   { "runs", cmd_runs },	    { "show", cmd_show },
	{ "compare", cmd_compare }, { "import", cmd_import },	    { "export", cmd_export },
	{ "noise", cmd_noise },	    { "delete", cmd_delete },	    { "help", cmd_help },
	{ "completion", cmd_completion }, { "report", cmd_report },
};

int main(int argc, char **argv)
{
	if ((argc < 2 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) ||
	    (argc >= 2 && ui_is_option(argv[1])))
		return ui_main(argc, argv);
	if (argc < 2) {
		help_print_main(stdout);
		return 0;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		help_print_main(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("kbench %s\n", KBENCH_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, cmd))
			return commands[i].fn(argc - 1, argv + 1);
	if (run_mode_of_command(cmd))
		return cmd_mode(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (try 'kbench --help')", cmd);
}
