/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build time (kbuild): the generated C tree, the run's parameters, the builds' points into the run, the kernbench-like table. */
#ifndef KBENCH_KBUILD_H
#define KBENCH_KBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct run;
struct settings;
struct test_result;
struct worker_slot;
struct wl_point;
struct family;
struct workload;

/* The family (family_kbuild.c): other code reaches it by this pointer, never by its name. */
extern const struct family family_kbuild;
struct workload_ctx;
struct rusage;
struct src;

/* kernbench's result blocks and kcbench's reports ("Run 1 (-j 4): ... seconds /
 * ... kernels/hour") as imported kbuild runs (import_kernbench.c, import_kcbench.c;
 * src/store/import_scan.h): is() recognises a text, the other reads it. */
bool import_is_kernbench(const char *text, size_t len);
void import_kernbench(struct src *s, const char *name);
bool import_is_kcbench(const char *text, size_t len);
void import_kcbench(struct src *s, const char *name);

/* The loop (kbuild_loop.c): make builds the generated tree per -j, a points result, self-timed. */
extern const struct workload wl_kbuild;
/* kbuild_loop.c's make runner, for buildload: make -jJOBS TARGET in tree, its
 * output to log; mark: the console's build number (KB_BEGIN's x, 0 the
 * warm-up). Fills the elapsed time and make's rusage; 0, or -1 with a
 * sentence in the slot. */
int kbuild_make(struct workload_ctx *ctx, const char *tree, const char *log, int jobs, int mark,
		const char *target, double *elapsed, struct rusage *ru);

/* The tree's sizes, in translation units (each one object file). */
#define KBUILD_UNITS_TINY 8    /* tests: a second or two */
#define KBUILD_UNITS_SMALL 128 /* --quick: about 12 s at -j 2 */
#define KBUILD_UNITS_FULL 640  /* about a minute at -j 2 on a 2-CPU VM */
#define KBUILD_MAX_UNITS 4000
#define KBUILD_MAX_JOBS 8      /* -j values in one run */
/* The flags the generated Makefile compiles with: part of the run. */
#define KBUILD_CFLAGS "-O2 -g0 -std=gnu11 -Wall"

/* What a build reports per timed build (struct wl_point .series, x = -j). */
enum kbuild_series {
	KB_ELAPSED, /* s, wall clock */
	KB_USER,    /* s, make and everything it waited for */
	KB_SYS,     /* s */
	KB_VCSW,    /* voluntary context switches */
	KB_IVCSW,   /* involuntary */
	KB_MAXRSS,  /* KiB, the largest single process (cc1, mostly) */
	KB_NFIELDS,
	KB_UNITS = 100, /* x = 0, v = the tree's units (published once per sample) */
	KB_BEGIN = 101, /* x = -j, v = s since the sample began, when a build (timed or not) starts;
			   x = 0 the untimed warm-up, x = -1 kernel mode's preparing (extract, config) */
	KB_OBJECTS = 102, /* kernel mode: x = 0, v = the objects the build to come makes (0: not
			     known yet, before the warm-up has counted them) */
	KB_CLEAN = 103,   /* x = the -j of the timed build to come (buildload: its load's index +
			     1), v = s since the sample began, when its make clean starts (then
			     sync and the settle, or the page cache flushed, until KB_BEGIN) */
};

/* What the console shows of a build in progress, from a copy's published
 * points so far: whether it is a kbuild at all (false otherwise), the
 * objects to make, the builds finished this sample, the -j of the one
 * running (0 = the untimed warm-up, -1 kernel mode's preparing) and when it
 * began (s into the sample, -1 before the first: the tree being made).
 * cleaning: make clean (and the settle) before the build of -j next. */
struct kbuild_live {
	int units, objects;
	int done;
	int jobs;
	double began;
	bool cleaning;
	int next;
};
bool kbuild_live_state(const struct wl_point *pts, int n, struct kbuild_live *out);
/* The phase in a few words for the run screen's status line, nbuilds the
 * timed builds a sample makes (0: not known): "cleaning for build 2 of 3",
 * "build 2 of 3: -j4", "warm-up build", "preparing", "3 builds done". */
void kbuild_live_text(const struct kbuild_live *kl, int nbuilds, char *buf, size_t len);
/* The phases kbuild's and buildload's texts share: "3 builds done" once
 * done reaches nbuilds, "cleaning for build 2 of 3" while cleaning; true
 * when it wrote one. of gets " of N" (empty when nbuilds is unknown). */
