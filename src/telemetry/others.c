/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Other processes' CPU use: the machine's busy time from /proc/stat minus our own from getrusage. */
#include "telemetry/others.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "procstat.h"
#include "run.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"
#include "workload.h"

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int others_snap(struct others_snap *s)
{
	memset(s, 0, sizeof *s);
	s->t = wl_now();
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	s->own_s = tv(self.ru_utime) + tv(self.ru_stime) + tv(kids.ru_utime) + tv(kids.ru_stime);
	int rc = procstat_busy_now(&s->busy_s);
	if (rc < 0)
		return rc;
	s->ok = true;
	return 0;
}

double others_cpu(const struct others_snap *a, const struct others_snap *b)
{
	double dt = b->t - a->t;
	if (!a->ok || !b->ok || !(dt > 0))
		return NAN;
	double v = ((b->busy_s - a->busy_s) - (b->own_s - a->own_s)) / dt;
	return v > 0 ? v : 0;
}

/* ---- the source: series others.cpu (one point per sample); summaries others.cpu, others.cpu_max ----
 * Measured per benchmark sample, from its begin to its end (after the runner
 * has reaped the workers, so their CPU time is ours in getrusage), not per
 * interval: the workers' children are only counted once reaped. */

struct others_state {
	struct others_snap at0; /* at the start of the sample in progress */
	/* the test so far: CPU-seconds used by others, seconds sampled, the worst sample */
	double cpu_s, secs, max;
};

static int others_src_open(struct telemetry_slot *s, const struct telemetry_ctx *c, char *err, size_t errlen)
{
	struct others_snap probe;
	int rc = others_snap(&probe);
	s->available = rc == 0;
	if (s->available) {
		snprintf(s->status, sizeof s->status, "/proc/stat busy time minus kbench's own");
	} else {
		char p[200];
		sysroot_path(p, sizeof p, "/proc/stat");
		snprintf(s->status, sizeof s->status, "n/a: cannot read %s: %s", p, strerror(-rc));
	}
	return 0;
}

static void others_src_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct others_state *st = s->priv;
	st->cpu_s = st->secs = st->max = 0;
}

static void others_src_sample_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct others_state *st = s->priv;
	others_snap(&st->at0);
}

static void others_src_sample_end(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct others_state *st = s->priv;
	if (!st->at0.ok)
		return;
	struct others_snap now;
	others_snap(&now);
	double cpu = others_cpu(&st->at0, &now), dt = now.t - st->at0.t;
	st->at0.ok = false;
	if (isnan(cpu))
		return;
	telemetry_push(c, "others.cpu", "CPUs", cpu);
	snprintf(s->reading, sizeof s->reading, "%.2f CPUs", cpu);
	if (!c->in_test)
		return;
	st->cpu_s += cpu * dt;
	st->secs += dt;
	if (cpu > st->max)
		st->max = cpu;
}

/* A test that shared the machine measured the others' load too: compare withholds its verdict. */
static void others_src_test_end(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
				struct throttle_inputs *in)
{
	struct others_state *st = s->priv;
	/* /proc/stat counts in ticks (10 ms): under half a second sampled, one
	 * tick more or less would read as a busy machine. */
	if (st->secs < 0.5)
		return;
	test_summary_set(tr, "others.cpu", st->cpu_s / st->secs, NULL);
	test_summary_set(tr, "others.cpu_max", st->max, NULL);
}

/* Not a sensor, so not in kbench sensors (no title); the preflight measures the same before the run. */
const struct telemetry_source others_source = {
	.name = "others",
	.what = "other processes' CPU use",
	.size = sizeof(struct others_state),
	.open = others_src_open,
	.test_begin = others_src_test_begin,
	.sample_begin = others_src_sample_begin,
	.sample_end = others_src_sample_end,
	.test_end = others_src_test_end,
};
