/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's pace: how fast the observer runs a fixed chain of arithmetic, every interval, beside the workers. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "stats.h"
#include "telemetry/source.h"

/*
 * Between two runs of one kernel a test's mean moves two to four times what
 * its own samples predict, and every test of a run moves together: the
 * machine itself ran faster or slower for minutes (on a VM the host's load,
 * on a laptop the clock and the heat). make bench-host-pace measured it: a
 * chain timed on the other CPU follows the runs' means (r 0.33-0.81 per
 * test, 0.71-0.85 for the index). This source times that chain at every
 * interval in the observer's own thread CPU time, so a wait for a CPU the
 * workers hold does not count: what moves it is how fast the CPU ran the
 * observer while it ran. A plan's report takes the pace out of the runs'
 * scores as a covariate (plan_pace.c), beside the plain answer.
 *
 * The chain is a 64-bit multiply-add recurrence: each step needs the last,
 * and a compiler cannot fold it or a core rename it away (an `add $1` chain
 * is folded by recent cores: issue 34). Its length is set as the source
 * opens, so that a reading takes about PACE_READING_S on this machine
 * (0.3 ms: 0.06% of one CPU at the default interval, on a 2026 server core
 * or a 2009 netbook's Atom alike), and stays for the run: the rate, not
 * the length, is what runs compare.
 */
#define PACE_READING_S 0.0003
#define PACE_MIN_STEPS 20000
#define PACE_MAX_STEPS 4000000
#define PACE_MAX_TICKS 65536 /* per test: nine hours at the default interval */

/* The chain's rate over steps in millions of steps a second of this thread's CPU time; NAN when the clock fails. */
static double pace_measure(long steps)
{
	static volatile uint64_t seed = 1;
	struct timespec a, b;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a) != 0)
		return NAN;
	uint64_t x = seed;
	for (long i = 0; i < steps; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	seed = x;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b) != 0)
		return NAN;
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
	return s > 0 ? steps / s / 1e6 : NAN;
}

/* ---- the source: series pace (M/s, every interval); summaries pace.median, pace.n ---- */

struct pace_state {
	long steps; /* a reading's chain */
	double *v;  /* the test's readings */
	int n, cap;
};

static int pace_open(struct telemetry_slot *s, const struct telemetry_ctx *c, char *err, size_t errlen)
{
	struct pace_state *st = s->priv;
	/* the best of three short chains sets the length (the first warms the core up) */
	double rate = NAN;
	for (int i = 0; i < 3; i++) {
		double r = pace_measure(PACE_MIN_STEPS);
		if (!isnan(r) && (isnan(rate) || r > rate))
			rate = r;
	}
	s->available = !isnan(rate);
	if (!s->available) {
		snprintf(s->status, sizeof s->status, "n/a: no thread CPU clock: %s", strerror(errno));
		return 0;
	}
	double steps = rate * 1e6 * PACE_READING_S;
	st->steps = steps < PACE_MIN_STEPS ? PACE_MIN_STEPS : steps > PACE_MAX_STEPS ? PACE_MAX_STEPS : (long)steps;
	/* not the length: the status is the run's meter, and two runs' meters that differ are said */
	snprintf(s->status, sizeof s->status, "a chain of multiply-adds timed in the observer's CPU time");
	return 0;
}

/* A reading, into the series and (during a test) the test's list. */
static void pace_read(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct pace_state *st = s->priv;
	if (!s->available)
		return;
	double v = pace_measure(st->steps);
	if (isnan(v))
		return;
	telemetry_push(c, "pace", "M/s", v);
	snprintf(s->reading, sizeof s->reading, "%.0f M/s", v);
	if (!c->in_test || st->n >= PACE_MAX_TICKS)
		return;
	if (st->n == st->cap) {
		int cap = st->cap ? 2 * st->cap : 256;
		double *nv = realloc(st->v, (size_t)cap * sizeof *nv);
		if (!nv)
			return;
		st->v = nv;
		st->cap = cap;
	}
	st->v[st->n++] = v;
}

/* Every interval while the test runs (its samples and the pauses between
 * them: the machine's pace, not the test's), as it begins and after each
 * sample, so a test of a few short samples has readings too. */
static void pace_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct pace_state *st = s->priv;
	st->n = 0;
	pace_read(s, c);
}

/* The median, not the mean: a reading the observer lost to an interrupt
 * mid-chain is slow by chance, not because the machine was. */
static void pace_test_end(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
			  struct throttle_inputs *in)
{
	struct pace_state *st = s->priv;
	if (!s->available)
		return;
	if (st->n < 3) {
		telemetry_set_or_na(tr, "pace.median", NAN, "under three readings during the test");
		return;
	}
	test_summary_set(tr, "pace.median", stats_median(st->v, st->n), NULL);
	test_summary_set(tr, "pace.n", st->n, NULL);
}

static void pace_test_line(const struct test_result *tr, char *buf, size_t size)
{
	char v[48];
	telemetry_fmt_kv(v, sizeof v, test_summary_get(tr, "pace.median"), "%.0f M/s");
	snprintf(buf, size, "pace %s", v);
}

static void pace_close(struct telemetry_slot *s)
{
	struct pace_state *st = s->priv;
	free(st->v);
}

/* Not a sensor (no title): kbench sensors does not list it. */
const struct telemetry_source pace_source = {
	.name = "pace",
	.what = "the machine's pace",
	.size = sizeof(struct pace_state),
	.open = pace_open,
	.sample = pace_read,
	.close = pace_close,
	.test_begin = pace_test_begin,
	.sample_end = pace_read,
	.test_end = pace_test_end,
	.test_line = pace_test_line,
};
