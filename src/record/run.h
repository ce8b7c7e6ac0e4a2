/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one record of a benchmark run: metadata, every sample, scores, indexes, telemetry. */
#ifndef KBENCH_RUN_H
#define KBENCH_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "lathist.h"

#define RUN_FORMAT_MAJOR 1
#define RUN_FORMAT_MINOR 2

/* One sample (UnixBench: one pass) of one test, all copies. */
struct sample {
	int copies;
	double *count;   /* per copy: raw count, or the rate itself when timebase is 0 */
	double *elapsed; /* per copy: the time used for the rate (TIME if given, else measured) */
	double start;    /* seconds since the run started */
	/* Where each copy ran: the CPU as its work began and as it ended
	 * (sched_getcpu); -1 unknown (an older file, a machine that cannot say). */
	int *cpu, *cpu_end;
	/* A test of two processes per copy (context1): per copy, the share of its
	 * checks that found the two on one CPU (0..1); NAN when it has no pair.
	 * shared_time: the share of its time between checks that ended so (NAN
	 * unknown: no pair, an older file). A round trip on one CPU is several
	 * times shorter than one across, so the two shares differ: 0.2 of the
	 * checks can be 0.03 of the time. */
	double *shared, *shared_time;
};

/* Where a sample's pairs of processes ran: on one CPU, on two, some of each
 * (a copy moved, or copies differ), or nothing known (no pair, an older file).
 * A pair that shares a CPU switches without crossing CPUs: on a 2-CPU VM
 * context1 reads 150-190 k lps so and 19 k across (issue 37), so a sample's
 * placement is part of what it measured. */
enum placement { PLACE_UNKNOWN, PLACE_ONE, PLACE_TWO, PLACE_MIXED, PLACE_COUNT };

/* The share of copy c's time its pair spent placed p (PLACE_ONE or PLACE_TWO),
 * from shared_time; NAN unknown. */
double sample_time_in(const struct sample *s, int c, enum placement p);

struct compare;
struct compare_block;
struct noise_table;
struct run;
struct runner_opts;
struct series;

/* What an option of a mode's own command sets in the run it makes, as an option row says where
 * its value lands (src/cli/options_table.c makes a row of it): a number at off in the runner's
 * options (struct runner_opts, times scale when not 0), the run's one test, or its one copy
 * count. The command line and the console land it there, never asking which mode it is. */
enum run_mode_value {
	RMV_NUMBER, /* a double at off (whole: an int at off) */
	RMV_TEST,   /* a test id: the one test it runs */
	RMV_COPIES, /* its one copy count */
};

struct run_mode_option {
	const char *name; /* long name without "--"; NULL ends a list */
	char short_name;  /* 0: none */
	const char *arg, *what; /* as struct opt_def's (src/cli/options.h) */
	double min, max;
	const char *def; /* the default as typed; NULL: computed */
	const char *help;
	bool console; /* the console takes it too: it starts the mode's preset there */
	/* More than a range: 0, or -1 with one sentence (opt as spelled). NULL: none. */
	int (*check)(const char *opt, const char *arg, char *err, size_t errlen);
	enum run_mode_value value;
	size_t off;   /* RMV_NUMBER: where in struct runner_opts */
	double scale; /* RMV_NUMBER: the value stored is the typed one times this (minutes: 60); 0: 1 */
	bool whole;   /* RMV_NUMBER: an int, not a double */
};

/* A mode's own command as help and the man page show it, and its options. */
struct run_mode_command {
	const char *args, *about, *text, *after; /* as struct opt_command's */
	const struct run_mode_option *options;   /* ended by a row without a name */
};

