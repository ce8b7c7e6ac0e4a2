/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Like with like: which placement of a pair test's samples (context1) both sides share, and a run's test scored from it. */
#include "compare_place.h"

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
 *
 * A sample whose pair spent part of its time each way is "mixed". When every
 * sample of both sides knows its shares of checks and of time on one CPU,
 * the part of each sample spent placed one way is a measurement of that
 * placement: its round trips (the checks' share of the count) over its time
 * (the time's share of the elapsed). Unpinned context1 on a 2-CPU VM spends
 * 1-9% of its time on one CPU, at 7-9 times the rate, and so reads 5-75%
 * above its rate across CPUs (19-31 k lps against 17.5 k pinned across); the
 * part across read 17.9 k, the pinned runs 17.0 k (2026-12-07). Then a sample
 * has a placement when most of its time (every copy's) was placed so, and is
 * compared by that part.
 */
static int runs_needed(int n)
{
	return n <= 2 ? n : (n + 1) / 2; /* from 3 runs on, half is at least two */
}

/* Most of every copy's time placed k: the sample's part placed k stands for it. */
static bool mostly(const struct sample *s, enum placement k)
{
	for (int c = 0; c < s->copies; c++)
		if (!(sample_time_in(s, c, k) >= 0.5))
			return false;
	return s->copies > 0;
}

/* Every copy of a sample with a pair knows its share of time too. */
static bool timed(const struct sample *s)
{
	for (int c = 0; c < s->copies; c++)
		if (s->shared && isfinite(s->shared[c]) && !(s->shared_time && isfinite(s->shared_time[c])))
			return false;
	return true;
}

void compare_place_pick(struct place_pick *p, const struct run *const *a, int na, const struct run *const *b,
			int nb, int copies, const char *id)
{
	memset(p, 0, sizeof *p);
	/* per placement, each side's runs that have a sample of it, whole and by most of its time */
	int runs_with[2][PLACE_COUNT] = { { 0 } }, runs_most[2][PLACE_COUNT] = { { 0 } }, nruns[2] = { 0, 0 };
	bool all_timed = true;
	for (int side = 0; side < 2; side++)
		for (int r = 0; r < (side ? nb : na); r++) {
			const struct run_block *bl = run_find_block(side ? b[r] : a[r], copies);
			const struct test_result *t = bl ? run_block_find_test(bl, id) : NULL;
			if (!t || !(t->status == TEST_DONE || t->status == TEST_IMPORTED) || !t->nsamples)
				continue;
			bool has[PLACE_COUNT] = { false }, most[PLACE_COUNT] = { false };
			for (int s = 0; s < t->nsamples; s++) {
				const struct sample *sm = &t->samples[s];
				enum placement pl = sample_placement(sm);
				p->n[side][pl]++;
				has[pl] = true;
				all_timed = all_timed && pl != PLACE_UNKNOWN && timed(sm);
				for (int k = PLACE_ONE; k <= PLACE_TWO; k++)
					most[k] = most[k] || mostly(sm, k);
			}
			nruns[side]++;
			for (int k = 0; k < PLACE_COUNT; k++) {
				runs_with[side][k] += has[k];
				runs_most[side][k] += most[k];
			}
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
	p->by_time = all_timed;
	if (all_timed)
		memcpy(runs_with, runs_most, sizeof runs_with);
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
	p->by_time = p->by_time && !p->differs;
	for (int side = 0; side < 2 && !p->differs; side++) {
		p->runs[side] = runs_with[side][best];
		p->of[side] = nruns[side];
	}
}

bool compare_place_subset(const struct test_result *t, enum placement only, bool by_time, struct test_result *out)
{
	memset(out, 0, sizeof *out);
	if (only == PLACE_UNKNOWN)
		return false;
	*out = *t;
	out->nsamples = 0;
	out->samples = malloc(((size_t)t->nsamples + 1) * sizeof *out->samples);
	/* its own copy: scoring a quick run sets its quick_lift summary */
	out->summary = malloc(((size_t)t->nsummary + 1) * sizeof *out->summary);
	/* its own counts, the first sample's (compare_place_free): a part's count is the sample's scaled */
	size_t ncounts = 1;
	for (int s = 0; s < t->nsamples; s++)
		ncounts += (size_t)t->samples[s].copies;
	double *counts = malloc(ncounts * sizeof *counts), *next = counts;
	if (!out->samples || !out->summary || !counts)
		abort();
	if (t->nsummary)
		memcpy(out->summary, t->summary, (size_t)t->nsummary * sizeof *out->summary);
	for (int s = 0; s < t->nsamples; s++) {
		const struct sample *in = &t->samples[s];
		if (by_time ? !mostly(in, only) : sample_placement(in) != only)
			continue;
		struct sample *o = &out->samples[out->nsamples++];
		*o = *in; /* shares the times and CPUs: read only */
		o->count = next;
		for (int c = 0; c < in->copies; c++) {
			double checks = only == PLACE_ONE ? in->shared[c] : 1 - in->shared[c];
			/* the round trips placed so over the time placed so, as a rate over the whole sample */
			next[c] = by_time ? in->count[c] * checks / sample_time_in(in, c, only) : in->count[c];
		}
		next += in->copies;
	}
	if (!out->nsamples) {
		free(counts);
		compare_place_free(out);
		return false;
	}
	score_test(out);
	return true;
}

void compare_place_free(struct test_result *subset)
{
	if (subset->nsamples > 0)
		free(subset->samples[0].count);
	free(subset->samples);
	free(subset->summary);
	memset(subset, 0, sizeof *subset);
}

double compare_place_score(const struct test_result *t, enum placement only, bool by_time)
{
	struct test_result placed;
	if (!compare_place_subset(t, only, by_time, &placed))
		return NAN;
	double x = placed.score;
	compare_place_free(&placed);
	return x;
}

double compare_place_index_shift(const struct run_block *b, const char *id, enum placement only, bool by_time)
{
	const struct test_result *t = only != PLACE_UNKNOWN && b->index_tests > 0 ? run_block_find_test(b, id) : NULL;
	if (!t || !(t->baseline > 0) || !(t->score > 0) || strcmp(t->category, "system"))
		return 0;
	double x = compare_place_score(t, only, by_time);
	return x > 0 ? log(x / t->score) / b->index_tests : NAN;
}
