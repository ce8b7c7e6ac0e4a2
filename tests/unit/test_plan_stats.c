/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the plan statistics: known answers, and simulated plans for the false-alarm rate and the promised resolution. */
/* cost: 8 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "plan_stats.h"
#include "stats.h"

/* A fixed generator, so every run of the tests draws the same plans. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((rng >> 11) + 0.5) / 9007199254740992.0;
}
static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static const struct pstat_prior defaults = { .within = 0.01, .between = 0.01, .df = INFINITY };

static void test_pct_log(void **state)
{
	assert_float_equal(pstat_pct(log(1.031)), 3.1, 1e-9);
	assert_float_equal(pstat_log(-5), log(0.95), 1e-12);
	assert_float_equal(pstat_pct(pstat_log(2.5)), 2.5, 1e-12);
}

/* A A A B B B: no neighbour pairs, so the pooled interval of the boots' means,
 * worked by hand: A 0.00 0.02 0.01, B 0.05 0.04 0.06; ss 0.0004 on 4 df, so
 * s^2 = 0.0001, se = 0.01 sqrt(2/3), t(0.975, 4) = 2.7764. A prior of that
 * size (or smaller) leaves it so; a larger one widens it, blended in for one
 * more degree of freedom: (0.0004 + 0.05^2) / 5 on t(0.975, 5) = 2.5706. */
static void test_unpaired_known(void **state)
{
	struct pstat_boot b[] = { { PSTAT_A, 1, 0.00, 0 }, { PSTAT_A, 1, 0.02, 0 }, { PSTAT_A, 1, 0.01, 0 },
				  { PSTAT_B, 1, 0.05, 0 }, { PSTAT_B, 1, 0.04, 0 }, { PSTAT_B, 1, 0.06, 0 } };
	struct pstat_prior p = { .within = 0, .between = 0.01, .df = INFINITY };
	struct pstat_effect e = pstat_effect(b, 6, &p, 0.95);
	assert_false(e.paired);
	assert_false(e.prior_only);
	assert_int_equal(e.na, 3);
	assert_int_equal(e.nb, 3);
	assert_float_equal(e.d, 0.04, 1e-12);
	assert_float_equal(e.df, 4, 1e-12);
	assert_float_equal(e.se, 0.01 * sqrt(2.0 / 3), 1e-12);
	assert_float_equal(e.q, 2.7764, 1e-4);
	assert_float_equal(e.lo, 0.04 - 2.7764 * 0.01 * sqrt(2.0 / 3), 1e-5);
	assert_int_equal(e.verdict, PSTAT_HIGHER);
	/* The same boots read the other way round: lower, the same width. */
	for (int i = 0; i < 6; i++)
		b[i].side = b[i].side == PSTAT_A ? PSTAT_B : PSTAT_A;
	struct pstat_effect r = pstat_effect(b, 6, &p, 0.95);
	assert_int_equal(r.verdict, PSTAT_LOWER);
	assert_float_equal(r.hi - r.lo, e.hi - e.lo, 1e-12);
	/* A learned prior that says the noise is larger widens the interval; a
	 * default (a guess) does not, once the boots speak. */
	struct pstat_prior wide = { .within = 0, .between = 0.05, .df = 8, .calibrated = true };
	struct pstat_effect w = pstat_effect(b, 6, &wide, 0.95);
	assert_float_equal(w.df, 5, 1e-12);
	assert_float_equal(w.se, sqrt((0.0004 + 0.0025) / 5 * 2 / 3), 1e-12);
	assert_float_equal(w.q, 2.5706, 1e-4);
	assert_int_equal(w.verdict, PSTAT_SAME);
	wide.calibrated = false;
	assert_float_equal(pstat_effect(b, 6, &wide, 0.95).se, e.se, 1e-12);
}

/* A B | B A | A B | B A with a steady climb of the machine, 0.01 a boot: the
 * unpaired interval takes the climb for noise, the neighbours' differences
 * (each B - A: 0.03 + 0.01, 0.03 - 0.01, ...) do not, and are chosen. */
