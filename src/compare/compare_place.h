/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Like with like for a pair test (context1): which placement of its samples a comparison
 * judges, and a run's test scored from them (compare_place.c); compare and kbench plan's
 * report both judge it so. */
#ifndef KBENCH_COMPARE_PLACE_H
#define KBENCH_COMPARE_PLACE_H

#include <stdbool.h>

#include "run.h"

/* Where a pair test's samples ran on each side (compare_place.c), and what the row compares:
 * only samples of one placement, in the runs that have them, or (differs) nothing, since no
 * placement is on enough runs of both sides. */
struct place_pick {
	int n[2][PLACE_COUNT]; /* samples per placement, side A and side B */
	enum placement only;   /* PLACE_UNKNOWN: every sample (the sides ran alike, or cannot say) */
	bool differs;
	/* with only: each sample by its time placed `only` (every sample of both sides
	 * knows its shares of time), not by whether all of it was */
	bool by_time;
	int runs[2], of[2];    /* with only: each side's runs that have a sample of it, of its runs */
};
void compare_place_pick(struct place_pick *p, const struct run *const *a, int na, const struct run *const *b,
			int nb, int copies, const char *id);
/* t scored from its samples placed `only` alone, into out (free with compare_place_free):
 * false when it has none (or only is PLACE_UNKNOWN). by_time: from each sample's time
 * placed so, where that was most of it (struct place_pick). */
bool compare_place_subset(const struct test_result *t, enum placement only, bool by_time, struct test_result *out);
void compare_place_free(struct test_result *subset);
/* t's score from the samples (or the time) placed `only`; NAN when it has none. */
double compare_place_score(const struct test_result *t, enum placement only, bool by_time);
/* The log change block b's index takes with its test id scored so (the index is the geometric
 * mean of its tests' ratios): 0 for a test outside the index, NAN when the run has no sample of
 * that placement (its index is left out, as the row is). */
double compare_place_index_shift(const struct run_block *b, const char *id, enum placement only, bool by_time);

#endif
