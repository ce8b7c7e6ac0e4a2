/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run screen's view of a run: dispatch to the kind being watched (live_run.c, live_replay.c), with safe answers before any. */
#include "live.h"

#include "run.h"
#include "workload.h"

double live_clock(void)
{
	return wl_now();
}

void live_pump(struct live *l)
{
	if (l->pump)
		l->pump(l->pump_ctx);
}

void live_close(void)
{
	live_run_ops.close();
	live_replay_ops.close();
}

void live_stop(struct live *l)
{
	if (l->ops && l->running)
		l->ops->stop(l);
}

void live_skip(struct live *l)
{
	if (l->ops && l->running)
		l->ops->skip(l);
}

bool live_quick(const struct live *l)
{
	return run_mode_info(l->run->meta.mode)->quick;
}

int live_copies(const struct live *l)
{
	return l->ops ? l->ops->copies(l) : 0;
}

double live_count(const struct live *l, int copy)
{
	return l->ops ? l->ops->count(l, copy) : 0;
}

double live_aux(const struct live *l, int copy)
{
	return l->ops && l->ops->aux ? l->ops->aux(l, copy) : 0;
}

int live_points(const struct live *l, int copy, const struct wl_point **pts)
{
	return l->ops && l->ops->points ? l->ops->points(l, copy, pts) : 0;
}

int live_hists(const struct live *l, int copy, const struct lat_hist **h)
{
	return l->ops && l->ops->hists ? l->ops->hists(l, copy, h) : 0;
}

double live_elapsed(const struct live *l)
{
	return l->ops ? l->ops->elapsed(l) : 0;
}

double live_now(const struct live *l)
{
	return l->ops ? l->ops->now(l) : 0;
}

double live_remaining(const struct live *l)
{
	return l->ops && l->running ? l->ops->remaining(l) : 0;
}

/* Once a run has ended the run itself says it all. */
enum test_status live_status(const struct live *l, int block, int test)
{
	if (l->ops && l->running)
		return l->ops->status(l, block, test);
	return l->run->blocks[block].tests[test].status;
}

int live_samples_done(const struct live *l, int block, int test)
{
	if (l->ops && l->running)
		return l->ops->samples_done(l, block, test);
	return l->run->blocks[block].tests[test].nsamples;
}

int live_series_points(const struct live *l, const struct series *s)
{
	if (l->ops && l->running)
		return l->ops->series_points(l, s);
	return s->n;
}

const struct telemetry_frame *live_telemetry(const struct live *l, const char **why)
{
	*why = "";
	return l->ops ? l->ops->telemetry(l, why) : NULL;
}