struct run_mode_info {
	const char *name;     /* as the run file stores it */
	const char *runs_tag; /* after the index in 'kbench runs' */
	bool measured;        /* kbench measured it here (not a published result) */
	bool quick;           /* quick samples: the quick noise defaults */
	/* Rows (and footer sentences) a comparison adds to a block when A is of this
	 * mode, after the index row; NULL none. */
	void (*compare_rows)(struct compare *c, struct compare_block *cb, const struct run *const *a,
			     int na, const struct run *const *b, int nb, const struct noise_table *nt);
	/* A mode with a command of its own (its name; NULL: none): what the command
	 * needs that `kbench run` does not. */
	const char *command;
	const struct run_mode_command *cmd; /* its usage, help and option rows */
	const char *operands_why; /* it takes no operands: why, for the error line */
	const char *test;         /* the test it runs when its options name none */
	/* Its defaults where the options left them (struct runner_opts, src/engine/runner.h). */
	void (*defaults)(struct runner_opts *o, int ncpus);
	bool idle_baseline; /* it begins with an idle baseline: progress says so */
	/* The series its idle baseline watches until idle_settled says it is steady
	 * ("temp.cpu": a thermal check's); NULL: none, the baseline lasts its length. */
	const char *watch;
	/* A timed run (runner_opts.timed_seconds): what the runner asks of its mode.
	 * label: the run in an error line ("a thermal check"); sample_seconds: each
	 * sample's length; idle_settled: the idle baseline may end (why says so), then
	 * marked settled_mark; finish: after the run's last event, its verdict. */
	const char *label;
	double sample_seconds;
	bool (*idle_settled)(const struct series *temp, double t0, double now, char *why, size_t whylen);
	const char *settled_mark;
	void (*finish)(struct run *r);
	const char *report_title; /* the HTML report's heading of what print prints */
	/* What follows the report on stdout; NULL: telemetry's summary. */
	void (*print)(FILE *f, const struct run *r);
};

/* A mode's identity is its row: a run says how it was made by pointing at it, and every
 * reader asks the row, never the name. The modes every run file may name are the record's
 * own (run_modes.c): a file that does not say, UnixBench's samples (or --duration, -i,
 * --samples), --quick's, and a published result's; a mode with more to it (a command, a
 * timed run, rows of its own in a comparison) is a row its own files define. */
extern const struct run_mode_info run_mode_unsaid, run_mode_full, run_mode_quick, run_mode_imported;
/* Every mode a run file may name, NULL-terminated, in the registry's order: the registry
 * (src/registry/run_mode.c) points it at its list as the program starts, so the record,
 * below it, reads that list without calling up to it; until then, the record's own modes. */
extern const struct run_mode_info *const *run_mode_list;

enum test_status {
	TEST_WAITING,
	TEST_RUNNING,
	TEST_DONE,
	TEST_FAILED,
	TEST_SKIPPED,
	TEST_IMPORTED, /* scores known, samples not (a published result) */
};

/* The longest text of a kv: a telemetry source's "n/a: why" sentence fits whole. */
#define KV_TEXT_MAX 192

/* What a test's summary is to a reader beyond its key: set where it is made, by
 * its family's describe verb (family.h), which runs after collect and after a
 * run file is read, so no reader goes by a family's spelling of a key. */
enum kv_role {
	KV_FACT,    /* a fact of the test (the default) */
	KV_NOTE,    /* what the test could not do as asked (SCHED_FIFO refused): the run's
		       notes say it too */
	KV_REFUSED, /* a part of the test that refused to run (a load that does not fit): a
		       note, and a line of its own under the console's results */
	KV_MARK,    /* a place on the test's curve, x = its value, marked with .mark (a
		       cache's size, "L1") */
};

/* A free-form fact about a test or a run: a number, a text, or both. */
struct kv {
	char key[64];
	double value;
	char text[KV_TEXT_MAX];
	bool has_value;
	enum kv_role role; /* not stored: describe sets it */
	char mark[8];      /* KV_MARK: the curve's label of its place */
};

/* What a test's result is. A rate test (every UnixBench test) scores the
 * counts of its samples; a points test (format 1.2: memory latency, later
 * percentiles, throughput per task count, build times) has a set of named
 * points, each with one value per sample, so that its intervals and
 * verdicts come from the samples as a rate's do. */
enum result_kind { RESULT_RATE, RESULT_POINTS };

/* What a point is beyond a value at its x: a statistic of a distribution
 * (a latency test's phase), which a report draws as that distribution's row,
 * not as a place on a curve. Set by its family's describe verb. */
