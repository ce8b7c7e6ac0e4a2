/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Throttle evidence: Intel's thermal_throttle counters (thermal events, and power-limit events apart), the thermal framework's CPU cooling devices on every platform, and the throttle decision. */
#ifndef KBENCH_TELEMETRY_THROTTLE_H
#define KBENCH_TELEMETRY_THROTTLE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define THROTTLE_MAX_CPUS 256

/* One cpu's raw counters; -1 in package_id means unknown (then counted as its own package). */
#define THROTTLE_MAX_COOLING 32

struct throttle_reading {
	int cpu;
	int package_id;
	bool has_core, has_pkg;
	uint64_t core_count, core_ms, pkg_count, pkg_ms;
	/* *_power_limit_count: the firmware's power limit reached (PLN), not heat */
	bool has_core_pl, has_pkg_pl;
	uint64_t core_pl, pkg_pl;
};

/* Totals since open: core counts summed over CPUs, package counts once per package. */
struct throttle_totals {
	uint64_t core_events, core_ms;
	uint64_t pkg_events, pkg_ms;
	uint64_t power_limit_events; /* core and package power-limit counts: a separate state, not throttling */
};

/* A thermal-framework cooling device that slows the CPU (/sys/class/thermal/cooling_deviceN of type
 * Processor, cpufreq-*, thermal-cpufreq-*, intel_powerclamp, thermal-idle-*): state 0 is unthrottled. */
struct cooling_dev {
	int id;
	char type[40];
	uint64_t max_state, cur_state;
	bool has_trans;
	uint64_t trans0, trans; /* stats/total_trans at open and now (needs CONFIG_THERMAL_STATISTICS) */
};

struct throttle {
	bool available;   /* some evidence can be read: counters or CPU cooling devices */
	bool counters;    /* thermal_throttle counters (Intel) */
	bool power_limit; /* *_power_limit_count exist */
	char why[240];    /* why nothing can show throttling, or what is missing */
	int ncpus;
	struct throttle_reading base[THROTTLE_MAX_CPUS]; /* at open */
	struct throttle_reading cur[THROTTLE_MAX_CPUS];
	struct throttle_totals total; /* latest sample minus open */
	int ncool;
	struct cooling_dev cool[THROTTLE_MAX_COOLING];
};

/* A cooling device type that acts on the CPU (not a fan, not a GPU's devfreq). */
bool throttle_cooling_is_cpu(const char *type);
/* The highest cur_state of the CPU cooling devices now (0: none is acting), and which. */
uint64_t throttle_cooling_state(const struct throttle *th, const char **type);
/* Their state changes since open, summed (0 without statistics). */
uint64_t throttle_cooling_trans(const struct throttle *th);

int throttle_open(struct throttle *th);
int throttle_sample(struct throttle *th);
void throttle_close(struct throttle *th);

/* cur - base over n cpus; package counters taken from the first cpu of each package.
 * A counter that went backwards (cpu offlined and back) contributes 0. */
void throttle_account(const struct throttle_reading *base, const struct throttle_reading *cur, int n,
		      struct throttle_totals *out);

/* Events and ms in one number each, for series and summaries. */
static inline uint64_t throttle_events(const struct throttle_totals *t)
{
	return t->core_events + t->pkg_events;
}
static inline uint64_t throttle_ms(const struct throttle_totals *t)
{
	return t->core_ms > t->pkg_ms ? t->core_ms : t->pkg_ms;
}

/* What one test showed that bears on throttling. The sources fill their parts
 * (the throttle counters, the clock, the temperature), the sampler the rest;
 * throttle_inputs_none() is "nothing known". */
struct throttle_inputs {
	uint64_t events, ms;        /* the throttle counters' increase over the test */
	uint64_t cooling_state;     /* the highest CPU cooling-device state seen during the test; 0 none */
	uint64_t cooling_trans;     /* their state changes during the test */
	const char *cooling_type;   /* the device at that state ("Processor", "cpufreq-cpu0") */
	uint64_t power_limit_events; /* the power-limit counters' increase: the firmware's power or turbo
				      * limit reached (a separate state, never counted as throttling) */
	char power_limit_rapl[160]; /* RAPL limits the package ran at (powercap.h), "" none: not throttling either */
	double nominal_mhz;         /* the CPU's nominal clock; 0 unknown */
	double ref_mhz;             /* the rate ref-cycles tick at: cpu0's nominal (the TSC's, the base clock,
				     * on every core type; a boost ceiling is none); 0 unknown */
	char ref_from[48];          /* where ref_mhz comes from ("base_frequency") */
	double ghz;                 /* the workers' cycles per task-clock ns; NAN unknown */
	double busy_min_mhz;        /* the lowest busy clock sampled; NAN none */
	double temp_max;            /* the hottest headline reading; NAN none */
	double temp_limit;          /* its crit (else max) limit; 0 none */
	const char *limit_name;     /* "crit" or "max" */
	int nsamples;               /* the length of rate[] and sample_temp[] */
	const double *rate;         /* each sample's count per second; NAN unknown */
	const double *sample_temp;  /* each sample's hottest reading; NAN unknown; NULL none at all */
};

struct throttle_verdict {
	bool throttled;
	/* The kinds of evidence seen: the counters moved; the clock was below
	 * THROTTLE_CLOCK_SHARE of nominal; the temperature came within
	 * THROTTLE_HEAT_MARGIN of the limit; the score fell as the CPU warmed. */
	bool counters, clock, heat, score;
	bool cooling;               /* a CPU cooling device acted (cur_state > 0, or changed state) */
	bool power_limit;           /* the power-limit counters moved: not throttling, said apart */
	char evidence[200];         /* each kind said once, "; " between; "" when none */
};

#define THROTTLE_CLOCK_SHARE 0.85
#define THROTTLE_HEAT_MARGIN 5.0 /* °C */

static inline struct throttle_inputs throttle_inputs_none(void)
{
	return (struct throttle_inputs){ .ghz = NAN, .busy_min_mhz = NAN,
					 .temp_max = NAN, .limit_name = "", .cooling_type = "" };
}

/* The decision (pure): throttled when the counters moved or a CPU cooling device acted, or when two of
 * clock, heat and a falling score are seen together. The clock is the
 * workers' own (ghz) when counted and low, else the lowest sampled busy clock.
 * A falling score: at least 3 samples with both a rate and a temperature,
 * rates spread over more than 3%, temperatures over at least 3 °C, and a
 * correlation between them below -0.7. */
void throttle_decide(const struct throttle_inputs *in, struct throttle_verdict *out);

#endif
