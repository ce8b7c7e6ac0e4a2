/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pipe-based Context Switching: two processes pass a counter back and forth over two pipes. */
#include "workloads.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exit codes of the echoing child. */
enum { CHILD_EOF = 0, CHILD_SYNC_ERROR = 2, CHILD_IO_ERROR = 3 };

/* The child reads the parent's counter, checks it against its own, and
 * writes it back. EOF or EPIPE means the parent stopped: a normal end.
 * Every WL_PAIR_EVERY loops it notes its CPU before answering, so the
 * parent can tell whether the two shared a CPU (the run records it). */
static void context_child(const struct workload_ctx *ctx, int rfd, int wfd)
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
		if ((mine + 1) % WL_PAIR_EVERY == 0)
			wl_pair_mark(ctx);
		if (write(wfd, &mine, sizeof mine) != (ssize_t)sizeof mine)
			_exit(errno == EPIPE ? CHILD_EOF : CHILD_IO_ERROR);
		mine++;
	}
}

/* The k-th CPU this worker may run on, counting round its allowed set; -1 none. */
static int allowed_cpu(const cpu_set_t *allowed, int k)
{
	int n = CPU_COUNT(allowed);
	if (n < 1)
		return -1;
	k %= n;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, allowed) && k-- == 0)
			return c;
	return -1;
}

/* --pair-cpus one|two: the CPUs of copy c's two processes, parent and child
 * (the same one for `one`, two of their own for `two`), going round the CPUs
 * the worker may use; -1 both when the scheduler decides. 0, or -1 with why. */
static int pair_cpus(const struct workload_ctx *ctx, int cpu[2], char *why, size_t len)
{
	const struct rate_settings *rs = ctx->settings;
	cpu[0] = cpu[1] = -1;
	if (!rs || rs->pair_cpus == PAIR_ANY)
		return 0;
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
		snprintf(why, len, "cannot read the CPUs allowed: %s", strerror(errno));
		return -1;
	}
	if (rs->pair_cpus == PAIR_TWO && CPU_COUNT(&allowed) < 2) {
		snprintf(why, len, "--pair-cpus two needs two CPUs; this worker may use one");
		return -1;
	}
	for (int side = 0; side < 2; side++)
		cpu[side] = allowed_cpu(&allowed, rs->pair_cpus == PAIR_ONE ? ctx->copy : 2 * ctx->copy + side);
	return 0;
}

/* The calling process onto cpu (-1: left where it is). */
static int pin_to(int cpu, char *why, size_t len)
{
	if (cpu < 0)
		return 0;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof one, &one) == 0)
		return 0;
	snprintf(why, len, "cannot pin to CPU %d: %s", cpu, strerror(errno));
	return -1;
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
	/* The worker goes to the child's CPU before the fork, so the child
	 * starts where it is to stay, and then to its own. */
	char why[160];
	int cpu[2];
	if (pair_cpus(ctx, cpu, why, sizeof why) < 0 || pin_to(cpu[1], why, sizeof why) < 0) {
		close(to_child[0]);
		close(to_child[1]);
		close(to_parent[0]);
		close(to_parent[1]);
		return wl_fail(ctx, "%s", why);
	}
	/* Like UnixBench 6: a side whose partner is gone sees EPIPE, not a signal. */
	sigaction(SIGPIPE, &ign, &old_pipe);

	pid_t worker = getpid(), pid = fork();
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
		wl_die_with(worker, SIGKILL);
		close(to_child[1]);
		close(to_parent[0]);
		context_child(ctx, to_child[0], to_parent[1]);
	}
	close(to_child[0]);
	close(to_parent[1]);
	if (pin_to(cpu[0], why, sizeof why) < 0) {
		rc = wl_fail(ctx, "%s", why);
		close(to_child[1]);
		close(to_parent[0]);
		waitpid(pid, NULL, 0);
		sigaction(SIGPIPE, &old_pipe, NULL);
		return rc;
	}

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
		if (n % WL_PAIR_EVERY == 0)
			wl_pair_check(ctx);
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
