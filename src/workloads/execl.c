/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Execl Throughput: a small program re-executes itself until the stop flag is set. */
#include "workloads.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/*
 * UnixBench's execl is a ~20 KB dynamically linked program that execs
 * itself with its state in argv. An exec costs what loading the program
 * costs (its mappings, the dynamic loader, libc's start-up), so kbench
 * execs the same kind of program: kbench-exec, built like UnixBench's
 * programs. Its state is the worker's slot in the runner's memfd, which
 * survives exec, so each link is `kbench-exec execl FD COPY`: map the slot,
 * count one exec, and exec the next link, or, once stopped, return to
 * kbench-exec's main, which finishes the sample for the runner. The
 * worker's pid, process group and death signal stay the same along the
 * chain, so the runner sees one worker.
 */

static int execl_run(struct workload_ctx *ctx)
{
	if (ctx->shm_fd < 0)
		return wl_fail(ctx, "execl needs the runner's shared slots: it cannot run in-process");
	wl_exec_helper(ctx, "execl");
	return -1; /* the sentence is in the slot */
}

const struct workload wl_execl = { .name = "execl", .run = execl_run };

int execl_link(struct workload_ctx *ctx)
{
	char fdbuf[16], copybuf[16];

	/* Only this process writes the count, so load + store is exact. */
	wl_publish(ctx, atomic_load_explicit(&ctx->slot->count, memory_order_relaxed) + 1);
	if (wl_stopped(ctx))
		return 0;
	/* The name this link was executed by, passed down the chain by the
	 * kernel: no system call to find it. */
	const char *self = (const char *)getauxval(AT_EXECFN);
	if (!self || !*self)
		self = "/proc/self/exe";
	snprintf(fdbuf, sizeof fdbuf, "%d", ctx->shm_fd);
	snprintf(copybuf, sizeof copybuf, "%d", ctx->copy);
	execl(self, self, "execl", fdbuf, copybuf, (char *)NULL);
	return wl_fail(ctx, "cannot execute %s: %s", self, strerror(errno));
}
