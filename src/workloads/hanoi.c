/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's recursion test: solve the Towers of Hanoi (10 disks) recursively, once per iteration. */
#include "workloads/workloads.h"

#include <errno.h>
#include <stdlib.h>

#define HANOI_DISKS 10     /* UnixBench's default */
#define HANOI_MAX_DISKS 30 /* 2^30 moves per loop: already minutes */

/*
 * As UnixBench's hanoi.c: the pegs' disk counts in a global array, and the
 * move a function with external linkage, so that gcc compiles the same
 * recursion the same way (it inlines a few levels of it into the loop).
 * Like UnixBench's, the loop never resets the pegs: each solve moves the
 * tower from peg 1 to peg 3 as counts, so peg 1 goes negative.
 */
int hanoi_num[4];

void hanoi_mov(int n, int f, int t);
void hanoi_mov(int n, int f, int t)
{
	int o;

	if (n == 1) {
		hanoi_num[f]--;
		hanoi_num[t]++;
		return;
	}
	o = 6 - (f + t);
	hanoi_mov(n - 1, f, o);
	hanoi_mov(1, f, t);
	hanoi_mov(n - 1, o, t);
}

static int hanoi_disk_count = HANOI_DISKS;

/* UnixBench's main loop: endless, left by the sample's timer (wl_run_timed). */
static _Noreturn void hanoi_loop(struct workload_ctx *ctx)
{
	struct worker_slot *slot = ctx->slot;
	int disk = hanoi_disk_count;

	for (;;) {
		hanoi_mov(disk, 1, 3);
		wl_loop_store(slot, wl_loop_load(slot) + 1);
	}
}

/* The test row gives no argument (10 disks); a number sets the disk count. */
static int hanoi_disks(const struct workload_ctx *ctx, int *disks)
{
	char *end;
	long v;

	*disks = HANOI_DISKS;
	if (!ctx->arg || !*ctx->arg)
		return 0;
	errno = 0;
	v = strtol(ctx->arg, &end, 10);
	if (errno || *end || v < 1 || v > HANOI_MAX_DISKS)
		return wl_fail(ctx, "Towers of Hanoi: \"%s\" is not a disk count from 1 to %d.",
			       ctx->arg, HANOI_MAX_DISKS);
	*disks = (int)v;
	return 0;
}

static int hanoi_run(struct workload_ctx *ctx)
{
	int disks;

	if (hanoi_disks(ctx, &disks) < 0)
		return -1;
	hanoi_disk_count = disks;
	hanoi_num[0] = hanoi_num[2] = hanoi_num[3] = 0;
	hanoi_num[1] = disks;
	if (wl_run_timed(ctx, hanoi_loop) < 0)
		return -1;
	/* Every move takes a disk off one peg and puts it on another, so the
	 * pegs hold all the disks, or one less when the timer landed between
	 * the two halves of a move. */
	int sum = hanoi_num[1] + hanoi_num[2] + hanoi_num[3];
	if (sum != disks && sum != disks - 1)
		return wl_fail(ctx, "Towers of Hanoi ended with %d disks on the pegs instead of %d: "
				    "the moves are broken.", sum, disks);
	return 0;
}

const struct workload wl_hanoi = { .name = "hanoi", .run = hanoi_run };
