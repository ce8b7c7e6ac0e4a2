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

/* The sd each test is allocated on: its own shrunk toward the median of the
 * tests' (weighing the median as two samples), never below 0.1%. */
static double shrunk_sd(const struct quick_alloc *t, int n, int i)
{
	double sds[256];
	int m = 0;
	for (int k = 0; k < n && m < 256; k++)
		if (isfinite(t[k].sd) && t[k].sd > 0)
			sds[m++] = t[k].sd;
	double s0 = 0.05; /* nothing known yet: a typical short sample's */
	if (m) {
		for (int a = 1; a < m; a++) /* insertion sort: a few dozen tests */
			for (int b = a; b > 0 && sds[b] < sds[b - 1]; b--) {
				double x = sds[b];
				sds[b] = sds[b - 1];
				sds[b - 1] = x;
			}
		s0 = m % 2 ? sds[m / 2] : (sds[m / 2 - 1] + sds[m / 2]) / 2;
	}
	double s = s0;
	if (isfinite(t[i].sd) && t[i].n >= 2) {
		double dof = t[i].n - 1;
		s = sqrt((2 * s0 * s0 + dof * t[i].sd * t[i].sd) / (2 + dof));
	}
	return s > 1e-3 ? s : 1e-3;
}

static double clampd(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

void quick_allocate(struct quick_alloc *t, int n, double left, int min_samples, int max_samples)
{
	double a[256], lo[256], hi[256], spend = left > 0 ? left : 0;
	if (n > 256)
		n = 256;
	for (int i = 0; i < n; i++) {
		double c = t[i].cost > 0 ? t[i].cost : 1;
		a[i] = t[i].weight * shrunk_sd(t, n, i) / sqrt(c);
		if (t[i].done) {
			lo[i] = hi[i] = t[i].n;
			continue;
		}
		lo[i] = t[i].n > min_samples ? t[i].n : min_samples;
		hi[i] = max_samples > lo[i] ? max_samples : lo[i];
		spend += c * t[i].n; /* what it has had counts toward its share */
	}
	/* lambda such that the tests not done cost `spend` in all, each within its bounds:
	 * the cost is increasing in lambda, so bisect (on a log scale) */
	double l0 = 0, l1 = 1;
	for (int it = 0; it < 200; it++) {
		double cost = 0;
		for (int i = 0; i < n; i++)
			if (!t[i].done)
				cost += (t[i].cost > 0 ? t[i].cost : 1) * clampd(l1 * a[i], lo[i], hi[i]);
		if (cost >= spend || l1 > 1e12)
			break;
		l0 = l1;
		l1 *= 2;
	}
	for (int it = 0; it < 60; it++) {
		double mid = (l0 + l1) / 2, cost = 0;
		for (int i = 0; i < n; i++)
			if (!t[i].done)
				cost += (t[i].cost > 0 ? t[i].cost : 1) * clampd(mid * a[i], lo[i], hi[i]);
		if (cost > spend)
			l1 = mid;
		else
			l0 = mid;
	}
	for (int i = 0; i < n; i++)
		t[i].target = t[i].done ? t[i].n : (int)clampd(floor(l0 * a[i] + 0.5), lo[i], hi[i]);
}

double quick_index_variance(const struct quick_alloc *t, int n)
{
	double v = 0;
	for (int i = 0; i < n; i++)
		if (t[i].n > 0 && isfinite(t[i].sd))
			v += t[i].weight * t[i].weight * t[i].sd * t[i].sd / t[i].n;
	return v;
}

double quick_precision_asked(double asked)
{
	return asked > 0 ? asked : QUICK_PRECISION_PCT / 100.0;
}
