/* UnixBench's scoring rules: drop the worst third, geometric means, the index. */
#ifndef KBENCH_SCORE_H
#define KBENCH_SCORE_H

#include <stddef.h>

struct test_result;
struct run_block;

/* Rate of one sample: count / (time / timebase), or count itself when timebase is 0. */
double score_rate(double count, double time, int timebase);

/* How many of n samples UnixBench keeps: n - floor(n / 3). */
int score_kept(int n);

/* Score of a test from its samples (sets score, time, kept, index, spread).
 * Does nothing to a test without samples (an imported result keeps its stated score). */
void score_test(struct test_result *t);

/* index = score / baseline * 10, or 0 when there is no baseline. */
double score_index(double score, double baseline);

/* Geometric mean of the indexes of the block's system tests (10 * exp(mean ln ratio)). */
void score_block(struct run_block *b);

/* Geometric mean of n values, UnixBench style: values <= floor add no log
 * term but still count in the divisor. */
double score_geomean(const double *v, size_t n, double floor);

#endif
