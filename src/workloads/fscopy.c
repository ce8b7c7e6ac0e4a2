/* File Copy (fstime, fsbuffer, fsdisk): write, read, then copy a small file in fixed-size buffers. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * UnixBench's fstime -c, as UNIXBENCH.md §4.5 describes it:
 *   write phase: sync, sleep 2, sync, sleep 2; write the whole file buffer by
 *                buffer for 2 s (time checked only after a whole file pass);
 *   read phase:  the same settle; read buffer by buffer for 2 s, rewinding at
 *                the end of the file;
 *   copy phase:  sync, sleep 2, sync, sleep 1; read a buffer from file 0 and
 *                write it to file 1 for 30 s, rewinding both at the end.
 * Data is counted in 256-byte units; a rate is units / (seconds * 4) = KiB/s,
 * truncated to an integer. Only the copy phase is the result; write and read
 * create the file and give the rates that weigh a partial transfer's credit.
 *
 * Shorter samples (--duration below 30 s): the copy lasts ctx->duration and
 * the write/read phases and every settle sleep are scaled by duration / 30,
 * so `--duration 1` takes about 1 + (2 + 2 + 4 + 4 + 3) / 30 = 1.5 s. At
 * 30 s or more nothing is scaled: 45 s per sample as in UnixBench.
 */

#define FS_UNIT 256
#define FS_HALF_UNIT 128
#define FS_UNITS_PER_KIB 4
#define FS_MAX_BUF 65536
#define FS_NOMINAL 30.0 /* UnixBench's -t 30 */
#define FS_CLOCK_EVERY 32 /* transfers between deadline checks (the clock costs) */

struct fs_state {
	struct workload_ctx *ctx;
	size_t bufsize;
	long nbuf;      /* buffers per file: maxblocks KiB / bufsize */
	int fd[2];
	char path[2][PATH_MAX];
	double scale;   /* settle sleeps and write/read phases: min(1, duration/30) */
};

static char fs_buf[FS_MAX_BUF];

static int fs_parse(const char *arg, long *bufsize, long *maxblocks)
{
	char *end;
	if (!arg)
		return -1;
	errno = 0;
	*bufsize = strtol(arg, &end, 10);
	if (errno || end == arg || (*end != ' ' && *end != '\t'))
		return -1;
	const char *p = end;
	*maxblocks = strtol(p, &end, 10);
	if (errno || end == p)
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	return *end ? -1 : 0;
}

static long fs_kib_rate(unsigned long units, double secs)
{
	return secs > 0 ? (long)((double)units / (secs * FS_UNITS_PER_KIB)) : 0;
}

/* Sleeps in short slices so that a user's skip is not held up for seconds. */
static void fs_sleep(const struct fs_state *s, double secs)
{
	double end = wl_now() + secs;
	for (double left; !wl_stopped(s->ctx) && (left = end - wl_now()) > 0;) {
		if (left > 0.05)
			left = 0.05;
		struct timespec ts = { 0, (long)(left * 1e9) };
		nanosleep(&ts, NULL);
	}
}

/* UnixBench's habit before each phase: let earlier writes reach the disk. */
static void fs_settle(const struct fs_state *s, double first, double second)
{
	sync();
	fs_sleep(s, first * s->scale);
	sync();
	fs_sleep(s, second * s->scale);
}

static int fs_rewind(struct fs_state *s, int which)
{
	if (lseek(s->fd[which], 0, SEEK_SET) < 0)
		return wl_fail(s->ctx, "cannot rewind %s: %s", s->path[which], strerror(errno));
	return 0;
}

static int fs_io_error(struct fs_state *s, const char *what, int which)
{
	if (errno == ENOSPC)
		return wl_fail(s->ctx, "the scratch directory %s is full", s->ctx->tmpdir);
	return wl_fail(s->ctx, "%s %s failed: %s", what, s->path[which], strerror(errno));
}

/* Write phase: whole passes over file 0; the deadline is looked at only
 * between passes, so the phase may overrun by one pass (timed exactly). */
static int fs_write(struct fs_state *s, double secs, long *rate)
{
	unsigned long units = 0;
	unsigned long per_buf = (s->bufsize + FS_HALF_UNIT) / FS_UNIT;

	if (fs_rewind(s, 0) < 0)
		return -1;
	double t0 = wl_now(), end = t0 + secs;
	do {
		for (long b = 0; b < s->nbuf; b++) {
			if (write(s->fd[0], fs_buf, s->bufsize) != (ssize_t)s->bufsize)
				return fs_io_error(s, "writing", 0);
			units += per_buf;
		}
		if (fs_rewind(s, 0) < 0)
			return -1;
	} while (wl_now() < end && !wl_stopped(s->ctx));
	*rate = fs_kib_rate(units, wl_now() - t0);
	return 0;
}

/* Read phase: buffer by buffer; a short read at the end of the file gets
 * its bytes' credit, rounded to units, and rewinds. */
static int fs_read(struct fs_state *s, double secs, long *rate)
{
	unsigned long units = 0;

	if (fs_rewind(s, 0) < 0)
		return -1;
	double t0 = wl_now(), end = t0 + secs;
	for (unsigned k = 1; !wl_stopped(s->ctx); k++) {
		if (k % FS_CLOCK_EVERY == 0 && wl_now() >= end)
			break;
		ssize_t r = read(s->fd[0], fs_buf, s->bufsize);
		if (r < 0)
			return fs_io_error(s, "reading", 0);
		units += ((unsigned long)r + FS_HALF_UNIT) / FS_UNIT;
		if ((size_t)r < s->bufsize && fs_rewind(s, 0) < 0)
			return -1;
	}
	*rate = fs_kib_rate(units, wl_now() - t0);
	return 0;
}

