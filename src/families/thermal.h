/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal check (kbench thermal), the family's API: its defaults, its facts and verdict as a screen draws them, the check as far as it has gone, its run mode's row. */
#ifndef KBENCH_THERMAL_H
#define KBENCH_THERMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct run;
struct test_result;

/* The defaults of `kbench thermal` and the console's thermal preset, written
 * only here: the option rows show them (THERMAL_DEF) and both faces apply them. */
#define THERMAL_MINUTES 10
#define THERMAL_SAMPLE_SECONDS 2.0
#define THERMAL_IDLE_SECONDS 30
#define THERMAL_TEST "dhry2reg"
#define THERMAL_DEF_(x) #x
#define THERMAL_DEF(x) THERMAL_DEF_(x) /* "10": a default as an option row spells it */
/* The idle baseline ends before its length once the temperature is steady:
 * its readings over the last THERMAL_IDLE_STEADY_SECONDS span at most
 * THERMAL_IDLE_STEADY_C (a sensor that reads whole degrees flickers by one)
 * and their two halves' means differ by less than half that (not a slow
 * fall). With no temperature to wait for it ends after THERMAL_IDLE_MIN. */
#define THERMAL_IDLE_MIN 5.0
#define THERMAL_IDLE_STEADY_SECONDS 10.0
#define THERMAL_IDLE_STEADY_C 1.0
/* The marker the runner sets when the idle baseline ended that way. */
#define THERMAL_IDLE_STEADY_MARK "idle baseline steady"
/* The reference window: the first minute (and the last, for the sustained share). */
#define THERMAL_WINDOW_SECONDS 60.0
/* A fall: three samples in a row below the start level by more than its noise:
 * THERMAL_FALL_SDS robust deviations of the first samples, at least THERMAL_FALL_MIN. */
#define THERMAL_FALL_SDS 4.0
#define THERMAL_FALL_MIN 0.03
#define THERMAL_FALL_RUN 3
/* The clock counts as fallen below this share of its level at the start. */
#define THERMAL_CLOCK_SHARE 0.90
/* Degrees below the limit that count as hot (throttle.h's margin), and below
 * which an idle CPU counts as already warm at the start. */
/* A turbo budget running out (Intel's PL2 time window, tau, AMD's boost
 * budget): the clock steps down to a sustained level and stays there within
 * THERMAL_TURBO_PLATEAU of it, where thermal throttling saws up and down. */
#define THERMAL_TURBO_PLATEAU 0.03
#define THERMAL_HEAT_MARGIN 5.0
#define THERMAL_WARM_MARGIN 20.0

/* One sample of the check and what the sensors read while it ran. */
struct thermal_point {
	double t;        /* its start, seconds since the first sample began */
	double len;      /* its length, seconds */
	double rate;     /* its score (the test's unit) */
	double temp;     /* mean headline °C over it; NAN unknown */
	double mhz;      /* mean busy clock over it; NAN unknown */
	double throttle; /* throttle events since the first sample began, at its end; NAN unknown */
	double watts;    /* mean power over it; NAN unknown */
	double others;   /* CPUs other processes used while it ran; NAN unknown */
};

/* Everything the decision weighs; a source that is missing has NAN values and its why. */
struct thermal_inputs {
	int n;
	const struct thermal_point *p;
	double idle_temp_start, idle_temp_end; /* the idle baseline's first and last reading; NAN none */
	double temp_limit;                     /* crit (else max) of the headline input; 0 none */
	const char *limit_name;                /* "crit" or "max" */
	double joules;                         /* energy over the samples; NAN unknown */
	double throttle_ms;                    /* time throttled over the samples; NAN unknown */
	const char *unit;                      /* the score's unit ("lps") */
	int timebase;                          /* the test's (1 lps, 60 lpm, 0 rate itself) */
	bool idle_steady;                      /* the idle baseline ended with the temperature steady */
	bool on_battery;                       /* the preflight found the machine on battery */
	bool clock_constant;                   /* the clock reading never moved */
	bool clock_fixed;                      /* ... and it comes from /proc/cpuinfo (a VM's is fixed): no evidence either way */
	/* Why a source is missing ("no hwmon chips ..."); NULL or "" when it is there. */
	const char *temp_why, *freq_why, *throttle_why, *power_why;
};

