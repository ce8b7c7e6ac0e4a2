/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Side-by-side comparison of two runs (or two groups of runs), with verdicts that respect the noise.
 *
 * The result is plain data so the command line and the console render the
 * same thing: compare_runs() computes everything (rows, intervals,
 * verdicts, drift, environment differences, summary, footer sentences);
 * the compare_print_* functions only lay it out.
 *
 * Conventions: a "change" is B relative to A, in percent: +5.0 means B's
 * score is 5% higher (for every UnixBench test, higher is better, so
 * positive is "faster"). Intervals are 95% unless opts say otherwise and
 * are computed on the log of the ratio, so change_lo/change_hi are not
 * symmetric around change; change_pm is their half width for display.
 */
#ifndef KBENCH_COMPARE_H
#define KBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct run;
struct noise_table;

enum compare_verdict {
	VERDICT_NA,        /* no interval possible: a side lacks samples, or the test is on one side only */
	VERDICT_SAME,      /* "no significant change": the interval contains 0 */
	VERDICT_FASTER,    /* the whole interval is above 0 */
	VERDICT_SLOWER,    /* the whole interval is below 0 */
};

/* How a row's interval was obtained. */
enum compare_method {
	METHOD_NONE,       /* n/a */
	METHOD_FLOOR,      /* one run per side: within-run spread + noise floor */
	METHOD_BETWEEN,    /* a group on a side: Welch on per-run log scores */
};

struct compare_side {
	bool present;      /* the test is in this side's block */
	int nruns;         /* runs of the side that have it */
	double score;      /* geometric mean over the side's runs */
	double index;      /* same for the index; 0 when the test has no baseline */
	int nsamples;      /* samples per run (first run), 0 for an imported result */
	double spread;     /* relative sd of the kept samples (first run); < 0 unknown */
	bool drift;        /* samples trend by more than the noise within a run */
	double drift_pct;  /* that trend, first to last sample, percent (largest over the runs) */
	double others_cpu; /* CPUs other processes used during the test (largest over the runs); NAN unknown */
	bool busy;         /* a run had others_cpu >= OTHERS_BUSY_CPU: it measured their load too */
	bool throttled;    /* a run's telemetry says the test was throttled */
	double freq_mhz;   /* mean busy clock while the test ran (over the runs); NAN unknown */
	/* A pair test (context1): samples over the side's runs with each pair on one CPU,
	 * on two, and mixed (run.h, sample_placement); all 0 when its samples do not say. */
	int place_one, place_two, place_mixed;
};

struct compare_row {
	char id[32];
	char label[64];
	char unit[16];
	struct compare_side a, b;
	double change;      /* percent; NAN when not comparable */
	double change_lo, change_hi, change_pm; /* interval, percent; NAN when none */
	enum compare_verdict verdict;
	double sure;        /* faster/slower: 1 - p, how sure (0.95..1); NAN otherwise */
	enum compare_method method;
	double floor_pct;   /* noise floor used (per-run sd, percent); NAN when unused */
	bool floor_learned; /* the floor came (partly) from stored A/A runs */
	int floor_runs;     /* stored runs behind a learned floor (largest of the two sides) */
	bool widened;       /* the interval includes within-run drift or a clock difference */
	int more_runs;      /* undecided: runs per side that would likely settle it; 0 = decided or n/a; -1 = too many */
	const char *note;   /* "only in A", "no samples", "busy", "throttled", ...: or NULL */
	/* A point of a points test (run.h): id "<test>:<point>", the sides' score
	 * is the point's value (geometric mean over the runs of each run's mean
	 * over its samples), no index. "faster" means better in the point's own
	 * direction: a lower latency or time, a higher rate or clock. */
	bool point;
	bool detail;        /* a curve point, not a headline: counted apart, not printed in the table */
	bool lower_better;
	/* A pair test compared on the samples of one placement alone (run.h's enum
	 * placement: PLACE_ONE or PLACE_TWO), since the sides placed them differently;
	 * 0: every sample. The index row takes each run's score from those samples too. */
	int place_only;
	bool place_by_time; /* and each run's samples by their time placed so (compare_place.c) */
};

