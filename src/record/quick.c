/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stopping rule of quick runs: stop a test once its score's 95% interval is narrow enough. */
#include "quick.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

double quick_precision(const double *rates, int n)
{
	if (n < 2)
		return INFINITY;
	double logs[256];
	int m = 0;
	/* The last 256 samples are plenty; a rate of 0 has no log and makes the score unknowable. */
	for (int i = n > 256 ? n - 256 : 0; i < n; i++) {
		if (!(rates[i] > 0))
			return INFINITY;
		logs[m++] = log(rates[i]);
	}
	struct stats_ci ci = stats_ci_mean(logs, m, 0.95);
	if (!isfinite(ci.half))
		return INFINITY;
	/* exp(half) - 1 is the upper side, the wider one of the two. */
	return expm1(ci.half);
}

enum quick_verdict quick_decide(const struct quick_rule *rule, const double *rates, int n,
				double elapsed, double *achieved)
{
	double p = quick_precision(rates, n);
	if (achieved)
		*achieved = p;
	/* The minimum wins over the time limit: two samples say nothing of the spread. */
	if (n < rule->min_samples)
		return QUICK_MORE;
	if (p <= rule->precision)
		return QUICK_PRECISE;
	if (rule->max_samples > 0 && n >= rule->max_samples)
		return QUICK_MAX_SAMPLES;
	if (elapsed >= rule->max_seconds)
		return QUICK_TIME_UP;
	return QUICK_MORE;
}

double quick_precision_asked(double asked)
{
	return asked > 0 ? asked : QUICK_PRECISION_PCT / 100.0;
}