enum point_stat {
	POINT_VALUE, /* a value at x on a curve, or a headline (the default) */
	POINT_P50, POINT_P99, POINT_P999, POINT_MAX, POINT_MEAN,
};

/* One point of a points result: "rnd 4096" -> 4.1 ns per load at 4096 B,
 * "p99" -> 85 us, "8 tasks" -> 1200 jobs/min, "-j2" -> 61 s. */
struct point {
	char name[32];     /* unique in its test; the compare row is "<test id>:<name>" */
	double x;          /* where on its curve: bytes, percent, tasks, jobs */
	char xunit[8];     /* "B", "%", "tasks", "" */
	char unit[16];     /* the value's: "ns", "us", "jobs/min", "s", "MHz" */
	bool lower_better; /* latency and time: lower is better; rates: higher */
	bool summary;      /* a headline point (a plateau, a percentile): the report's
			      and the compare table's rows; the others form the curve */
	int n;             /* values, one per sample that reached the point */
	double *v;
	/* Not stored: its family's describe verb sets them. */
	enum point_stat stat; /* a statistic of the distribution .dist, or a value */
	char dist[32];        /* the distribution it describes ("audio+burn"), with a stat */
	char unit_short[8];   /* the unit where a column is narrow ("jpm"); "": .unit */
};

/* A latency test's distribution of one phase ("other", "audio+burn"), one
 * histogram per sample (format 1.2, optional: a reader that does not know
 * "hists" ignores them and keeps the percentiles, which are points). */
struct hist_set {
	char name[32];
	int n;
	struct lat_hist *h; /* per sample, in the order they ran */
};

struct test_result {
	/* Copied from the test table (or an imported file), so a run stands on its own. */
	char id[32];
	char label[64];
	char unit[16];
	int timebase;
	double baseline; /* 0 = none */
	char category[16];

	enum test_status status;
	char reason[200]; /* why failed or skipped */

	int nsamples;
	struct sample *samples; /* every sample, in the order they ran */

	/* Computed by score_test() from the samples (or stated, when imported). */
	double score;  /* UnixBench's score: geometric mean of the kept rates */
	double time;   /* mean time of the kept samples */
	int kept;      /* samples kept after dropping the worst third */
	double index;  /* score / baseline * 10; 0 when no baseline */
	double spread; /* relative standard deviation of the kept rates (0..), -1 unknown */

	int nsummary;
	struct kv *summary; /* telemetry summaries and other per-test facts */

	/* A quick run's test: the precision its rule was asked for (0.01: +-1%),
	 * stored as the summary RUN_KEY_QUICK_ASKED (test_quick_asked); 0: none. */
	double quick_asked;
	/* A quick run's test measured in rounds by the index allocation: the seconds
	 * its rounds shared out, stored as the summary RUN_KEY_QUICK_ALLOC
	 * (test_quick_alloc); 0: none. A quick test has one of the two (test_is_quick). */
	double quick_budget;

	enum result_kind kind;
	int npoints;
	struct point *points; /* RESULT_POINTS: in the order they were first measured */
	int nhists;
	struct hist_set *hists; /* a latency test's distributions */
};

/* One copy count's results (UnixBench: one "Benchmark Run:" block). */
struct run_block {
	int copies;
	time_t start, end;
	int ntests;
	struct test_result *tests;
	double index_score;  /* geometric mean of the system indexes */
	bool index_partial;  /* not every system baseline has a result */
	int index_tests;     /* how many tests entered the index score */
};

/* A time series sampled by the coordinator (frequency, temperature, counters...). */
struct series {
	char name[64];
	char unit[16];
	int n, cap;
	double *t; /* seconds since the run started */
	double *v;
};

/* A moment in the run: test and sample boundaries, for the series. */
struct marker {
	double t;
	char what[80]; /* "begin dhry2reg 1 copy sample 3", ... */
};

