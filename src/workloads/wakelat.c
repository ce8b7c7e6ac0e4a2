/* Scheduler wake-up latency, schbench-style: a message thread wakes worker threads (futex), each does a fixed bit of work and answers.
 *
 * A request: the message thread stamps the time into a worker's cell and
 * wakes it with FUTEX_WAKE; the worker, on waking, counts now minus the
 * stamp into the histogram, does a fixed amount of work (about 20 us
 * here), and says done; when all its workers are done the message thread
 * sleeps 100 us (so that wake-ups come from idle CPUs too) and sends the
 * next round. Requests per second is the rounds' completions. Workers: two
 * per CPU. The histogram is shared by the workers: each counts with its
 * own lathist, merged when the sample ends (no lock in the loop). */
#include "workloads.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "latency.h"
#include "latload.h"

#define MAX_WORKERS 64
#define WORK_US 20

struct worker {
	_Atomic uint32_t go; /* futex word: bumped by the message thread */
	_Atomic uint64_t stamp;
	struct lat_hist h;
	pthread_t th;
	struct wakelat *w;
};

struct wakelat {
	_Atomic uint32_t pending; /* futex word: workers still working this round */
	_Atomic int stop;
	uint64_t loops;
	struct worker *wk;
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

static int wakelat_run(struct workload_ctx *ctx)
{
	struct worker_slot *s = ctx->slot;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nw = (int)(ncpu > 0 ? 2 * ncpu : 2);
	if (nw > MAX_WORKERS)
		nw = MAX_WORKERS;
	struct wakelat w = { .loops = (uint64_t)(lat_loops_per_ms() * WORK_US / 1000) };
	w.wk = calloc((size_t)nw, sizeof *w.wk);
	if (!w.wk)
		return wl_fail(ctx, "out of memory for %d workers", nw);
	lathist_init(&s->hists[0]);
	int made = 0, err = 0;
	for (; made < nw; made++) {
		lathist_init(&w.wk[made].h);
		w.wk[made].w = &w;
		if ((err = pthread_create(&w.wk[made].th, NULL, worker_main, &w.wk[made])) != 0)
			break;
	}
	wl_publish_point(ctx, LAT_WORKERS, 1, made);
	atomic_store_explicit(&s->nhists, 1, memory_order_release);
	uint64_t t0 = lat_now_ns(), end = t0 + (uint64_t)((ctx->duration > 0 ? ctx->duration : 2) * 1e9);
	uint64_t requests = 0;
	struct timespec gap = { 0, 100000 };
	while (!err && !wl_stopped(ctx) && lat_now_ns() < end) {
		atomic_store(&w.pending, (uint32_t)made);
		for (int i = 0; i < made; i++) {
			atomic_store(&w.wk[i].stamp, lat_now_ns());
			atomic_fetch_add(&w.wk[i].go, 1);
			futex(&w.wk[i].go, FUTEX_WAKE_PRIVATE, 1);
		}
		uint32_t p;
		while ((p = atomic_load(&w.pending)) != 0)
			futex(&w.pending, FUTEX_WAIT_PRIVATE, p);
		requests += (uint64_t)made;
		wl_publish(ctx, requests);
		nanosleep(&gap, NULL);
	}
	double secs = (double)(lat_now_ns() - t0) / 1e9;
	atomic_store(&w.stop, 1);
	for (int i = 0; i < made; i++) {
		atomic_fetch_add(&w.wk[i].go, 1);
		futex(&w.wk[i].go, FUTEX_WAKE_PRIVATE, 1);
		pthread_join(w.wk[i].th, NULL);
		lathist_merge(&s->hists[0], &w.wk[i].h);
	}
	free(w.wk);
	if (err)
		return wl_fail(ctx, "cannot start worker thread %d of %d: %s", made + 1, nw, strerror(err));
	wl_publish_point(ctx, LAT_RPS, 0, secs > 0 ? (double)requests / secs : 0);
	s->time = wl_now() - s->t_start;
	s->rate = (double)requests;
	return 0;
}

const struct workload wl_wakelat = {
	.name = "wakelat",
	.run = wakelat_run,
};
