/* SPDX-License-Identifier: GPL-2.0-or-later */
/* make bench-host-pace's probe: how fast this machine runs a fixed chain of arithmetic, every half second, beside kbench's runs. */
/*
 * pace_probe [INTERVAL_S [STEPS]]
 *
 * Every INTERVAL_S seconds (0.5) it times STEPS (4,000,000) dependent
 * multiply-adds, a few milliseconds of one CPU, and prints one line:
 * "EPOCH_S CHUNK_MS CPU". The chain is timed in the thread's own CPU time,
 * so a wait for a CPU the runs hold does not count: what moves CHUNK_MS is
 * how fast the CPU ran the thread while it ran (its clock, or on a VM the
 * share of the host's core the guest got). A multiply-add chain, not adds
 * of a constant, which some cores fold at rename (issue 34). Runs until
 * killed; about 1% of one CPU at the defaults.
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double seconds(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	double interval = argc > 1 ? strtod(argv[1], NULL) : 0.5;
	long steps = argc > 2 ? strtol(argv[2], NULL, 10) : 4000000;
	if (argc > 3 || !(interval >= 0.01 && interval <= 60) || steps < 1000 || steps > 1000000000) {
		fprintf(stderr, "usage: pace_probe [INTERVAL_S (0.01-60) [STEPS (1000-1e9)]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	volatile uint64_t seed = 1;
	for (;;) {
		uint64_t x = seed;
		double t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
		for (long i = 0; i < steps; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		double t1 = seconds(CLOCK_THREAD_CPUTIME_ID);
		seed = x;
		printf("%.3f %.4f %d\n", seconds(CLOCK_REALTIME), (t1 - t0) * 1e3, sched_getcpu());
		usleep((useconds_t)(interval * 1e6));
	}
}
