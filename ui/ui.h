/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console's public face: main.c calls these and nothing else from ui/. */
#ifndef KBENCH_UI_H
#define KBENCH_UI_H

#include <stdbool.h>

/* `kbench` on a terminal, or `kbench console [options] [TEST|GROUP ...]`:
 * the interactive console. Returns the process exit code. */
int ui_main(int argc, char **argv);

/* `kbench replay RUN [--speed N] [--theme NAME]`: plays a stored run back
 * on the run screen, then shows its results. Returns the exit code. */
int ui_replay(int argc, char **argv);

/* True when arg is one of the console's own options (so `kbench --theme X`
 * opens the console rather than failing as an unknown command). */
bool ui_is_option(const char *arg);

#endif
