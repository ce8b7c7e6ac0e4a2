/* Interactive tasks under load, interbench-style: audio, video and desktop tasks, alone, beside a CPU burner per CPU, beside a streaming writer.
 *
 * A task wakes at intended times and runs a burst of fixed work:
 *  - audio: every 10 ms, 0.5 ms of work (5% of a CPU);
 *  - video: 60 Hz (16.7 ms), 6.7 ms of work (40%);
 *  - desktop: bursty: 1 to 8 ms of work after 2 to 30 ms of idle (a
 *    fixed pseudo-random sequence, the same in every run).
 * Latency is when the task ran minus when it should have. A deadline is met
 * when the burst is done before the next period begins (desktop: within
 * its work's own time and one 60 Hz frame). A task that falls behind by
 * a whole period skips to now and counts the periods it skipped as missed.
 * The work is loops calibrated once, unloaded, at the start: under load
 * the same work takes longer, as it would for a real player. Nine phases
 * share the sample: each task alone, beside the burners (+burn), and
 * beside a streaming writer (+io: 1 MiB writes to a scratch file, started
 * over every 64 MiB, left to the kernel's writeback). */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latency.h"
#include "latload.h"

struct task_shape {
	uint64_t period_ns, work_us;
};

static const struct task_shape shapes[IA_TASKS] = {
	[IA_AUDIO] = { 10000000ULL, 500 },
	[IA_VIDEO] = { 16666667ULL, 6667 },
	[IA_DESKTOP] = { 0, 0 }, /* drawn per burst */
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void run_task(struct workload_ctx *ctx, int task, struct lat_hist *h, uint64_t ns,
		     double loops_per_us, uint64_t *done)
{
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	uint64_t next = lat_now_ns() + 1000000, end = next + ns;
	while (next < end && !wl_stopped(ctx)) {
		uint64_t period = shapes[task].period_ns, work_us = shapes[task].work_us;
		uint64_t deadline;
		if (task == IA_DESKTOP) {
			work_us = 1000 + rnd(&seed) % 7001;
			period = (2000 + rnd(&seed) % 28001) * 1000ULL + work_us * 1000;
			deadline = next + work_us * 1000 + 16666667ULL;
		} else {
			deadline = next + period;
		}
		struct timespec ts = lat_ts(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		uint64_t now = lat_now_ns();
		lathist_add(h, now > next ? now - next : 0);
		lat_work((uint64_t)(loops_per_us * (double)work_us));
		uint64_t fin = lat_now_ns();
		if (fin <= deadline)
			h->met++;
		else
			h->missed++;
		next += period;
		if (fin > next + period) { /* a whole period behind: skip to now */
			uint64_t skipped = (fin - next) / period;
			h->missed += skipped;
			next += skipped * period;
		}
		wl_publish(ctx, ++*done);
	}
}

#define IO_BLOCK (1 << 20)
#define IO_WRAP (64 << 20)

struct writer {
	pthread_t th;
	int fd;
	_Atomic int stop;
	int err; /* errno of the write that failed, 0 */
	char *buf;
};

static void *write_stream(void *arg)
{
	struct writer *w = arg;
	off_t off = 0;
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		ssize_t n = pwrite(w->fd, w->buf, IO_BLOCK, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n < 0 ? errno : ENOSPC;
			return NULL;
		}
		off += n;
		if (off >= IO_WRAP)
			off = 0;
	}
	return NULL;
}

/* 0, or -1 with a sentence in the slot. */
static int writer_start(struct workload_ctx *ctx, struct writer *w, char *path, size_t size)
{
	memset(w, 0, sizeof *w);
	snprintf(path, size, "%s/interactive-io.%d", ctx->tmpdir ? ctx->tmpdir : "/tmp", ctx->copy);
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0)
		return wl_fail(ctx, "cannot create the streaming writer's file %s: %s", path, strerror(errno));
	w->buf = malloc(IO_BLOCK);
	if (!w->buf) {
		close(w->fd);
		unlink(path);
		return wl_fail(ctx, "out of memory for the streaming writer");
	}
	memset(w->buf, 0x5a, IO_BLOCK);
	int rc = pthread_create(&w->th, NULL, write_stream, w);
	if (rc) {
		free(w->buf);
		close(w->fd);
		unlink(path);
		return wl_fail(ctx, "cannot start the streaming writer: %s", strerror(rc));
	}
	return 0;
}

/* 0, or -1 with a sentence when a write failed (a full scratch directory). */
static int writer_stop(struct workload_ctx *ctx, struct writer *w, const char *path)
{
	atomic_store(&w->stop, 1);
	pthread_join(w->th, NULL);
	free(w->buf);
	close(w->fd);
	unlink(path);
	if (w->err)
		return wl_fail(ctx, "the streaming writer could not write to %s: %s", path, strerror(w->err));
	return 0;
}

static int interactive_run(struct workload_ctx *ctx)
{
	struct worker_slot *s = ctx->slot;
	double loops_per_us = lat_loops_per_ms() / 1000;
	uint64_t phase_ns = (uint64_t)((ctx->duration > 0 ? ctx->duration : 6) / (IA_TASKS * IA_LOADS) * 1e9);
	uint64_t done = 0;
	for (int p = 0; p < IA_TASKS * IA_LOADS; p++)
		lathist_init(&s->hists[p]);
	for (int task = 0; task < IA_TASKS && !wl_stopped(ctx); task++)
		for (int load = 0; load < IA_LOADS && !wl_stopped(ctx); load++) {
			int p = task * IA_LOADS + load, rc;
			struct lat_burners b;
			struct writer w;
			char path[4096];
			if (load == IA_BURN && (rc = lat_burners_start_all(&b)) < 0)
				return wl_fail(ctx, "cannot start the CPU burners: %s", strerror(-rc));
			if (load == IA_IO && writer_start(ctx, &w, path, sizeof path) < 0)
				return -1;
			atomic_store_explicit(&s->nhists, p + 1, memory_order_release);
			run_task(ctx, task, &s->hists[p], phase_ns, loops_per_us, &done);
			if (load == IA_BURN)
				lat_burners_stop(&b);
			if (load == IA_IO && writer_stop(ctx, &w, path) < 0)
				return -1;
		}
	s->time = wl_now() - s->t_start;
	s->rate = (double)done;
	return 0;
}

const struct workload wl_interactive = {
	.name = "interactive",
	.run = interactive_run,
};
