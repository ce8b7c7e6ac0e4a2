/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler wake-up latency, schbench-style: a message thread wakes worker threads (futex), each does a fixed bit of work and answers.
 *
 * A request: the message thread stamps the time into a worker's cell and
 * wakes it with FUTEX_WAKE; the worker, on waking, counts now minus the
 * stamp into the histogram, does a fixed amount of work (about 20 us
 * here), and says done; when all its workers are done the message thread
 * sleeps 100 us (so that wake-ups come from idle CPUs too) and sends the
 * next round. Requests per second is the rounds' completions. Workers: two
 * per CPU (--workers), work 20 us (--work-us); --messages runs several
 * message threads, each with its own workers (schbench's -m and -t). The
 * histogram is shared by the workers: each counts with its own lathist,
 * merged when the sample ends (no lock in the loop). */
#include "workload.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "latency.h"
#include "latload.h"

struct worker {
	_Atomic uint32_t go; /* futex word: bumped by the message thread */
	_Atomic uint64_t stamp;
	struct lat_hist h;
	pthread_t th;
	struct wakelat *w;
};

/* A message thread and its workers. */
struct wakelat {
	_Atomic uint32_t pending; /* futex word: workers still working this round */
	_Atomic int stop;
	uint64_t loops;
	struct worker *wk;
	int made, err;
	uint64_t end, requests;
	struct workload_ctx *ctx; /* message thread 0 publishes the count */
	_Atomic uint64_t *total;
	pthread_t th;
};

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)addr, op, val, NULL, NULL, 0);
}

static void *worker_main(void *arg)
{
	struct worker *me = arg;
	struct wakelat *w = me->w;
	uint32_t seen = 0;
	for (;;) {
		uint32_t g;
		while ((g = atomic_load(&me->go)) == seen && !atomic_load(&w->stop))
			futex(&me->go, FUTEX_WAIT_PRIVATE, seen);
		if (atomic_load(&w->stop))
			return NULL;
		seen = g;
		uint64_t now = lat_now_ns(), st = atomic_load(&me->stamp);
		lathist_add(&me->h, now > st ? now - st : 0);
		lat_work(w->loops);
		if (atomic_fetch_sub(&w->pending, 1) == 1)
			futex(&w->pending, FUTEX_WAKE_PRIVATE, 1);
	}
}

/* The message thread's rounds until the end time. */
static void *message_main(void *arg)
{
	struct wakelat *w = arg;
	struct timespec gap = { 0, 100000 };
	while (!wl_stopped(w->ctx) && lat_now_ns() < w->end) {
		atomic_store(&w->pending, (uint32_t)w->made);
		for (int i = 0; i < w->made; i++) {
			atomic_store(&w->wk[i].stamp, lat_now_ns());
			atomic_fetch_add(&w->wk[i].go, 1);
			futex(&w->wk[i].go, FUTEX_WAKE_PRIVATE, 1);
		}
		uint32_t p;
		while ((p = atomic_load(&w->pending)) != 0)
			futex(&w->pending, FUTEX_WAIT_PRIVATE, p);
		w->requests += (uint64_t)w->made;
		wl_publish(w->ctx, atomic_fetch_add_explicit(w->total, (uint64_t)w->made, memory_order_relaxed) + (uint64_t)w->made);
		nanosleep(&gap, NULL);
	}
	return NULL;
}

/* Starts a group's workers: 0, or the pthread_create error (those made run). */
static int group_start(struct wakelat *w, int nw)
{
	w->wk = calloc((size_t)nw, sizeof *w->wk);
	if (!w->wk)
		return ENOMEM;
	for (; w->made < nw; w->made++) {
		lathist_init(&w->wk[w->made].h);
		w->wk[w->made].w = w;
		if ((w->err = pthread_create(&w->wk[w->made].th, NULL, worker_main, &w->wk[w->made])) != 0)
			return w->err;
	}
	return 0;
}

static void group_stop(struct wakelat *w, struct lat_hist *into)
{
	atomic_store(&w->stop, 1);
	for (int i = 0; i < w->made; i++) {
		atomic_fetch_add(&w->wk[i].go, 1);
		futex(&w->wk[i].go, FUTEX_WAKE_PRIVATE, 1);
		pthread_join(w->wk[i].th, NULL);
		lathist_merge(into, &w->wk[i].h);
	}
	free(w->wk);
}

static int wakelat_run(struct workload_ctx *ctx)
{
	struct worker_slot *s = ctx->slot;
	if (!ctx->settings)
		return wl_fail(ctx, "wakelat: no settings given");
	struct lat_params lp = *(const struct lat_params *)ctx->settings;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nw = lp.workers ? lp.workers : (int)(ncpu > 0 ? 2 * ncpu : 2);
	if (nw > LAT_MAX_WORKERS)
		nw = LAT_MAX_WORKERS;
	static struct wakelat g[LAT_MAX_MESSAGES];
	_Atomic uint64_t total = 0;
	uint64_t loops = (uint64_t)(lat_loops_per_ms() * lp.work_us / 1000);
	lathist_init(&s->hists[0]);
	int ng = 0, err = 0;
	for (; ng < lp.messages && !err; ng++) {
		memset(&g[ng], 0, sizeof g[ng]);
		g[ng].loops = loops;
		g[ng].ctx = ctx;
		g[ng].total = &total;
		err = group_start(&g[ng], nw);
	}
	int made = 0;
	for (int i = 0; i < ng; i++)
		made += g[i].made;
	wl_publish_point(ctx, LAT_WORKERS, ng, made);
	atomic_store_explicit(&s->nhists, 1, memory_order_release);
	uint64_t t0 = lat_now_ns(), end = t0 + (uint64_t)((ctx->duration > 0 ? ctx->duration : 2) * 1e9);
	int started = 0;
	for (; !err && started < ng; started++) {
		g[started].end = end;
		if (started > 0 && (err = pthread_create(&g[started].th, NULL, message_main, &g[started])) != 0)
			break;
	}
	if (!err && ng > 0)
		message_main(&g[0]); /* this thread is message thread 0 */
	for (int i = 1; i < started; i++)
		pthread_join(g[i].th, NULL);
	double secs = (double)(lat_now_ns() - t0) / 1e9;
	uint64_t requests = 0;
	for (int i = 0; i < ng; i++) {
		group_stop(&g[i], &s->hists[0]);
		requests += g[i].requests;
	}
	if (err)
		return wl_fail(ctx, "cannot start the wake-up test's threads (%d workers, %d message threads): %s",
			       nw, lp.messages, strerror(err));
	wl_publish_point(ctx, LAT_RPS, 0, secs > 0 ? (double)requests / secs : 0);
	s->time = wl_now() - s->t_start;
	s->rate = (double)requests;
	return 0;
}

const struct workload wl_wakelat = {
	.name = "wakelat",
	.run = wakelat_run,
};