static void test_paired_drift(void **state)
{
	enum pstat_side order[] = { PSTAT_A, PSTAT_B, PSTAT_B, PSTAT_A, PSTAT_A, PSTAT_B, PSTAT_B, PSTAT_A };
	struct pstat_boot b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (struct pstat_boot){ order[i], 1, 0.01 * i + (order[i] == PSTAT_B ? 0.03 : 0), 0 };
	struct pstat_prior p = { .within = 0.002, .between = 0.002, .df = INFINITY };
	struct pstat_effect e = pstat_effect(b, 8, &p, 0.95);
	assert_true(e.paired);
	assert_float_equal(e.d, 0.03, 1e-12);
	/* pair differences 0.04 0.02 0.04 0.02: ss 0.0004 on 3 df (a quiet prior leaves it) */
	assert_float_equal(e.df, 3, 1e-12);
	assert_float_equal(e.se, sqrt(0.0004 / 3 / 4), 1e-12);
	double f = pstat_pair_factor(4, 0, 0.95);
	assert_float_equal(e.q, f * stats_t_quantile(0.975, 3), 1e-9);
	assert_int_equal(e.verdict, PSTAT_HIGHER);
	/* Unpaired, the climb would swamp it: without the neighbour order it is not found. */
	struct pstat_boot u[8];
	int k = 0;
	for (int i = 0; i < 8; i++)
		if (b[i].side == PSTAT_A)
			u[k++] = b[i];
	for (int i = 0; i < 8; i++)
		if (b[i].side == PSTAT_B)
			u[k++] = b[i];
	struct pstat_effect un = pstat_effect(u, 8, &p, 0.95);
	assert_false(un.paired);
	assert_int_equal(un.verdict, PSTAT_SAME);
}

/* One boot a side: nothing of the plan tells boots apart, so the interval is
 * the prior's, sqrt(between^2 + within^2 / K) per boot; with K runs a boot
 * the within part comes from the runs themselves, blended with the prior. */
static void test_prior_only(void **state)
{
	struct pstat_boot b[] = { { PSTAT_A, 1, 0.0, 0 }, { PSTAT_B, 1, 0.05, 0 } };
	struct pstat_effect e = pstat_effect(b, 2, &defaults, 0.95);
	assert_true(e.prior_only);
	assert_true(isinf(e.df));
	assert_float_equal(e.se, sqrt(0.0002) * M_SQRT2, 1e-12);
	assert_float_equal(e.hi - e.d, 1.959964 * e.se, 1e-5);
	assert_int_equal(e.verdict, PSTAT_HIGHER);
	/* Three runs a boot whose spread is 0.002: the within part shrinks to
	 * (4 * ... + 1e-4) / 5 over 3 runs, and the t's df are Satterthwaite's. */
	struct pstat_boot k[] = { { PSTAT_A, 3, 0.0, 2 * 0.002 * 0.002 }, { PSTAT_B, 3, 0.03, 2 * 0.002 * 0.002 } };
	struct pstat_effect e3 = pstat_effect(k, 2, &defaults, 0.95);
	double w2 = (4 * 0.002 * 0.002 + 1e-4) / 5;
	assert_float_equal(e3.tau, sqrt(1e-4 + w2 / 3), 1e-12);
	assert_true(isinf(e3.df) == false && e3.df > 5);
	/* a side without a value: n/a */
	struct pstat_boot one[] = { { PSTAT_A, 1, 0.0, 0 }, { PSTAT_B, 0, 0, 0 } };
	assert_int_equal(pstat_effect(one, 2, &defaults, 0.95).verdict, PSTAT_NA);
}

/* The factor that pays for choosing the narrower interval: by simulation of
 * the choice itself (the effect's normal, the two variance estimates from
 * normal boots), the false-alarm rate is 5% with it and more without it. */
