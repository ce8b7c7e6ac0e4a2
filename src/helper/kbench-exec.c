/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kbench-exec: the small program kbench's fork and exec loops run in, as UnixBench runs them in its own small programs. */
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"
#include "workloads/looper.h"
#include "workloads/workloads.h"

/*
 * A worker that reaches a loop whose cost depends on the process it runs
 * in (fork copies the forking process, exec loads the program) execs this
 * program: `kbench-exec MODE FD COPY`. FD is the runner's memfd of worker
 * slots, COPY the worker's slot. The worker's pid does not change, so to
 * the runner it is the same worker; this program finishes the sample
 * (t_end, state) as the worker would have.
 *
 * It is linked dynamically against libc only and compiled with UnixBench's
 * flags (see the Makefile), so that it is the same kind of process as
 * UnixBench's execl, spawn, syscall and looper programs. It carries
 * nothing else.
 *
 * `kbench-exec looper FD COPY WHAT TMPDIR CMD [ARG...]` is the shell, grep
 * and C compiler tests' loop of CMD (src/workloads/looper.c).
 */

static int run_looper(char **argv, struct workload_ctx *ctx)
{
	/* The loops' commands must not inherit the slots. */
	int flags = fcntl(ctx->shm_fd, F_GETFD);
	if (flags >= 0)
		fcntl(ctx->shm_fd, F_SETFD, flags | FD_CLOEXEC);
	ctx->tmpdir = argv[5][0] ? argv[5] : NULL;
	return looper_loop(ctx, argv[4], argv + 6);
}

static const struct {
	const char *mode;
	int (*loop)(struct workload_ctx *ctx);
} modes[] = {
	{ "execl", execl_link },
	{ "spawn", spawn_loop },
	{ "sysexec", sysexec_loop },
};

int main(int argc, char **argv)
{
	char err[200];
	struct workload_ctx ctx;
	int (*loop)(struct workload_ctx *) = NULL;
	bool looper = argc >= 7 && strcmp(argv[1], "looper") == 0;

	/* `kbench-exec true`: the program throughput-as-tasks-grow's jobs fork
	 * and exec (src/families/scaling_loop.c), loaded and gone. */
	if (argc == 2 && strcmp(argv[1], "true") == 0)
		return 0;

	for (size_t i = 0; argc > 1 && i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(argv[1], modes[i].mode) == 0)
			loop = modes[i].loop;
	if (!looper && (argc != 4 || !loop)) {
		fprintf(stderr, "kbench-exec: internal to kbench's execl, spawn, sysexec, shell, grep and "
				"C compiler tests (usage: kbench-exec execl|spawn|sysexec FD COPY, or "
				"kbench-exec looper FD COPY WHAT TMPDIR CMD [ARG...])\n");
		return 2;
	}
	if (wl_attach(argv[2], argv[3], &ctx, err, sizeof err) < 0) {
		fprintf(stderr, "kbench-exec: %s\n", err);
		return 2;
	}
	int rc = looper ? run_looper(argv, &ctx) : loop(&ctx);
	ctx.slot->t_end = wl_now();
	ctx.slot->cpu_end = sched_getcpu();
	atomic_store(&ctx.slot->state, rc ? WORKER_FAILED : WORKER_DONE);
	return rc ? 1 : 0;
}
