/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A live run watched by the run screen: the runner's events, its live counters, and the telemetry sampler. */
#include "live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quick.h"
#include "telemetry/telemetry.h"
#include "tests.h"

/* One live run at a time: the console runs them one after another. */
static struct runner_opts opts;
static struct runner *runner; /* only while runner_run is on the stack */
static double ev_wall;        /* monotonic time of the last event */
static double test_begin;     /* run time the current test began */
/* Opened at the first run and kept for the next (calibration runs follow each other). */
static struct telemetry *tele;
static char tele_why[200];

static void on_event(void *ctx, const struct runner_event *ev)
{
	struct live *l = ctx;
	l->ev = *ev;
	l->ev.pids = NULL; /* valid only inside the call */
	ev_wall = live_clock();
	if (ev->kind == EV_TEST_BEGIN)
		test_begin = ev->now;
	live_pump(l);
}

/* The console's own while a run lasts: where it keeps the run the pump draws. */
static struct run **run_home;

static void watch(void *ctx, struct runner *r, struct run *run)
{
	struct live *l = ctx;
	if (*run_home)
		run_free(*run_home);
	*run_home = run;
	l->ops = &live_run_ops;
	l->run = run;
	runner = r;
	l->running = true;
	l->aborted = false;
	/* the precision asked, of a quick run that stops each test at one */
	l->precision = runner_allocation(&opts) == ALLOC_PRECISION ? quick_precision_asked(opts.precision) : 0;
	memset(&l->ev, 0, sizeof l->ev);
	l->ev.run = run;
	ev_wall = live_clock();
	struct runner_listener ul = { .on_event = on_event, .ctx = l, .wake_fd = l->wake_fd };
	runner_listen(r, &ul);
}

static void ran(void *ctx, struct run *run, int rc)
{
	struct live *l = ctx;
	l->running = false;
	runner = NULL;
	l->aborted = rc != 0;
}

static bool leaving(void *ctx)
{
	const struct live *l = ctx;
	return l->leaving && *l->leaving;
}

struct session_face live_face(struct live *l, struct run_request *rq, struct run **runp)
{
	opts = *run_request_opts(rq);
	run_home = runp;
	if (!tele && !rq->tele.off) {
		struct telemetry_opts t = rq->tele;
		t.interval = opts.interval;
		bool usage = false;
		tele = telemetry_new(&t, &usage, tele_why, sizeof tele_why);
	} else if (rq->tele.off) {
		snprintf(tele_why, sizeof tele_why, "telemetry off (--no-telemetry or --interval 0)");
	}
	/* without the sampler (off, or it could not open: tele_why says) the runs have none */
	rq->tele.off = !tele;
	return (struct session_face){ .ctx = l, .watch = watch, .ran = ran, .leaving = leaving, .tele = tele };
}

int live_run(struct live *l, struct run_request *rq, struct run **runp, struct session_result *res, char *err,
	     size_t errlen)
{
	struct session_face f = live_face(l, rq, runp);
	bool usage;
	return session_run(rq, &f, res, &usage, err, errlen);
}

static void run_stop(struct live *l)
{
	if (runner)
		runner_abort(runner);
}

static void run_skip(struct live *l)
{
	if (runner)
		runner_skip_test(runner);
}

static int run_copies(const struct live *l)
{
	return runner ? runner_live_copies(runner) : 0;
}

static double run_count(const struct live *l, int copy)
{
	return runner ? (double)runner_live_count(runner, copy) : 0;
}

static double run_aux(const struct live *l, int copy)
{
	return runner ? (double)runner_live_aux(runner, copy) : 0;
}

static int run_points(const struct live *l, int copy, const struct wl_point **pts)
{
	return runner ? runner_live_points(runner, copy, pts) : 0;
}

static int run_hists(const struct live *l, int copy, const struct lat_hist **h)
{
	return runner ? runner_live_hists(runner, copy, h) : 0;
}

static double run_elapsed(const struct live *l)
{
	return runner ? runner_live_elapsed(runner) : 0;
}

static double run_now(const struct live *l)
{
	if (!l->running)
		return l->ev.now;
	return l->ev.now + (live_clock() - ev_wall);
}

static double run_remaining(const struct live *l)
{
	double left = 0, now = run_now(l);
	const struct run *r = l->run;
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++) {
			const struct test_def *d = test_find(r->blocks[b].tests[t].id);
			if (!d)
				continue;
			double est = runner_estimate_test(&opts, d);
			enum test_status st = r->blocks[b].tests[t].status;
			if (st == TEST_WAITING)
				left += est;
			else if (st == TEST_RUNNING && est > now - test_begin)
				left += est - (now - test_begin);
		}
	return left;
}

static enum test_status run_status(const struct live *l, int block, int test)
{
	return l->run->blocks[block].tests[test].status;
}

static int run_samples_done(const struct live *l, int block, int test)
{
	return l->run->blocks[block].tests[test].nsamples;
}

static int run_series_points(const struct live *l, const struct series *s)
{
	return s->n;
}

static const struct telemetry_frame *run_telemetry(const struct live *l, const char **why)
{
	*why = tele_why;
	return tele ? telemetry_latest(tele) : NULL;
}

static void run_close(void)
{
	telemetry_free(tele);
	tele = NULL;
}

const struct live_ops live_run_ops = {
	.name = "run",
	.stop = run_stop,
	.skip = run_skip,
	.copies = run_copies,
	.count = run_count,
	.points = run_points,
	.aux = run_aux,
	.hists = run_hists,
	.elapsed = run_elapsed,
	.now = run_now,
	.remaining = run_remaining,
	.status = run_status,
	.samples_done = run_samples_done,
	.series_points = run_series_points,
	.telemetry = run_telemetry,
	.close = run_close,
};
