/* Wake-up latency and interactivity: the phases each test measures, its points from the histograms, the tables people paste. */
#ifndef KBENCH_LATENCY_H
#define KBENCH_LATENCY_H

#include <stdio.h>

#include "tests.h"

struct run;
struct test_result;
struct worker_slot;

/* timerlat's phases (histogram index in the worker's slot). */
enum timerlat_phase { TL_OTHER, TL_OTHER_BURN, TL_FIFO, TL_FIFO_BURN, TL_PHASES };
#define TL_PERIOD_NS 1000000ULL
/* Point series (wl_point.series) the latency workloads publish besides their histograms. */
enum lat_series {
	LAT_FIFO_DENIED, /* v = errno of sched_setscheduler(SCHED_FIFO) */
	LAT_CPU,         /* v = the CPU the measured thread was pinned to */
	LAT_RPS,         /* wakelat: requests per second */
	LAT_WORKERS,     /* wakelat: x = message threads, v = workers */
	LAT_DMA,         /* timerlat: v = 0 held /dev/cpu_dma_latency at 0, else the errno of opening it */
};

/* interactive's tasks and loads: phase = task * IA_LOADS + load. */
enum ia_task { IA_AUDIO, IA_VIDEO, IA_DESKTOP, IA_TASKS };
enum ia_load { IA_ALONE, IA_BURN, IA_IO, IA_LOADS };

extern const char *const timerlat_phase_names[TL_PHASES];
extern const char *const ia_task_names[IA_TASKS];
extern const char *const ia_load_names[IA_LOADS];

/* The test rows' collect (tests.h): each phase's histograms, merged over
 * the copies, into the sample's histogram and its points: p50, p99,
 * p99.9, max, mean (us, lower is better) and, with deadlines, met (%). */
void timerlat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		      const char *params);
void wakelat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		     const char *params);
void interactive_collect(struct test_result *t, const struct worker_slot *slots, int copies,
			 const char *params);

/* The default floor of a latency test's point, by what it is: a median
 * moves least between identical runs, a maximum most (tests.h point_noise). */
struct test_noise latency_noise(const struct test_def *t, const char *point);

/* The tables of a run's latency tests: cyclictest's "T: ... Min: Act: Avg: Max:"
 * lines and a percentile table per test, with intervals across samples. */
void latency_print_tables(FILE *f, const struct run *r);
/* Whether a test row is one of the latency tests, and the names of its
 * phases in histogram order (at most max); 0 for another test. */
int latency_phases(const struct test_def *d, const char **names, int max);

/* Whether a test has latency histograms (its report is latency_print_tables'). */
int latency_is(const struct test_result *t);

#endif
