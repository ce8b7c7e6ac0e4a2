/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Other processes' CPU use: what the rest of the machine took while a run (or the second before it) went on. */
#ifndef KBENCH_TELEMETRY_OTHERS_H
#define KBENCH_TELEMETRY_OTHERS_H

#include <stdbool.h>

/* Above this many CPUs used by others (averaged over a test's samples),
 * a test measured the other load too: compare withholds its verdict and
 * the preflight warns. A CPU hog sharing the worker's CPU takes about 0.5;
 * an idle machine's daemons and kernel threads stay under 0.05. */
#define OTHERS_BUSY_CPU 0.25

/* One moment's totals: the machine's busy CPU time (from /proc/stat:
 * user, nice, system, irq, softirq and steal of every CPU) and this
 * process's own (itself and its reaped children, getrusage). */
struct others_snap {
	bool ok;         /* /proc/stat was readable */
	double t;        /* CLOCK_MONOTONIC, seconds */
	double busy_s;   /* machine busy seconds, summed over CPUs */
	double own_s;    /* our user + system seconds, with reaped children */
};

/* Takes a snapshot. Returns 0, or -errno when /proc/stat cannot be read
 * (then ok is false and nothing can be said). */
int others_snap(struct others_snap *s);

/* CPUs used by everything but us between a and b, on average (1.0 = one
 * CPU fully). Clamped at 0 (tick rounding); NAN when either is not ok or
 * no time passed. Children still running at b are not yet counted as ours:
 * take b after they are reaped. */
double others_cpu(const struct others_snap *a, const struct others_snap *b);

#endif
