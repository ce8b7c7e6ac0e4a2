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

#include "telemetry/sysroot.h"

double others_parse_stat(const char *line, long clk_tck)
{
	if (strncmp(line, "cpu ", 4) != 0 || clk_tck <= 0)
		return -1;
	/* user nice system idle iowait irq softirq steal [guest guest_nice]:
	 * guest time is already inside user, and idle and iowait are idle. */
	unsigned long long v[8] = { 0 };
	int n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		       &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -1;
	/* Steal counts as others': the hypervisor gave our CPU to someone else. */
	unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	return (double)busy / (double)clk_tck;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int others_snap(struct others_snap *s)
{
	memset(s, 0, sizeof *s);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	s->own_s = tv(self.ru_utime) + tv(self.ru_stime) + tv(kids.ru_utime) + tv(kids.ru_stime);
	char line[512];
	int rc = sysroot_read_line("/proc/stat", line, sizeof line);
	if (rc < 0)
		return rc;
	double busy = others_parse_stat(line, sysconf(_SC_CLK_TCK));
	if (busy < 0)
		return -EINVAL;
	s->busy_s = busy;
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
