/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small statistics for honest comparisons: means, spreads, Student t quantiles, intervals, Welch. */
#ifndef KBENCH_STATS_H
#define KBENCH_STATS_H

#include <stdbool.h>

/* Arithmetic mean; 0 for n <= 0. */
double stats_mean(const double *v, int n);
/* Sample standard deviation (divisor n - 1); 0 for n < 2. */
double stats_stddev(const double *v, int n);
/* The median (the mean of the middle two for even n); sorts v in place. NAN for n <= 0. */
double stats_median(double *v, int n);

/* Regularized incomplete beta I_x(a, b), for the t distribution. */
double stats_betai(double a, double b, double x);
/* P(T <= t) for Student's t with df degrees of freedom (df may be fractional; inf = normal). */
double stats_t_cdf(double t, double df);
/* The p-quantile of Student's t (0 < p < 1); df <= 0 gives NAN, df = INFINITY the normal one. */
double stats_t_quantile(double p, double df);

/* A confidence interval for a mean: mean +- half. */
struct stats_ci {
	double mean;
	double half; /* half width; INFINITY when n < 2 */
	double lo, hi;
	double df;
};
/* t interval of the mean of v at confidence level conf (e.g. 0.95). */
struct stats_ci stats_ci_mean(const double *v, int n, double conf);

/* Welch's unequal-variance t test on two samples. */
struct stats_welch {
	double diff; /* mean(b) - mean(a) */
	double se;   /* standard error of diff */
	double df;   /* Welch-Satterthwaite degrees of freedom */
	double t;    /* diff / se */
	double p;    /* two-sided p value */
	double half; /* half width of the conf interval of diff */
	bool ok;     /* false when a side has fewer than 2 values or no spread at all */
};
/* Welch from summaries (mean, variance, n) so callers can mix sources. */
struct stats_welch stats_welch_summary(double ma, double va, double na, double mb, double vb,
				       double nb, double conf);
struct stats_welch stats_welch(const double *a, int na, const double *b, int nb, double conf);

/* Least-squares slope of v against 0, 1, ..., n-1, its standard error and the residual sd. */
struct stats_fit {
	double slope, se, resid_sd;
	bool ok; /* n >= 3 */
};
struct stats_fit stats_linfit(const double *v, int n);

#endif
