/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file tests (fstime, fsbuffer, fsdisk, and -w/-r): write, read or copy a small file in fixed-size buffers. */
#include "workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * UnixBench's fstime, as UNIXBENCH.md §4.5 describes it. Three phases:
 *   write: sync, sleep 2, sync, sleep 2; write the whole file buffer by
 *          buffer, again and again (time checked only after a whole file pass);
 *   read:  the same settle; read buffer by buffer, rewinding at the end of the
 *          file (a short read gets its bytes' credit);
 *   copy:  sync, sleep 2, sync, sleep 1; read a buffer from file 0 and write
 *          it to file 1, rewinding both at the end.
 * The row's argument says which run (fstime's -c, -w, -r), in fs_modes below:
 *   "B M" or "B M copy": write 2 s, read 2 s, copy for the sample (fstime -c);
 *   "B M write":         write for the sample (fstime -w);
 *   "B M read":          write 2 s, read for the sample (fstime -r).
 * Data is counted in 256-byte units; a rate is units / (seconds * 4) = KiB/s,
 * truncated to an integer. Only the last phase is the result (UnixBench's last
 * COUNT and TIME lines win); the phases before it create the file, and give
 * the rates that weigh a partial copy's credit.
 *
 * Shorter samples (--duration below 30 s): the last phase lasts ctx->duration
 * and the 2 s phases and every settle sleep are scaled by duration / 30, so a
 * copy at `--duration 1` takes about 1 + (2 + 2 + 4 + 4 + 3) / 30 = 1.5 s. At
 * 30 s or more nothing is scaled: 45 s per copy sample as in UnixBench (34 s
 * write, 40 s read).
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
	double scale;   /* settle sleeps and the 2 s phases: min(1, duration/30) */
	bool publish;   /* the measured phase: show its units as the live count */
	long w_rate;    /* KiB/s of the last write and read phases: they weigh */
	long r_rate;    /* a partial copy's credit */
};

/* What a phase did: 256-byte units (fractional for a partial copy) in seconds. */
struct fs_done {
	double units;
	double secs;
};

static int fs_write(struct fs_state *s, double secs, struct fs_done *done);
static int fs_read(struct fs_state *s, double secs, struct fs_done *done);
static int fs_copy(struct fs_state *s, double secs, struct fs_done *done);

/* One phase of a run: the settle sleeps before it (sync, sleep, sync, sleep),
 * then the phase, for 2 s (scaled) or, the last one, for the sample. */
struct fs_step {
	int (*phase)(struct fs_state *s, double secs, struct fs_done *done);
	double sleep1, sleep2;
};

#define FS_MAX_STEPS 3

/* fstime's -c, -w and -r: which phases run, the last one measured. */
static const struct fs_mode {
	const char *name;
	int nsteps;
	struct fs_step steps[FS_MAX_STEPS];
} fs_modes[] = {
	{ "copy", 3, { { fs_write, 2, 2 }, { fs_read, 2, 2 }, { fs_copy, 2, 1 } } },
	{ "write", 1, { { fs_write, 2, 2 } } },
	{ "read", 2, { { fs_write, 2, 2 }, { fs_read, 2, 2 } } },
};

static char fs_buf[FS_MAX_BUF];

/* "BUFSIZE MAXBLOCKS [copy|write|read]"; no mode word is a copy. */
static int fs_parse(const char *arg, long *bufsize, long *maxblocks, const struct fs_mode **mode)
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
	if (errno || end == p || (*end && *end != ' ' && *end != '\t'))
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	*mode = &fs_modes[0];
	if (!*end)
		return 0;
	size_t len = strcspn(end, " \t");
	if (end[len + strspn(end + len, " \t")])
		return -1;
	for (size_t i = 0; i < sizeof fs_modes / sizeof fs_modes[0]; i++)
		if (strlen(fs_modes[i].name) == len && !strncmp(end, fs_modes[i].name, len)) {
			*mode = &fs_modes[i];
			return 0;
		}
	return -1;
}

