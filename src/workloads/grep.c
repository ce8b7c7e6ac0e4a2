/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Grep a large file: loops of the system's `grep -c gimp large.txt`. */
#include "workloads.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "looper.h"

static int grep_run(struct workload_ctx *ctx)
{
	char input[PATH_MAX];

	if (!ctx->datadir)
		return wl_fail(ctx, "grep needs the data directory");
	int len = snprintf(input, sizeof input, "%s/large.txt", ctx->datadir);
	if (len < 0 || (size_t)len >= sizeof input)
		return wl_fail(ctx, "the data directory path is too long");
	if (access(input, R_OK) < 0)
		return wl_fail(ctx, "cannot read %s: %s", input, strerror(errno));

	/* grep found through PATH in every child, as UnixBench's execvp does. */
	char *argv[] = { "grep", "-c", "gimp", input, NULL };
	return looper_run(ctx, "grep", argv);
}

const struct workload wl_grep = { .name = "grep", .run = grep_run };
