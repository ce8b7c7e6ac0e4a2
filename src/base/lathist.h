/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A latency distribution in fixed, log-spaced buckets with exact counts: filled without allocating, read as percentiles. */
#ifndef KBENCH_LATHIST_H
#define KBENCH_LATHIST_H

#include <stdbool.h>
#include <stdint.h>

/* Values are whole nanoseconds. 0..7 ns have a bucket each; above, every
 * doubling has LATHIST_SUB buckets (a bucket is 1/8 to 1/15 of its value
 * wide, HdrHistogram's scheme with three significant bits). The last
 * bucket also holds everything from 2^36 ns (69 s) up. */
#define LATHIST_SUB 8
#define LATHIST_OCTAVES 33
#define LATHIST_BUCKETS (LATHIST_SUB + LATHIST_OCTAVES * LATHIST_SUB)

struct lat_hist {
	uint64_t n;        /* events */
	uint64_t met;      /* events within their deadline (the workload's; 0 without one) */
	uint64_t missed;   /* events past it */
	double sum;        /* ns, for the exact mean */
	uint64_t min, max; /* ns, exact; min is UINT64_MAX while n is 0 */
	uint64_t last;     /* ns, the latest event (cyclictest's "Act") */
	uint64_t count[LATHIST_BUCKETS];
};

void lathist_init(struct lat_hist *h);
int lathist_bucket(uint64_t ns);
/* A bucket's values: [lo, hi); the last bucket's hi is UINT64_MAX. */
uint64_t lathist_lo(int bucket);
uint64_t lathist_hi(int bucket);

/* One event: no call, no allocation, no lock (the measuring loops' form). */
static inline void lathist_add(struct lat_hist *h, uint64_t ns)
{
	int b;
	if (ns < LATHIST_SUB) {
		b = (int)ns;
	} else {
		int e = 63 - __builtin_clzll(ns); /* >= 3 */
		b = LATHIST_SUB + (e - 3) * LATHIST_SUB + (int)((ns >> (e - 3)) & (LATHIST_SUB - 1));
		if (b >= LATHIST_BUCKETS)
			b = LATHIST_BUCKETS - 1;
	}
	h->count[b]++;
	h->n++;
	h->sum += (double)ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->last = ns;
}

void lathist_merge(struct lat_hist *into, const struct lat_hist *from);
/* The q-quantile (0 < q <= 1) in ns: the value of rank ceil(q n), read as
 * the largest value its bucket holds, clamped to the exact min and max:
 * never under the true value, over it by less than a bucket's width
 * (1/8 of it at most); in the last bucket, the max. q = 1 is the max.
 * NAN when empty. */
double lathist_quantile(const struct lat_hist *h, double q);
double lathist_mean(const struct lat_hist *h); /* NAN when empty */
/* Share of events that met their deadline, in percent; NAN without deadlines. */
double lathist_met_pct(const struct lat_hist *h);

#endif
