/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs a program with a time limit and collects its output: fork, exec from PATH, poll, reap. */
#include "command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COMMAND_OUT_MAX (1 << 20)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int command_run(const char *const argv[], char **out, int timeout, char *err, size_t errlen)
{
	if (out)
		*out = NULL;
	int fd[2], ex[2];
	/* ex: closed on a successful exec, else carries exec's errno */
	if (pipe2(fd, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "%s: cannot make a pipe: %s", argv[0], strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "%s: cannot start: %s", argv[0], strerror(errno));
		close(fd[0]), close(fd[1]), close(ex[0]), close(ex[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		int e = errno;
		ssize_t w = write(ex[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	close(fd[1]);
	close(ex[1]);
	int exec_errno = 0;
	ssize_t got = read(ex[0], &exec_errno, sizeof exec_errno);
	close(ex[0]);
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		abort();
	double deadline = now() + timeout;
	int late = 0;
	for (;;) {
		int ms = (int)((deadline - now()) * 1000);
		if (ms <= 0) {
			late = 1;
			break;
		}
		struct pollfd p = { .fd = fd[0], .events = POLLIN };
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			late = r == 0;
			break;
		}
		if (len + 4096 >= cap && cap < COMMAND_OUT_MAX) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb)
				abort();
			buf = nb;
		}
		char sink[4096];
		bool keep = len + 4096 < cap; /* room for the NUL */
		ssize_t n = read(fd[0], keep ? buf + len : sink, 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (keep)
			len += (size_t)n;
	}
	close(fd[0]);
	if (late)
		kill(pid, SIGKILL);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	buf[len] = 0;
	if (out)
		*out = buf;
	else
		free(buf);
	if (got == (ssize_t)sizeof exec_errno) {
		snprintf(err, errlen, "%s: %s", argv[0],
			 exec_errno == ENOENT ? "not found on PATH" : strerror(exec_errno));
		return -1;
	}
	if (late) {
		snprintf(err, errlen, "%s: no answer in %d s (stopped)", argv[0], timeout);
		return -1;
	}
	if (WIFSIGNALED(st)) {
		snprintf(err, errlen, "%s: killed by signal %d", argv[0], WTERMSIG(st));
		return -1;
	}
	return WEXITSTATUS(st);
}
