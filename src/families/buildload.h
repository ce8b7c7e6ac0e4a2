/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build under load (buildload): contest's model, the kbuild tree built beside each load; its loads, parameters, points and table. */
#ifndef KBENCH_BUILDLOAD_H
#define KBENCH_BUILDLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tests.h"

struct compare;
struct settings;
struct compare_block;
struct compare_row;
struct test_result;
struct worker_slot;
struct wl_point;
struct src;
struct family;
struct workload;

/* The family (family_buildload.c): other code reaches it by this pointer, never by its name. */
extern const struct family family_buildload;

/* The loop (buildload_loop.c): the kbuild tree built beside contest-style loads, a points result, self-timed. */
extern const struct workload wl_buildload;
/* contest's tables as imported buildload runs, one per kernel (import_contest.c;
 * src/store/import_scan.h): is() recognises a text, the other reads it. */
bool import_is_contest(const char *text, size_t len);
void import_contest(struct src *s, const char *name);

/* The loads, in contest's order; their ids are contest's block names, so
 * an imported contest table and a run of kbench share point names. */
enum buildload_load {
	BL_NO_LOAD,  /* the build alone, after a page-cache flush */
	BL_CACHERUN, /* the build again without the flush (warm cache) */
	BL_PROCESS,  /* 4 x CPUs processes pass a token round a pipe ring */
	BL_CTAR,     /* archive the build tree, again and again */
	BL_XTAR,     /* extract an archive of it, again and again */
	BL_IO,       /* stream a file of min(RAM, a quarter of free disk) */
	BL_READ,     /* stream-read a file, its pages dropped after each pass */
	BL_LIST,     /* walk /usr, lstat every entry, again and again */
	BL_MEM,      /* touch every page of a fraction of RAM, again and again */
	BL_NLOADS
};

struct buildload_load_def {
	const char *id;   /* contest's name: no_load, cacherun, process_load, ... */
	const char *what; /* one line */
	const char *unit; /* what one of its work units is */
	bool quick;       /* in --quick's set */
	bool disk, memory;/* checks free space / memory before it starts */
};
extern const struct buildload_load_def buildload_loads[BL_NLOADS];

/* The index of a load id (contest's old "noload" too), or -1. */
int buildload_find_load(const char *id);

/* What the workload publishes (struct wl_point .series; x = the load's
 * index). The build's points reuse kbuild's series numbers (KB_ELAPSED,
 * KB_USER, KB_SYS, KB_UNITS, KB_BEGIN with x = index + 1, 0 the warm-up),
 * so kbuild_live_state reads a build in progress here too. */
enum buildload_series {
	BLS_LOADS = 20,   /* work units the load did in the build's window */
	BLS_LCPU = 21,    /* its CPU seconds in that window */
	BLS_REFUSED = 22, /* the load was refused: v = KiB it needs */
	BLS_HAVE = 23,    /* ... and the KiB there were */
	BLS_FLUSH = 24,   /* v = 0 flushed, the errno of writing drop_caches, -1 not asked */
	BLS_LOAD_BEGIN = 25, /* v = s since the sample began, when the load started */
	BLS_START = 26,   /* first of a sample: x = 0, v = the loads asked */
};

#define BUILDLOAD_MAX_JOBS 1024
#define BUILDLOAD_HOG_DEFAULT 80 /* mem_load: percent of RAM */
#define BUILDLOAD_TEXT_(x) #x
#define BUILDLOAD_TEXT(x) BUILDLOAD_TEXT_(x) /* a number as its row's text */
#define BUILDLOAD_LEAD_SECONDS 3.0 /* a load runs this long before the build starts */
/* Disk loads refuse below this much free space (they write at most a quarter of it). */
#define BUILDLOAD_DISK_MIN_KIB (256 * 1024)
/* read_load's file is at most this (written before its window, untimed). */
#define BUILDLOAD_READ_MAX_KIB (1024 * 1024)

struct buildload_opts {
	int units;    /* the tree (kbuild's sizes; the full one, quick too) */
	int jobs;     /* make -j: the first --make-jobs value, else 2 x CPUs */
	int nloads;
	int loads[BL_NLOADS];
	int hog_pct;  /* mem_load's share of RAM */
};

/* "a,b,c" of load ids (duplicates dropped, contest's order kept as given):
 * 0, or -1 with one sentence naming the bad one and the good ones. */
int buildload_parse_loads(const char *text, int *loads, int *n, char *err, size_t errlen);
/* The settings' rows (loads, hog; kbuild's tree and make-jobs as the build reads them)
 * into struct buildload_opts, the words "loads=... hog=PCT tree=... make-jobs=N,...".
 * Defaults: every load (quick: no_load, process_load, io_load, mem_load; the defaults
 * hook), the full tree, -j 2 x CPUs, the hog 80%. */
extern const struct settings buildload_settings;

