/* What every workload shares: the clock and the error sentence. */
#include "workload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

double wl_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int wl_fail(const struct workload_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->slot->err, sizeof c->slot->err, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_small(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : -1;
	if (!s || errno || end == s || *end || v < 0 || v > (1 << 20))
		return -1;
	*out = v;
	return 0;
}

int wl_attach(const char *fdarg, const char *copyarg, struct workload_ctx *ctx, char *err,
	      size_t errlen)
{
	long fd, copy;
	struct stat st;
	if (parse_small(fdarg, &fd) || parse_small(copyarg, &copy)) {
		snprintf(err, errlen, "internal entry: usage FD COPY");
		return -1;
	}
	if (fstat((int)fd, &st) < 0 || st.st_size < (off_t)((copy + 1) * sizeof(struct worker_slot))) {
		snprintf(err, errlen, "fd %ld does not hold slot %ld", fd, copy);
		return -1;
	}
	struct worker_slot *slots =
		mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
	if (slots == MAP_FAILED) {
		snprintf(err, errlen, "cannot map the slots: %s", strerror(errno));
		return -1;
	}
	memset(ctx, 0, sizeof *ctx);
	ctx->slot = &slots[copy];
	ctx->copy = (int)copy;
	ctx->shm_fd = (int)fd;
	return 0;
}
