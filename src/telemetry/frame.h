/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every telemetry source reads and writes: the options it was opened
 * with and the latest frame the console draws. Sources include this, not
 * telemetry.h, so the sampler and its sources do not include each other. */
#ifndef KBENCH_TELEMETRY_FRAME_H
#define KBENCH_TELEMETRY_FRAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "telemetry/counters.h"

struct telemetry_slot;

struct telemetry_opts {
	const char *events;  /* --events LIST; NULL = perf stat's default set */
	double interval;     /* seconds between samples; 0 = 0.5 */
	const char *sensor;  /* --sensor CHIP:LABEL; NULL = the automatic choice */
	bool cooldown;       /* wait between tests until the CPU is back near its start temperature */
	double cooldown_max; /* the longest such wait in seconds; 0 = 120 */
	FILE *log;           /* where cooldown waits are told; NULL = nowhere */
	bool off;            /* --no-telemetry or --interval 0: no sampler at all (make bench) */
};

#define TELEMETRY_MAX_CPUS 256

/* The latest sample, for the console. Pointers stay valid until the next sample. */
struct telemetry_frame {
	double t;        /* seconds since the run started */
	bool busy;       /* a benchmark sample was running */
	int ncpus;
	const int *cpu;     /* cpu numbers */
	const double *mhz;  /* per cpu, NAN unknown */
	double mhz_busy;    /* the busy cores' mean: the workers' CPUs' when mhz_workers */
	bool mhz_workers;   /* mhz_busy is the clock of the CPUs the workers ran on at this tick */
	char mhz_of[40];    /* what mhz_busy is against: "nominal 1600", "boost ceiling 4505", or "" */
	const char *freq_source; /* "cpufreq scaling_cur_freq", "/proc/cpuinfo cpu MHz" or "n/a: why" */
	double temp;        /* °C, NAN unknown */
	const char *temp_source; /* "k10temp Tctl", "thermal_zone0 cpu-thermal" or "n/a: why" */
	double temp_limit;  /* crit/max of the headline input, 0 none */
	double watts;       /* NAN unknown */
	double joules;      /* since the run began */
	const char *power_source; /* "RAPL package-0", "battery BAT0", or "n/a: why" in a few words (half a line) */
	const char *throttle_source; /* what can show throttling, or "n/a: why" where nothing can */
	bool throttled;     /* throttle counters moved or a CPU cooling device acted during the current test */
	uint64_t throttle_events;
	char throttle_evidence[160];
	int ncopies, nevents;
	const struct counter_event *events;
	const struct counter_value *values; /* [copy * nevents + e], NULL before the first sample */
	/* Every registered source, in registry order: what it is (->src->name,
	 * ->src->what), its status ("n/a: why" when missing) and its latest
	 * reading as text. The fields above are the four the run screen draws. */
	int nsources;
	const struct telemetry_slot *sources;
};

#endif
