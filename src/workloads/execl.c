/* Execl Throughput: the kbench binary re-executes itself until the stop flag is set. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/*
 * UnixBench's execl binary execs itself with its state in argv. kbench's
 * state is the worker's slot in the runner's memfd, which survives exec, so
 * each link is `kbench __execl <memfd> <copy>`: map the slot, count one exec,
 * and exec the next link, or, once stopped, finish the sample for the runner
 * (t_end, state) and exit. The worker's pid, process group and death signal
 * stay the same along the chain, so the runner sees one worker.
 */

#define EXECL_CMD "__execl"

static void execl_args(char *fdbuf, size_t fdlen, char *copybuf, size_t copylen, int fd, int copy)
{
	snprintf(fdbuf, fdlen, "%d", fd);
	snprintf(copybuf, copylen, "%d", copy);
}

static int execl_run(struct workload_ctx *ctx)
{
	char fdbuf[16], copybuf[16];

	if (!ctx->self)
		return wl_fail(ctx, "execl needs the path of the kbench binary");
	/* The chain reaches the slots only through this descriptor. */
	int flags = fcntl(ctx->shm_fd, F_GETFD);
	if (flags < 0 || fcntl(ctx->shm_fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
		return wl_fail(ctx, "execl: the shared slots are not open (fd %d): %s",
			       ctx->shm_fd, strerror(errno));
	execl_args(fdbuf, sizeof fdbuf, copybuf, sizeof copybuf, ctx->shm_fd, ctx->copy);
	execl(ctx->self, ctx->self, EXECL_CMD, fdbuf, copybuf, (char *)NULL);
	return wl_fail(ctx, "cannot execute %s: %s", ctx->self, strerror(errno));
}

const struct workload wl_execl = { .name = "execl", .run = execl_run };

int execl_chain_main(int argc, char **argv)
{
	char fdbuf[16], copybuf[16], err[200];
	struct workload_ctx ctx;

	if (argc != 3 || wl_attach(argv[1], argv[2], &ctx, err, sizeof err) < 0) {
		fprintf(stderr, "kbench: __execl is internal to the execl test (%s)\n",
			argc != 3 ? "usage: __execl FD COPY" : err);
		return 2;
	}
	struct worker_slot *slot = ctx.slot;
	int fd = ctx.shm_fd, copy = ctx.copy;

	/* Only this process writes the count, so load + store is exact. */
	wl_publish(&ctx, atomic_load_explicit(&slot->count, memory_order_relaxed) + 1);
	if (!wl_stopped(&ctx)) {
		/* The name this link was executed by: the runner's ctx->self,
		 * passed down the chain without a system call. */
		const char *self = (const char *)getauxval(AT_EXECFN);
		if (!self || !*self)
			self = "/proc/self/exe";
		execl_args(fdbuf, sizeof fdbuf, copybuf, sizeof copybuf, fd, copy);
		execl(self, self, EXECL_CMD, fdbuf, copybuf, (char *)NULL);
		wl_fail(&ctx, "cannot execute %s: %s", self, strerror(errno));
		slot->t_end = wl_now();
		atomic_store(&slot->state, WORKER_FAILED);
		_exit(1);
	}
	slot->t_end = wl_now();
	atomic_store(&slot->state, WORKER_DONE);
	_exit(0);
}
