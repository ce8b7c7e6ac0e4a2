/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The runner: forks the workers, times the samples, scores the tests, and reports events. */
#ifndef KBENCH_RUNNER_H
#define KBENCH_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "run.h"

struct test_def;

#define RUNNER_MAX_COPIES 256
#define RUNNER_MAX_TESTS 64
#define RUNNER_MAX_BLOCKS 8

struct runner_opts {
	int ncopies;
	int copies[RUNNER_MAX_BLOCKS];        /* one block per entry, in order */
	int ntests;
	const struct test_def *tests[RUNNER_MAX_TESTS];
	int iterations;     /* UnixBench's -i; 0 = each test's own sample count */
	int samples;        /* if > 0: every test runs exactly this many samples */
	double duration;    /* if > 0: every sample lasts this long (seconds) */
	double pause;       /* idle time before each sample; < 0 = UnixBench's 3 s */
	const char *tmpdir; /* scratch for the file tests; NULL = $TMPDIR or /tmp */
	const char *datadir;/* NULL = found next to the binary */
	double interval;    /* seconds between TICK events; 0 = 0.5 */
	bool quick;         /* stop each test once its score is precise (quick.h) */
	double precision;   /* quick: half width of the 95% interval asked, fraction; 0 = 0.01 */
	double max_test_seconds; /* quick: a test's time limit; 0 = 15 */
	/* How many samples each test takes, and in what order (quick.h says why):
	 * ALLOC_OWN each test its own count (UnixBench's, -i, --samples), one test
	 * after another; ALLOC_PRECISION (quick) each test until its own precision
	 * or its time limit, one after another; ALLOC_INDEX the counts that narrow
	 * the index's interval most in `budget`, in rounds across the tests. A
	 * quick run without one takes ALLOC_PRECISION, a run given a budget ALLOC_INDEX. */
	enum runner_alloc { ALLOC_DEFAULT, ALLOC_OWN, ALLOC_PRECISION, ALLOC_INDEX } allocation;
	double budget;      /* ALLOC_INDEX: seconds per copy count; 0 = quick's default (runner_budget) */
	/* A timed run of a mode of its own (mode: its row in run.h's run_mode_info
	 * says the rest; thermal's check): > 0 runs its one test's samples back
	 * to back, no pause, for this many seconds, after `idle` seconds of an
	 * idle baseline in which telemetry reads the sensors. */
	double timed_seconds;
	const struct run_mode_info *mode; /* a timed run's mode (its row); NULL: none */
	double idle;
	const char *params; /* workload parameters, "sizes=512:128M:8 huge" (memlat); NULL = defaults */
};

enum runner_event_kind {
	EV_RUN_BEGIN,
	EV_BLOCK_BEGIN,   /* a copy count starts */
	EV_TEST_BEGIN,
	EV_PAUSE,         /* sync and sleep before a sample (UnixBench's habit) */
	EV_SAMPLE_READY,  /* workers forked and waiting at the barrier: pids are known */
	EV_SAMPLE_BEGIN,  /* barrier released */
	EV_TICK,          /* every interval while a sample runs or a pause lasts */
	EV_SAMPLE_END,
	EV_TEST_END,      /* score computed (or the test failed / was skipped) */
	EV_BLOCK_END,
	EV_RUN_END,
};

struct runner_event {
	enum runner_event_kind kind;
	struct run *run;
	int block;          /* index into run->blocks */
	int test;           /* index into the block's tests */
	int sample;         /* 0-based sample number */
	int nsamples;       /* samples this test will run; 0 = not known yet (quick) */
	/* A run in rounds (ALLOC_INDEX) visits each test again and again, a sample a
	 * visit: EV_TEST_BEGIN and EV_TEST_END frame every visit, visit counts them
	 * (0 the first), and `final` marks the EV_TEST_END after which the test is
	 * done and scored. One test after another: one visit, final. */
	int visit;
	bool final;
	double now;         /* seconds since the run started */
	double sample_elapsed; /* seconds into the current sample (or pause) */
	double sample_length;  /* its nominal length */
	int ncopies;
	const pid_t *pids;  /* EV_SAMPLE_READY .. EV_SAMPLE_END: one per copy */
};

