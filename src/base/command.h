/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running another program from PATH and reading what it prints: the boot loader's tools, systemctl, systemd-analyze. */
#ifndef KBENCH_COMMAND_H
#define KBENCH_COMMAND_H

#include <stddef.h>

/* Runs argv (argv[0] looked up in PATH) with stdin from /dev/null, its stdout
 * and stderr together into *out (malloc'd, NUL-ended, at most 1 MiB kept; NULL
 * out: discarded), for at most timeout seconds (then killed). Returns its exit
 * status (0..255), or -1 with err filled: not found, not started, killed by
 * a signal, or out of time. */
int command_run(const char *const argv[], char **out, int timeout, char *err, size_t errlen);

#endif