static void test_pair_factor(void **state)
{
	for (int pairs = 2; pairs <= 6; pairs += 2) {
		double f = pstat_pair_factor(pairs, 0, 0.95);
		assert_true(f > 1 && f < 1.5);
		int calls = 0, calls1 = 0, n = 200000;
		double dfp = pairs - 1, dfu = 2.0 * (pairs - 1);
		double qp = stats_t_quantile(0.975, dfp), qu = stats_t_quantile(0.975, dfu);
		for (int i = 0; i < n; i++) {
			double z = normal(), a = 0, v = 0;
			for (int k = 0; k < dfp; k++) {
				double x = normal();
				a += x * x;
			}
			for (int k = 0; k < pairs - 1; k++) {
				double x = normal();
				v += x * x;
			}
			double hp = qp * sqrt(a / dfp), hu = qu * sqrt((a + v) / dfu), h = hp < hu ? hp : hu;
			calls += fabs(z) > f * h;
			calls1 += fabs(z) > h;
		}
		double se = sqrt(0.05 * 0.95 / n);
		assert_true(fabs((double)calls / n - 0.05) < 4 * se);
		assert_true((double)calls1 / n > 0.05 + 4 * se);
	}
	assert_float_equal(pstat_pair_factor(1, 0, 0.95), 1.0, 0);
	/* a prior of one more degree of freedom makes the choice cheaper */
	assert_true(pstat_pair_factor(3, 1, 0.95) < pstat_pair_factor(3, 0, 0.95));
}

/* A plan's boots drawn from the model: side B's values shifted by effect,
 * boot luck between, run noise within, a drift per boot, in the given order. */
static int draw(struct pstat_boot *b, const enum pstat_side *order, int n, int runs, double effect, double within,
		double between, double drift)
{
	for (int i = 0; i < n; i++) {
		double mu = (order[i] == PSTAT_B ? effect : 0) + drift * i + between * normal(), y[16], m = 0, ss = 0;
		for (int k = 0; k < runs; k++)
			m += (y[k] = mu + within * normal()) / runs;
		for (int k = 0; k < runs; k++)
			ss += (y[k] - m) * (y[k] - m);
		b[i] = (struct pstat_boot){ order[i], runs, m, ss };
	}
	return n;
}

/* A B B A A B B A ...: the balanced order a plan uses. */
static void abba(enum pstat_side *order, int n)
{
	for (int i = 0; i < n; i++)
		order[i] = ((i + 1) / 2) % 2 ? PSTAT_B : PSTAT_A;
}

struct shape {
	int boots, runs;      /* per side */
	double within, between, drift;
	double prior_scale;   /* the prior's noise against the truth */
};

/* A/A plans at each shape a user would choose: at most 5% call a change. */
static void test_aa_rate(void **state)
{
	static const struct shape shapes[] = {
		{ 1, 1, 0.010, 0.000, 0, 1 },   /* one run a side, a true prior */
		{ 1, 1, 0.010, 0.010, 0, 1 },
		{ 3, 1, 0.010, 0.005, 0, 1 },   /* 3 boots x 1 quick run */
		{ 3, 2, 0.010, 0.005, 0, 1 },   /* 3 x 2 */
		{ 3, 2, 0.010, 0.010, 0, 0.5 }, /* a prior that understates the noise */
		{ 5, 2, 0.010, 0.005, 0.004, 1 }, /* a machine that drifts */
		{ 10, 1, 0.010, 0.003, 0, 2 },
	};
	int n = 6000;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		const struct shape *sh = &shapes[s];
		enum pstat_side order[40];
		struct pstat_boot b[40];
		int nb = 2 * sh->boots;
		abba(order, nb);
		struct pstat_prior p = { .within = sh->within * sh->prior_scale, .between = sh->between * sh->prior_scale,
					 .df = INFINITY };
		int calls = 0;
		for (int i = 0; i < n; i++) {
			draw(b, order, nb, sh->runs, 0, sh->within, sh->between, sh->drift);
			calls += pstat_effect(b, nb, &p, 0.95).verdict != PSTAT_SAME;
		}
		double rate = (double)calls / n;
		print_message("shape %zu (%d boots x %d runs): A/A false calls %.2f%%\n", s, sh->boots, sh->runs,
			      rate * 100);
		assert_true(rate <= 0.05 + 2.5 * sqrt(0.05 * 0.95 / n));
	}
}

/* --until: looks after every boot (deciding when the fewer-booted side gains
 * one), up to 8 boots a side; an A/A plan calls a change at any look at most
 * 5% of the time, and the spending leaves the last look most of the rate. */
