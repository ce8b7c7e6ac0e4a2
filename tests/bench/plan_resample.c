/* SPDX-License-Identifier: GPL-2.0-or-later */
/* make bench-sensitivity's plan shapes by resampling: plans drawn from a pool of measured A/A runs, B's scores shifted by a known amount, judged as kbench plan judges them. */
/*
 * plan_resample NAME [--plans N] [--seed S] [--shapes LIST] [--shifts LIST] [--keep-busy] [--same-pace]
 *               [--boots-only]
 *
 * NAME: the stored runs of one kernel and one setting that make the pool (a
 * name or a comma list, as `kbench compare` takes a group). Each simulated
 * plan draws its boots' runs from the pool without replacement, shifts every
 * score of B's runs down by x% (so B's index is exactly x% lower: a real
 * measured noise, a known change), and decides its rows with the plan's own
 * analysis (src/plan/plan_report.c) on floors learned from the pool. A shape is
 * BOOTSxRUNS ("3x1": 3 boots a kernel, 1 run a boot), untilX:BOOTSxRUNS (--until
 * X%, at most BOOTS boots a kernel, looking after every boot), or today /
 * today-default: no plan, kbench compare of one run a side on the pool's
 * floors or on a new user's default floors (the figure before plans). What it cannot
 * show: a run made in another boot of a real reboot (the pool's runs come from
 * one boot, hours apart at most), so the noise between boots here is the drift
 * between runs; the real plan confirms one size (tests/bench/sensitivity_plan.sh).
 * --same-pace judges each plan by its answer at the same pace of the machine
 * (plan_pace.h: the runs' pace.median taken out) instead of the plain one; the
 * shift scales the scores, not the pace, as a kernel that leaves the clock
 * alone would. The today shapes have no such answer and are skipped. That
 * answer rests on the plan's boots alone; --boots-only makes the plain one do
 * the same (no floors learned from the pool as a prior, which may only widen
 * an interval), so the two differ by the pace alone.
 *
 * Prints, per shape: minutes of runs a kernel; the resolution it promises; the
 * A/A plans' false calls (index, rows); each shift's share found (index slower);
 * the share found at the promised size; the smallest shift found 9 times in 10.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "noise.h"
#include "plan.h"
#include "plan_report.h"
#include "plan_stats.h"
#include "run.h"
#include "store.h"

static uint64_t rng = 0x243f6a8885a308d3ull;
static unsigned below(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Every score of a run times f, and its samples' counts, from which a plan scores context1
 * again on one placement: its index moves by exactly f. */
static void scale(struct run *r, double f)
{
	for (int b = 0; b < r->nblocks; b++) {
		struct run_block *bl = &r->blocks[b];
		bl->index_score *= f;
		for (int t = 0; t < bl->ntests; t++) {
			struct test_result *tr = &bl->tests[t];
			tr->score *= f;
			for (int s = 0; s < tr->nsamples; s++)
				for (int c = 0; c < tr->samples[s].copies; c++)
					tr->samples[s].count[c] *= f;
		}
	}
}

/* The load other engineers put on a shared machine marks runs busy, and a
 * busy row is left out; --keep-busy takes the load as part of the noise. */
static void forget_busy(struct run *r)
{
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++) {
			struct test_result *tr = &r->blocks[b].tests[t];
			for (int k = 0; k < tr->nsummary; k++)
				if (!strcmp(tr->summary[k].key, "others.cpu") || !strcmp(tr->summary[k].key, "throttled"))
					tr->summary[k].has_value = false;
		}
}

struct shape {
	char text[32];
	int boots, runs;
	double until; /* a log ratio; 0: none */
	int today;    /* 1: kbench compare of one run a side on the pool's floors; 2: on default floors */
};

static bool same_pace; /* --same-pace: each row's answer at the same pace of the machine */
static bool boots_only; /* --boots-only: the plain answer without the pool's floors as a prior */

struct outcome {
	bool index_found, index_false;
	int rows, rows_false;
	int boots_used; /* a kernel's */
};

