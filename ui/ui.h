/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console's public face: the command line reaches these and nothing else of ui/. */
#ifndef KBENCH_UI_H
#define KBENCH_UI_H

#include <stdbool.h>

/* The console's and the replay's own options, where their rows land (src/cli/options_table.c);
 * the run options land in the console's run request. */
struct console_opts {
	const char *theme; /* --theme; NULL: default, or mono without colours */
	double speed;      /* replay --speed */
};

/* `kbench console` (`kbench` alone on a terminal) and `kbench replay RUN`: their entries
 * (ui/cmd_console.c, ui/cmd_replay.c), in src/cli/command_list.c. */
struct opt_command;
extern const struct opt_command cmd_console_entry, cmd_replay_entry;

/* True when arg is one of the console's own options (so `kbench --theme X`
 * opens the console rather than failing as an unknown command). */
bool ui_is_option(const char *arg);

#endif
