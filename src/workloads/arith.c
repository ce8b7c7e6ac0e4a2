/* UnixBench's arithmetic loops (arithoh, short, int, long, float, double, register): per iteration, the sum of i*i/(i*i-1) for i = 2..101 in one C type. */
#include "workloads/workloads.h"

#include <string.h>

/*
 * The sum's inputs are constants, so an optimising compiler folds the whole
 * function to one number and the loop measures nothing (UnixBench's own
 * binaries do exactly that at -O3; only its volatile counter is left).
 * Here the first index is read from a volatile, so the hundred divisions
 * really run in the chosen type, and each result is stored to a volatile,
 * so it cannot be thrown away. The loop body is otherwise UnixBench's:
 * an int index, x = i, y = x*x, z += y/(y-1), and x+y+z handed back as an int.
 */
static volatile int arith_first = 2;
static volatile int arith_sink;

#define ARITH_SUM(name, storage, type)                                 \
	static __attribute__((noinline)) int name(void)                \
	{                                                              \
		storage type x = 0, y = 0, z = 0;                      \
		int i;                                                 \
		for (i = arith_first; i <= 101; i++) {                 \
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

/* One loop per type, so each calls its sum directly, as UnixBench's
 * one-type-per-binary build does; a call through a pointer would add
 * its own cost to the count. */
#define ARITH_LOOP(name, sum)                                          \
	static void name(struct workload_ctx *ctx)                     \
	{                                                              \
		uint64_t n = 0;                                        \
		while (!wl_stopped(ctx)) {                             \
			arith_sink = sum();                            \
			wl_publish(ctx, ++n);                          \
		}                                                      \
	}

ARITH_LOOP(arith_loop_short, arith_sum_short)
ARITH_LOOP(arith_loop_int, arith_sum_int)
ARITH_LOOP(arith_loop_long, arith_sum_long)
ARITH_LOOP(arith_loop_float, arith_sum_float)
ARITH_LOOP(arith_loop_double, arith_sum_double)
ARITH_LOOP(arith_loop_register, arith_sum_register)

/* arithoh: the loop with no arithmetic, to show what the loop itself costs. */
static void arith_loop_arithoh(struct workload_ctx *ctx)
{
	uint64_t n = 0;

	while (!wl_stopped(ctx))
		wl_publish(ctx, ++n);
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
			arith_types[i].loop(ctx);
			return 0;
		}
	}
	return wl_fail(ctx, "Unknown arithmetic type \"%s\": expected arithoh, short, int, "
			    "long, float, double or register.", ctx->arg);
}

const struct workload wl_arith = { .name = "arith", .run = arith_run };