bool kbuild_phase_common(int done, int nbuilds, bool cleaning, char *of, size_t oflen, char *buf,
			 size_t len);

/* Kernel mode's source path, at most (a directory or a tarball). */
#define KBUILD_SOURCE_MAX 1024

struct kbuild_opts {
	int units;
	int njobs;
	int jobs[KBUILD_MAX_JOBS];
	/* kernel mode: the Linux tree or tarball ("" = the generated tree) and
	 * the config target, tinyconfig (default), defconfig or allnoconfig */
	char source[KBUILD_SOURCE_MAX];
	char config[16];
};

/* The settings' rows (tree, make-jobs, source, config) into struct kbuild_opts
 * (src/families/kbuild_settings.c). */
/* The words "tree=tiny|small|full|N make-jobs=1,2,4 source=PATH config=TARGET" (PATH as
 * kbuild_param_source wrote it). Computed defaults (the defaults hook): the full tree
 * (small when quick), -j half the CPUs, the CPUs, twice the CPUs (duplicates dropped). */
extern const struct settings kbuild_settings;
/* --tree and --make-jobs as the options check them: 0, or -1 with one sentence. */
int kbuild_parse_tree(const char *text, int *units, char *err, size_t errlen);
int kbuild_parse_jobs(const char *text, int *jobs, int *njobs, char *err, size_t errlen);

/* Kernel mode. --source as the option checks it: an existing directory that
 * holds a Linux tree (Makefile, Kconfig, arch/, scripts/) not built in place
 * (no .config: kbench builds out of tree and never cleans a user's tree), or
 * a readable .tar.xz, .tar.gz, .tgz, .tar.bz2 or .tar file. --config: tinyconfig,
 * defconfig or allnoconfig. 0, or -1 with one sentence. */
int kbuild_check_source(const char *path, char *err, size_t errlen);
int kbuild_check_config(const char *target, char *err, size_t errlen);
/* Appends " source=PATH" to params (len bytes in all): the absolute path,
 * its blanks and '%' escaped so the parameter stays one word. -1 when it
 * does not fit. */
int kbuild_param_source(char *params, size_t len, const char *path);
/* Whether the path is a tarball by its name (kbuild_check_source's suffixes). */
bool kbuild_is_tarball(const char *path);
/* What kernel mode needs before it starts (test_def.preflight): make, gcc,
 * flex, bison, bc, tar and the tarball's decompressor, on x86 libelf's
 * headers (objtool), for defconfig OpenSSL's. 0 (also for the generated
 * tree, which needs only make and cc), or -1 with one sentence naming what
 * is missing and the Debian packages that bring it. */
int kbuild_preflight(const void *settings, char *err, size_t errlen);

/* Kernel mode's estimates: CPU seconds of one build here (a 2-CPU AMD EPYC
 * VM, gcc 12, Linux 6.1, x86_64), the config's and the preparing's. */
double kbuild_kernel_cpu_seconds(const char *config);

/* Writes the tree of `units` translation units (headers, sources, a
 * Makefile) into dir, which must exist and be empty. The content depends on
 * units alone. Returns 0 and the tree's hash (FNV-1a 64 of every file's
 * path and bytes, in the order written), or -1 with one sentence. */
int kbuild_generate(const char *dir, int units, uint64_t *hash, char *err, size_t errlen);
/* The same hash without writing anything. */
uint64_t kbuild_tree_hash(int units);
/* How many object files a build of the tree makes (what progress counts). */
int kbuild_objects(int units);

/* CPU seconds one unit of the tree takes to compile here (a 2-CPU AMD EPYC
 * VM, gcc 12, KBUILD_CFLAGS): what the estimates assume. */
#define KBUILD_UNIT_CPU_SECONDS 0.18

/* A sample's estimated length: one build per -j (units x the CPU seconds a
 * unit takes, over min(-j, CPUs)) with its clean and settle, plus the
 * generation and warm-up build in the first. The test row's sample_seconds. */
double kbuild_sample_seconds(const void *settings, bool first, double length);

/* The test row's collect (tests.h): one sample's builds into the points
 * "-jN" (elapsed, the headline) and "-jN user", "sys", "cpu", "vcsw",
 * "ivcsw", "maxrss", and the tree, its hash and the flags in the summary. */
void kbuild_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		    const void *settings);

/* A kbuild result's kernbench-like table: -j, elapsed mean (sd), user,
 * system, CPU%, context switches, max RSS, builds per hour. Returns false
 * (and prints nothing) for another test. */
bool kbuild_print_test(FILE *f, const struct test_result *t);

#endif
