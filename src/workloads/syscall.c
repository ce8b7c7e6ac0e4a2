/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System Call Overhead: cheap system calls in a loop; arg mix|close|getpid|exec (exec = sysexec). */
#include "workloads.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum syscall_mode { MODE_MIX, MODE_CLOSE, MODE_GETPID, MODE_EXEC };

static int syscall_parse(const char *arg, enum syscall_mode *mode)
{
	static const struct {
		const char *name;
		enum syscall_mode mode;
	} modes[] = {
		{ "mix", MODE_MIX }, { "close", MODE_CLOSE },
		{ "getpid", MODE_GETPID }, { "exec", MODE_EXEC },
	};
	if (!arg || !*arg)
		arg = "mix";
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(arg, modes[i].name) == 0) {
			*mode = modes[i].mode;
			return 0;
		}
	return -1;
}

/* fork + exec /bin/true + wait; returns 0 or a wait status / -errno. */
static int syscall_exec_once(struct workload_ctx *ctx)
{
	pid_t pid = fork();
	if (pid < 0)
		return wl_fail(ctx, "fork failed: %s", strerror(errno));
	if (pid == 0) {
		execl("/bin/true", "/bin/true", (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return wl_fail(ctx, "waiting for /bin/true failed: %s", strerror(errno));
	/* A missing /bin/true would otherwise make a fast, meaningless score. */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return wl_fail(ctx, "/bin/true ended with wait status %#x (is it installed?)",
			       (unsigned)status);
	return 0;
}

int sysexec_loop(struct workload_ctx *ctx)
{
	uint64_t n = 0;

	while (!wl_stopped(ctx)) {
		if (syscall_exec_once(ctx) < 0)
			return -1;
		wl_publish(ctx, ++n);
	}
	return 0;
}

static int syscall_run(struct workload_ctx *ctx)
{
	enum syscall_mode mode;
	uint64_t n = 0;
	int fd[2];

	if (syscall_parse(ctx->arg, &mode) < 0)
		return wl_fail(ctx, "unknown syscall mode '%s' (mix, close, getpid or exec)",
			       ctx->arg);

	/* Forks from a small program, as UnixBench's syscall does (see spawn.c). */
	if (mode == MODE_EXEC) {
		int rc = wl_exec_helper(ctx, "sysexec");
		return rc > 0 ? sysexec_loop(ctx) : rc;
	}

	/* UnixBench 6 duplicates a private pipe's read end, not fd 0, so that
	 * parallel copies do not share one file table entry. */
	if (pipe(fd) < 0)
		return wl_fail(ctx, "cannot create a pipe: %s", strerror(errno));
	close(fd[1]);
	int f = fd[0];
	mode_t old_mask = umask(022);

	switch (mode) {
	case MODE_MIX:
		while (!wl_stopped(ctx)) {
			close(dup(f));
			syscall(SYS_getpid); /* raw: glibc might cache getpid() */
			getuid();
			umask(022);
			wl_publish(ctx, ++n);
		}
		break;
	case MODE_CLOSE:
		while (!wl_stopped(ctx)) {
			close(dup(f));
			wl_publish(ctx, ++n);
		}
		break;
	case MODE_GETPID:
		while (!wl_stopped(ctx)) {
			syscall(SYS_getpid);
			wl_publish(ctx, ++n);
		}
		break;
	case MODE_EXEC:
		break;
	}
	umask(old_mask);
	close(f);
	return 0;
}

const struct workload wl_syscall = { .name = "syscall", .run = syscall_run };
