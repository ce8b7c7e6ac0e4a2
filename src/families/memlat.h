/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory latency's result: the sizes it measures, the caches it reads them against, the plateaus and steps, the table people paste. */
#ifndef KBENCH_MEMLAT_H
#define KBENCH_MEMLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct run;
struct settings;
struct test_result;
struct worker_slot;
struct family;
struct workload;

/* The family (family_memlat.c): other code reaches it by this pointer, never by its name. */
extern const struct family family_memlat;

/* The loop (memlat_loop.c): pointer chase per size, a points result, self-timed. */
extern const struct workload wl_memlat;

/* What the workload publishes per point (workload.h, struct wl_point .series). */
enum memlat_series {
	MEMLAT_FWD,   /* forward chain, stride 64 B: x = bytes, v = ns per load */
	MEMLAT_RND,   /* random page-permuted chain: the same */
	MEMLAT_CLOCK, /* the CPU clock from a dependent add chain: x = 0, v = MHz */
	MEMLAT_HUGE,  /* the buffer's bytes in huge pages (smaps AnonHugePages): x = buffer bytes */
	MEMLAT_CEILING, /* cpufreq's highest clock of any CPU (cpuinfo_max_freq): x = 0, v = MHz, 0 if none */
};

#define MEMLAT_LINE 64
#define MEMLAT_MIN_SIZE 512
/* The largest working set. A 32-bit process has 3 GiB of addresses (4 on a
 * 64-bit kernel) for the program, its libraries and stacks too, and the set
 * is one mapping plus its chain's order (a sixteenth more): 1 GiB there. */
#if SIZE_MAX > 0xffffffffu
#define MEMLAT_MAX_SIZE (64ULL << 30)
#define MEMLAT_MAX_SIZE_TEXT "64G"
#else
#define MEMLAT_MAX_SIZE (1ULL << 30)
#define MEMLAT_MAX_SIZE_TEXT "1G (a 32-bit build's address space)"
#endif
#define MEMLAT_MAX_PER_DOUBLING 32
#define MEMLAT_MAX_SIZES 480 /* per chain: fits the worker's results area twice */

/* The sizes a run measures: MIN to MAX, PER doubling (geometric steps,
 * each rounded to whole cache lines). */
struct memlat_sizes {
	uint64_t min, max;
	int per_doubling;
	bool huge; /* MADV_HUGEPAGE instead of MADV_NOHUGEPAGE */
};

/* The data and unified caches of CPU 0, by level (sysfs, under KBENCH_SYSFS_ROOT). */
struct memlat_caches {
	int n;
	int level[4];
	uint64_t size[4]; /* bytes */
};

int memlat_read_caches(struct memlat_caches *c);
/* The highest clock cpufreq says any CPU reaches (cpuinfo_max_freq, boost included), in MHz; 0
 * where there is no cpufreq (a VM). The clock estimate is checked against it. */
double memlat_clock_ceiling(void);
/* The test row's budget of a sweep (its .seconds) and the longest a default sweep may take. */
#define MEMLAT_SWEEP_BUDGET 6.0
#define MEMLAT_SWEEP_MAX_SECONDS 30.0
/* 512 B to 4x the last-level cache (at least 8 MiB, rounded up to a power
 * of two), 8 points per doubling; halved (not under 8 MiB) while a sweep
 * would take over MEMLAT_SWEEP_MAX_SECONDS. */
void memlat_default_sizes(const struct memlat_caches *c, struct memlat_sizes *s);

/* "MIN:MAX[:PER]" with K, M, G suffixes (powers of 1024; "KiB" too) into s
 * (its per_doubling kept when PER is left out). 0, or -1 with one sentence. */
int memlat_parse_sizes(const char *text, struct memlat_sizes *s, char *err, size_t errlen);
/* The settings' rows (sizes, huge) into struct memlat_sizes; the sizes' default (the
 * defaults hook) follows this machine's caches. */
extern const struct settings memlat_settings;
/* The sizes to measure, ascending, at most max of them; returns how many. */
int memlat_size_list(const struct memlat_sizes *s, uint64_t *out, int max);

/* Seconds one sweep of s takes, estimated: its budget (the sample's
 * length, spread over the timed walks) plus what the budget leaves out,
 * which past the last cache is most of it: every chain built and walked
 * once untimed, and three timed walks however small the budget. The
 * latencies are guessed from where each size falls among the caches
 * (1.5 ns in L1 to 100 ns in memory), so it is near, not exact. */
double memlat_sweep_seconds(const struct memlat_sizes *s, const struct memlat_caches *c, double budget);
/* The test row's sample_seconds: a sweep of the run's sizes (its settings) and
 * this machine's caches with a budget of length. */
double memlat_sample_seconds(const void *settings, bool first, double length);

/* The headline points: L1, L2, L3 ... read half way into each cache (half
 * of L1, the geometric middle between two levels), main memory at 4x the
 * last level (or the largest size measured, when smaller). Fills names
 * ("L1", "L2", "L3", "mem") and sizes; returns how many (at most 5). */
int memlat_plateau_sizes(const struct memlat_caches *c, double largest, const char *names[5],
			 double at[5]);
/* A plateau's value: the median of the (up to) three measured points
 * nearest `at` on a log size axis. x ascending; NAN when n is 0 or the
 * nearest point is more than a doubling away. */
double memlat_plateau_value(const double *x, const double *v, int n, double at);
/* Where the curve steps up from plateau lo to plateau hi: between lo_at
 * and hi_at, the two neighbouring sizes between which it climbs most
 * steeply (log latency, on its running median of three), among those
 * after which it stays past the geometric middle of lo and hi; the step is
 * the middle of the two (their geometric mean, not a measured size). A
 * cache's curve bends before the cache is full (physically indexed sets
 * fill unevenly) and reaches the next level's latency only well after;
 * the steepest rise is where it overflows. NAN when the curve never rises
 * for good. */
double memlat_find_step(const double *x, const double *v, int n, double lo_at, double lo,
			double hi_at, double hi);

/* Where the curve overflows each of c's caches, in order: step[i] for c's level i, NAN where
 * it never rises there for good. Each level's step is sought between its plateau and the
 * next one's (memlat_find_step); below a next cache, no further than 4x its size nor past
 * where the curve has left its latency (1.5x), so the next cache's rise is never this one's.
 * Where the curve a doubling past the previous step is far below the level's plateau, the
 * level ended before that point (a VM's share of its host's L3, a partitioned cache): its
 * step is sought between the two and early[i] says so. */
void memlat_find_steps(const struct memlat_caches *c, const double *x, const double *v, int n,
		       double step[4], bool early[4]);

/* The test row's collect (tests.h): the copies' points of one sample into
 * the test's points (mean over the copies), its plateaus, the caches and
 * the steps in its summary. */
void memlat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		    const void *settings);

/* "Memory latencies in nanoseconds", one row per block of a run with a
 * memlat result, in the layout people paste. */
void memlat_print_table(FILE *f, const struct run *r);

/* Under a memlat result's table in the report: the clock and L1 in cycles,
 * where the steps are against the caches sysfs gives, the pages. Nothing
 * for another test. */
void memlat_print_notes(FILE *f, const struct test_result *t);

/* The clock estimate of a memlat result in MHz; NAN when it has none, or when it is above
 * cpufreq's ceiling (a core that folds or eliminates the chain's adds). */
double memlat_clock(const struct test_result *t);

/* "4 KiB", "1.5 MiB", "512 B". */
void memlat_fmt_size(char *buf, size_t size, double bytes);

#endif
