/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's busy CPU time from /proc/stat: what the others' CPU use and the runner's settling read. */
#ifndef KBENCH_PROCSTAT_H
#define KBENCH_PROCSTAT_H

/* The busy seconds of a /proc/stat "cpu ..." line at clk_tck ticks a second; -1 when it is not one. */
double procstat_busy(const char *line, long clk_tck);

/* The machine's busy seconds so far, summed over its CPUs, from root's /proc/stat
 * (telemetry/sysroot.h): 0, or -errno (-EINVAL when its first line is no "cpu" line). */
int procstat_busy_now(double *seconds);

#endif
