/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Deterministic normal noise for the unit tests' made-up samples (xorshift64 and Box-Muller). Include after cmocka.h. */
#ifndef KBENCH_TESTS_GAUSS_H
#define KBENCH_TESTS_GAUSS_H

#include <math.h>

/* The generator's state: a test that needs its noise again from the start sets it. */
static unsigned long long gauss_rng = 88172645463325252ULL;

/* A normal deviate, mean 0 and sd 1: the same sequence on every machine and build. */
__attribute__((unused)) static double gauss(void)
{
	gauss_rng ^= gauss_rng << 13, gauss_rng ^= gauss_rng >> 7, gauss_rng ^= gauss_rng << 17;
	double u = ((gauss_rng >> 11) + 0.5) / 9007199254740992.0;
	gauss_rng ^= gauss_rng << 13, gauss_rng ^= gauss_rng >> 7, gauss_rng ^= gauss_rng << 17;
	double v = ((gauss_rng >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

#endif
