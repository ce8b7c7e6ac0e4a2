/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Throughput as tasks grow (AIM7-style): the task counts a run measures, its peak and crossover, the table people paste. */
#ifndef KBENCH_SCALING_H
#define KBENCH_SCALING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct compare;
struct run;
struct run_block;
struct settings;
struct test_result;
struct worker_slot;
struct family;
struct workload;

/* The family (family_scaling.c): other code reaches it by this pointer, never by its name. */
extern const struct family family_scaling;

/* The loop (scaling_loop.c): a job mix by 1, 2, 4, ... tasks, a points result, self-timed. */
extern const struct workload wl_scaling;

/* What the workload publishes per step (workload.h, struct wl_point .series);
 * x is the step's task count. */
enum scaling_series {
	SCALING_JPM,  /* jobs per minute: tasks x jobs per task x 60 / real seconds */
	SCALING_REAL, /* real seconds from the start signal until the last task ended */
	SCALING_CPU,  /* CPU seconds: user + system of the tasks and what they ran */
};

#define SCALING_MAX_STEPS 32
#define SCALING_MAX_TASKS 4096
#define SCALING_DEFAULT_JOBS 200  /* jobs per task per step */
#define SCALING_TEXT_(x) #x
#define SCALING_TEXT(x) SCALING_TEXT_(x) /* a number as its row's text */
#define SCALING_MAX_JOBS 100000
#define SCALING_CPU_FACTOR 8      /* default: up to 8 tasks per CPU */
/* A step counts as below the peak when it is more than this share under
 * it (or twice the peak's own sample spread, when that is larger): the
 * run-to-run noise of a step's jobs/min on a quiet small machine. */
#define SCALING_MARGIN 0.05

/* A run's settings ("tasks=1,2,4 max-tasks=16 jobs=12"; other words
 * belong to other workloads). */
struct scaling_params {
	int ntasks;                      /* an explicit list: run exactly these */
	int tasks[SCALING_MAX_STEPS];
	int max_tasks;                   /* 0: SCALING_CPU_FACTOR x the CPUs */
	int jobs;                        /* per task per step */
};

/* The settings' rows (tasks, max-tasks, jobs) into struct scaling_params. */
extern const struct settings scaling_settings;
/* "1,2,4,8": counts 1 to SCALING_MAX_TASKS, ascending, at most
 * SCALING_MAX_STEPS. 0, or -1 with one sentence. */
int scaling_parse_tasks(const char *text, int *out, int *n, char *err, size_t errlen);
/* The steps to measure: the explicit list, or 1, 2, 4, ... up to the
 * maximum (ncpus x 8 by default), the maximum itself last. Returns how many. */
int scaling_task_list(const struct scaling_params *p, int ncpus, int *out, int max);
/* Whether the system lets this user run `tasks` tasks, each with the
 * program it forks: 0, or -1 with one sentence naming the limit
 * (RLIMIT_NPROC, kernel.pid_max, kernel.threads-max). */
int scaling_check_tasks(int tasks, char *err, size_t errlen);

/* The curve's peak: the smallest task count whose jobs/min is within
 * `margin` of the highest (a flat top is reached at its first step, so
 * that noise along a plateau does not move the peak). x ascending.
 * Returns its index, -1 when n is 0. */
int scaling_peak(const double *x, const double *v, int n, double margin);
/* The crossover: the first task count past the peak whose jobs/min lies
 * more than `margin` below the highest; the point from which each added
 * task makes the whole slower (real time per job grows faster than the
 * task count). Returns its index, -1 when the curve never falls that far. */
int scaling_crossover(const double *x, const double *v, int n, double margin);
/* The stop rule of the default doubling: true once the last two steps
 * both lie more than `margin` below the peak before them. */
bool scaling_should_stop(const double *v, int n, double margin);

/* The test row's collect (tests.h): the steps of one sample into points
 * ("4 tasks" jobs/min, "real 4", "cpu 4", and the headline "peak": the
 * sample's highest jobs/min, at x 0 so that two runs' peaks compare
 * wherever they lie); the peak and crossover of the mean curve into the
 * summary (peak.tasks, crossover.tasks). */
void scaling_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		     const void *settings);

/* Whether a result is of this family (its row's collect is scaling_collect). */
bool scaling_is(const struct test_result *t);
/* This family's result in a block, or NULL. */
const struct test_result *scaling_find(const struct run_block *b);

/* The mean curve of jobs/min: x ascending. Returns how many. */
int scaling_curve(const struct test_result *t, double *x, double *v, int max);

/* The report's table for a scaling result (Tasks, Jobs/min, Real, CPU,
 * JPM/task), its peak and crossover. Returns false, printing nothing, for
 * another test. */
bool scaling_print_table(FILE *f, const struct test_result *t);

/* A comparison's sentence on the peak: "scaling: peak 4 -> 8 tasks, +12%
 * jobs/min (1 copy)". Nothing when neither side has a scaling result. */
void scaling_compare_footer(struct compare *c, const struct run *const *a, int na,
			    const struct run *const *b, int nb);

#endif
