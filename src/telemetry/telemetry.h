/* The sampler: runs every registered telemetry source (source.h, registry.c) on the runner's events, writing series and per-test summaries into the run. */
#ifndef KBENCH_TELEMETRY_TELEMETRY_H
#define KBENCH_TELEMETRY_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runner.h"
#include "telemetry/counters.h"
#include "telemetry/source.h"

struct run;
struct test_result;

struct telemetry_opts {
	const char *events;  /* --events LIST; NULL = perf stat's default set */
	double interval;     /* seconds between samples; 0 = 0.5 */
	const char *sensor;  /* --sensor CHIP:LABEL; NULL = the automatic choice */
	bool cooldown;       /* wait between tests until the CPU is back near its start temperature */
	double cooldown_max; /* the longest such wait in seconds; 0 = 120 */
	FILE *log;           /* where cooldown waits are told; NULL = nowhere */
	bool off;            /* --no-telemetry or --interval 0: no sampler at all (make bench) */
};

/* Checks for kbench run's telemetry options beyond their rows' ranges
 * (src/options.c): 0, or -1 with one sentence in err. opt is the option as
 * the user spelled it. */
int telemetry_check_events(const char *opt, const char *arg, char *err, size_t errlen);
int telemetry_check_interval(const char *opt, const char *arg, char *err, size_t errlen);
int telemetry_check_sensor(const char *opt, const char *arg, char *err, size_t errlen);

#define TELEMETRY_MAX_CPUS 256

/* The latest sample, for the console. Pointers stay valid until the next sample. */
struct telemetry_frame {
	double t;        /* seconds since the run started */
	bool busy;       /* a benchmark sample was running */
	int ncpus;
	const int *cpu;     /* cpu numbers */
	const double *mhz;  /* per cpu, NAN unknown */
	double mhz_busy;    /* the busy cores' mean */
	const char *freq_source; /* "cpufreq scaling_cur_freq", "/proc/cpuinfo cpu MHz" or "n/a: why" */
	double temp;        /* °C, NAN unknown */
	const char *temp_source; /* "k10temp Tctl (may carry an offset)" or "n/a: why" */
	double temp_limit;  /* crit/max of the headline input, 0 none */
	double watts;       /* NAN unknown */
	double joules;      /* since the run began */
	const char *power_source; /* "RAPL package-0", "battery BAT0", or "n/a: why" in a few words (half a line) */
	bool throttled;     /* throttle counters moved during the current test */
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

struct telemetry;

/* Opens every source; a missing source is not an error. Fails (NULL, one
 * sentence in err, *usage set) only for bad options: an unknown event name,
 * a --sensor that names nothing here. */
struct telemetry *telemetry_new(const struct telemetry_opts *o, bool *usage, char *err, size_t errlen);
void telemetry_free(struct telemetry *t);

/* The listener to add to the runner (ctx is t). */
struct runner_listener telemetry_listener(struct telemetry *t);

/* A listener printing telemetry_print_test_line() after each test (kbench run -v);
 * add it after the telemetry's own listener. */
struct runner_listener telemetry_verbose_listener(FILE *f);

const struct telemetry_frame *telemetry_latest(const struct telemetry *t);

/* One line per source that is unavailable or on a fallback ("<what>: n/a: <why>"), then the counters'. */
void telemetry_print_sources(FILE *f, const struct telemetry *t);

/* After a test's score line (-v): frequency, temperature, throttle, energy, IPC. */
void telemetry_print_test_line(FILE *f, const struct test_result *t);
/* At the end of `kbench run`: hottest point, lowest busy frequency, throttle
 * events, and a warning naming every test that looks throttled. */
void telemetry_print_summary(FILE *f, const struct run *r);

/* Checks what makes results untrustworthy (governor, boost, battery,
 * perf_event_paranoid, NMI watchdog, load, heat); each finding goes into the
 * run's notes and is printed with the command that fixes it. */
void preflight_check(struct run *run, FILE *out);

#endif
