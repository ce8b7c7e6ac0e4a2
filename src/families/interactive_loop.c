/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interactive tasks under load, interbench-style: audio, video and desktop tasks, alone and beside background loads (CPU burners, a writer, a reader, a memory hog).
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
 * the same work takes longer, as it would for a real player.
 *
 * The chosen tasks (--ia-tasks) each run alone and beside each chosen load
 * (--ia-loads), and the phases share the sample:
 *  - burn: one CPU burner per CPU;
 *  - io: a streaming writer (1 MiB writes to a scratch file, started over
 *    every 64 MiB, left to the kernel's writeback);
 *  - read: a streaming reader of a 64 MiB scratch file, over and over, with
 *    O_DIRECT (from the disk, as interbench reads a file too big to cache);
 *    where the filesystem refuses O_DIRECT, through the page cache with the
 *    file's pages dropped (POSIX_FADV_DONTNEED, which any user may ask for
 *    its own file) after each pass; on tmpfs, from memory (said so);
 *  - mem: a memory hog: a quarter of the RAM (at most 2 GiB, shared out
 *    among the copies) mapped and written a byte a page, over and over;
 *    refused when it would leave less than an eighth of the RAM available;
 *  - burn4: IA_HEAVY_PER_CPU burners per CPU, where the tasks miss deadlines.
 * A load's files are written and its memory mapped before the phase's
 * first wake-up; what it costs to fault the memory in is part of its load. */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
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

#define READ_FILE (64 << 20)

struct reader {
	pthread_t th;
	int fd;
	bool direct;
	_Atomic int stop;
	int err; /* errno of the read that failed, 0 */
	char *buf;
};

static void *read_stream(void *arg)
{
	struct reader *r = arg;
	off_t off = 0;
	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		ssize_t n = pread(r->fd, r->buf, IO_BLOCK, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r->err = errno;
			return NULL;
		}
		off += n;
		if (n == 0 || off >= READ_FILE) { /* a pass done: again, from the disk */
			if (!r->direct)
				posix_fadvise(r->fd, 0, 0, POSIX_FADV_DONTNEED);
			off = 0;
		}
	}
	return NULL;
}