static void test_until_rate(void **state)
{
	int max = 8, n = 4000, calls = 0;
	enum pstat_side order[16];
	abba(order, 2 * max);
	struct pstat_prior p = { .within = 0.01, .between = 0.005, .df = INFINITY };
	for (int i = 0; i < n; i++) {
		struct pstat_boot b[16];
		draw(b, order, 2 * max, 2, 0, 0.01, 0.005, 0);
		int na = 0, nbb = 0, m = 0;
		bool called = false;
		for (int k = 0; k < 2 * max && !called; k++) {
			if (b[k].side == PSTAT_A)
				na++;
			else
				nbb++;
			int mm = na < nbb ? na : nbb;
			if (mm == m)
				continue;
			m = mm;
			struct pstat_effect e = pstat_effect(b, k + 1, &p, pstat_look_conf(m, max, 0.05));
			called = e.verdict != PSTAT_SAME;
		}
		calls += called;
	}
	double rate = (double)calls / n, alpha = 0;
	print_message("--until, 8 looks: A/A plans calling a change %.2f%%\n", rate * 100);
	assert_true(rate <= 0.05 + 2.5 * sqrt(0.05 * 0.95 / n));
	for (int m = 1; m <= max; m++)
		alpha += 1 - pstat_look_conf(m, max, 0.05);
	assert_float_equal(alpha, 0.05, 1e-12);
	assert_true(1 - pstat_look_conf(max, max, 0.05) > 0.3 * 0.05);
	assert_true(1 - pstat_look_conf(1, max, 0.05) < 0.001);
}

/* What a design promises before it runs is what it finds: a change of the
 * promised size, with noise as the prior says, is found 9 times in 10 (at
 * least 85 in 100), and a change of half that size is not found so often. */
static void test_resolution_delivered(void **state)
{
	static const struct shape shapes[] = {
		{ 1, 1, 0.010, 0.010, 0, 1 }, { 3, 1, 0.010, 0.005, 0, 1 }, { 3, 2, 0.010, 0.005, 0, 1 },
		{ 5, 2, 0.010, 0.005, 0, 1 },
	};
	int n = 3000;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		const struct shape *sh = &shapes[s];
		struct pstat_prior p = { .within = sh->within, .between = sh->between, .df = INFINITY };
		double res = pstat_resolution(&p, sh->boots, sh->runs, 0.95, 0.9);
		enum pstat_side order[20];
		struct pstat_boot b[20];
		int nb = 2 * sh->boots, found = 0, found_half = 0;
		abba(order, nb);
		for (int i = 0; i < n; i++) {
			draw(b, order, nb, sh->runs, -res, sh->within, sh->between, 0);
			found += pstat_effect(b, nb, &p, 0.95).verdict == PSTAT_LOWER;
			draw(b, order, nb, sh->runs, -res / 2, sh->within, sh->between, 0);
			found_half += pstat_effect(b, nb, &p, 0.95).verdict == PSTAT_LOWER;
		}
		print_message("%d boots x %d runs: promises %.2f%%, found %.1f%% (half of it %.1f%%)\n", sh->boots,
			      sh->runs, pstat_pct(res), 100.0 * found / n, 100.0 * found_half / n);
		assert_true(found >= 0.85 * n);
		assert_true(found_half < 0.85 * n);
	}
	/* more boots resolve finer; no boots resolve nothing */
	assert_true(pstat_resolution(&defaults, 6, 1, 0.95, 0.9) < pstat_resolution(&defaults, 3, 1, 0.95, 0.9));
	assert_true(isnan(pstat_resolution(&defaults, 0, 1, 0.95, 0.9)));
}

static void test_settled(void **state)
{
	struct pstat_effect e = { .verdict = PSTAT_SAME, .lo = -0.01, .hi = 0.015 };
	assert_true(pstat_settled(&e, 0.02));
	assert_false(pstat_settled(&e, 0.012));
	assert_float_equal(pstat_rules_out(&e), 0.015, 1e-12);
	e.verdict = PSTAT_HIGHER;
	e.lo = 0.001;
	e.hi = 0.2;
	assert_true(pstat_settled(&e, 0.01));
	e.verdict = PSTAT_NA;
	assert_false(pstat_settled(&e, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pct_log),	     cmocka_unit_test(test_unpaired_known),
		cmocka_unit_test(test_paired_drift), cmocka_unit_test(test_prior_only),
		cmocka_unit_test(test_pair_factor),  cmocka_unit_test(test_aa_rate),
		cmocka_unit_test(test_until_rate),   cmocka_unit_test(test_resolution_delivered),
		cmocka_unit_test(test_settled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
