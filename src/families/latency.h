/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wake-up latency and interactivity: the phases each test measures, its points from the histograms, the tables people paste. */
#ifndef KBENCH_LATENCY_H
#define KBENCH_LATENCY_H

#include <stdio.h>

#include "tests.h"

struct settings;

struct run;
struct test_result;
struct worker_slot;
struct family;
struct workload;

/* The family (family_latency.c): other code reaches it by this pointer, never by its name. */
extern const struct family family_latency;

/* The loops: absolute 1 ms timer wake-ups in 4 phases (timerlat_loop.c); message threads
 * waking workers, a histogram and requests/s (wakelat_loop.c); audio, video, desktop alone
 * and beside burners (interactive_loop.c). */
extern const struct workload wl_timerlat;
extern const struct workload wl_wakelat;
extern const struct workload wl_interactive;

/* timerlat's phases (histogram index in the worker's slot). */
enum timerlat_phase { TL_OTHER, TL_OTHER_BURN, TL_FIFO, TL_FIFO_BURN, TL_PHASES };
/* Point series (wl_point.series) the latency workloads publish besides their histograms. */
enum lat_series {
	LAT_FIFO_DENIED, /* v = errno of sched_setscheduler(SCHED_FIFO) */
	LAT_CPU,         /* v = the CPU the measured thread was pinned to */
	LAT_RPS,         /* wakelat: requests per second */
	LAT_WORKERS,     /* wakelat: x = message threads, v = workers */
	LAT_DMA,         /* timerlat: v = 0 held /dev/cpu_dma_latency at 0, else the errno of opening it */
	LAT_READ_MODE,   /* interactive: v = how the reader read (enum ia_read_mode) */
	LAT_HOG_BYTES,   /* interactive: v = the bytes the memory hog touched (all copies) */
};

/* interactive's tasks and loads: phase = task * IA_LOADS + load. The
 * loads: none; one CPU burner per CPU; a streaming writer; a streaming
 * reader; a memory hog; IA_HEAVY_PER_CPU burners per CPU. */
enum ia_task { IA_AUDIO, IA_VIDEO, IA_DESKTOP, IA_TASKS };
enum ia_load { IA_ALONE, IA_BURN, IA_IO, IA_READ, IA_MEM, IA_HEAVY, IA_LOADS };
/* The heavy load's burners per CPU: a video frame's 40% of a CPU cannot be
 * had beside 2 (a third each); 4 is the runnable count of a make -j4 per
 * CPU, the CPU side of interbench's compile load (its burn, write and read
 * at once), without its files: the disk loads are phases of their own. */
#define IA_HEAVY_PER_CPU 4
/* How the reader read: O_DIRECT; the page cache with its file dropped after
 * each pass (a filesystem without O_DIRECT); from memory (tmpfs, ramfs:
 * the file is only in memory, whatever the flags). */
enum ia_read_mode { IA_READ_DIRECT, IA_READ_FADVISE, IA_READ_MEMORY };

extern const char *const timerlat_phase_names[TL_PHASES];
extern const char *const ia_task_names[IA_TASKS];
extern const char *const ia_load_names[IA_LOADS]; /* the phase suffix: "", "+burn", ... */
extern const char *const ia_load_words[IA_LOADS]; /* --loads words: "alone", "burn", ... */

/* The latency tests' settings (the run's workload parameters: "period-us=500
 * fifo=off messages=2 workers=4 work-us=50 ia-tasks=audio,video
 * loads=alone,heavy"; other words belong to other workloads). */
