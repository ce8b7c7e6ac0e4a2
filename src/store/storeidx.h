/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run store's index: one SQLite row per run file, what lists, picking and noise learning need. */
#ifndef KBENCH_STOREIDX_H
#define KBENCH_STOREIDX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The index file, in the store beside the runs (not *.json: never taken for a run). */
#define STOREIDX_FILE "index.sqlite"

/* One indexed run file, as a row (strings valid during the callback only). */
struct storeidx_row {
	const char *file;   /* "<id>.json" */
	const char *error;  /* NULL when the file reads as a run */
	int64_t date;       /* the run's date, else the file's mtime */
	const char *name, *kernel, *kversion, *host, *mode, *cmdline;
	bool has_source;    /* came in by import (meta.source set) */
	bool incomplete;
	double duration;    /* meta.duration_override */
	int iterations;
	const char *blocks;   /* "copies index_score partial index_tests;" per block */
	const char *tests;    /* run_tests_text: "memlat timerlat" */
	const char *testkeys; /* " 1:dhry2reg 1:whetstone 8:dhry2reg ": copies and test of each result */
	const char *noise;    /* the per-test facts noise learning reads (storeidx_noise_run) */
	int64_t group;        /* storeidx_each_noise: which set of same-settings runs */
	int seq_run;          /* storeidx_each_seq: which run of its sequence (meta.seq.run) */
};

/* Brings the index of the store in dir up to date with its files (a file
 * added, changed or removed by hand is seen: the listing's names, sizes,
 * mtimes and inodes against the rows) and calls fn for every row, newest
 * first (date, then id). fn returns nonzero to stop. A missing directory
 * has no rows. A corrupt index is rebuilt, said in one line on stderr; an
 * index that cannot be written (a read-only store) is built in memory.
 * 0, or -errno with err filled. */
int storeidx_each(const char *dir, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		  char *err, size_t errlen);

/* The same for a list: the rows without testkeys and noise (""). */
int storeidx_list(const char *dir, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		  char *err, size_t errlen);

/* The n-th readable row of the list order (0: the newest): what last~n names. */
int storeidx_nth(const char *dir, long n, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		 char *err, size_t errlen);

/* count rows of the list order from offset (0: the newest), as storeidx_list gives them. */
int storeidx_page(const char *dir, long offset, long count,
		  int (*fn)(const struct storeidx_row *row, void *arg), void *arg, char *err, size_t errlen);

/* How many rows the list has (broken files too). 0 or -errno. */
int storeidx_count(const char *dir, long *n, char *err, size_t errlen);

/* The position in the list order of the first row after position after
 * (wrapping round to the newest) whose id, or for a readable file its name,
 * kernel, host or tests, hold text (ASCII case ignored); -1 in *found for
 * none. 0 or -errno. */
int storeidx_find(const char *dir, long after, const char *text, long *found, char *err, size_t errlen);

/* Rows whose host, date, kernel release and version and mode are these (the
 * candidates for the same run imported twice), in the same order. */
int storeidx_each_same(const char *dir, const char *host, int64_t date, const char *kernel,
		       const char *kversion, const char *mode,
		       int (*fn)(const struct storeidx_row *row, void *arg), void *arg, char *err,
		       size_t errlen);

/* The readable rows of the runs of one sequence (meta.seq.id is seq), by their run number. */
int storeidx_each_seq(const char *dir, const char *seq, int (*fn)(const struct storeidx_row *row, void *arg),
		      void *arg, char *err, size_t errlen);

/* One set of same-settings runs for noise learning. */
struct storeidx_set {
	int64_t group;
	int k;
	int64_t *rows;  /* the runs' rows, newest first */
	char *sig;      /* the rows joined: names the set in the cache */
	char mode[16];  /* the settings noise_setting() reads */
	double duration;
	int iterations;
};

/* The measured runs (not imported, readable, not excluded by id) that share
 * their settings (host, kernel release, command line, mode, sample length,
 * iterations) with another, set by set: the sets in the order of their
 * newest run, as noise_learn() forms them. 0 or -errno. */
int storeidx_noise_sets(const char *dir, const char *const *exclude, int nexclude,
			struct storeidx_set **sets, int *nsets, char *err, size_t errlen);
void storeidx_sets_free(struct storeidx_set *sets, int n);
/* The rows of one set (after storeidx_noise_sets), in its order. */
int storeidx_set_rows(const struct storeidx_set *set, int (*fn)(const struct storeidx_row *row, void *arg),
		      void *arg);
/* What was learned from this very set before (malloc'd text), or NULL; keeping it. */
char *storeidx_set_cached(const struct storeidx_set *set);
void storeidx_set_keep(const struct storeidx_set *set, const char *acc);
/* Drops stale cached sets when they far outnumber the current ones. */
void storeidx_sets_prune(const struct storeidx_set *sets, int n);

struct run;
/* A run holding what noise learning reads, from a row: meta's settings,
 * each block's index, each test's kind, status, score, telemetry
 * summaries and its points' means (run_free() it). */
struct run *storeidx_noise_run(const struct storeidx_row *row);

/* Called at the named steps of a save or an index update: kills the
 * process there when $KBENCH_TEST_KILL_AT names that step (the kill tests'
 * injection; unset in use). */
void storeidx_kill_point(const char *step);

#endif
