/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Like with like: a pair test's samples (context1) compared only where both sides placed their pairs the same way. */
#include "compare.h"
#include "compare_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "score.h"

/*
 * On a 2-CPU machine context1 reads several times faster when its two
 * processes share a CPU than when every wake-up crosses CPUs, and where they
 * land is the scheduler's choice of the moment, not the kernel's speed. So a
 * row whose samples say where they ran (run.h, sample_placement) compares a
 * placement both sides measured: all their samples when every sample of both
 * ran one way, else only the samples of one placement, in the runs that have
 * one: a placement qualifies when every run of a side of one or two runs has
 * it, and half the runs (at least two) of a side of more; of two that
 * qualify, the one on more runs. Else nothing: the row is n/a. (Short runs
 * of three samples, many a side, as a plan makes them, seldom have one
 * placement on every run: requiring it left the row and the index n/a.)
 */
static int runs_needed(int n)
{
	return n <= 2 ? n : (n + 1) / 2; /* from 3 runs on, half is at least two */
}

void compare_place_pick(struct place_pick *p, const struct run *const *a, int na, const struct run *const *b,
			int nb, int copies, const char *id)
{
	memset(p, 0, sizeof *p);
	/* per placement, each side's runs that have a sample of it */
	int runs_with[2][PLACE_COUNT] = { { 0 } }, nruns[2] = { 0, 0 };
	for (int side = 0; side < 2; side++)
		for (int r = 0; r < (side ? nb : na); r++) {
			const struct run_block *bl = run_find_block(side ? b[r] : a[r], copies);
			const struct test_result *t = bl ? run_block_find_test(bl, id) : NULL;
			if (!t || !(t->status == TEST_DONE || t->status == TEST_IMPORTED) || !t->nsamples)
				continue;
			bool has[PLACE_COUNT] = { false };
			for (int s = 0; s < t->nsamples; s++) {
				enum placement pl = sample_placement(&t->samples[s]);
				p->n[side][pl]++;
				has[pl] = true;
			}
			nruns[side]++;
			for (int k = 0; k < PLACE_COUNT; k++)
				runs_with[side][k] += has[k];
		}
	int known[2] = { 0, 0 };
	for (int side = 0; side < 2; side++)
		known[side] = p->n[side][PLACE_ONE] + p->n[side][PLACE_TWO] + p->n[side][PLACE_MIXED];
	/* an older run, or a test without pairs: nothing to choose */
	if (!known[0] || !known[1])
		return;
	for (int k = PLACE_ONE; k <= PLACE_TWO; k++)
		if (p->n[0][k] == known[0] + p->n[0][PLACE_UNKNOWN] && p->n[1][k] == known[1] + p->n[1][PLACE_UNKNOWN])
			return; /* every sample of both sides ran this way: like with like already */
	int best = PLACE_UNKNOWN;
	for (int k = PLACE_ONE; k <= PLACE_TWO; k++) {
		if (runs_with[0][k] < runs_needed(nruns[0]) || runs_with[1][k] < runs_needed(nruns[1]))
			continue;
		int on = runs_with[0][k] + runs_with[1][k];
		int on_best = best == PLACE_UNKNOWN ? -1 : runs_with[0][best] + runs_with[1][best];
		if (on > on_best || (on == on_best && p->n[0][k] + p->n[1][k] > p->n[0][best] + p->n[1][best]))
			best = k;
	}
	p->only = (enum placement)best;
	p->differs = best == PLACE_UNKNOWN;
	for (int side = 0; side < 2 && !p->differs; side++) {
		p->runs[side] = runs_with[side][best];
		p->of[side] = nruns[side];
	}
}

bool compare_place_subset(const struct test_result *t, enum placement only, struct test_result *out)
{
	memset(out, 0, sizeof *out);
	if (only == PLACE_UNKNOWN)
		return false;
	*out = *t;
	out->nsamples = 0;
	out->samples = malloc(((size_t)t->nsamples + 1) * sizeof *out->samples);
	/* its own copy: scoring a quick run sets its quick_lift summary */
	out->summary = malloc(((size_t)t->nsummary + 1) * sizeof *out->summary);
	if (!out->samples || !out->summary)
		abort();
	if (t->nsummary)
		memcpy(out->summary, t->summary, (size_t)t->nsummary * sizeof *out->summary);
	for (int s = 0; s < t->nsamples; s++)
		if (sample_placement(&t->samples[s]) == only)
			out->samples[out->nsamples++] = t->samples[s]; /* shares the counts: read only */
	if (!out->nsamples) {
		compare_place_free(out);
		return false;
	}
	score_test(out);
	return true;
}

void compare_place_free(struct test_result *subset)
{
	free(subset->samples);
	free(subset->summary);
	memset(subset, 0, sizeof *subset);
}

void compare_place_footer(struct compare *c, const struct compare_row *row, const struct place_pick *p)
{
	if (!p->only && !p->differs)
		return;
	char side[2][80];
	for (int s = 0; s < 2; s++)
		snprintf(side[s], sizeof side[s], "%d on one CPU, %d on two%s", p->n[s][PLACE_ONE], p->n[s][PLACE_TWO],
			 p->n[s][PLACE_MIXED] ? ", some mixed" : "");
	if (p->differs)
		compare_push_footer(c, "%s placed its pairs of processes differently: A's samples %s; B's %s. "
				       "A placement is not a kernel's difference: the row is n/a "
				       "(--pair-cpus one or two measures one case).",
				    row->id, side[0], side[1]);
	else {
		const char *how = p->only == PLACE_ONE ? "with each pair on one CPU" : "with each pair on two CPUs";
		char runs[120] = "";
		if (p->runs[0] < p->of[0] || p->runs[1] < p->of[1])
			snprintf(runs, sizeof runs, ", in the runs that have them (A: %d of %d runs, B: %d of %d), "
						    "and the index on those runs",
				 p->runs[0], p->of[0], p->runs[1], p->of[1]);
		compare_push_footer(c, "%s compared on its samples %s alone%s (A's samples %s; B's %s): "
				       "a placement is not a kernel's difference.",
				    row->id, how, runs, side[0], side[1]);
	}
}
