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

#endif
