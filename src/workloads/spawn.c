/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Process Creation: fork a child that exits at once, wait for it, per loop. */
#include "workloads.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int spawn_loop(struct workload_ctx *ctx)
{
	uint64_t n = 0;

	while (!wl_stopped(ctx)) {
		pid_t pid = fork();
		if (pid < 0)
			return wl_fail(ctx, "fork failed after %llu processes: %s",
				       (unsigned long long)n, strerror(errno));
		/* exit, not _exit, as UnixBench's child: it runs libc's exit
		 * handlers, part of what a process's end costs. */
		if (pid == 0)
			exit(0);
		int status;
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR)
				return wl_fail(ctx, "waiting for a child failed: %s", strerror(errno));
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return wl_fail(ctx, "a child ended with wait status %#x instead of exit 0",
				       (unsigned)status);
		wl_publish(ctx, ++n);
	}
	return 0;
}

/*
 * The cost of fork grows with what the forking process has mapped and
 * touched. UnixBench's spawn is a small, dynamically linked program; a
 * worker forked from the coordinator carries its heap, libsensors' and
 * libpfm4's state and the console, and a fresh exec of the static kbench
 * maps no shared library: either one scores differently from UnixBench. So
 * the loop runs in kbench-exec, built the way UnixBench builds spawn.
 */
static int spawn_run(struct workload_ctx *ctx)
{
	int rc = wl_exec_helper(ctx, "spawn");
	return rc > 0 ? spawn_loop(ctx) : rc;
}

const struct workload wl_spawn = { .name = "spawn", .run = spawn_run };
