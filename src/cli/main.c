/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kbench's command line: dispatches to a command of the list, or opens the console on a terminal. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "ui.h"

int main(int argc, char **argv)
{
	if ((argc < 2 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) ||
	    (argc >= 2 && ui_is_option(argv[1])))
		return cmd_console_entry.exec(argc, argv);
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
	const struct opt_command *c = opts_command(cmd);
	if (c)
		return c->exec(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (try 'kbench --help')", cmd);
}
