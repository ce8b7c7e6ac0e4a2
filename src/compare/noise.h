/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The noise floor of this machine per test: how much one run's score moves between identical runs. */
#ifndef KBENCH_NOISE_H
#define KBENCH_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run.h"

struct run;

/* The pseudo test id under which the index score's own floor is kept. */
#define NOISE_INDEX_ID "index"

/* Runs a calibration makes by default (kbench calibrate, C in the console):
 * a floor from 4 A/A comparisons per copy count. */
#define CALIBRATE_RUNS 5

/* How many A/A degrees of freedom a default counts for when learned
 * values are blended in: a few lucky quiet pairs must not shrink the
 * floor, and a calibration of five runs must still outweigh it. */
#define NOISE_PRIOR_DF 1

/* A run's settings as far as noise goes: the mode, the sample length and
 * -i ("quick", "full", "full, 2 s samples, -i 3"). Floors are learned and
 * used per setting: a quick run's score moves differently from a full one's. */
void noise_setting(const struct run *r, char *buf, size_t size);

struct noise_floor {
	char id[32];
	char setting[64];  /* noise_setting() of the runs it applies to */
	const struct run_mode_info *mode; /* ... and that setting's parts, as in struct run_meta */
	double duration_override;
	int iterations;
	double sigma;      /* what compare uses: learned blended with the default, or the default */
	double fallback;   /* the conservative default for this test and setting */
	double learned;    /* sd learned from stored runs alone; < 0 when none */
	int df;            /* degrees of freedom behind `learned` (A/A comparisons) */
	int runs;          /* stored runs it was learned from */
	/* The index's floor only: its log score against its runs' log pace (run_pace),
	 * deviations from each set's means over the set's runs that have both: sums of
	 * squares (x the pace, y the index) and products, and their degrees of freedom. */
	double pace_sxx, pace_sxy, pace_syy;
	int pace_df;
};

struct noise_table {
	int n;
	struct noise_floor *f;
	int groups;   /* sets of same-kernel, same-settings runs with 2 or more runs */
	int runs;     /* runs in those sets */
};

/* The default per-run sd for a test in a full-length run (UnixBench's
 * sample lengths). */
double noise_default(const char *test_id);
/* The default for a test in the setting of run r: quick runs and runs
 * with shorter samples (--duration) have their own, wider defaults. */
double noise_default_for(const char *test_id, const struct run *r);

/* Learns from runs: runs with the same host, kernel release, command
 * line, mode, sample length and -i form a set; the spread of the log
 * scores inside each set, pooled over the sets of one setting, is the
 * learned sd for that setting. Runs whose id is listed in `exclude` (e.g.
 * the two being compared) are left out, and so are imported runs (no
 * samples) and tests that ran on a busy machine (others used the CPUs). */
void noise_learn(struct noise_table *t, const struct run *const *runs, int n,
		 const char *const *exclude, int nexclude);
/* Same over every good run in the store. 0 or -errno. */
int noise_learn_store(struct noise_table *t, const char *const *exclude, int nexclude, char *err,
		      size_t errlen);
/* The floor for a test in run r's setting: learned (blended with its
 * default), or the default alone. Never NULL; valid until the table is
 * freed or noise_get is called four more times. */
const struct noise_floor *noise_get(const struct noise_table *t, const char *test_id,
				    const struct run *r);
void noise_free(struct noise_table *t);

/* How far the index follows the machine's pace between runs of one kernel and
 * setting, learned from at least NOISE_PACE_MIN_DF degrees of freedom: the slope
 * (log index per log pace) and its correlation. On a VM the host moves both (the
 * index 2 to 8 times the pace, measured); where nothing moved the pace, or too few
 * runs have it, false. */
#define NOISE_PACE_MIN_DF 4
bool noise_pace_slope(const struct noise_floor *nf, double *slope, double *r);

/* The sd to use: the default, blended with the learned sd when there is one. */
double noise_sigma(const struct noise_floor *nf);
/* Degrees of freedom of that sd for a t interval: INFINITY for a default
 * alone (chosen, not estimated), else the learned df plus the prior's. */
double noise_dof(const struct noise_floor *nf);

/* One setting's floors as a table: test, floor used, default, learned, df,
 * runs. ids: the tests to list (NULL-terminated); NULL lists the index's
 * tests, then any other test the table learned for that setting. */
void noise_print(FILE *f, const struct noise_table *t, const struct run *like,
		 const char *const *ids);

#endif
