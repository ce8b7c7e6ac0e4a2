/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A/B plan statistics: boot-level intervals, pairing, resolution and the sequential rule, from the textbook definitions. */
#include "plan_stats.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

double pstat_pct(double x)
{
	return expm1(x) * 100;
}

double pstat_log(double pct)
{
	return log1p(pct / 100);
}

static double upper_normal(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

/* A chi-square distribution with k degrees of freedom as nodes and weights
 * (summing to 1) for expectations: the trapezoid rule in y = log x, where
 * the density e^{ky/2 - e^y/2} is smooth and falls fast at both ends. */
#define CHI_NODES 240
static void chi_nodes(double k, double *x, double *w)
{
	double lo = -34.0 / k - 2, hi = log(k + 12 * sqrt(k) + 60);
	double h = (hi - lo) / (CHI_NODES - 1), sum = 0;
	for (int i = 0; i < CHI_NODES; i++) {
		double y = lo + i * h;
		x[i] = exp(y);
		w[i] = exp(k / 2 * y - x[i] / 2 - (k / 2) * log(k)); /* scaled: it is normalised below */
		if (i == 0 || i == CHI_NODES - 1)
			w[i] /= 2;
		sum += w[i];
	}
	for (int i = 0; i < CHI_NODES; i++)
		w[i] /= sum;
}

/* The false-alarm rate of "the narrower of f*hp and f*hu", in units of the
 * effect's sd: hp = qp sqrt(A / dfp), hu = qu sqrt((A + V) / dfu), with A
 * chi-square(dfp) (the pairs' differences and the prior) and V
 * chi-square(P - 1) (the pairs' sums, which carry any drift). */
static double choice_alpha(double f, const double *ax, const double *aw, const double *vx, const double *vw,
			   double dfp, double dfu, double qp, double qu)
{
	double a = 0;
	for (int i = 0; i < CHI_NODES; i++) {
		double hp = qp * sqrt(ax[i] / dfp), inner = 0;
		for (int j = 0; j < CHI_NODES; j++) {
			double hu = qu * sqrt((ax[i] + vx[j]) / dfu);
			inner += vw[j] * upper_normal(f * (hp < hu ? hp : hu));
		}
		a += aw[i] * 2 * inner;
	}
	return a;
}

struct factor_memo {
	int pairs;
	double prior_df, conf, f;
};

double pstat_pair_factor(int pairs, double prior_df, double conf)
{
	static struct factor_memo memo[256];
	static int nmemo;
	if (pairs < 2 || !(conf > 0 && conf < 1) || isinf(prior_df))
		return 1;
	for (int i = 0; i < nmemo; i++)
		if (memo[i].pairs == pairs && memo[i].prior_df == prior_df && memo[i].conf == conf)
			return memo[i].f;
	double dfp = pairs - 1 + prior_df, dfu = 2.0 * (pairs - 1) + prior_df, alpha = 1 - conf;
	double qp = stats_t_quantile(1 - alpha / 2, dfp), qu = stats_t_quantile(1 - alpha / 2, dfu);
	double *buf = malloc(4 * CHI_NODES * sizeof *buf);
	if (!buf)
		abort();
	double *ax = buf, *aw = buf + CHI_NODES, *vx = buf + 2 * CHI_NODES, *vw = buf + 3 * CHI_NODES;
	chi_nodes(dfp, ax, aw);
	chi_nodes(pairs - 1, vx, vw);
	/* The rate falls as f grows; each interval alone has the rate alpha at f = 1. */
	double lo = 1, hi = 1;
	while (choice_alpha(hi, ax, aw, vx, vw, dfp, dfu, qp, qu) > alpha && hi < 8)
		hi *= 1.25;
	for (int it = 0; it < 40 && hi - lo > 1e-5; it++) {
		double mid = (lo + hi) / 2;
		if (choice_alpha(mid, ax, aw, vx, vw, dfp, dfu, qp, qu) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	free(buf);
	double f = hi;
	int slot = nmemo < 256 ? nmemo++ : (int)((unsigned)(pairs * 31 + (int)(conf * 1e6)) % 256);
	memo[slot] = (struct factor_memo){ pairs, prior_df, conf, f };
	return f;
}

static double q_of(double conf, double df)
{
	return stats_t_quantile(1 - (1 - conf) / 2, df);
}

/* Satterthwaite's degrees of freedom of a sum of two variance estimates. */
static double satterthwaite(double v1, double df1, double v2, double df2)
{
	double den = (isinf(df1) ? 0 : v1 * v1 / df1) + (isinf(df2) ? 0 : v2 * v2 / df2);
	return den > 0 ? (v1 + v2) * (v1 + v2) / den : INFINITY;
}

static void decide(struct pstat_effect *e, double half)
{
	e->lo = e->d - half;
	e->hi = e->d + half;
	e->verdict = e->lo > 0 ? PSTAT_HIGHER : e->hi < 0 ? PSTAT_LOWER : PSTAT_SAME;
}

/* One boot a side: the boot-to-boot part is the prior's; the within part
 * is the boots' own runs blended with the prior's (when they have two or more). */
static void prior_only(struct pstat_effect *e, const struct pstat_prior *p, double ss, double dfw)
{
	double w2 = p->within * p->within, wdf = p->df;
	if (dfw > 0) {
		w2 = (ss + PSTAT_PRIOR_DF * w2) / (dfw + PSTAT_PRIOR_DF);
		wdf = dfw + PSTAT_PRIOR_DF;
	}
	double v1 = p->between * p->between, v2 = w2 / e->runs;
	e->prior_only = true;
	e->tau = sqrt(v1 + v2);
	e->df = satterthwaite(v1, p->df, v2, wdf);
	e->se = e->tau * M_SQRT2;
	e->q = q_of(e->conf, e->df);
	decide(e, e->q * e->se);
}

/* The interval from a sum of squares ss of boots' means on df degrees of
 * freedom (a boot mean's variance is ss / df), its se = sqrt(var * scale):
 * the boots' own t interval, or, with a learned prior (prior2 > 0), the one
 * with its variance blended in for PSTAT_PRIOR_DF more degrees of freedom
 * when that is wider. The prior may widen what the boots say, never narrow
 * it, so the rate of false calls is at most the t interval's whatever the
 * prior. A default (prior2 = 0 here) is a guess for before the boots: once
 * they speak, it stays out. */
static void widest(struct pstat_effect *e, double ss, int df, double prior2, double scale)
{
	double s2 = ss / df, q = q_of(e->conf, df);
	double b2 = (ss + PSTAT_PRIOR_DF * prior2) / (df + PSTAT_PRIOR_DF), qb = q_of(e->conf, df + PSTAT_PRIOR_DF);
	if (prior2 > 0 && qb * qb * b2 > q * q * s2) {
		s2 = b2;
		q = qb;
		e->df = df + PSTAT_PRIOR_DF;
	} else {
		e->df = df;
	}
	e->q = q;
	e->tau = sqrt(s2);
	e->se = sqrt(s2 * scale);
}

struct pstat_effect pstat_effect(const struct pstat_boot *boots, int n, const struct pstat_prior *p,
				 double conf)
{
	struct pstat_effect e = { .verdict = PSTAT_NA, .conf = conf, .d = NAN, .lo = NAN, .hi = NAN,
				  .se = NAN, .df = NAN, .q = NAN, .tau = NAN };
	double sum[2] = { 0, 0 }, ss = 0, dfw = 0, runs = 0;
	int cnt[2] = { 0, 0 }, nv = 0;
	for (int i = 0; i < n; i++)
		if (boots[i].n > 0) {
			sum[boots[i].side == PSTAT_B] += boots[i].mean;
			cnt[boots[i].side == PSTAT_B]++;
			ss += boots[i].ss;
			dfw += boots[i].n - 1;
			runs += boots[i].n;
			nv++;
		}
	e.na = cnt[0];
	e.nb = cnt[1];
	if (!cnt[0] || !cnt[1])
		return e;
	double mean[2] = { sum[0] / cnt[0], sum[1] / cnt[1] };
	e.d = mean[1] - mean[0];
	e.runs = runs / nv;
	if (cnt[0] + cnt[1] == 2) {
		prior_only(&e, p, ss, dfw);
		return e;
	}
	double prior2 = p->calibrated ? p->between * p->between + p->within * p->within / e.runs : 0;
	/* Unpaired: the boots' means about their side's mean, pooled. */
	double ssu = 0;
	bool pairs = nv % 2 == 0;
	const struct pstat_boot *v[2] = { NULL, NULL };
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (boots[i].n <= 0)
			continue;
		double dev = boots[i].mean - mean[boots[i].side == PSTAT_B];
		ssu += dev * dev;
		/* neighbours of opposite sides, two by two */
		v[k++ % 2] = &boots[i];
		if (k % 2 == 0 && v[0]->side == v[1]->side)
			pairs = false;
	}
	double scale = 1.0 / cnt[0] + 1.0 / cnt[1];
	widest(&e, ssu, cnt[0] + cnt[1] - 2, prior2, scale);
	int np = nv / 2;
	if (pairs && np >= 2) {
		/* Paired: each neighbour pair's B - A, so that a drift of the machine
		 * falls on both sides of each difference and cancels. A difference's
		 * variance is two boots'. */
		double dm = 0, ssp = 0, *dd = malloc((size_t)np * sizeof *dd);
		int j = 0, h = 0;
		if (!dd)
			abort();
		for (int i = 0; i < n; i++) {
			if (boots[i].n <= 0)
				continue;
			v[h++ % 2] = &boots[i];
			if (h % 2 == 0) {
				const struct pstat_boot *a = v[0]->side == PSTAT_A ? v[0] : v[1];
				const struct pstat_boot *b = a == v[0] ? v[1] : v[0];
				dd[j] = b->mean - a->mean;
				dm += dd[j++] / np;
			}
		}
		for (j = 0; j < np; j++)
			ssp += (dd[j] - dm) * (dd[j] - dm);
		free(dd);
		struct pstat_effect pe = e;
		widest(&pe, ssp / 2, np - 1, prior2, 2.0 / np);
		if (pe.q * pe.se < e.q * e.se) {
			pe.paired = true;
			e = pe;
		}
		e.q *= pstat_pair_factor(np, 0, conf);
	}
	decide(&e, e.q * e.se);
	return e;
}

void pstat_widen(struct pstat_effect *e, double extra_var, double lost_df)
{
	if (e->verdict == PSTAT_NA)
		return;
	double df = e->df - lost_df;
	if (!(df >= 1)) {
		*e = (struct pstat_effect){ .verdict = PSTAT_NA, .conf = e->conf, .d = NAN, .lo = NAN, .hi = NAN,
					    .se = NAN, .df = NAN, .q = NAN, .tau = NAN, .na = e->na, .nb = e->nb };
		return;
	}
	if (isfinite(e->df))
		e->q *= q_of(e->conf, df) / q_of(e->conf, e->df);
	e->df = df;
	e->se = sqrt(e->se * e->se + (extra_var > 0 ? extra_var : 0));
	decide(e, e->q * e->se);
}

bool pstat_settled(const struct pstat_effect *e, double r)
{
	if (e->verdict == PSTAT_NA)
		return false;
	return e->verdict != PSTAT_SAME || (e->lo > -r && e->hi < r);
}

double pstat_rules_out(const struct pstat_effect *e)
{
	if (e->verdict == PSTAT_NA)
		return NAN;
	return fabs(e->lo) > fabs(e->hi) ? fabs(e->lo) : fabs(e->hi);
}

double pstat_resolution(const struct pstat_prior *p, int boots, double runs, double conf, double power)
{
	if (boots < 1 || !(runs >= 1))
		return NAN;
	double tau2 = p->between * p->between + p->within * p->within / runs, df, f = 1;
	if (boots == 1) {
		df = p->df;
	} else {
		df = 2.0 * boots - 2;
		f = pstat_pair_factor(boots, 0, conf);
	}
	double se = sqrt(tau2 * 2 / boots);
	return (f * q_of(conf, df) + stats_t_quantile(power, df)) * se;
}

double pstat_look_conf(int m, int max, double alpha)
{
	if (m < 1 || max < 1)
		return NAN;
	if (m > max)
		m = max;
	double t1 = (double)m / max, t0 = (double)(m - 1) / max;
	return 1 - alpha * (pow(t1, PSTAT_SPEND_RHO) - pow(t0, PSTAT_SPEND_RHO));
}