enum thermal_state {
	THERMAL_SHORT,      /* too few samples to say anything yet */
	THERMAL_STEADY,     /* score and sensors level */
	THERMAL_WARMING,    /* the temperature rising, nothing slowed yet */
	THERMAL_THROTTLING, /* the CPU slowed itself: counters, clock or heat */
	THERMAL_FALLEN,     /* the score fell with no thermal evidence */
	THERMAL_TURBO,      /* the turbo budget ran out: the clock stepped down to a level it held, with
			     * the temperature known and not near its limit and no throttle counter moved */
};

struct thermal_verdict {
	enum thermal_state state;
	int ref_n;            /* samples in each of the first and last windows */
	double ref_seconds;   /* their length (60 s, or less in a short check) */
	double first, last;   /* geometric mean score of the first and last windows */
	double first_pm, last_pm; /* their 95% intervals, as fractions (t on the log rates) */
	double sustained;     /* last / first; NAN when too short */
	double level, noise;  /* the start level (median of the first samples) and the fall threshold (fraction) */
	int fall;             /* first sample of the fall, -1 none */
	double fall_t, fall_pct;  /* its start and the mean change from it to the end, percent (negative) */
	double fall_temp, fall_mhz; /* the sensors then; NAN unknown */
	double fall_others;   /* CPUs other processes used from then on; NAN unknown */
	int event;            /* first sample with thermal evidence, -1 none */
	double event_t;
	bool counters, clock, heat; /* which evidence was seen from the event on */
	double throttle_events, throttle_ms; /* totals over the check; NAN unknown */
	double mhz_start, mhz_min, temp_start, temp_max; /* NAN unknown */
	double joules, watts, per_joule; /* energy, mean power, work per joule; NAN unknown */
	bool warm_start, cooling_start;  /* hot at the start; still cooling in the idle baseline */
	bool any_sensor;      /* temperature, clock or counters could show heat */
	char cause[200];      /* the evidence at the event: "throttle counters +3 (300 ms); clock 1200 MHz (was 2400)" */
	char headline[96];    /* "throttling since 4:12", "no throttling", "steady", ... */
	char thermal_line[400]; /* the verdict on heat, one sentence */
	char score_line[400];   /* the verdict on the score, one sentence */
	char energy_line[200];
	char start_line[400];   /* a warm or cooling start, on battery; "" otherwise */
	char missing[400];      /* what is missing here and why, "" when nothing */
};

/* What the live sampler knows that a run's series cannot say yet (the console's
 * thermal screen while the check runs): the headline sensor's limit, where the
 * clock is read, and why a source is missing (NULL: it reads). */
struct thermal_live {
	double temp_limit;      /* 0: none known */
	bool freq_cpuinfo;      /* the clock is /proc/cpuinfo's (a VM's is fixed) */
	const char *temp_why, *freq_why, *power_why, *throttle_why;
};

/* The check as far as it has gone, decided: run r's thermal test's first
 * nsamples samples (< 0: all) and its series up to tmax seconds of run time
 * (INFINITY: all; a replay's reveal), with live's facts over the run's (NULL:
 * none). Fills in and v; returns the points (free them), NULL when the run has
 * no thermal test or no samples yet (v is then the decision on none). */
struct thermal_point *thermal_assess(const struct run *r, int nsamples, double tmax,
				     const struct thermal_live *live, struct thermal_inputs *in,
				     struct thermal_verdict *v);

/* "4:12", "0:07", "1:02:03" */
void thermal_fmt_time(char *buf, size_t size, double seconds);

/* The run's thermal test: its first block's first test; NULL when the run is not a thermal check. */
const struct test_result *thermal_test(const struct run *r);
bool thermal_is(const struct run *r);

/* The thermal mode's row (run.h): its command's usage, help and option rows (minutes, test,
 * idle, copies), which the option table composes (src/cli/options_table.c), and what the
 * runner and the readers of a run ask of it. Listed in src/registry/run_mode.c. */
extern const struct run_mode_info thermal_mode;

#endif