/* Writes the reader's file, then starts it: 0, or -1 with a sentence in the slot. */
static int reader_start(struct workload_ctx *ctx, struct reader *r, char *path, size_t size)
{
	memset(r, 0, sizeof *r);
	snprintf(path, size, "%s/interactive-read.%d", ctx->tmpdir ? ctx->tmpdir : "/tmp", ctx->copy);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return wl_fail(ctx, "cannot create the streaming reader's file %s: %s", path, strerror(errno));
	if (posix_memalign((void **)&r->buf, 4096, IO_BLOCK)) {
		close(fd);
		unlink(path);
		return wl_fail(ctx, "out of memory for the streaming reader");
	}
	memset(r->buf, 0x5a, IO_BLOCK);
	int err = 0;
	for (off_t off = 0; off < READ_FILE && !err;) {
		ssize_t n = pwrite(fd, r->buf, IO_BLOCK, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			err = n < 0 ? errno : ENOSPC;
		else
			off += n;
	}
	if (!err && fsync(fd) < 0)
		err = errno;
	close(fd);
	if (err) {
		free(r->buf);
		unlink(path);
		return wl_fail(ctx, "cannot write the streaming reader's file %s: %s", path, strerror(err));
	}
	struct statfs sf;
	/* f_type is a signed int on i386, and ramfs's magic is past INT_MAX: compare 32 bits */
	bool in_memory = statfs(path, &sf) == 0 &&
			 ((uint32_t)sf.f_type == TMPFS_MAGIC || (uint32_t)sf.f_type == RAMFS_MAGIC);
	r->direct = !in_memory;
	r->fd = in_memory ? -1 : open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (r->fd < 0) {
		r->direct = false;
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (r->fd < 0) {
		free(r->buf);
		unlink(path);
		return wl_fail(ctx, "cannot open the streaming reader's file %s: %s", path, strerror(errno));
	}
	posix_fadvise(r->fd, 0, 0, POSIX_FADV_DONTNEED);
	wl_publish_point(ctx, LAT_READ_MODE, 0, in_memory ? IA_READ_MEMORY : r->direct ? IA_READ_DIRECT : IA_READ_FADVISE);
	int rc = pthread_create(&r->th, NULL, read_stream, r);
	if (rc) {
		free(r->buf);
		close(r->fd);
		unlink(path);
		return wl_fail(ctx, "cannot start the streaming reader: %s", strerror(rc));
	}
	return 0;
}

static int reader_stop(struct workload_ctx *ctx, struct reader *r, const char *path)
{
	atomic_store(&r->stop, 1);
	pthread_join(r->th, NULL);
	free(r->buf);
	close(r->fd);
	unlink(path);
	if (r->err)
		return wl_fail(ctx, "the streaming reader could not read %s: %s", path, strerror(r->err));
	return 0;
}

struct hog {
	pthread_t th;
	unsigned char *mem;
	size_t bytes;
	_Atomic int stop;
};

static void *hog_touch(void *arg)
{
	struct hog *h = arg;
	long page = sysconf(_SC_PAGESIZE);
	size_t step = page > 0 ? (size_t)page : 4096;
	while (!atomic_load_explicit(&h->stop, memory_order_relaxed))
		for (size_t i = 0; i < h->bytes && !atomic_load_explicit(&h->stop, memory_order_relaxed); i += step)
			h->mem[i]++;
	return NULL;
}

/* Maps this copy's share of the hog and starts touching it: 0, or -1 with a sentence in the slot. */
static int hog_start(struct workload_ctx *ctx, struct hog *h)
{
	memset(h, 0, sizeof *h);
	char err[200];
	unsigned long long all = lat_hog_bytes(err, sizeof err);
	if (!all)
		return wl_fail(ctx, "%s", err);
	h->bytes = (size_t)(all / (unsigned long long)(ctx->copies > 0 ? ctx->copies : 1));
	h->mem = mmap(NULL, h->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (h->mem == MAP_FAILED)
		return wl_fail(ctx, "cannot map the memory hog's %zu MiB: %s", h->bytes >> 20, strerror(errno));
	wl_publish_point(ctx, LAT_HOG_BYTES, 0, (double)h->bytes);
	int rc = pthread_create(&h->th, NULL, hog_touch, h);
	if (rc) {
		munmap(h->mem, h->bytes);
		return wl_fail(ctx, "cannot start the memory hog: %s", strerror(rc));
	}
	return 0;
}

static void hog_stop(struct hog *h)
{
	atomic_store(&h->stop, 1);
	pthread_join(h->th, NULL);
	munmap(h->mem, h->bytes);
}

/* One background load, started before a phase and stopped after it. */
struct load {
	struct lat_burners b;
	struct writer w;
	struct reader r;
	struct hog h;
	char path[4096];
};

static int load_start(struct workload_ctx *ctx, int load, struct load *l)
{
	int rc;
	switch (load) {
	case IA_BURN:
	case IA_HEAVY:
		if ((rc = lat_burners_start_all(&l->b, load == IA_BURN ? 1 : IA_HEAVY_PER_CPU)) < 0)
			return wl_fail(ctx, "cannot start the CPU burners: %s", strerror(-rc));
		return 0;
	case IA_IO: return writer_start(ctx, &l->w, l->path, sizeof l->path);
	case IA_READ: return reader_start(ctx, &l->r, l->path, sizeof l->path);
	case IA_MEM: return hog_start(ctx, &l->h);
	default: return 0;
	}
}

static int load_stop(struct workload_ctx *ctx, int load, struct load *l)
{
	switch (load) {
	case IA_BURN:
	case IA_HEAVY: lat_burners_stop(&l->b); return 0;
	case IA_IO: return writer_stop(ctx, &l->w, l->path);
	case IA_READ: return reader_stop(ctx, &l->r, l->path);
	case IA_MEM: hog_stop(&l->h); return 0;
	default: return 0;
	}
}

static int interactive_run(struct workload_ctx *ctx)
{
	struct worker_slot *s = ctx->slot;
	if (!ctx->settings)
		return wl_fail(ctx, "interactive: no settings given");
	struct lat_params lp = *(const struct lat_params *)ctx->settings;
	int task[WL_MAX_HISTS], load[WL_MAX_HISTS];
	int n = ia_phase_list(&lp, task, load, WL_MAX_HISTS);
	double loops_per_us = lat_loops_per_ms() / 1000;
	uint64_t phase_ns = (uint64_t)((ctx->duration > 0 ? ctx->duration : 12) / (n > 0 ? n : 1) * 1e9);
	uint64_t done = 0;
	static struct load l; /* its burners' and path's few KiB stay off the stack */
	for (int p = 0; p < n; p++)
		lathist_init(&s->hists[p]);
	for (int p = 0; p < n && !wl_stopped(ctx); p++) {
		if (load_start(ctx, load[p], &l) < 0)
			return -1;
		atomic_store_explicit(&s->nhists, p + 1, memory_order_release);
		run_task(ctx, task[p], &s->hists[p], phase_ns, loops_per_us, &done);
		if (load_stop(ctx, load[p], &l) < 0)
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
