/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency histograms: bucket edges, merging and percentiles. */
#include "lathist.h"

#include <math.h>
#include <string.h>

void lathist_init(struct lat_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

int lathist_bucket(uint64_t ns)
{
	struct lat_hist h = { .min = UINT64_MAX };
	lathist_add(&h, ns);
	for (int b = 0; b < LATHIST_BUCKETS; b++)
		if (h.count[b])
			return b;
	return LATHIST_BUCKETS - 1;
}

uint64_t lathist_lo(int b)
{
	if (b < LATHIST_SUB)
		return (uint64_t)b;
	int e = 3 + (b - LATHIST_SUB) / LATHIST_SUB, sub = (b - LATHIST_SUB) % LATHIST_SUB;
	return (uint64_t)(LATHIST_SUB + sub) << (e - 3);
}

uint64_t lathist_hi(int b)
{
	return b >= LATHIST_BUCKETS - 1 ? UINT64_MAX : lathist_lo(b + 1);
}

void lathist_merge(struct lat_hist *into, const struct lat_hist *from)
{
	if (!from->n)
		return;
	into->n += from->n;
	into->met += from->met;
	into->missed += from->missed;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->last = from->last;
	for (int b = 0; b < LATHIST_BUCKETS; b++)
		into->count[b] += from->count[b];
}

/* The rank of quantile q among n values, ceil(q n), in integers. As a
 * floating-point product it is off by one at some exact ranks: 0.07 * 100
 * is just above 7 in double, 0.05 * 100 just above 5 in i686's x87
 * extended precision. q is first rounded to parts per billion (every
 * percentile kbench reports is a whole number of those). */
static uint64_t lathist_rank(double q, uint64_t n)
{
	const uint64_t B = 1000000000u;
	uint64_t ppb = (uint64_t)llround(q * 1e9);
	uint64_t rank = n / B * ppb + ((n % B) * ppb + B - 1) / B;
	return rank < 1 ? 1 : rank;
}

double lathist_quantile(const struct lat_hist *h, double q)
{
	if (!h->n || !(q > 0))
		return NAN;
	if (q >= 1)
		return (double)h->max;
	uint64_t rank = lathist_rank(q, h->n), seen = 0;
	for (int b = 0; b < LATHIST_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= rank) {
			/* every value in [lo, hi) is at most hi - 1 */
			double v = b >= LATHIST_BUCKETS - 1 ? (double)h->max : (double)(lathist_hi(b) - 1);
			if (v > (double)h->max)
				v = (double)h->max;
			if (v < (double)h->min)
				v = (double)h->min;
			return v;
		}
	}
	return (double)h->max;
}

double lathist_mean(const struct lat_hist *h)
{
	return h->n ? h->sum / (double)h->n : NAN;
}

double lathist_met_pct(const struct lat_hist *h)
{
	uint64_t d = h->met + h->missed;
	return d ? 100.0 * (double)h->met / (double)d : NAN;
}