enum lat_fifo { LAT_FIFO_ON, LAT_FIFO_OFF, LAT_FIFO_ONLY };
#define LAT_MAX_MESSAGES 16
#define LAT_MAX_WORKERS 64 /* per message thread */
#define LAT_DEFAULT_LOADS ((1u << IA_ALONE) | (1u << IA_BURN) | (1u << IA_IO) | (1u << IA_HEAVY))
struct lat_params {
	int period_us;     /* timerlat: its timer's period (1000) */
	enum lat_fifo fifo; /* timerlat: SCHED_FIFO phases too, none, or only them */
	int messages;      /* wakelat: message threads (1) */
	int workers;       /* wakelat: workers per message thread; 0 = 2 per CPU */
	int work_us;       /* wakelat: a worker's work per request (20) */
	unsigned tasks;    /* interactive: bit per enum ia_task (all) */
	unsigned loads;    /* interactive: bit per enum ia_load (LAT_DEFAULT_LOADS) */
};
/* The settings' rows (period-us, fifo, messages, workers, work-us, ia-tasks, ia-loads)
 * into struct lat_params. */
extern const struct settings lat_settings;
/* A reader's settings of a run with params (settings_fill; none of them follows quick):
 * its defaults when params holds a bad value. */
void lat_params_of(const char *params, struct lat_params *p);
/* "audio,video" into a bit mask of names[0..n) ("all": every one). 0, or -1 with one sentence. */
int lat_parse_names(const char *text, const char *const *names, int n, unsigned *mask, char *err,
		    size_t errlen);
/* "fifo=on"/"off"/"only" as enum lat_fifo; -1 when it is none of them. */
int lat_parse_fifo(const char *text);
/* The memory hog's bytes for this many copies together: a quarter of
 * the RAM, at most 2 GiB. 0 with one sentence when the memory available
 * would fall under an eighth of the RAM (it refuses rather than wake the
 * OOM killer), or when /proc/meminfo cannot be read. */
unsigned long long lat_hog_bytes(char *err, size_t errlen);
/* What a test ran with, in words, for its summary ("settings") and its
 * report: compare calls two runs' points n/a when the words differ. */
void lat_settings_text(const struct test_def *d, const struct lat_params *p, char *buf, size_t len);
/* timerlat's label for a period: "Timer wake-up latency (1 ms, absolute)", "(500 us, absolute)". */
void lat_timerlat_label(int period_us, char *buf, size_t len);
/* A stored timerlat result's label from its "settings" (period N us):
 * runs stored before labels named the period said "1 ms" whatever it was. */
void lat_label_result(struct test_result *t);
/* The family's describe verb (family.h): the label as lat_label_result puts it,
 * each phase's percentiles and mean as its distribution's statistics, and its
 * note (SCHED_FIFO refused) as a note. */
void lat_describe(struct test_result *t);

/* The test rows' collect (tests.h): each phase's histograms, merged over
 * the copies, into the sample's histogram and its points: p50, p99,
 * p99.9, max, mean (us, lower is better) and, with deadlines, met (%). */
void timerlat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		      const void *settings);
void wakelat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		     const void *settings);
void interactive_collect(struct test_result *t, const struct worker_slot *slots, int copies,
			 const void *settings);

/* The default floor of a latency test's point, by what it is: a median
 * moves least between identical runs, a maximum most (tests.h point_noise). */
struct test_noise latency_noise(const struct test_def *t, const char *point);

/* The tables of a run's latency tests: cyclictest's "T: ... Min: Act: Avg: Max:"
 * lines and a percentile table per test, with intervals across samples. */
void latency_print_tables(FILE *f, const struct run *r);
/* Whether a test row is one of the latency tests, and the names of its
 * phases in histogram order (at most max) for the run's params (NULL:
 * the defaults); 0 for another test. */
int latency_phases(const struct test_def *d, const char *params, const char **names, int max);
/* interactive's phases for these settings, in the order it runs them (each
 * task alone and beside each load, task by task): their histogram index is
 * their place in this list. Returns how many (at most max). */
int ia_phase_list(const struct lat_params *p, int *task, int *load, int max);

/* A number of microseconds in at most 4 characters: 2375, 13k, 125k, 1.2M
 * (the percentile table's cells; "--" when not finite). */
void latency_fmt4(char *buf, size_t len, double v);

/* Whether a test has latency histograms (its report is latency_print_tables'). */
int latency_is(const struct test_result *t);

#endif
