/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler: runs every registered telemetry source (source.h, registry.c) on the runner's events, writing series and per-test summaries into the run. */
#ifndef KBENCH_TELEMETRY_TELEMETRY_H
#define KBENCH_TELEMETRY_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runner.h"
#include "telemetry/counters.h"
#include "telemetry/frame.h"
#include "telemetry/source.h"

struct run;
struct test_result;

/* Checks for kbench run's telemetry options beyond their rows' ranges
 * (src/cli/options_table.c): 0, or -1 with one sentence in err. opt is the option as
 * the user spelled it. */
int telemetry_check_events(const char *opt, const char *arg, char *err, size_t errlen);
int telemetry_check_interval(const char *opt, const char *arg, char *err, size_t errlen);
int telemetry_check_sensor(const char *opt, const char *arg, char *err, size_t errlen);

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
