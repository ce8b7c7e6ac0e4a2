/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shell Scripts (shell1, shell8, shell16): loops of multi.sh N, which runs N tst.sh scripts at once. */
#include "workloads.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "looper.h"

static int shell_run(struct workload_ctx *ctx)
{
	char script[PATH_MAX], nbuf[16];
	char *end;

	errno = 0;
	long n = ctx->arg ? strtol(ctx->arg, &end, 10) : 0;
	if (!ctx->arg || errno || end == ctx->arg || *end || n < 1 || n > 1000)
		return wl_fail(ctx, "shell scripts want a count of concurrent scripts (1..1000), got '%s'",
			       ctx->arg ? ctx->arg : "");
	if (!ctx->datadir)
		return wl_fail(ctx, "shell scripts need the data directory");
	int len = snprintf(script, sizeof script, "%s/multi.sh", ctx->datadir);
	if (len < 0 || (size_t)len >= sizeof script)
		return wl_fail(ctx, "the data directory path is too long");
	if (access(script, R_OK) < 0)
		return wl_fail(ctx, "cannot read %s: %s", script, strerror(errno));
	snprintf(nbuf, sizeof nbuf, "%ld", n);

	/* UnixBench execs multi.sh through its #!/bin/sh line; naming the
	 * shell here is the same exec and needs no execute bit on the data. */
	char *argv[] = { "/bin/sh", script, nbuf, NULL };
	return looper_run(ctx, "multi.sh", argv);
}

const struct workload wl_shell = { .name = "shell", .run = shell_run };
