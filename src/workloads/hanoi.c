/* UnixBench's recursion test: solve the Towers of Hanoi (10 disks) recursively, once per iteration. */
#include "workloads/workloads.h"

#include <errno.h>
#include <stdlib.h>

#define HANOI_DISKS 10     /* UnixBench's default */
#define HANOI_MAX_DISKS 30 /* 2^30 moves per loop: already minutes */

/* Disks on pegs 1..3; every move updates two counts in memory, as UnixBench's does. */
static int hanoi_pegs[4];

/* Moves `disks` disks from peg `from` to peg `to`; the third peg is 6 - from - to. */
static void hanoi_move(int disks, int from, int to)
{
	int via;

	if (disks == 1) {
		hanoi_pegs[from]--;
		hanoi_pegs[to]++;
		return;
	}
	via = 6 - from - to;
	hanoi_move(disks - 1, from, via);
	hanoi_move(1, from, to);
	hanoi_move(disks - 1, via, to);
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
	uint64_t n = 0;
	int disks;

	if (hanoi_disks(ctx, &disks) < 0)
		return -1;
	while (!wl_stopped(ctx)) {
		hanoi_pegs[1] = disks;
		hanoi_pegs[2] = hanoi_pegs[3] = 0;
		hanoi_move(disks, 1, 3);
		wl_publish(ctx, ++n);
	}
	/* Reading the pegs back keeps every move in the code: a store that is
	 * never read may be dropped by the compiler. */
	if (n > 0 && (hanoi_pegs[1] != 0 || hanoi_pegs[2] != 0 || hanoi_pegs[3] != disks))
		return wl_fail(ctx, "Towers of Hanoi ended with %d, %d, %d disks on the pegs "
				    "instead of 0, 0, %d.", hanoi_pegs[1], hanoi_pegs[2],
			       hanoi_pegs[3], disks);
	return 0;
}

const struct workload wl_hanoi = { .name = "hanoi", .run = hanoi_run };
