/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pipe Throughput: one process writes 512 bytes into a pipe and reads them back, per loop. */
#include "workloads.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define PIPE_CHUNK 512

static int pipe_run(struct workload_ctx *ctx)
{
	char buf[PIPE_CHUNK];
	int fd[2];
	uint64_t n = 0;
	int rc = 0;

	if (pipe(fd) < 0)
		return wl_fail(ctx, "cannot create a pipe: %s", strerror(errno));
	memset(buf, 'x', sizeof buf);
	/* A 512-byte write always fits in an empty pipe, so neither call blocks:
	 * this is the cost of the two system calls and the copies, no switch. */
	while (!wl_stopped(ctx)) {
		if (write(fd[1], buf, sizeof buf) != (ssize_t)sizeof buf) {
			rc = wl_fail(ctx, "pipe write failed: %s", strerror(errno));
			break;
		}
		if (read(fd[0], buf, sizeof buf) != (ssize_t)sizeof buf) {
			rc = wl_fail(ctx, "pipe read failed: %s", strerror(errno));
			break;
		}
		wl_publish(ctx, ++n);
	}
	close(fd[0]);
	close(fd[1]);
	return rc;
}

const struct workload wl_pipe = { .name = "pipe", .run = pipe_run };