struct runner;

struct runner_listener {
	void (*on_event)(void *ctx, const struct runner_event *ev);
	void *ctx;
	int wake_fd; /* if >= 0, readable wakes the runner for an extra EV_TICK (keys) */
};

/* Checks the options (tmpdir writable, data found, copies sane).
 * Returns NULL and fills err with one sentence on failure. */
struct runner *runner_new(const struct runner_opts *opts, char *err, size_t errlen);
void runner_free(struct runner *r);

/* Up to 4 listeners; each sees every event, in the order added. */
void runner_listen(struct runner *r, const struct runner_listener *l);

/* Runs every block and test into `run` (which the caller owns and has
 * filled with metadata). Returns 0, or -1 when the run was aborted
 * (run->incomplete is then set; the finished samples are kept). */
int runner_run(struct runner *r, struct run *run);

/* From a listener: skip the current test, or stop the whole run. */
void runner_skip_test(struct runner *r);
void runner_abort(struct runner *r);

/* Live values of the sample in progress, for progress displays. */
int runner_live_copies(const struct runner *r);
uint64_t runner_live_count(const struct runner *r, int copy);
uint64_t runner_live_aux(const struct runner *r, int copy); /* the slot's second count (workload.h) */
double runner_live_elapsed(const struct runner *r); /* seconds into the sample */
/* A points test's points published so far by one copy of the sample in
 * progress (workload.h); *pts valid until the next sample. Returns how many. */
struct wl_point;
int runner_live_points(const struct runner *r, int copy, const struct wl_point **pts);
/* A latency test's histograms of one copy in the sample in progress (the
 * phases begun so far; the running one still filling); 0 when none. */
struct lat_hist;
int runner_live_hists(const struct runner *r, int copy, const struct lat_hist **h);

/* The allocation the options ask for (ALLOC_DEFAULT resolved: index given a budget, precision
 * in a quick run, else each test's own), and the seconds per copy count of an index allocation. */
enum runner_alloc runner_allocation(const struct runner_opts *o);
double runner_budget(const struct runner_opts *o);
/* The tests a block measures in rounds (their samples interleaved): rate tests of an index
 * allocation; the others (points tests, a test of its own tasks) one after another first. */
bool runner_in_rounds(const struct runner_opts *o, const struct test_def *t);

/* The seconds a test will take with these options (samples x (pause + length)). */
/* A test that runs its own tasks (test_def .one_copy) is measured once, in
 * the 1-copy block, when the run has one: true for its other blocks. */
bool runner_skips_block(const struct runner_opts *o, const struct test_def *t, int copies);
double runner_estimate_test(const struct runner_opts *o, const struct test_def *t);
double runner_estimate(const struct runner_opts *o);
/* The blocks a test is measured in (runner_skips_block's others). */
int runner_blocks_for(const struct runner_opts *o, const struct test_def *t);
/* What the run will measure, for the console's setup: "12 tests x 2 copy
 * counts", and in line2 the tests measured once beside them ("+ 1 test x 1
 * copy count"), "" when there are none; ntests 0 says "0 tests x ...". */
void runner_plan_text(const struct runner_opts *o, char *line1, size_t len1, char *line2, size_t len2);

/* A new run record for options o: this machine's facts, the scratch
 * filesystem's, and the mode the options ask for (what both faces store). */
struct run *runner_new_run(const struct runner_opts *o);

/* The directory of the shell tests' data: hint, $KBENCH_DATADIR, beside the binary, the prefix. */
const char *runner_find_datadir(const char *hint);
const char *runner_self_path(void);
/* kbench-exec (see src/engine/workload.h, wl_exec_helper): $KBENCH_HELPER, beside
 * the binary, build/ beside it, ../libexec/kbench, the configured libexec. */
const char *runner_find_helper(void);

#endif
