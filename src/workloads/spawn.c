/* Process Creation: fork a child that exits at once, wait for it, per loop. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPAWN_CMD "__spawn"

static int spawn_loop(struct workload_ctx *ctx)
{
	uint64_t n = 0;

	while (!wl_stopped(ctx)) {
		pid_t pid = fork();
		if (pid < 0)
			return wl_fail(ctx, "fork failed after %llu processes: %s",
				       (unsigned long long)n, strerror(errno));
		if (pid == 0)
			_exit(0);
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
 * touched. A worker forked from the coordinator carries its heap, libsensors'
 * and libpfm4's state and the console: spawn scored ~25% below a small
 * program doing the same loop. UnixBench's spawn is such a small program, so
 * the worker first becomes one: a fresh exec of kbench (`__spawn FD COPY`)
 * that maps only its slot. Should the exec fail, the loop runs here.
 */
static int spawn_run(struct workload_ctx *ctx)
{
	if (ctx->self && ctx->shm_fd >= 0) {
		char fdbuf[16], copybuf[16];
		int flags = fcntl(ctx->shm_fd, F_GETFD);
		if (flags >= 0 && fcntl(ctx->shm_fd, F_SETFD, flags & ~FD_CLOEXEC) == 0) {
			snprintf(fdbuf, sizeof fdbuf, "%d", ctx->shm_fd);
			snprintf(copybuf, sizeof copybuf, "%d", ctx->copy);
			execl(ctx->self, ctx->self, SPAWN_CMD, fdbuf, copybuf, (char *)NULL);
		}
	}
	return spawn_loop(ctx);
}

const struct workload wl_spawn = { .name = "spawn", .run = spawn_run };

int spawn_main(int argc, char **argv)
{
	char err[200];
	struct workload_ctx ctx;

	if (argc != 3 || wl_attach(argv[1], argv[2], &ctx, err, sizeof err) < 0) {
		fprintf(stderr, "kbench: __spawn is internal to the spawn test (%s)\n",
			argc != 3 ? "usage: __spawn FD COPY" : err);
		return 2;
	}
	int rc = spawn_loop(&ctx);
	ctx.slot->t_end = wl_now();
	atomic_store(&ctx.slot->state, rc ? WORKER_FAILED : WORKER_DONE);
	_exit(rc ? 1 : 0);
}
