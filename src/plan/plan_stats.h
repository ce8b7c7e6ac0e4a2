/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics of an A/B plan across boots: two levels of noise, effects with intervals, a design's resolution, the sequential rule. */
#ifndef KBENCH_PLAN_STATS_H
#define KBENCH_PLAN_STATS_H

/*
 * The model (one row: a test, a point, or the index, in one copy count):
 * a run's value is the log of its score, y = mu_side + b_boot + e_run, with
 * b ~ N(0, between^2) from one boot to the next (address-space layout, page
 * placement, firmware state) and e ~ N(0, within^2) between runs of one
 * boot. The effect is d = mu_B - mu_A, a log ratio (B is e^d - 1 faster);
 * working in logs makes the index, a geometric mean of weighted scores, one
 * more row whose effect is the mean of its tests' (Kalibera and Jones,
 * "Rigorous Benchmarking in Reasonable Time", ISMM 2013, separate the
 * levels the same way). Inference on d rests on the boots' means, whose
 * variance is tau^2 = between^2 + within^2 / K for K runs a boot: runs in
 * one boot cannot tell the boot's own luck from the kernel's.
 */

#include <stdbool.h>

/* How many degrees of freedom what was learned before the plan counts for
 * when the plan's own boots speak too: one, and only to widen an interval
 * the boots would make, never to narrow it (as NOISE_PRIOR_DF blends
 * compare's floors). Defaults, which are guesses, count only before the
 * boots speak: for the resolution promised, and with one boot a side. */
#define PSTAT_PRIOR_DF 1

/* The sequential rule's spending function is alpha * t^PSTAT_SPEND_RHO (Kim and
 * DeMets' power family; 3 is close to O'Brien and Fleming's boundary): little
 * is spent on the first looks, when a boot or two cannot settle much anyway. */
#define PSTAT_SPEND_RHO 3

enum pstat_side { PSTAT_A, PSTAT_B };

/* One boot's runs of a row: how many had a value, the mean of their log
 * values and the sum of their squared deviations from it. */
struct pstat_boot {
	enum pstat_side side;
	int n;
	double mean, ss;
};

/* A row's noise as known before the plan's boots: the sd of a run's log value
 * between runs of one boot, and between boots beyond that. df: degrees of
 * freedom behind them (INFINITY: defaults, chosen and not estimated). */
struct pstat_prior {
	double within, between;
	double df;
	bool calibrated; /* learned on this machine; false: defaults ("not calibrated") */
};

enum pstat_verdict {
	PSTAT_NA,     /* no interval: a side has no boot with a value */
	PSTAT_SAME,   /* the interval holds 0 */
	PSTAT_HIGHER, /* the whole interval above 0: B's value is higher */
	PSTAT_LOWER,  /* the whole interval below 0 */
};

struct pstat_effect {
	enum pstat_verdict verdict;
	double d;          /* log(B / A) */
	double lo, hi;     /* its interval, in logs */
	double se, df, q;  /* d +- q * se; df INFINITY when it rests on defaults alone */
	double conf;       /* the interval's confidence */
	int na, nb;        /* boots per side with a value */
	double runs;       /* runs per boot (their mean) */
	double tau;        /* sd of one boot's mean the interval used */
	bool paired;       /* neighbours' differences (A B | B A | ...) gave the interval */
	bool prior_only;   /* one boot per side: the boot-to-boot part is the prior's */
};

/* The effect of B against A from the boots of one row, in the order they ran,
 * at confidence conf (0.95). When the boots form neighbouring pairs of
 * opposite sides (A B B A A B ...: balanced order), the interval is the
 * narrower of the pairs' and the unpaired one, each widened by the factor
 * that keeps the false-alarm rate of choosing at 1 - conf (pstat_pair_factor). */
struct pstat_effect pstat_effect(const struct pstat_boot *boots, int n, const struct pstat_prior *p,
				 double conf);

/* An effect made from values something estimated was taken out of: its
 * variance grows by extra_var and its degrees of freedom fall by lost_df
 * (the interval's t quantile with them), and the verdict is decided again.
 * Under one degree of freedom left: no interval (PSTAT_NA). */
void pstat_widen(struct pstat_effect *e, double extra_var, double lost_df);

/* Settled at resolution r (a log ratio, > 0): a change found (the interval
 * excludes 0) or ruled out (the interval lies within -r..r). */
bool pstat_settled(const struct pstat_effect *e, double r);
/* The largest change the interval leaves possible, as a log ratio: what a
 * "no change larger than X% either way" says. */
double pstat_rules_out(const struct pstat_effect *e);

/* A log ratio as a percent change: (e^x - 1) * 100. */
double pstat_pct(double x);
/* A percent change as a log ratio: log(1 + pct / 100). */
double pstat_log(double pct);

/* The factor by which choosing the narrower of the paired interval (P pairs)
 * and the unpaired one widens both so that, with no effect and no drift,
 * the choice calls a change 1 - conf of the time; prior_df as in the
 * intervals. 1 when P < 2 (nothing to choose). Computed once per argument
 * set, by integrating over the two variance estimates (each a chi-square). */
double pstat_pair_factor(int pairs, double prior_df, double conf);

/* A design's resolution before it runs: the smallest change (log ratio)
 * that `boots` boots a side of `runs` runs each find `power` of the time
 * (0.9) at confidence conf, if the prior's noise is the truth. */
double pstat_resolution(const struct pstat_prior *p, int boots, double runs, double conf, double power);

/* The sequential rule of --until: a look is made when the fewer-booted side
 * gains a boot (m boots a side, of at most max), and it may spend
 * alpha * ((m / max)^rho - ((m - 1) / max)^rho) of the false-alarm rate: its
 * interval's confidence is 1 minus that. The looks' rates add up to at most
 * alpha, so by the union bound (Bonferroni) a change is called falsely at
 * most alpha of the time however the looks' statistics are correlated and
 * whenever the plan stops: no Brownian-motion approximation, which with a
 * variance estimated afresh at each look would hold only roughly. */
double pstat_look_conf(int m, int max, double alpha);

#endif