struct run_meta {
	char id[16];     /* short id, set by the store */
	char name[96];   /* default: kernel release */
	char kbench_version[32];
	char build_flags[256];
	char hostname[96];
	char os[64];             /* uname -o */
	char kernel_release[96]; /* uname -r */
	char kernel_version[160];/* uname -v */
	char machine[32];        /* uname -m */
	char cmdline[1024];      /* /proc/cmdline */
	char cpu_model[128];
	char cpu_flags[256];     /* UnixBench's flag words */
	double bogomips;
	int ncpus;
	char governor[32];
	char boost[16];
	char mitigations[256];
	char microcode[32];
	uint64_t mem_kib;
	char lang[64];           /* the locale the shell tests ran in */
	char charmap[32];
	char collate[32];
	char uptime[128];
	time_t date;             /* when the run started */
	const struct run_mode_info *mode; /* how it was made (its row; NULL: not said) */
	double duration_override;/* --duration, 0 = nominal */
	int iterations;          /* -i, 0 = UnixBench's default */
	/* how its samples were spread over the tests (runner.h's enum runner_alloc):
	 * "index" (the counts that narrow the index most in `budget` seconds per copy
	 * count, in rounds), "precision" (quick: each test until its precision); ""
	 * each test its own count, one test after another (UnixBench's way, and a
	 * quick run of kbench 0.2 and before, which followed the precision rule) */
	char allocation[16];
	double budget;
	char source[256];        /* imported: the file it came from */

	/* What a reader of a published result asks for first (format 1.1).
	 * "" = unknown: a 1.0 file, an imported log, or not found. */
	char scratch_dir[256];   /* where the file tests wrote (--tmpdir, $TMPDIR, /tmp) */
	char fs_type[32];        /* of the mount that holds scratch_dir */
	char fs_options[256];    /* its per-mount options, as mountinfo lists them */
	char fs_source[128];     /* its device or source ("/dev/vda1", "tmpfs") */
	char io_scheduler[32];   /* the disk's, "none" off a block device */
	bool swap_known;
	uint64_t swap_total_kib, swap_used_kib; /* 0 total = no swap */
	char thp_enabled[16];    /* transparent huge pages: always, madvise, never, n/a */
	char thp_defrag[32];
	char clocksource[32];
	/* the workload parameters the run was given, as the options make them
	 * ("period-us=500 fifo=off", opts_param_append); "" the defaults */
	char params[4608];
	/* How each meter measured, "name: method; ..." ("freq: cpufreq
	 * scaling_cur_freq; counters: user-only (perf_event_paranoid 2); ..."),
	 * so compare can tell a difference of meters from one of kernels; ""
	 * unknown (an older file, an import). */
	char meters[768];
	/* One run of a sequence of runs (a calibration, a plan's boot: src/session/sequence.h):
	 * the sequence's id, what it is for, and which of its runs this is (1-based, of runs);
	 * "" id: none. A sequence started again finds by them the runs it has already stored. */
	struct run_seq {
		char id[64];
		char purpose[32];
		int run, runs;
	} seq;
};

struct run {
	struct run_meta meta;
	bool incomplete;
	int nblocks;
	struct run_block *blocks;

	int nseries;
	struct series *series;
	int nmarkers;
	struct marker *markers;

	int nnotes;
	char **notes; /* preflight findings and warnings, one sentence each */
};

struct run *run_new(void);
void run_free(struct run *r);

struct run_block *run_add_block(struct run *r, int copies);
struct test_result *run_block_add_test(struct run_block *b, const char *id, const char *label,
				       const char *unit, int timebase, double baseline,
				       const char *category);
struct sample *test_add_sample(struct test_result *t, int copies);
struct series *run_series(struct run *r, const char *name, const char *unit); /* find or add */
const struct series *run_find_series(const struct run *r, const char *name); /* NULL when none */
void series_push(struct series *s, double t, double v);
/* The median of a series' values; NAN for NULL or an empty one. */
double series_median(const struct series *s);
/* The machine's pace over a run: the median of its pace series (the pace
 * telemetry source's readings, every interval of the run), at least
 * RUN_PACE_MIN readings; NAN without. The machine's drift is slow: a run's
 * median follows its index better than each test's own (22 quick runs,
 * 2026-12-07: r 0.75 against 0.63). */
