/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test table: one row per benchmark, UnixBench's ids, labels, units and baselines. */
#ifndef KBENCH_TESTS_H
#define KBENCH_TESTS_H

#include <stdbool.h>
#include <stddef.h>

struct family;
struct test_result;
struct worker_slot;
struct workload;

/* The label column of the compare table's 80-column layout (compare_text.c). */
#define TEST_SHORT_LABEL_MAX 16

/* A test's default noise floor (noise.c): the relative sd of one run's
 * score between identical runs, in a full-length run and in a quick one. */
struct test_noise {
	double full, quick;
};
/* The floor assumed for a test that no A/A data speaks for. */
#define TEST_NOISE_UNMEASURED { 0.050, 0.100 }

/* Everything kbench knows of a test is its row in test_table, which its
 * family declares in its own file (family_NAME.c; family.h) and tests.c
 * gathers; outside those no code names a test id. The rows set their fields
 * in this order, one line per group, and leave out those at their zero default. */
struct test_def {
	/* What it is called */
	const char *id;       /* UnixBench's id: dhry2reg, execl, fstime, ... */
	const char *label;    /* the title as UnixBench prints it */
	const char *short_label; /* the compare table's 80-column label, at most
				    TEST_SHORT_LABEL_MAX; NULL: the title, cut there */
	const char *about;    /* one line for `kbench list` */

	/* How it is scored */
	const char *unit;     /* lps, MWIPS, KBps, lpm */
	int timebase;         /* 0: the workload reports a rate; 1: per second; 60: per minute */
	double baseline;      /* index baseline ("George" = 10.0), 0 when none */
	const char *category; /* UnixBench's table: "system" (the index is its rows with a
				 baseline) or "misc"; copied into the run file as it is */

	/* What runs */
	const struct workload *workload;
	const char *arg;      /* passed to the workload */
	bool needs_data;      /* the workload reads data/ (scripts, input, cctest.c): a run
				 of it refuses to start when they cannot be found */
	bool self_timed;      /* the workload ends itself (whetstone, file copy) */
	double overrun;       /* self-timed: a sample's real length over .seconds (its work
				 before the timed part), for time estimates */
	bool one_copy;        /* runs its own tasks (scaling): copy 0 does the work, and a run
				 with a 1-copy block skips it in the others (runner_plan.c) */
	bool uncounted;       /* no per-worker counters unless --events names them: counting
				 slows its forks, execs or context switches (make bench measures it) */
	/* A points result (run.h) instead of a rate: after each sample, also one
	 * cut short, turns the copies' published points (workload.h) into the
	 * test's points. settings: its family's struct as the runner filled it
	 * for the run (settings_fill), NULL when the family has no settings. */
	void (*collect)(struct test_result *t, const struct worker_slot *slots, int copies,
			const void *settings);

	/* A points test's floor per point ("other p99.9"), when its points move
	 * by different amounts; NULL: .noise for every point. */
	struct test_noise (*point_noise)(const struct test_def *t, const char *point);
	int quick_samples;    /* a points test's samples in a quick run; 0 = 2 */
	/* A sample's length when it depends on the run's settings (a build: the
	 * tree and the -j list; a sweep: its sizes, beyond its walks' budget), for
	 * the estimates; NULL = .seconds. settings: the family's filled struct (a
	 * quick run's defaults in it); first: the first sample (which may
	 * prepare and warm up); length: the sample length the runner gives it
	 * (--duration, or the row's). */
	double (*sample_seconds)(const void *settings, bool first, double length);
	/* What the run's settings need of the machine (a kernel build: the
	 * tools it runs), checked before a run starts: 0, or -1 with one
	 * sentence, and the run does not start. NULL = nothing. */
	int (*preflight)(const void *settings, char *err, size_t errlen);

	/* Whose it is: set by tests.c from the family that declares the row */
	const struct family *family;

	/* How long, and how much it moves */
	double seconds;       /* nominal sample length */
	int samples;          /* UnixBench's passes: 10 for long tests, 3 for short ones */
	double quick_seconds; /* sample length in quick runs; 0 = 1 s (tests.c says why where not) */
	struct test_noise noise; /* default floors until stored A/A runs refine them */
};

struct test_group {
	const char *name;
	const char *about;
	const char *const *ids; /* NULL-terminated; NULL list = every test */
};

/* Every family's rows and groups in the registry's order (family_list.c),
 * gathered before main runs; "all" is the last group. */
extern const struct test_def *test_table;
extern size_t test_count;
extern const struct test_group *test_groups;
extern size_t test_group_count;

const struct test_def *test_find(const char *id);
/* The label a run of t with these workload parameters gets: its family's
 * (timerlat's names its period), else .label. buf holds it when it is not .label. */
const char *test_label(const struct test_def *t, const char *params, char *buf, size_t len);
const struct test_group *test_group_find(const char *name);

/* The family of a test row, of a result (by its id), or of a test id or a
 * compare row's id ("buildload:no_load"): the rate tests' (family_list's
 * first) for an id the table does not know (an imported UnixBench test).
 * Never NULL. */
const struct family *test_family(const struct test_def *t);
const struct family *test_result_family(const struct test_result *t);
const struct family *test_id_family(const char *id);

/* A result as it was collected or read back from a run file: its typed fields
 * (run.h: a quick run's asked precision from its summary, then its family's
 * describe verb's) and what older files said put right. */
void test_describe(struct test_result *t);

/* A family's settings (struct settings, its f->size bytes into s) as a reader of
 * params fills them outside a run (a label, a live view, an estimate's test):
 * settings_fill with quick as given and this machine's CPUs. 0, or -1 with the
 * error line (s holds the defaults and what came before it). */
struct settings;
int test_settings_fill(const struct settings *f, const char *params, bool quick, void *s, char *err,
		       size_t errlen);

/* UnixBench's -i N: long tests (10 passes) run N, short ones max(1, (N+1)/3). */
int test_samples_for_iterations(const struct test_def *t, int iterations);

/* The sample length of a quick run: the row's quick_seconds, 1 s when unset. */
double test_quick_seconds(const struct test_def *t);

#endif
