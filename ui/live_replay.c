/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stored run played back on the run screen from its samples' start times and lengths, at a chosen speed. */
#include "live.h"

#include <math.h>
#include <poll.h>
#include <stdlib.h>

/* One sample on the replay's clock. */
struct slot {
	int b, t, s;
	double start, len;
};

static struct slot *slots;
static int nslots;
static double clock_now, clock_end;
static int cur = -1; /* the slot in progress, or -1 in a pause */
static bool replay_stop, replay_skip;

static void build_timeline(const struct run *r)
{
	free(slots);
	slots = NULL;
	nslots = 0;
	int cap = 0;
	double cursor = 0;
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++) {
			const struct test_result *tr = &r->blocks[b].tests[t];
			for (int s = 0; s < tr->nsamples; s++) {
				if (nslots == cap) {
					cap = cap ? cap * 2 : 64;
					slots = realloc(slots, (size_t)cap * sizeof *slots);
				}
				double len = sample_time(&tr->samples[s]);
				if (!(len > 0))
					len = 1;
				/* an old or imported file may not know when samples began */
				double st = tr->samples[s].start;
				if (!(st >= cursor))
					st = cursor;
				slots[nslots++] = (struct slot){ b, t, s, st, len };
				cursor = st + len;
			}
		}
	clock_end = cursor;
}

/* The event a live run would have sent at clock_now. */
static void replay_event(struct live *l)
{
	const struct run *r = l->run;
	cur = -1;
	int last = -1;
	for (int i = 0; i < nslots; i++) {
		if (slots[i].start <= clock_now)
			last = i;
		if (slots[i].start <= clock_now && clock_now < slots[i].start + slots[i].len) {
			cur = i;
			break;
		}
	}
	int at = cur >= 0 ? cur : last + 1 < nslots ? last + 1 : last;
	if (at < 0)
		return;
	const struct slot *sl = &slots[at];
	const struct test_result *tr = &r->blocks[sl->b].tests[sl->t];
	double gap_from = last >= 0 ? slots[last].start + slots[last].len : 0;
	l->ev.run = (struct run *)r; /* the event's type is the runner's; nothing writes through it */
	l->ev.kind = cur >= 0 ? EV_TICK : EV_PAUSE;
	l->ev.block = sl->b;
	l->ev.test = sl->t;
	l->ev.sample = sl->s;
	l->ev.nsamples = tr->nsamples;
	l->ev.now = clock_now;
	l->ev.ncopies = r->blocks[sl->b].copies;
	l->ev.sample_length = cur >= 0 ? sl->len : sl->start - gap_from;
	l->ev.sample_elapsed = cur >= 0 ? clock_now - sl->start : clock_now - gap_from;
}

void live_replay(struct live *l, const struct run *run, double speed)
{
	l->ops = &live_replay_ops;
	l->run = run;
	l->aborted = false;
	/* a quick run stored what each test was asked for */
	l->precision = 0;
	for (int b = 0; b < run->nblocks && !l->precision; b++)
		for (int t = 0; t < run->blocks[b].ntests && !l->precision; t++)
			l->precision = run->blocks[b].tests[t].quick_asked;
	build_timeline(run);
	clock_now = 0;
	replay_stop = replay_skip = false;
	l->running = true;
	double wall = live_clock();
	while (!replay_stop && clock_now < clock_end) {
		double w = live_clock();
		clock_now += (w - wall) * speed;
		wall = w;
		if (replay_skip) {
			replay_skip = false;
			/* jump to the end of the current test */
			int at = cur;
			if (at >= 0) {
				int i = at;
				while (i + 1 < nslots && slots[i + 1].b == slots[at].b && slots[i + 1].t == slots[at].t)
					i++;
				clock_now = slots[i].start + slots[i].len;
			}
		}
		if (clock_now > clock_end)
			clock_now = clock_end;
		replay_event(l);
		live_pump(l);
		/* keys wake us at once; else a step four times a second */
		struct pollfd p = { .fd = l->wake_fd, .events = POLLIN };
		int n = poll(&p, 1, 250);
		if (n > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
			replay_stop = true; /* the terminal went away: let the pump hear it too */
			live_pump(l);
		}
	}
	l->aborted = replay_stop;
	cur = -1;
	l->running = false;
}

