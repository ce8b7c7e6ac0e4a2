/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RAPL's power limits (powercap constraints: PL1 long_term, PL2 short_term, peak_power) and the evidence that a package ran at one of them. */
#ifndef KBENCH_TELEMETRY_POWERCAP_H
#define KBENCH_TELEMETRY_POWERCAP_H

#include <stdbool.h>
#include <stdio.h>

#define POWERCAP_MAX_LIMITS 8
#define POWERCAP_HIST 256 /* ticks of history: 128 s at the default 0.5 s, past PL1's usual 28 s window */
/* A package averaging this share of a limit over its window is at it: the
 * firmware holds the average a little under the limit it enforces. */
#define POWERCAP_NEAR 0.95

/* One constraint of a top-level intel-rapl zone. These files stay
 * world-readable (only energy_uj became root-only, CVE-2020-8694). */
struct powercap_limit {
	char zone[32];      /* "intel-rapl:0" */
	char zone_name[32]; /* "package-0" */
	int idx;            /* N of constraint_N_* */
	char name[24];      /* "long_term", "short_term", "peak_power" */
	double watts;       /* constraint_N_power_limit_uw; > 0 (a limit of 0 is none set) */
	double window_s;    /* constraint_N_time_window_us; 0 when it has none (peak_power) */
};

/* The limits of the top-level zones (through the sysroot), zone by zone in
 * constraint order. Returns how many (0 when there are none or no powercap). */
int powercap_limits(struct powercap_limit *out, int max);

/* "PL1", "PL2", "PL4" (peak_power), else the constraint's own name. */
const char *powercap_limit_label(const struct powercap_limit *l);

/* Whether the zone ran at the limit: its energy history (t[] seconds,
 * j[] joules, oldest first, n points) averaged over the limit's window
 * (the newest stretch at least that long; the last interval when the window
 * is shorter than one tick, as PL2's few milliseconds are) reaches
 * POWERCAP_NEAR of it. *watts and *span get that average and its length.
 * A window longer than the history decides nothing (false). */
bool powercap_reached(const struct powercap_limit *l, const double *t, const double *j, int n, double *watts,
		      double *span);

/* The limits and the package energy seen at each tick, for the energy source. */
struct powercap_watch {
	int nlim;
	struct powercap_limit lim[POWERCAP_MAX_LIMITS];
	int n, head;                     /* points in the ring, and where the next goes */
	double t[POWERCAP_HIST];
	double j[POWERCAP_MAX_LIMITS][POWERCAP_HIST]; /* each limit's zone's joules */
	/* the current test: the highest share of each limit reached, and its average */
	bool hit[POWERCAP_MAX_LIMITS];
	double hit_w[POWERCAP_MAX_LIMITS], hit_span[POWERCAP_MAX_LIMITS];
};

void powercap_watch_open(struct powercap_watch *w);
/* One tick: zone_joules(zone, ctx) is that zone's energy so far, NAN when unknown. */
void powercap_watch_tick(struct powercap_watch *w, double now, double (*zone_joules)(const char *zone, void *ctx),
			 void *ctx);
void powercap_watch_test_begin(struct powercap_watch *w);
/* The limits the test reached, one line ("package-0 PL1 15.0 W: 14.8 W over 28.0 s"), or "" when none. */
void powercap_watch_evidence(const struct powercap_watch *w, char *buf, size_t size);
/* `kbench sensors`' lines: each zone's limits. */
void powercap_show(const struct powercap_watch *w, FILE *f);

#endif
