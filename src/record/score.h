/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's scoring rules: drop the worst third, geometric means, the index. */
#ifndef KBENCH_SCORE_H
#define KBENCH_SCORE_H

#include <stddef.h>

struct run;
struct run_block;
struct test_result;

/* Rate of one sample: count / (time / timebase), or count itself when timebase is 0. */
double score_rate(double count, double time, int timebase);

/* How many of n samples UnixBench keeps: n - floor(n / 3). */
int score_kept(int n);

/* Score of a test from its samples (sets score, time, kept, index, spread).
 * A quick run's test (test_is_quick: either rule) keeps every
 * sample and adds the lift of UnixBench's worst-third rule (score.c says how).
 * Does nothing to a test without samples (an imported result keeps its stated score). */
void score_test(struct test_result *t);

/* E[mean of the largest `keep` of n standard normal values]: how many
 * standard deviations keeping the best `keep` of n samples lifts their mean
 * (0.4566 for 7 of 10, 0.4231 for 2 of 3). */
double score_top_mean(int n, int keep);

/* index = score / baseline * 10, or 0 when there is no baseline. */
double score_index(double score, double baseline);

/* Geometric mean of the indexes of the block's system tests (10 * exp(mean ln ratio)). */
void score_block(struct run_block *b);

/* Recomputes every test's score/index and every block's index score. (It lives here, not
 * in run.c, so that score depends on run and not the other way round.) */
void run_rescore(struct run *r);

/* Geometric mean of n values, UnixBench style: values <= floor add no log
 * term but still count in the divisor. kbench's one geometric mean: with
 * floor 0 and positive values it is the plain exp(mean ln v). */
double score_geomean(const double *v, size_t n, double floor);

#endif
