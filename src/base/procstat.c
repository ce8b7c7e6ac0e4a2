/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's busy CPU time from /proc/stat's first line. */
#include "procstat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "telemetry/sysroot.h"

double procstat_busy(const char *line, long clk_tck)
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
	/* Steal counts as busy: the hypervisor gave the CPU to someone else. */
	unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	return (double)busy / (double)clk_tck;
}

int procstat_busy_now(double *seconds)
{
	char line[512];
	int rc = sysroot_read_line("/proc/stat", line, sizeof line);
	if (rc < 0)
		return rc;
	double busy = procstat_busy(line, sysconf(_SC_CLK_TCK));
	if (busy < 0)
		return -EINVAL;
	*seconds = busy;
	return 0;
}
