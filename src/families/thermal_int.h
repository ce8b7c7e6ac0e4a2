/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the thermal check: what its own files (thermal*.c) and its unit test share: the decision, the inputs it reads from a run, what the mode's row points to. Not for other files: they use thermal.h. */
#ifndef KBENCH_THERMAL_INT_H
#define KBENCH_THERMAL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "thermal.h"

struct run;
struct runner_opts;

/* The decision (pure, unit-tested in tests/unit/test_thermal.c). */
void thermal_decide(const struct thermal_inputs *in, struct thermal_verdict *v);

/* May the idle baseline that began at run time t0 end at `now`? Reads the
 * "temp.cpu" series `temp` (NULL: no temperature). True with the reason in
 * why: steady, or nothing to wait for (pure; tests/unit/test_thermal.c). */
struct series;
bool thermal_idle_settled(const struct series *temp, double t0, double now, char *why, size_t whylen);

/* The inputs of a run's thermal check from its samples and series: the
 * test's first `nsamples` samples (< 0: all) and the series points up to
 * `tmax` seconds of run time (INFINITY: all), for a replay's reveal.
 * Returns the points (free them) and fills in; NULL when the run has no
 * thermal test or no samples. */
struct thermal_point *thermal_inputs_of(const struct run *r, int nsamples, double tmax,
					struct thermal_inputs *in);

/* After the check (the runner calls it): the verdict's facts as the test's
 * summary keys (thermal.*) and the "score" series (one point per sample, at
 * its end), so a report can draw score, MHz, °C and W on one time axis. */
void thermal_finish(struct run *r);

/* The verdict and the per-minute table (score, MHz, °C, W, throttle): kbench thermal and kbench show. */
void thermal_print(FILE *f, const struct run *r);

/* kbench thermal's defaults where its options left them: THERMAL_MINUTES of load after
 * THERMAL_IDLE_SECONDS idle, copies the CPUs (struct runner_opts, src/engine/runner.h). */
void thermal_defaults(struct runner_opts *o, int ncpus);

/* kbench thermal --test: a test of the table (kbench list) that gives a rate a
 * check can follow; 0, or -1 with the option's error line (opt as spelled). */
int thermal_check_test(const char *opt, const char *arg, char *err, size_t errlen);

/* The thermal mode's rows in a comparison of two thermal checks (first and
 * last window, sustained share) and its footer sentence: which held its score
 * longer. Nothing when either side is not a thermal check of cb's copies. */
struct compare;
struct compare_block;
struct noise_table;
void thermal_compare_rows(struct compare *c, struct compare_block *cb, const struct run *const *a, int na,
			  const struct run *const *b, int nb, const struct noise_table *nt);

#endif
