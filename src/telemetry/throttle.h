/* Thermal throttle counters: per-core and per-package counts and time throttled, as deltas since open. */
#ifndef KBENCH_TELEMETRY_THROTTLE_H
#define KBENCH_TELEMETRY_THROTTLE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define THROTTLE_MAX_CPUS 256

/* One cpu's raw counters; -1 in package_id means unknown (then counted as its own package). */
struct throttle_reading {
	int cpu;
	int package_id;
	bool has_core, has_pkg;
	uint64_t core_count, core_ms, pkg_count, pkg_ms;
};

/* Totals since open: core counts summed over CPUs, package counts once per package. */
struct throttle_totals {
	uint64_t core_events, core_ms;
	uint64_t pkg_events, pkg_ms;
};

struct throttle {
	bool available;
	char why[200];
	int ncpus;
	struct throttle_reading base[THROTTLE_MAX_CPUS]; /* at open */
	struct throttle_reading cur[THROTTLE_MAX_CPUS];
	struct throttle_totals total; /* latest sample minus open */
};

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
	double nominal_mhz;         /* the CPU's nominal clock; 0 unknown */
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
	char evidence[200];         /* each kind said once, "; " between; "" when none */
};

#define THROTTLE_CLOCK_SHARE 0.85
#define THROTTLE_HEAT_MARGIN 5.0 /* °C */

static inline struct throttle_inputs throttle_inputs_none(void)
{
	return (struct throttle_inputs){ .ghz = NAN, .busy_min_mhz = NAN,
					 .temp_max = NAN, .limit_name = "" };
}

/* The decision (pure): throttled when the counters moved, or when two of
 * clock, heat and a falling score are seen together. The clock is the
 * workers' own (ghz) when counted and low, else the lowest sampled busy clock.
 * A falling score: at least 3 samples with both a rate and a temperature,
 * rates spread over more than 3%, temperatures over at least 3 °C, and a
 * correlation between them below -0.7. */
void throttle_decide(const struct throttle_inputs *in, struct throttle_verdict *out);

#endif
