/* The noise floor of this machine per test: how much one run's score moves between identical runs. */
#ifndef KBENCH_NOISE_H
#define KBENCH_NOISE_H

#include <stdbool.h>
#include <stddef.h>

struct run;

/* The pseudo test id under which the index score's own floor is kept. */
#define NOISE_INDEX_ID "index"

/* How many A/A degrees of freedom a default counts for when learned
 * values are blended in: a few lucky quiet pairs must not shrink the floor. */
#define NOISE_PRIOR_DF 4

struct noise_floor {
	char id[32];
	double sigma;      /* noise_sigma(f, 1): relative sd of one run's score between runs (0.05 = 5%) */
	double fallback;   /* the conservative default for this test */
	double learned;    /* sd learned from stored runs alone; < 0 when none */
	int df;            /* degrees of freedom behind `learned` (A/A comparisons) */
	int runs;          /* stored runs it was learned from */
};

struct noise_table {
	int n;
	struct noise_floor *f;
	int groups;   /* sets of same-kernel, same-settings runs with 2 or more runs */
	int runs;     /* runs in those sets */
};

/* The default per-run sd for a test (UnixBench A/A runs on a 2-vCPU VM:
 * up to 22% on Process Creation between two runs; 5-10% on many tests). */
double noise_default(const char *test_id);

/* Learns from runs: runs with the same host, kernel release, command
 * line, mode, sample length and -i form a set; the spread of the log
 * scores inside each set, pooled over the sets, is the learned sd. Runs
 * whose id is listed in `exclude` (e.g. the two being compared) are left
 * out. Imported runs (no samples) are not learned from. */
void noise_learn(struct noise_table *t, const struct run *const *runs, int n,
		 const char *const *exclude, int nexclude);
/* Same over every good run in the store. 0 or -errno. */
int noise_learn_store(struct noise_table *t, const char *const *exclude, int nexclude, char *err,
		      size_t errlen);
/* The floor for a test: learned blended with its default, or the default. Never NULL. */
const struct noise_floor *noise_get(const struct noise_table *t, const char *test_id);
void noise_free(struct noise_table *t);

/* The sd to use: the default times `scale` (>= 1 for samples shorter than
 * UnixBench's), blended with the learned sd when there is one. */
double noise_sigma(const struct noise_floor *nf, double scale);

#endif