#define RUN_PACE_MIN 5
double run_pace(const struct run *r);
void run_add_marker(struct run *r, double t, const char *what);
void run_add_note(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct kv *test_summary_set(struct test_result *t, const char *key, double value, const char *text);
const struct kv *test_summary_get(const struct test_result *t, const char *key);
/* The summary a quick run's test keeps its asked precision in, so a run file says it. */
#define RUN_KEY_QUICK_ASKED "quick_precision_asked"
/* t is a quick run's test, its rule asked for precision (0.01: +-1%): the field
 * and the summary that stores it. */
void test_quick_asked(struct test_result *t, double precision);
/* The summary a quick run's test by the index allocation keeps its budget in. */
#define RUN_KEY_QUICK_ALLOC "quick_alloc"
/* t is a quick run's test measured in rounds that shared out budget seconds
 * (quick.h): the field and the summary that stores it. */
void test_quick_alloc(struct test_result *t, double budget);
/* t is a quick run's test, by either rule: scored as one (score.h). */
bool test_is_quick(const struct test_result *t);

/* A points test's point of that name, added (with these facts) when it is new. */
struct point *test_point(struct test_result *t, const char *name, double x, const char *xunit,
			 const char *unit, bool lower_better, bool summary);
void point_push(struct point *p, double v);
/* A latency test's set of that name (added when new), and one sample's histogram appended to it. */
struct hist_set *test_hist_set(struct test_result *t, const char *name);
void hist_set_push(struct hist_set *s, const struct lat_hist *h);
const struct hist_set *test_find_hist(const struct test_result *t, const char *name);
const struct point *test_find_point(const struct test_result *t, const char *name);
/* Mean of a point's finite values, NAN when it has none; their relative sd, -1 below two. */
double point_mean(const struct point *p);
double point_spread(const struct point *p);
/* A test that has something to show: a rate test done (or imported) with a
 * score, or a points test with points, even one cut short (its finished
 * points are kept). */
bool test_has_result(const struct test_result *t);

const struct run_block *run_find_block(const struct run *r, int copies);
const struct test_result *run_block_find_test(const struct run_block *b, const char *id);
/* The tests a run holds, each once, in run order: their ids into ids (at
 * most max), how many. */
int run_test_ids(const struct run *r, const char **ids, int max);
/* The same joined: "memlat timerlat scaling" (what the run was, where it
 * has no index to say it). */
void run_tests_text(const struct run *r, char *buf, size_t len);

/* The purpose of a plan's boot's runs (meta.seq.purpose, src/plan/plan_step.c). */
#define RUN_SEQ_PLAN "plan"
/* Which runs a run may be an A/A run of, beyond its settings: the runs of one plan's
 * boot are one kernel in one boot whatever their release says (two builds of one
 * version share it, and a simulated plan's B reports A's), so they form a noise set
 * of their own, its sequence id; "" for every other run. */
const char *run_noise_group(const struct run *r);

/* Sums of one sample: counts added over copies, elapsed averaged (UnixBench's rule). */
double sample_count(const struct sample *s);
double sample_time(const struct sample *s);
/* A sample's placement: every copy's pair on one CPU in at least 90% of its
 * checks (PLACE_ONE), on two in at least 90% (PLACE_TWO), else mixed. */
enum placement sample_placement(const struct sample *s);
/* "one CPU", "two CPUs", "mixed", "unknown". */
const char *placement_name(enum placement p);

const char *test_status_name(enum test_status s);
/* The mode m, or for NULL (a record that never said) the row of a file that does not say. */
const struct run_mode_info *run_mode_info(const struct run_mode_info *m);
/* The mode a run file names; run_mode_unsaid for "" or a name this version lacks. */
const struct run_mode_info *run_mode_parse(const char *name);
/* The mode whose own command is cmd; NULL for kbench run's. */
const struct run_mode_info *run_mode_of_command(const char *cmd);

#endif
