/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the runner: what runner.c (runs and tests), runner_sample.c (one
 * sample) and runner_plan.c (paths, lengths, estimates) share. Not for other files. */
#ifndef KBENCH_RUNNER_INT_H
#define KBENCH_RUNNER_INT_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "runner.h"

struct sample;
struct test_def;
struct worker_slot;

#define MAX_LISTENERS 4
/* The families a run's tests may come from (each one's settings filled once). */
#define RUNNER_MAX_FAMILIES 16

struct runner {
	struct runner_opts o;
	char scratch_root[PATH_MAX]; /* where the run's scratch dir is made */
	char scratch[PATH_MAX];      /* <root>/kbench-XXXXXX while a run lasts */
	char datadir[PATH_MAX];
	char helper[PATH_MAX]; /* kbench-exec, or "" when not found */
	int shm_fd;
	struct worker_slot *slots;
	size_t shm_len;
	struct runner_listener listeners[MAX_LISTENERS];
	int nlisteners;
	volatile sig_atomic_t skip;
	volatile sig_atomic_t abort;
	pid_t pids[RUNNER_MAX_COPIES];
	int live_copies;
	double sample_t0;
	double run_t0;
	/* Each family of the run's tests that has settings, and its struct as
	 * settings_fill filled it once from the run's params, quick flag and CPUs
	 * (runner_prepare_settings); forked workers read it as theirs. */
	int nfams;
	const struct settings *fam[RUNNER_MAX_FAMILIES];
	void *fam_settings[RUNNER_MAX_FAMILIES];
	/* Settling before samples (runner_settle): how it went over the run. */
	struct runner_settle {
		int tries, missed, in_a_row;
		double waited, busy_max; /* seconds waited in all; the most others used at a cap */
		bool gave_up, unread;    /* the machine stayed busy; /proc/stat could not be read */
	} settle;
};

/* A quick run's first, untimed sample: caches, page tables and the CPU's clock settle. */
#define QUICK_WARMUP_SECONDS 0.3

/* In rounds, every test gets this many samples whatever the budget says. */
#define ROUNDS_MIN_SAMPLES 3

/* runner_plan.c: what a test's samples are, from the options and its row. */
int runner_samples_for(const struct runner_opts *o, const struct test_def *t);
double runner_length_for(const struct runner_opts *o, const struct test_def *t);
double runner_pause_for(const struct runner_opts *o);
double runner_quick_limit(const struct runner_opts *o);

/* Fills each family's settings for the run's tests (once per family), then runs each
 * test's preflight with them: 0, or -1 with the error line (a bad setting's is the
 * one the command line prints for it). */
int runner_prepare_settings(struct runner *r, char *err, size_t errlen);
/* The filled settings of t's family in this run; NULL when it has none. */
const void *runner_settings_of(const struct runner *r, const struct test_def *t);
void runner_free_settings(struct runner *r);

/* Settling: a sample waits for the machine to be idle (other processes under SETTLE_IDLE_CPU
 * of a CPU over SETTLE_WINDOW seconds) and every CPU's clock steady (within 2% across the
 * window, where cpufreq says it), at most `cap` seconds. */
#define SETTLE_IDLE_CPU 0.1
#define SETTLE_WINDOW 0.05
/* A quick sample's cap: settling costs what it waits, on a machine others keep busy too;
 * a full-length test's, before its first sample (after UnixBench's pause) */
#define SETTLE_CAP_QUICK 0.3
#define SETTLE_CAP_FULL 1.0
/* Caps in a row after which the run stops waiting: the load is the machine's, not a passing one. */
#define SETTLE_GIVE_UP 5

/* runner_sample.c */
void runner_emit(struct runner *r, struct runner_event *ev);
/* Waits, at most cap seconds, until the machine is idle and its clocks steady (above);
 * the seconds it waited. Counts into r->settle. */
double runner_settle(struct runner *r, double cap);
/* UnixBench's pause before a sample (sync, sleep), emitting ticks. */
void runner_pause_before_sample(struct runner *r, struct runner_event *ev);
/* A thermal check's idle baseline: `seconds` of nothing, emitting EV_PAUSE and ticks
 * so telemetry reads the idle sensors. Returns early on abort or skip. */
void runner_idle_baseline(struct runner *r, struct runner_event *ev, double seconds);
/* One sample of test t with n copies for `length` seconds into *out:
 * 0, or -1 with a sentence in reason (a worker failed, the run was
 * skipped or aborted). *overhead is the time spent starting the copies. */
int runner_run_sample(struct runner *r, struct runner_event *ev, const struct test_def *t, int n,
		      double length, struct sample *out, double *overhead, char *reason, size_t reasonlen);

#endif
