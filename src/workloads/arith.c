/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's arithmetic loops (arithoh, short, int, long, float, double, register): per iteration, the sum of i*i/(i*i-1) for i = 2..101 in one C type. */
#include "workloads/workloads.h"

#include <string.h>

/*
 * UnixBench's dumb_stuff(): the sum's inputs are constants, and its result
 * is fed back as the next call's argument, which the function overwrites at
 * once. In UnixBench's endless loop gcc -O3 folds the arithmetic away in
 * every type and keeps only a hundred-step empty loop per iteration
 * (arithoh: not even that). That compiled loop is what UnixBench's
 * arithmetic tests measure and what published numbers for them are, so
 * kbench compiles the same shape (an endless loop, left by a timer signal
 * as UnixBench's is left by alarm(): see wl_run_timed) with the same flags
 * to the same loop. These tests therefore measure loop overhead and clock
 * speed, not arithmetic; docs/unixbench.md says more.
 *
 * The iteration counter lives in memory, as UnixBench's volatile `iter`
 * does: a load, an increment and a store per iteration.
 */
#define ARITH_SUM(name, storage, type)                                 \
	int name(int i);                                               \
	int name(int i)                                                \
	{                                                              \
		storage type x = 0, y = 0, z = 0;                      \
		for (i = 2; i <= 101; i++) {                           \
			x = (type)i;                                   \
			y = x * x;                                     \
			z += y / (y - 1);                              \
		}                                                      \
		return (int)(x + y + z);                               \
	}

ARITH_SUM(arith_sum_short, , short)
ARITH_SUM(arith_sum_int, , int)
ARITH_SUM(arith_sum_long, , long)
ARITH_SUM(arith_sum_float, , float)
ARITH_SUM(arith_sum_double, , double)
ARITH_SUM(arith_sum_register, register, int)

static inline void arith_count(struct worker_slot *slot)
{
	wl_loop_store(slot, wl_loop_load(slot) + 1);
}

/* One loop per type, so each calls its sum directly, as UnixBench's
 * one-type-per-binary build does. */
#define ARITH_LOOP(name, sum)                                          \
	static _Noreturn void name(struct workload_ctx *ctx)           \
	{                                                              \
		struct worker_slot *slot = ctx->slot;                  \
		int result = 0;                                        \
		for (;;) {                                             \
			arith_count(slot);                             \
			result = sum(result);                          \
		}                                                      \
	}

ARITH_LOOP(arith_loop_short, arith_sum_short)
ARITH_LOOP(arith_loop_int, arith_sum_int)
ARITH_LOOP(arith_loop_long, arith_sum_long)
ARITH_LOOP(arith_loop_float, arith_sum_float)
ARITH_LOOP(arith_loop_double, arith_sum_double)
ARITH_LOOP(arith_loop_register, arith_sum_register)

/* arithoh: UnixBench's dumb_stuff without its body: the loop and nothing else. */
static _Noreturn void arith_loop_arithoh(struct workload_ctx *ctx)
{
	struct worker_slot *slot = ctx->slot;

	for (;;)
		arith_count(slot);
}

static const struct {
	const char *type;
	void (*loop)(struct workload_ctx *);
} arith_types[] = {
	{ "arithoh", arith_loop_arithoh },
	{ "short", arith_loop_short },
	{ "int", arith_loop_int },
	{ "long", arith_loop_long },
	{ "float", arith_loop_float },
	{ "double", arith_loop_double },
	{ "register", arith_loop_register },
};

static int arith_run(struct workload_ctx *ctx)
{
	size_t i;

	if (!ctx->arg)
		return wl_fail(ctx, "The arithmetic test needs a type (arithoh, short, int, "
				    "long, float, double or register).");
	for (i = 0; i < sizeof arith_types / sizeof arith_types[0]; i++) {
		if (strcmp(ctx->arg, arith_types[i].type) == 0) {
			return wl_run_timed(ctx, arith_types[i].loop);
		}
	}
	return wl_fail(ctx, "Unknown arithmetic type \"%s\": expected arithoh, short, int, "
			    "long, float, double or register.", ctx->arg);
}

const struct workload wl_arith = { .name = "arith", .run = arith_run };
