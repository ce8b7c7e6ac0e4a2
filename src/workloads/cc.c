/* SPDX-License-Identifier: GPL-2.0-or-later */
/* C Compiler Throughput (C): loops of the system's gcc compiling and linking kbench's data/cctest.c. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "looper.h"

/*
 * UnixBench's C test is `looper 60 gcc cctest.c` in its testdir: gcc found
 * through PATH, compiling and linking to a.out, loops per minute. Run names
 * the compiler itself (its $cCompiler is 'gcc'; $CC only builds UnixBench),
 * and so does kbench: the title says "(gcc)". The loops run in the looper's
 * private directory, where a.out is left each time and removed at the end.
 */
#define CC_NAME "gcc"
#define CC_SOURCE "cctest.c"
#define CC_VERSION_WAIT_MS 5000

static int cc_run(struct workload_ctx *ctx)
{
	char source[PATH_MAX];

	static const char *const needs[] = { CC_NAME, NULL };
	if (wl_need_programs(ctx, "the C compiler test compiles with it (install gcc)", needs) < 0)
		return -1;
	if (!ctx->datadir)
		return wl_fail(ctx, "the C compiler test needs the data directory");
	int len = snprintf(source, sizeof source, "%s/%s", ctx->datadir, CC_SOURCE);
	if (len < 0 || (size_t)len >= sizeof source)
		return wl_fail(ctx, "the data directory path is too long");
	if (access(source, R_OK) < 0)
		return wl_fail(ctx, "cannot read %s: %s", source, strerror(errno));

	/* The name, not the path found: every loop looks it up as UnixBench's
	 * execvp does. */
	char *argv[] = { CC_NAME, source, NULL };
	return looper_run(ctx, CC_NAME, argv);
}

/* The first line `gcc --version` prints, read with a time limit: this runs
 * in the runner's process, which must not hang on a broken compiler. */
static int cc_version(const char *compiler, char *out, size_t len)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		dup2(fds[1], 1);
		execl(compiler, CC_NAME, "--version", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char buf[256];
	size_t got = 0;
	struct pollfd p = { .fd = fds[0], .events = POLLIN };
	while (got < sizeof buf - 1 && poll(&p, 1, CC_VERSION_WAIT_MS) > 0) {
		ssize_t r = read(fds[0], buf + got, sizeof buf - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fds[0]);
	kill(pid, SIGKILL); /* done or stuck: either way it has said what it will say */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		return -1;
	snprintf(out, len, "%s", buf);
	return 0;
}

static int cc_describe(const char *arg, char *key, size_t keylen, char *text, size_t textlen)
{
	char compiler[PATH_MAX], version[256];

	snprintf(key, keylen, "compiler");
	if (wl_find_program(CC_NAME, compiler, sizeof compiler) < 0)
		snprintf(text, textlen, "none: %s is not installed (no %s in PATH)", CC_NAME, CC_NAME);
	else if (cc_version(compiler, version, sizeof version) < 0)
		snprintf(text, textlen, "%s (its --version said nothing)", compiler);
	else
		snprintf(text, textlen, "%s at %s", version, compiler);
	return 0;
}

const struct workload wl_cc = { .name = "cc", .run = cc_run, .describe = cc_describe };
