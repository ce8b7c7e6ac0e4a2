/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pipe-based Context Switching: two processes pass a counter back and forth over two pipes. */
#include "workloads.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exit codes of the echoing child. */
enum { CHILD_EOF = 0, CHILD_SYNC_ERROR = 2, CHILD_IO_ERROR = 3 };

/* The child reads the parent's counter, checks it against its own, and
 * writes it back. EOF or EPIPE means the parent stopped: a normal end. */
static void context_child(int rfd, int wfd)
{
	uint64_t mine = 0, got;

	for (;;) {
		ssize_t r = read(rfd, &got, sizeof got);
		if (r == 0)
			_exit(CHILD_EOF);
		if (r != (ssize_t)sizeof got)
			_exit(r < 0 && errno == EINTR ? CHILD_EOF : CHILD_IO_ERROR);
		if (got != mine)
			_exit(CHILD_SYNC_ERROR);
		if (write(wfd, &mine, sizeof mine) != (ssize_t)sizeof mine)
			_exit(errno == EPIPE ? CHILD_EOF : CHILD_IO_ERROR);
		mine++;
	}
}

static int context_run(struct workload_ctx *ctx)
{
	int to_child[2], to_parent[2];
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	uint64_t n = 0, got;
	int rc = 0;

	if (pipe(to_child) < 0)
		return wl_fail(ctx, "cannot create a pipe: %s", strerror(errno));
	if (pipe(to_parent) < 0) {
		close(to_child[0]);
		close(to_child[1]);
		return wl_fail(ctx, "cannot create a pipe: %s", strerror(errno));
	}
	/* Like UnixBench 6: a side whose partner is gone sees EPIPE, not a signal. */
	sigaction(SIGPIPE, &ign, &old_pipe);

	pid_t pid = fork();
	if (pid < 0) {
		rc = wl_fail(ctx, "fork failed: %s", strerror(errno));
		close(to_child[0]);
		close(to_child[1]);
		close(to_parent[0]);
		close(to_parent[1]);
		sigaction(SIGPIPE, &old_pipe, NULL);
		return rc;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(to_child[1]);
		close(to_parent[0]);
		context_child(to_child[0], to_parent[1]);
	}
	close(to_child[0]);
	close(to_parent[1]);

	while (!wl_stopped(ctx)) {
		if (write(to_child[1], &n, sizeof n) != (ssize_t)sizeof n) {
			rc = wl_fail(ctx, "writing to the partner process failed: %s",
				     strerror(errno));
			break;
		}
		ssize_t r = read(to_parent[0], &got, sizeof got);
		if (r != (ssize_t)sizeof got) {
			rc = wl_fail(ctx, "reading from the partner process failed: %s",
				     r < 0 ? strerror(errno) : "short read or end of file");
			break;
		}
		if (got != n) {
			rc = wl_fail(ctx, "sync error: sent %llu, got back %llu",
				     (unsigned long long)n, (unsigned long long)got);
			break;
		}
		wl_publish(ctx, ++n);
	}

	/* Closing our ends is the child's signal to leave (EOF or EPIPE). */
	close(to_child[1]);
	close(to_parent[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 0;
			break;
		}
	}
	sigaction(SIGPIPE, &old_pipe, NULL);
	if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == CHILD_SYNC_ERROR)
		rc = wl_fail(ctx, "sync error: the partner process got a counter out of order");
	else if (rc == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_EOF))
		rc = wl_fail(ctx, "the partner process ended with wait status %#x",
			     (unsigned)status);
	return rc;
}

const struct workload wl_context = { .name = "context", .run = context_run };
