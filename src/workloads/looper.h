/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's looper for kbench's shell and grep tests: run a command again and again, count the runs. */
#ifndef KBENCH_LOOPER_H
#define KBENCH_LOOPER_H

#include "workload.h"

/*
 * Runs `argv` (argv[0] looked up in PATH like execvp) in a fresh child per
 * loop, with cwd a private directory under ctx->tmpdir, stdin on /dev/null,
 * stdout appended to a file there, stderr kept for the error sentence, and
 * LANG/LC_ALL set to the shell tests' locale. A loop is counted when it
 * ended with status 0 before the stop flag was set; the loop in flight at
 * the stop is waited for and not counted. A non-zero status fails the
 * sample. `what` names the command in sentences and in the directory's
 * name. Returns 0 or -1 (slot->err set).
 */
int looper_run(struct workload_ctx *ctx, const char *what, char *const argv[]);

/* looper_run in kbench-exec, or in the worker itself when there are no
 * shared slots to hand over (the unit tests); looper_loop is the loop,
 * wherever it runs. */
int looper_loop(struct workload_ctx *ctx, const char *what, char *const argv[]);

/* The locale of every loop: en_US.utf8 as UnixBench forces it, else the
 * closest one this machine has (C.UTF-8, C). */
const char *looper_locale(void);

#endif