static long fs_kib_rate(double units, double secs)
{
	return secs > 0 ? (long)(units / (secs * FS_UNITS_PER_KIB)) : 0;
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

/* The measured phase shows its progress; the others would only confuse it. */
static void fs_progress(const struct fs_state *s, unsigned long units)
{
	if (s->publish)
		wl_publish(s->ctx, units);
}

/* Write phase: whole passes over file 0; the deadline is looked at only
 * between passes, so the phase may overrun by one pass (timed exactly). */
static int fs_write(struct fs_state *s, double secs, struct fs_done *done)
{
	unsigned long units = 0;
	unsigned long per_buf = (s->bufsize + FS_HALF_UNIT) / FS_UNIT;

	if (fs_rewind(s, 0) < 0)
		return -1;
	fs_progress(s, 0);
	double t0 = wl_now(), end = t0 + secs;
	do {
		for (long b = 0; b < s->nbuf; b++) {
			if (write(s->fd[0], fs_buf, s->bufsize) != (ssize_t)s->bufsize)
				return fs_io_error(s, "writing", 0);
			units += per_buf;
			fs_progress(s, units);
		}
		if (fs_rewind(s, 0) < 0)
			return -1;
	} while (wl_now() < end && !wl_stopped(s->ctx));
	done->units = (double)units;
	done->secs = wl_now() - t0;
	s->w_rate = fs_kib_rate(done->units, done->secs);
	return 0;
}

/* Read phase: buffer by buffer; a short read at the end of the file gets
 * its bytes' credit, rounded to units, and rewinds. */
static int fs_read(struct fs_state *s, double secs, struct fs_done *done)
{
	unsigned long units = 0;

	if (fs_rewind(s, 0) < 0)
		return -1;
	fs_progress(s, 0);
	double t0 = wl_now(), end = t0 + secs;
	for (unsigned k = 1; !wl_stopped(s->ctx); k++) {
		if (k % FS_CLOCK_EVERY == 0 && wl_now() >= end)
			break;
		ssize_t r = read(s->fd[0], fs_buf, s->bufsize);
		if (r < 0)
			return fs_io_error(s, "reading", 0);
		units += ((unsigned long)r + FS_HALF_UNIT) / FS_UNIT;
		fs_progress(s, units);
		if ((size_t)r < s->bufsize && fs_rewind(s, 0) < 0)
			return -1;
	}
	done->units = (double)units;
	done->secs = wl_now() - t0;
	s->r_rate = fs_kib_rate(done->units, done->secs);
	return 0;
}

/* Copy phase: every counted unit was both read and written. */
static int fs_copy(struct fs_state *s, double secs, struct fs_done *done)
{
	unsigned long units = 0;
	double partial = 0;

	if (fs_rewind(s, 0) < 0 || fs_rewind(s, 1) < 0)
		return -1;
	fs_progress(s, 0);
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
		fs_progress(s, units);
		if (w < r) {
			/* An interrupted transfer: the bytes read but not written
			 * did the read's share of a copy, which is w/(r+w) of it
			 * when reading runs at r and writing at w KiB/s. */
			if (s->w_rate + s->r_rate > 0)
				partial = (double)(r - w) / FS_UNIT * (double)s->w_rate /
					  (double)(s->w_rate + s->r_rate);
			break;
		}
	}
	done->units = (double)units + partial;
	done->secs = wl_now() - t0;
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

static int fs_open(struct fs_state *s)
{
	for (int i = 0; i < 2; i++) {
		int n = snprintf(s->path[i], sizeof s->path[i], "%s/dummy%d-%ld", s->ctx->tmpdir, i,
				 (long)getpid());
		if (n < 0 || (size_t)n >= sizeof s->path[i])
			return wl_fail(s->ctx, "the scratch directory path is too long");
		s->fd[i] = open(s->path[i], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (s->fd[i] < 0)
			return wl_fail(s->ctx, "cannot create %s: %s", s->path[i], strerror(errno));
	}
	return 0;
}

static int fs_run(struct workload_ctx *ctx)
{
	struct fs_state s = { .ctx = ctx, .fd = { -1, -1 } };
	const struct fs_mode *mode;
	long bufsize, maxblocks;
	int rc = 0;

	ctx->slot->rate = 0;
	ctx->slot->time = 0;
	if (fs_parse(ctx->arg, &bufsize, &maxblocks, &mode) < 0)
		return wl_fail(ctx, "file tests want 'BUFSIZE MAXBLOCKS [copy|write|read]', got '%s'",
			       ctx->arg ? ctx->arg : "");
	if (bufsize < FS_UNIT || bufsize > FS_MAX_BUF)
		return wl_fail(ctx, "file test buffer size %ld is outside %d..%d bytes",
			       bufsize, FS_UNIT, FS_MAX_BUF);
	if (maxblocks < 1 || maxblocks > 1024 * 1024 || maxblocks * 1024 < bufsize)
		return wl_fail(ctx, "file test size %ld KiB must hold at least one %ld-byte buffer "
			       "and be at most 1 GiB", maxblocks, bufsize);
	if (!ctx->tmpdir)
		return wl_fail(ctx, "the file tests need a scratch directory");

	s.bufsize = (size_t)bufsize;
	s.nbuf = maxblocks * 1024 / bufsize;
	double measured = ctx->duration > 0 ? ctx->duration : FS_NOMINAL;
	s.scale = measured < FS_NOMINAL ? measured / FS_NOMINAL : 1.0;
	for (size_t i = 0; i < sizeof fs_buf; i++)
		fs_buf[i] = (char)(i & 0xff);

	rc = fs_open(&s);
	for (int i = 0; rc == 0 && i < mode->nsteps && !wl_stopped(ctx); i++) {
		const struct fs_step *st = &mode->steps[i];
		bool last = i == mode->nsteps - 1;
		struct fs_done done = { 0, 0 };
		fs_settle(&s, st->sleep1, st->sleep2);
		if (wl_stopped(ctx))
			break;
		s.publish = last;
		rc = st->phase(&s, last ? measured : 2 * s.scale, &done);
		if (rc == 0 && last) {
			ctx->slot->rate = (double)fs_kib_rate(done.units, done.secs);
			ctx->slot->time = done.secs;
		}
	}
	fs_close(&s);
	return rc;
}

const struct workload wl_fscopy = { .name = "fscopy", .run = fs_run };
