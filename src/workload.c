/* What every workload shares: the clock and the error sentence. */
#include "workload.h"

#include <stdarg.h>
#include <stdio.h>
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