static void replay_stop_op(struct live *l)
{
	replay_stop = true;
}

static void replay_skip_op(struct live *l)
{
	replay_skip = true;
}

static const struct sample *replay_sample(const struct live *l)
{
	if (cur < 0)
		return NULL;
	const struct test_result *tr = &l->run->blocks[slots[cur].b].tests[slots[cur].t];
	return &tr->samples[slots[cur].s];
}

static int replay_copies(const struct live *l)
{
	return cur >= 0 ? l->run->blocks[slots[cur].b].copies : 0;
}

static double replay_count(const struct live *l, int copy)
{
	const struct sample *s = replay_sample(l);
	if (!s || copy >= s->copies)
		return 0;
	const struct test_result *tr = &l->run->blocks[slots[cur].b].tests[slots[cur].t];
	if (tr->timebase == 0)
		return NAN; /* a rate, stored in place of the progress a live sample shows */
	double frac = (clock_now - slots[cur].start) / slots[cur].len;
	return s->count[copy] * (frac < 0 ? 0 : frac > 1 ? 1 : frac);
}

static double replay_elapsed(const struct live *l)
{
	return cur >= 0 ? clock_now - slots[cur].start : 0;
}

static double replay_now(const struct live *l)
{
	return clock_now;
}

static double replay_remaining(const struct live *l)
{
	return clock_end - clock_now;
}

/* When a test's first sample starts and its last one ends. */
static void replay_span(int b, int t, double *begin, double *end)
{
	*begin = INFINITY;
	*end = -INFINITY;
	double before = 0;
	for (int i = 0; i < nslots; i++) {
		if (slots[i].b < b || (slots[i].b == b && slots[i].t < t))
			before = slots[i].start + slots[i].len;
		if (slots[i].b == b && slots[i].t == t) {
			if (slots[i].start < *begin)
				*begin = slots[i].start;
			if (slots[i].start + slots[i].len > *end)
				*end = slots[i].start + slots[i].len;
		}
	}
	if (isinf(*begin))
		*begin = *end = before; /* no samples: it ends where the one before did */
}

static enum test_status replay_status(const struct live *l, int block, int test)
{
	const struct test_result *tr = &l->run->blocks[block].tests[test];
	double begin, end;
	replay_span(block, test, &begin, &end);
	if (clock_now < begin)
		return TEST_WAITING;
	if (clock_now < end)
		return TEST_RUNNING;
	return tr->status == TEST_IMPORTED ? TEST_DONE : tr->status;
}

static int replay_samples_done(const struct live *l, int block, int test)
{
	int n = 0;
	for (int i = 0; i < nslots; i++)
		if (slots[i].b == block && slots[i].t == test && slots[i].start + slots[i].len <= clock_now)
			n++;
	return n;
}

static int replay_series_points(const struct live *l, const struct series *s)
{
	int n = 0;
	while (n < s->n && s->t[n] <= clock_now)
		n++;
	return n;
}

static const struct telemetry_frame *replay_telemetry(const struct live *l, const char **why)
{
	*why = "n/a (not in the stored run)";
	return NULL;
}

static void replay_close(void)
{
	free(slots);
	slots = NULL;
	nslots = 0;
}

const struct live_ops live_replay_ops = {
	.name = "replay",
	.stop = replay_stop_op,
	.skip = replay_skip_op,
	.copies = replay_copies,
	.count = replay_count,
	.elapsed = replay_elapsed,
	.now = replay_now,
	.remaining = replay_remaining,
	.status = replay_status,
	.samples_done = replay_samples_done,
	.series_points = replay_series_points,
	.telemetry = replay_telemetry,
	.close = replay_close,
};
