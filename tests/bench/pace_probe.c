/* SPDX-License-Identifier: GPL-2.0-or-later */
/* make bench-host-pace's probe: how fast this machine runs a fixed chain of arithmetic, every half second, beside kbench's runs. */
/*
 * pace_probe [--all] [INTERVAL_S [STEPS]]
 *
 * Every INTERVAL_S seconds (0.5) it times STEPS (4,000,000) dependent
 * multiply-adds, a few milliseconds of one CPU, and prints one line:
 * "EPOCH_S CHUNK_MS CPU". The chain is timed in the thread's own CPU time,
 * so a wait for a CPU the runs hold does not count: what moves CHUNK_MS is
 * how fast the CPU ran the thread while it ran (its clock, or on a VM the
 * share of the host's core the guest got). A multiply-add chain, not adds
 * of a constant, which some cores fold at rename (issue 34). Runs until
 * killed; about 1% of one CPU at the defaults.
 *
 * --all adds probes that share more of what the tests use, each timed the
 * same way and printed as NAME=MS after the three fields, to see whether
 * one follows the runs' scores more closely than the chain (issue 37):
 *   ilp   four independent chains of STEPS / 8 (the core's throughput, which
 *         another thread on its sibling would share; the chain's latency not)
 *   l2    a random walk of cache lines over half the L2 cache, 100,000 steps
 *   llc   the same over half the last-level cache, 10,000 steps
 *   dram  the same over eight times the last-level cache, 5,000 steps
 *   sys   5,000 getppid() system calls (the kernel's entry and exit: a
 *         kernel changes it, so it is no covariate for a plan, only a witness)
 * The caches' sizes are the ones sysconf reports (1 MiB and 8 MiB without);
 * the walks' buffers are laid out once, before the first line.
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LCG(x) ((x) * 6364136223846793005ULL + 1442695040888963407ULL)

static double seconds(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint64_t seed = 1;

static double chain_ms(long steps)
{
	uint64_t x = seed;
	double t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < steps; i++)
		x = LCG(x);
	double t1 = seconds(CLOCK_THREAD_CPUTIME_ID);
	seed = x;
	return (t1 - t0) * 1e3;
}

static double ilp_ms(long steps)
{
	uint64_t a = seed, b = a ^ 1, c = a ^ 2, d = a ^ 3;
	double t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < steps; i++) {
		a = LCG(a);
		b = LCG(b);
		c = LCG(c);
		d = LCG(d);
	}
	double t1 = seconds(CLOCK_THREAD_CPUTIME_ID);
	seed = a ^ b ^ c ^ d;
	return (t1 - t0) * 1e3;
}

/* A walk: each cache line of buf holds the address of the next, in one random cycle over all lines. */
struct walk {
	void **at;
	long steps;
};

static int walk_init(struct walk *w, size_t bytes, long steps)
{
	size_t per = 64 / sizeof(void *), lines = bytes / 64;
	void **buf = aligned_alloc(64, lines * 64);
	size_t *order = malloc(lines * sizeof *order);
	if (!buf || !order || lines < 2)
		return -1;
	uint64_t x = 12345;
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines - 1; i > 0; i--) { /* Sattolo: one cycle through every line */
		x = LCG(x);
		size_t j = (size_t)((x >> 11) % i), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		buf[order[i] * per] = &buf[order[(i + 1) % lines] * per];
	w->at = &buf[order[0] * per];
	w->steps = steps;
	free(order);
	return 0;
}

static double walk_ms(struct walk *w)
{
	void **p = w->at;
	double t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < w->steps; i++)
		p = *p;
	double t1 = seconds(CLOCK_THREAD_CPUTIME_ID);
	w->at = p;
	return (t1 - t0) * 1e3;
}

static double sys_ms(long calls)
{
	double t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < calls; i++)
		syscall(SYS_getppid);
	return (seconds(CLOCK_THREAD_CPUTIME_ID) - t0) * 1e3;
}

int main(int argc, char **argv)
{
	int all = argc > 1 && !strcmp(argv[1], "--all");
	argc -= all;
	argv += all;
	double interval = argc > 1 ? strtod(argv[1], NULL) : 0.5;
	long steps = argc > 2 ? strtol(argv[2], NULL, 10) : 4000000;
	if (argc > 3 || !(interval >= 0.01 && interval <= 60) || steps < 1000 || steps > 1000000000) {
		fprintf(stderr, "usage: pace_probe [--all] [INTERVAL_S (0.01-60) [STEPS (1000-1e9)]]\n");
		return 2;
	}
	struct walk l2, llc, dram;
	if (all) {
		long c2 = sysconf(_SC_LEVEL2_CACHE_SIZE), c3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
		c2 = c2 > 0 ? c2 : 1L << 20;
		c3 = c3 > 0 ? c3 : 8L << 20;
		if (walk_init(&l2, (size_t)c2 / 2, 100000) || walk_init(&llc, (size_t)c3 / 2, 10000) ||
		    walk_init(&dram, (size_t)c3 * 8, 5000)) {
			fprintf(stderr, "pace_probe: no memory for the walks (%ld MiB)\n", (c2 / 2 + c3 * 8 + c3 / 2) >> 20);
			return 1;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		double ms = chain_ms(steps);
		printf("%.3f %.4f %d", seconds(CLOCK_REALTIME), ms, sched_getcpu());
		if (all) {
			double ilp = ilp_ms(steps / 8), w2 = walk_ms(&l2), w3 = walk_ms(&llc), wd = walk_ms(&dram);
			printf(" ilp=%.4f l2=%.4f llc=%.4f dram=%.4f sys=%.4f", ilp, w2, w3, wd, sys_ms(5000));
		}
		putchar('\n');
		usleep((useconds_t)(interval * 1e6));
	}
}
