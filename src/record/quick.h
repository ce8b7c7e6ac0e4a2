/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Quick runs: when a test's score is precise enough to stop taking samples. */
#ifndef KBENCH_QUICK_H
#define KBENCH_QUICK_H

#include <stdbool.h>

enum quick_verdict {
	QUICK_MORE,      /* keep sampling */
	QUICK_PRECISE,   /* the 95% interval is within the precision asked */
	QUICK_TIME_UP,   /* the time limit came first */
	QUICK_MAX_SAMPLES,
};

struct quick_rule {
	double precision;    /* half width of the 95% interval, as a fraction of the score (0.01) */
	int min_samples;     /* never stop before this many (3) */
	int max_samples;
	double max_seconds;  /* a test's time limit */
};

/* The precision a quick run stops at by default, in percent, and a quick
 * test's time limit in seconds: written here only (the option rows spell
 * them with QUICK_DEF), so quick.c needs no option table and the
 * options -> runner -> quick -> options include cycle is gone. */
#define QUICK_PRECISION_PCT 1
#define QUICK_MAX_TEST_SECONDS 15
#define QUICK_DEF_(x) #x
#define QUICK_DEF(x) QUICK_DEF_(x)

/* The precision a quick run stops at, as a fraction: --precision (asked,
 * a fraction; 0 when not given), else QUICK_PRECISION_PCT. */
double quick_precision_asked(double asked);

/* Relative half width of the 95% t interval of the geometric mean of the
 * rates (a t interval on their logs, mapped back); INFINITY below 2 rates. */
double quick_precision(const double *rates, int n);

/* Decides after n samples taking `elapsed` seconds in all; *achieved gets
 * quick_precision(). */
enum quick_verdict quick_decide(const struct quick_rule *rule, const double *rates, int n,
				double elapsed, double *achieved);

/*
 * The index allocation (--allocate index with --quick, and runs given
 * --budget): where a run's minutes go. The index is the geometric
 * mean of its tests, so its log moves by sum(w_i * e_i) over the tests'
 * log errors e_i, and its variance is sum(w_i^2 s_i^2 / n_i) for a test
 * whose samples move by s_i (sd of their log rates) and that takes n_i of
 * them. With each sample costing c_i seconds, the n_i that narrow it most
 * for the seconds given are Neyman's: n_i proportional to w_i s_i / sqrt(c_i).
 * So a noisy test with weight in the index gets more samples, a steady one
 * fewer, a slow one fewer than its noise alone would ask.
 */
struct quick_alloc {
	double weight; /* its weight in the index: 1 / the index's tests (1 / tests, outside it) */
	double cost;   /* seconds a sample costs here, start-up and pause included */
	double sd;     /* sd of its samples' log rates; NAN below two samples */
	int n;         /* samples taken */
	bool done;     /* its last sample was taken */
	int target;    /* out: the samples it is to have in all */
};

/* The samples the run ends with per test, index allocation: the seconds left
 * (left) spread by Neyman's rule over the tests not done, counting what they
 * have had; a test not done gets at least min_samples in all (and what it has),
 * at most max_samples; a done test keeps its n. An sd from a few samples
 * is shrunk toward the tests' median (two samples' worth), so one lucky pair
 * of samples cannot starve a test. */
void quick_allocate(struct quick_alloc *t, int n, double left, int min_samples, int max_samples);

/* Of the index's log, the variance the samples so far leave: sum(w^2 s^2 / n). */
double quick_index_variance(const struct quick_alloc *t, int n);

/* The seconds a quick run in rounds (--allocate index) spends per copy count:
 * 150 for the index's 12 tests, and each test's share of that for what a run
 * has in rounds, so a quick run of one test takes seconds, not the index's time. */
#define QUICK_BUDGET_SECONDS 150
#define QUICK_BUDGET_TESTS 12

#endif