/* Copy phase: the result. Every counted unit was both read and written. */
static int fs_copy(struct fs_state *s, double secs, long w_rate, long r_rate)
{
	struct worker_slot *slot = s->ctx->slot;
	unsigned long units = 0;
	double partial = 0;

	if (fs_rewind(s, 0) < 0 || fs_rewind(s, 1) < 0)
		return -1;
	wl_publish(s->ctx, 0);
	double t0 = wl_now(), end = t0 + secs;
	for (unsigned k = 1; !wl_stopped(s->ctx); k++) {
		if (k % FS_CLOCK_EVERY == 0 && wl_now() >= end)
			break;
		ssize_t r = read(s->fd[0], fs_buf, s->bufsize);
		if (r < 0)
			return fs_io_error(s, "reading", 0);
		if (r == 0) {
			if (fs_rewind(s, 0) < 0 || fs_rewind(s, 1) < 0)
				return -1;
			continue;
		}
		ssize_t w = write(s->fd[1], fs_buf, (size_t)r);
		if (w < 0)
			return fs_io_error(s, "writing", 1);
		units += ((unsigned long)w + FS_HALF_UNIT) / FS_UNIT;
		wl_publish(s->ctx, units);
		if (w < r) {
			/* An interrupted transfer: the bytes read but not written
			 * did the read's share of a copy, which is w/(r+w) of it
			 * when reading runs at r and writing at w KiB/s. */
			if (w_rate + r_rate > 0)
				partial = (double)(r - w) / FS_UNIT * (double)w_rate /
					  (double)(w_rate + r_rate);
			break;
		}
	}
	double secs_done = wl_now() - t0;
	slot->rate = (double)(long)((units + partial) / (secs_done * FS_UNITS_PER_KIB));
	slot->time = secs_done;
	return 0;
}

static void fs_close(struct fs_state *s)
{
	for (int i = 0; i < 2; i++)
		if (s->fd[i] >= 0) {
			close(s->fd[i]);
			unlink(s->path[i]);
			s->fd[i] = -1;
		}
}

static int fs_run(struct workload_ctx *ctx)
{
	struct fs_state s = { .ctx = ctx, .fd = { -1, -1 } };
	long bufsize, maxblocks, w_rate = 0, r_rate = 0;
	int rc = 0;

	ctx->slot->rate = 0;
	ctx->slot->time = 0;
	if (fs_parse(ctx->arg, &bufsize, &maxblocks) < 0)
		return wl_fail(ctx, "file copy wants 'BUFSIZE MAXBLOCKS', got '%s'",
			       ctx->arg ? ctx->arg : "");
	if (bufsize < FS_UNIT || bufsize > FS_MAX_BUF)
		return wl_fail(ctx, "file copy buffer size %ld is outside %d..%d bytes",
			       bufsize, FS_UNIT, FS_MAX_BUF);
	if (maxblocks < 1 || maxblocks > 1024 * 1024 || maxblocks * 1024 < bufsize)
		return wl_fail(ctx, "file copy size %ld KiB must hold at least one %ld-byte buffer "
			       "and be at most 1 GiB", maxblocks, bufsize);
	if (!ctx->tmpdir)
		return wl_fail(ctx, "file copy needs a scratch directory");

	s.bufsize = (size_t)bufsize;
	s.nbuf = maxblocks * 1024 / bufsize;
	double copy_secs = ctx->duration > 0 ? ctx->duration : FS_NOMINAL;
	s.scale = copy_secs < FS_NOMINAL ? copy_secs / FS_NOMINAL : 1.0;
	for (size_t i = 0; i < sizeof fs_buf; i++)
		fs_buf[i] = (char)(i & 0xff);

	for (int i = 0; i < 2; i++) {
		int n = snprintf(s.path[i], sizeof s.path[i], "%s/dummy%d-%ld", ctx->tmpdir, i,
				 (long)getpid());
		if (n < 0 || (size_t)n >= sizeof s.path[i]) {
			fs_close(&s);
			return wl_fail(ctx, "the scratch directory path is too long");
		}
		s.fd[i] = open(s.path[i], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (s.fd[i] < 0) {
			rc = wl_fail(ctx, "cannot create %s: %s", s.path[i], strerror(errno));
			fs_close(&s);
			return rc;
		}
	}

	fs_settle(&s, 2, 2);
	if (!wl_stopped(ctx))
		rc = fs_write(&s, 2 * s.scale, &w_rate);
	if (rc == 0 && !wl_stopped(ctx)) {
		fs_settle(&s, 2, 2);
		rc = fs_read(&s, 2 * s.scale, &r_rate);
	}
	if (rc == 0 && !wl_stopped(ctx)) {
		fs_settle(&s, 2, 1);
		if (!wl_stopped(ctx))
			rc = fs_copy(&s, copy_secs, w_rate, r_rate);
	}
	fs_close(&s);
	return rc;
}

const struct workload wl_fscopy = { .name = "fscopy", .run = fs_run };