/* What kbench compare says today of one run a side: no plan, the runs' own
 * samples and the noise floors (learned, or a new user's defaults). */
static struct outcome one_compare(const struct shape *sh, struct run **pool, int npool, const struct noise_table *nt,
				  double x)
{
	struct outcome o = { .boots_used = 1 };
	int i = (int)below((unsigned)npool), j = (int)below((unsigned)(npool - 1));
	j += j >= i;
	const struct run *a = pool[i];
	struct run *b = pool[j];
	scale(b, 1 - x);
	char err[256];
	struct compare_opts opt = { .noise = sh->today == 1 ? nt : NULL };
	struct compare *c = compare_runs(&a, 1, (const struct run *const *)&b, 1, &opt, err, sizeof err);
	scale(b, 1 / (1 - x));
	for (int k = 0; c && k < c->nblocks; k++) {
		const struct compare_block *cb = &c->blocks[k];
		if (cb->has_index && cb->index.verdict != VERDICT_NA) {
			o.index_found = cb->index.verdict == VERDICT_SLOWER;
			o.index_false = cb->index.verdict != VERDICT_SAME;
		}
		for (int r = 0; r < cb->nrows; r++)
			if (!cb->rows[r].detail && cb->rows[r].verdict != VERDICT_NA) {
				o.rows++;
				o.rows_false += cb->rows[r].verdict != VERDICT_SAME;
			}
	}
	compare_free(c);
	return o;
}

/* One simulated plan: shift x (a fraction) on B; the pool's order shuffled. */
static struct outcome one_plan(const struct shape *sh, struct run **pool, int npool, const struct noise_table *nt,
			       double x)
{
	if (sh->today)
		return one_compare(sh, pool, npool, nt, x);
	struct outcome o = { 0 };
	struct plan p;
	char err[256];
	plan_init(&p, "r", "A", "B", sh->boots, sh->runs, sh->until, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err);
	int need = 2 * sh->boots * sh->runs, idx[512];
	for (int i = 0; i < npool; i++)
		idx[i] = i;
	for (int i = 0; i < need && i < npool; i++) {
		int j = i + (int)below((unsigned)(npool - i));
		int t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
	}
	struct run *runs[512];
	int boot_of[512], n = 0, m = 0;
	struct plan_result res = { 0 };
	bool have = false;
	for (int s = 0; s < 2 * sh->boots; s++) {
		char side = plan_slot_side(&p, s);
		struct plan_boot *b = plan_add_boot(&p, s, side);
		b->state = PLAN_BOOT_DONE;
		for (int k = 0; k < sh->runs; k++) {
			runs[n] = pool[idx[n % npool]];
			if (side == 'B')
				scale(runs[n], 1 - x);
			boot_of[n++] = s;
		}
		int mm = plan_done(&p, 'A') < plan_done(&p, 'B') ? plan_done(&p, 'A') : plan_done(&p, 'B');
		bool last = s == 2 * sh->boots - 1;
		if (sh->until > 0 ? mm > m : last) {
			m = mm;
			if (have)
				plan_result_free(&res);
			plan_analyze_runs(&p, runs, boot_of, n, boots_only ? NULL : nt, &res);
			have = true;
			if (sh->until > 0 && res.settled)
				break;
		}
	}
	o.boots_used = m;
	for (int i = 0; i < res.nrows; i++) {
		const struct plan_row *r = &res.rows[i];
		int v = same_pace ? r->pace_verdict : r->verdict;
		if (v == VERDICT_NA)
			continue;
		bool called = v != VERDICT_SAME;
		if (!strcmp(r->id, NOISE_INDEX_ID)) {
			o.index_found = v == VERDICT_SLOWER;
			o.index_false = called;
		} else {
			o.rows++;
			o.rows_false += called;
		}
	}
	for (int i = 0; i < n; i++)
		if (p.boot[boot_of[i]].side == 'B')
			scale(runs[i], 1 / (1 - x));
	if (have)
		plan_result_free(&res);
	plan_free(&p);
	return o;
}

