/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The skeleton family's loop: getppid() timed in batches of 1 to 256 calls, the fastest batch of each size a point. */
#include "skeleton.h"

#include <stdint.h>
#include <unistd.h>

#include "workload.h"

/* A loop is named NAME_loop.c beside its family: the Makefile compiles it with
 * the workloads' flags (UnixBench's), as the workers run it. It does its work
 * until wl_stopped or, self-timed (the row's .self_timed), for its own time;
 * nothing in a timed part allocates, logs or locks. It knows no processes,
 * screens or files. Its family's settings, when it has some, are ctx->settings. */
static int skeleton_run(struct workload_ctx *ctx)
{
	double t0 = wl_now(), share = ctx->duration / SKELETON_BATCHES;
	uint64_t calls = 0;
	for (int k = 0, batch = 1; k < SKELETON_BATCHES && !wl_stopped(ctx); k++, batch *= 4) {
		double best = 0, until = wl_now() + share;
		do {
			double a = wl_now();
			for (int i = 0; i < batch; i++)
				(void)getppid();
			double ns = (wl_now() - a) * 1e9 / batch;
			if (best == 0 || ns < best)
				best = ns;
			calls += (uint64_t)batch;
			wl_publish(ctx, calls);
		} while (wl_now() < until && !wl_stopped(ctx));
		wl_publish_point(ctx, SKELETON_NS, batch, best); /* outside the timed part */
	}
	/* the rate fields a self-timed test fills: calls per second over its time */
	ctx->slot->time = wl_now() - t0;
	ctx->slot->rate = (double)calls;
	return 0;
}

const struct workload wl_skeleton = {
	.name = "skeleton",
	.run = skeleton_run,
};
