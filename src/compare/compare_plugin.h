/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison's plug-in API: what a family's compare verb (family.h) and a run mode's own rows (run.h) add to a comparison with. */
#ifndef KBENCH_COMPARE_PLUGIN_H
#define KBENCH_COMPARE_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

struct compare;
struct compare_row;
struct noise_floor;

/* A sentence under the table. */
void compare_push_footer(struct compare *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A difference between the two sides beyond the kernel ("kbuild built": tree A, tree B);
 * nothing when a and b are the same. */
void compare_add_diff(struct compare *c, const char *what, const char *a, const char *b);

/* One side of a row while it is decided: the values of its runs. */
struct side_vals {
	int nall;        /* runs with a value */
	double *all;     /* log score per run: what the table shows */
	int k;           /* runs that can be judged: not busy, not throttled */
	double *logs;    /* their log scores */
	double within;   /* mean over those runs of the within-run variance of the log score */
	double extra;    /* mean over them of what their own evidence adds (drift) */
	bool samples;    /* every run has samples (not an import) */
	double drift;    /* largest trend (log units), 0 none */
	bool drifted;
	bool busy, throttled;
	double freq;     /* mean busy MHz over the runs that know it; NAN unknown */
	char freq_method[96]; /* how they read it (freq.method), "" unknown, "mixed" when the runs differ */
	bool zero;       /* a point measured as 0 in a run (0% of deadlines met): no log, no ratio */
};

void compare_side_init(struct side_vals *s, int n);
void compare_side_free(struct side_vals *s);
/* A row's verdict from its two sides and their noise floors, at confidence conf. */
void compare_decide(struct compare_row *row, const struct side_vals *a, const struct side_vals *b,
		    const struct noise_floor *fa, const struct noise_floor *fb, double conf);

#endif
