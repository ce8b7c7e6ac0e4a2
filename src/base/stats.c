/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics for comparisons: written from the textbook definitions, checked by known answers. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

double stats_mean(const double *v, int n)
{
	if (n <= 0)
		return 0;
	double s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

double stats_stddev(const double *v, int n)
{
	if (n < 2)
		return 0;
	double m = stats_mean(v, n), s = 0;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define LENTZ_TINY 1e-300 /* stands in for a zero denominator */

/* One step of the modified Lentz method: folds the term aa into c and d and
 * returns d * c, the factor by which the fraction changes. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	*c = 1 + aa / *c;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction of the incomplete beta function, evaluated with
 * the modified Lentz method; converges fast for x < (a+1)/(a+b+2). */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		int m2 = 2 * m;
		/* The even and the odd step of the recurrence. */
		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		double del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	double bt = exp(lbt);
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(df))
		return 0.5 * erfc(-t / sqrt(2.0));
	double x = df / (df + t * t);
	double tail = 0.5 * stats_betai(df / 2, 0.5, x); /* P(T > |t|) */
	return t >= 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	/* Bracket then bisect: the cdf is monotonic, and 200 halvings
	 * are cheap next to a benchmark run. */
	double lo = 0, hi = 1;
	while (stats_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

struct stats_ci stats_ci_mean(const double *v, int n, double conf)
{
	struct stats_ci ci = { .mean = stats_mean(v, n), .half = INFINITY, .df = n - 1 };
	if (n >= 2) {
		double q = stats_t_quantile(1 - (1 - conf) / 2, n - 1);
		ci.half = q * stats_stddev(v, n) / sqrt(n);
	}
	ci.lo = ci.mean - ci.half;
	ci.hi = ci.mean + ci.half;
	return ci;
}

struct stats_welch stats_welch_summary(double ma, double va, double na, double mb, double vb,
				       double nb, double conf)
{
	struct stats_welch w = { .diff = mb - ma, .se = NAN, .df = NAN, .t = NAN, .p = NAN,
				 .half = INFINITY };
	if (na < 2 || nb < 2)
		return w;
	double sa = va / na, sb = vb / nb;
	w.se = sqrt(sa + sb);
	if (!(w.se > 0))
		return w;
	w.df = (sa + sb) * (sa + sb) / (sa * sa / (na - 1) + sb * sb / (nb - 1));
	w.t = w.diff / w.se;
	w.p = 2 * (1 - stats_t_cdf(fabs(w.t), w.df));
	w.half = stats_t_quantile(1 - (1 - conf) / 2, w.df) * w.se;
	w.ok = true;
	return w;
}

struct stats_welch stats_welch(const double *a, int na, const double *b, int nb, double conf)
{
	double sa = stats_stddev(a, na), sb = stats_stddev(b, nb);
	return stats_welch_summary(stats_mean(a, na), sa * sa, na, stats_mean(b, nb), sb * sb, nb,
				   conf);
}

struct stats_fit stats_linfit(const double *v, int n)
{
	struct stats_fit f = { 0 };
	if (n < 3)
		return f;
	double xm = (n - 1) / 2.0, ym = stats_mean(v, n), sxx = 0, sxy = 0;
	for (int i = 0; i < n; i++) {
		sxx += (i - xm) * (i - xm);
		sxy += (i - xm) * (v[i] - ym);
	}
	f.slope = sxy / sxx;
	double rss = 0;
	for (int i = 0; i < n; i++) {
		double e = v[i] - (ym + f.slope * (i - xm));
		rss += e * e;
	}
	f.resid_sd = sqrt(rss / (n - 2));
	f.se = f.resid_sd / sqrt(sxx);
	f.ok = true;
	return f;
}