/* What a load needs before it starts, and whether it may: mem_load needs
 * its hog plus room for the build (128 MiB per make job and 256 MiB) out
 * of MemAvailable + SwapFree; a disk load needs BUILDLOAD_DISK_MIN_KIB free
 * in dir. KBENCH_MEM_AVAILABLE_KIB and KBENCH_DISK_FREE_KIB, when set,
 * replace what /proc/meminfo and statvfs say (tests fake a small machine
 * with them). Fills need and have (KiB); false with one sentence when it
 * must not start. *size: the file (io_load, read_load) or hog in KiB. */
bool buildload_check_load(int load, const struct buildload_opts *o, const char *dir,
			  uint64_t *size_kib, uint64_t *need_kib, uint64_t *have_kib, char *why,
			  size_t whylen);

/* The test row's sample_seconds and collect (tests.h). A sample is one build
 * beside each load; the first also generates the tree and warms it up. */
double buildload_sample_seconds(const void *settings, bool first, double length);
void buildload_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		       const void *settings);
/* The test row's point_noise: a build's time and CPU% take the row's floor;
 * a figure made of two that each move by it takes sqrt(2) of it (the Loads
 * count is the build's time times the load's rate, LCPU% the load's CPU over
 * the build's window, Ratio a time over no_load's time). */
struct test_noise buildload_noise(const struct test_def *t, const char *point);

/* Ratio as contest printed it: a load's mean build time over no_load's
 * (NAN when either is unknown). */
double buildload_ratio(double time, double no_load_time);
/* A load's point: "io_load" and its suffix (" cpu", " ratio", ...). */
void buildload_point_name(char *buf, size_t len, int load, const char *suffix);

/* One row of contest's table: a kernel's figures at one load. The text
 * report, kbench compare and the HTML report all draw these. */
struct buildload_row {
	const char *kernel;
	int runs;
	double time, cpu, loads, lcpu, ratio; /* NAN: not measured ("-") */
	const char *refused;	       /* the load was refused: this sentence, no figures */
	const struct compare_row *cmp; /* B's row in a comparison (its +- and verdict); else NULL */
};

/* A row's figures as contest printed them: Time in s to a tenth (whole
 * from 100), CPU%, Loads (whole from 1000), LCPU% to a tenth, Ratio to a
 * hundredth; "-" for what was not measured. */
struct buildload_cells {
	char runs[12], time[24], cpu[24], loads[24], lcpu[24], ratio[24];
};
void buildload_fmt_cells(const struct buildload_row *row, struct buildload_cells *c);

/* One row of contest's table (no newline): kernel, [runs], Time, CPU%,
 * Loads, LCPU%, Ratio, then pm ("+-3.1%") and the verdict when not NULL. */
void buildload_fmt_row(char *buf, size_t len, const char *kernel, int runs, double time,
		       double cpu, double loads, double lcpu, double ratio, const char *pm,
		       const char *verdict);
/* The column header that goes over those rows. */
void buildload_fmt_header(char *buf, size_t len, bool verdicts);

/* A buildload result with something to show (not another test, not one
 * that failed before its first build). */
bool buildload_is(const struct test_result *t);
/* "Build under load (contest-style): 640 units, ..." (cut short said), and
 * "make -j4, CFLAGS ...; 3 builds per load" ("" for an imported table). */
void buildload_fmt_title(char *buf, size_t len, const struct test_result *t);
void buildload_fmt_setup(char *buf, size_t len, const struct test_result *t);
/* The result's row at a load; false when it has neither a time nor a
 * refusal there (the load was not asked). */
bool buildload_test_row(const struct test_result *t, int load, const char *kernel,
			struct buildload_row *row);
/* Whether a comparison row is one of buildload's points ("buildload:..."). */
bool buildload_compare_row(const struct compare_row *r);
/* A comparison's rows at a load: A's, then B's with cmp set, those present;
 * 0 when the block has no time at that load. */
int buildload_compare_rows(const struct compare *c, const struct compare_block *b, int load,
			   struct buildload_row rows[2]);

/* A buildload result in contest's layout, one block per load, one row;
 * false (nothing printed) for another test. */
bool buildload_print_test(FILE *f, const struct test_result *t, const char *kernel);
/* The same blocks for a comparison, A's row then B's with its +- and
 * verdict; nothing when no row is buildload's. */
void buildload_print_compare(FILE *f, const struct compare *c);

/* What the console shows of a build beside a load, from a copy's points:
 * false when it is not a buildload sample. load: the index of the last load
 * started (-1 none yet) and load_began when (s into the sample); build:
 * the load index of the build in progress (-1: the warm-up) and began when;
 * done: the builds finished this sample. */
struct buildload_live {
	int units, objects, done, load, build;
	double began, load_began;
	int cleaning; /* make clean, then the cache flushed, before this load (index + 1); 0 not */
	int refused;  /* loads refused so far (too little memory or disk): no build of theirs */
};
bool buildload_live_state(const struct wl_point *pts, int n, struct buildload_live *out);
/* The phase in a few words for the run screen's status line, nloads the
 * loads a sample runs (0: not known): "cleaning for build 2 of 4",
 * "io_load: build 3 of 4", "warm-up build", "preparing", "4 builds done". */
void buildload_live_text(const struct buildload_live *bl, int nloads, char *buf, size_t len);

#endif
