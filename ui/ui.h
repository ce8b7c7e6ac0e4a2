/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console's public face: the program (src/cli/main.c, src/cli/command_list.c) reaches these and nothing else of ui/. */
#ifndef KBENCH_UI_H
#define KBENCH_UI_H

#include <stdbool.h>

/* `kbench console` (`kbench` alone on a terminal) and `kbench replay RUN`: their entries
 * (ui/cmd_console.c, ui/cmd_replay.c), in the list of commands. */
struct opt_command;
extern const struct opt_command cmd_console_entry, cmd_replay_entry;

/* True when arg is one of the console's own options (so `kbench --theme X`
 * opens the console rather than failing as an unknown command). */
bool ui_is_option(const char *arg);

#endif