/* One copy count (a "Benchmark Run:" block of UnixBench). */
struct compare_block {
	int copies;
	bool in_a, in_b;        /* a block missing on one side has rows with one side only */
	int nrows;
	struct compare_row *rows; /* test order of A, then tests only B has */
	struct compare_row index; /* the System Benchmarks Index Score as a row (id "index") */
	bool a_partial, b_partial;
	bool has_index;         /* a side has an index score (a block of points tests alone has none) */
	int ncompared;          /* rows with both sides */
	double mean_change;     /* arithmetic mean of the rows' changes, percent; NAN when none */
	double geomean_change;  /* geometric mean of the ratios, as a change in percent */
	int nfaster, nslower, nsame, nna;  /* rate rows and headline points */
	int ndetail;                      /* curve points (row.detail) ... */
	int dfaster, dslower, dsame, dna; /* ... and their verdicts */
};

/* One thing that differs between the two sides' environments. */
struct compare_diff {
	char what[32];   /* "kernel", "cmdline", "governor", ... */
	char a[160], b[160];
};

struct compare_ref {
	char id[16];
	char name[96];
	char kernel[96];
	long long date;
	char mode[16];
};

struct compare {
	char a_title[128], b_title[128]; /* "6.1.0-13 (3f2a91bc)", "pf (3 runs)" */
	int na, nb;
	struct compare_ref *a_runs, *b_runs;
	double conf;                     /* 0.95 */
	int nblocks;
	struct compare_block *blocks;
	int ndiffs;
	struct compare_diff *diffs;
	bool floors_learned;             /* any floor from stored A/A runs */
	int noise_runs;                  /* stored runs the floors were learned from */
	int rows_learned, rows_default;  /* rows with an interval on learned / on default floors */
	int calib_runs;                  /* stored runs behind the learned floors used (largest) */
	char basis[200];                 /* one line: what the verdicts rest on (learned or default floors) */
	char calibrate_cmd[5120];        /* the command that calibrates for these runs' settings */
	int nbusy_rows;                  /* rows withheld because a run was busy or throttled */
	int nfooter;
	char **footer;                   /* sentences for under the table */
};

struct compare_opts {
	double conf;                      /* 0 = 0.95 */
	const struct noise_table *noise;  /* NULL = the defaults only */
	bool default_noise;               /* compare_stored: do not learn from the store */
};

/* Compares side A (na runs) with side B (nb runs). NULL with err filled
 * when a side is empty or the runs share no copy count at all. */
struct compare *compare_runs(const struct run *const *a, int na, const struct run *const *b, int nb,
			     const struct compare_opts *o, char *err, size_t errlen);

/* The comparison both front ends show: compare_runs() with the noise
 * floors learned from the store's A/A runs, leaving the compared runs out
 * (o->noise is ignored; o->default_noise uses the defaults only). A store
 * that cannot be read means the default floors, and a footer says why. */
struct compare *compare_stored(const struct run *const *a, int na, const struct run *const *b, int nb,
			       const struct compare_opts *o, char *err, size_t errlen);
void compare_free(struct compare *c);

const char *compare_verdict_name(enum compare_verdict v); /* "faster", "no significant change", "n/a" */
/* The verdict as the table prints it: "slower (99.2% sure)", "n/a (busy)", "no significant change". */
void compare_verdict_text(char *buf, size_t size, const struct compare_row *r);

/* A score in at most `width` characters (4 significant digits with k/M/G when needed). */
void compare_fmt_score(char *buf, size_t size, double v, int width);

/* Text table: 80 columns (compact labels) when width < 122, else UnixBench's full labels. */
void compare_print_text(FILE *f, const struct compare *c, int width);
/* One JSON document; 0 or -errno. */
int compare_print_json(FILE *f, const struct compare *c);
/* One CSV line per row (and per index row), with a header line. */
void compare_print_csv(FILE *f, const struct compare *c);

#endif