struct tally {
	int plans, index_found, index_false, rows, rows_false;
	double boots;
};

static struct tally many(const struct shape *sh, struct run **pool, int npool, const struct noise_table *nt, double x,
			 int plans)
{
	struct tally t = { .plans = plans };
	for (int i = 0; i < plans; i++) {
		struct outcome o = one_plan(sh, pool, npool, nt, x);
		t.index_found += o.index_found;
		t.index_false += o.index_false;
		t.rows += o.rows;
		t.rows_false += o.rows_false;
		t.boots += o.boots_used;
	}
	t.boots /= plans;
	return t;
}

/* A share and its 95% interval (Wilson's), "4.0% (2.8-5.6)". */
static const char *share(int k, int n)
{
	static char buf[4][48];
	static int next;
	char *b = buf[next++ % 4];
	if (n <= 0) {
		snprintf(b, 48, "--");
		return b;
	}
	double p = (double)k / n, z = 1.96, d = 1 + z * z / n;
	double c = (p + z * z / (2 * n)) / d, h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
	snprintf(b, 48, "%.1f%% (%.1f-%.1f)", 100 * p, 100 * fmax(0, c - h), 100 * fmin(1, c + h));
	return b;
}

static int parse_shape(const char *s, struct shape *sh)
{
	memset(sh, 0, sizeof *sh);
	snprintf(sh->text, sizeof sh->text, "%s", s);
	if (!strcmp(s, "today") || !strcmp(s, "today-default")) {
		sh->today = s[5] ? 2 : 1;
		sh->boots = sh->runs = 1;
		return 0;
	}
	double until = 0;
	if (!strncmp(s, "until", 5)) {
		char *end;
		until = strtod(s + 5, &end);
		if (*end != ':' || !(until > 0))
			return -1;
		s = end + 1;
	}
	if (sscanf(s, "%dx%d", &sh->boots, &sh->runs) != 2 || sh->boots < 1 || sh->boots > PLAN_MAX_BOOTS ||
	    sh->runs < 1 || sh->runs > PLAN_MAX_RUNS)
		return -1;
	sh->until = until > 0 ? pstat_log(until) : 0;
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = NULL, *shapes = "today-default,today,1x1,3x1,3x2,5x2,10x1,until2:10x1", *shifts = "1,2,3,5";
	int plans = 400;
	bool keep_busy = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--plans") && i + 1 < argc)
			plans = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			rng ^= strtoull(argv[++i], NULL, 10) * 0x9e3779b97f4a7c15ull;
		else if (!strcmp(argv[i], "--shapes") && i + 1 < argc)
			shapes = argv[++i];
		else if (!strcmp(argv[i], "--shifts") && i + 1 < argc)
			shifts = argv[++i];
		else if (!strcmp(argv[i], "--keep-busy"))
			keep_busy = true;
		else if (!strcmp(argv[i], "--same-pace"))
			same_pace = true;
		else if (!strcmp(argv[i], "--boots-only"))
			boots_only = true;
		else if (argv[i][0] != '-' && !name)
			name = argv[i];
		else {
			fprintf(stderr, "usage: plan_resample NAME [--plans N] [--seed S] [--shapes LIST] [--shifts LIST] [--keep-busy] [--same-pace] [--boots-only]\n");
			return 2;
		}
	}
	if (!name || plans < 1) {
		fprintf(stderr, "usage: plan_resample NAME [--plans N] [--seed S] [--shapes LIST] [--shifts LIST] [--keep-busy] [--same-pace] [--boots-only]\n");
		return 2;
	}
	char err[512];
	int npool;
	struct run **pool = store_load_group(name, &npool, err, sizeof err);
	if (!pool) {
		fprintf(stderr, "plan_resample: %s\n", err);
		return 1;
	}
	if (npool > 512)
		npool = 512;
	double minutes = 0;
	for (int i = 0; i < npool; i++) {
		if (keep_busy)
			forget_busy(pool[i]);
		const struct run *r = pool[i];
		if (r->nblocks)
			minutes += (double)(r->blocks[r->nblocks - 1].end - r->blocks[0].start) / 60 / npool;
	}
	struct noise_table nt;
	noise_learn(&nt, (const struct run *const *)pool, npool, NULL, 0);
	const struct noise_floor *ix = noise_get(&nt, NOISE_INDEX_ID, pool[0]);
	char setting[64];
	noise_setting(pool[0], setting, sizeof setting);
	printf("pool: %d runs named %s (%s), %.1f min a run; index floor %.2f%% (learned %.2f%% on %d df)%s%s%s\n", npool,
	       name, setting, minutes, 100 * noise_sigma(ix), ix->learned >= 0 ? 100 * ix->learned : NAN, ix->df,
	       keep_busy ? "; busy rows kept (the machine's load counted as noise)" : "",
	       same_pace ? "; judged at the same pace of the machine" : "",
	       boots_only ? "; on the boots alone" : "");
	printf("%-16s %7s %9s %-22s %-22s %s\n", "shape", "min/krn", "promised", "A/A index called", "A/A rows called",
	       "index found at shift ... | at the promise | smallest found 9 in 10");
	char list[512];
	snprintf(list, sizeof list, "%s", shapes);
	for (char *save, *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		struct shape sh;
		if (parse_shape(s, &sh) < 0 || 2 * sh.boots * sh.runs > npool) {
			printf("%-16s (skipped: not a shape, or the pool has fewer than %d runs)\n", s, 2 * sh.boots * sh.runs);
			continue;
		}
		if (same_pace && sh.today) {
			printf("%-16s (skipped: one run a side has no answer at the same pace)\n", s);
			continue;
		}
		struct pstat_prior pr = { .within = noise_sigma(ix), .between = noise_sigma(ix), .df = noise_dof(ix),
					  .calibrated = ix->df > 0 };
		double conf = sh.until > 0 ? pstat_look_conf(sh.boots, sh.boots, 0.05) : 0.95;
		double promise = sh.today ? NAN : pstat_resolution(&pr, sh.boots, sh.runs, conf, 0.9);
		struct tally aa = many(&sh, pool, npool, &nt, 0, plans);
		printf("%-16s %7.1f %8.2f%% %-22s %-22s", sh.text, aa.boots * sh.runs * minutes, pstat_pct(promise),
		       share(aa.index_false, aa.plans), share(aa.rows_false, aa.rows));
		char sl[512];
		snprintf(sl, sizeof sl, "%s", shifts);
		for (char *s2, *x = strtok_r(sl, ",", &s2); x; x = strtok_r(NULL, ",", &s2)) {
			struct tally t = many(&sh, pool, npool, &nt, atof(x) / 100, plans);
			printf(" %s%%:%s", x, share(t.index_found, t.plans));
		}
		if (isfinite(promise)) {
			struct tally at = many(&sh, pool, npool, &nt, -expm1(-promise), plans);
			printf(" | %s", share(at.index_found, at.plans));
		} else {
			printf(" | --");
		}
		/* the smallest shift on a 0.25% grid that is found 9 times in 10 */
		const double grid_top = 15;
		double smallest = NAN;
		for (double x = 0.25; x <= grid_top && isnan(smallest); x += 0.25) {
			struct tally t = many(&sh, pool, npool, &nt, x / 100, plans / 2 > 100 ? plans / 2 : plans);
			if (t.index_found >= 0.9 * t.plans)
				smallest = x;
		}
		/* a machine that noisy: the shifts asked for (--shifts 20,40,80) say how far above */
		if (isnan(smallest))
			printf(" | over %.0f%%\n", grid_top);
		else
			printf(" | %.2f%%\n", smallest);
		fflush(stdout);
	}
	noise_free(&nt);
	for (int i = 0; i < npool; i++)
		run_free(pool[i]);
	free(pool);
	return 0;
}
