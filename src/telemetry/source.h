/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one face every telemetry source shows the sampler (open says available or why not, sample, close) and the registry listing them. */
#ifndef KBENCH_TELEMETRY_SOURCE_H
#define KBENCH_TELEMETRY_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct kv;
struct run;
struct test_result;
struct telemetry_frame;
struct telemetry_opts;
struct throttle_inputs;

/* Per-sample summaries (sample.N.freq, sample.N.temp) are kept for this many samples of a test. */
#define TELEMETRY_SAMPLE_MAX 1000
#define TELEMETRY_MAX_SOURCES 16

/* Where the sampler is when it calls a source. */
struct telemetry_ctx {
	const struct telemetry_opts *opts; /* never NULL */
	struct run *run;     /* where series and notes go; NULL outside a run (kbench sensors, the preflight) */
	double now;          /* seconds since the run began: the series' clock */
	bool busy;           /* a benchmark sample is running */
	int copies;          /* the copies of the latest sample */
	bool in_test;        /* between a test's begin and its end */
	int sample;          /* the test's latest sample, 1-based, at most TELEMETRY_SAMPLE_MAX; 0 before the first */
	bool first_test;     /* the run's first test is the one beginning */
	const char *test_id; /* the test in progress, "?" when none */
	const pid_t *pids;   /* the workers of the sample in progress (one per copy), NULL between samples */
	int npids;
	struct telemetry_frame *frame; /* the console's latest reading: each source fills its own fields */
};

/* One open source as the sampler holds it; every hook gets its own. */
struct telemetry_slot {
	const struct telemetry_source *src;
	void *priv;          /* src->size bytes, zeroed before open, freed after close */
	bool available;      /* its headline value can be read */
	bool fallback;       /* available, but from a second-best place: status says which and why */
	char status[240];    /* where it reads from ("coretemp Package id 0"), or "n/a: why" */
	char reading[64];    /* its latest headline value as text ("45.0 °C"); "" before the first */
};

/* A source: a const table of hooks, one file each (STYLE.md §6), listed in registry.c.
 * Only open is required. By convention a source's series and summary keys start
 * with its name ("freq.mean", "freq.min"). */
struct telemetry_source {
	const char *name;    /* "freq": short, unique */
	const char *what;    /* "CPU frequency": how "n/a" lines name it */
	const char *title;   /* its section in kbench sensors ("CPU frequency"); NULL: not listed there */
	size_t size;         /* its private state, slot->priv */

	/* Finds what it reads: sets slot->available and slot->status ("n/a: why" when
	 * missing) and its fields of c->frame. Returns 0 whether available or not;
	 * -errno with one sentence in err only for a bad option (a usage error). */
	int (*open)(struct telemetry_slot *s, const struct telemetry_ctx *c, char *err, size_t errlen);
	/* Every interval, and as the run begins and ends: read, push series
	 * (telemetry_push), update its frame fields and slot->reading. */
	void (*sample)(struct telemetry_slot *s, const struct telemetry_ctx *c);
	void (*close)(struct telemetry_slot *s);

	void (*run_begin)(struct telemetry_slot *s, const struct telemetry_ctx *c);
	/* Baselines for the test (counter values, energy so far); may wait (--cooldown). */
	void (*test_begin)(struct telemetry_slot *s, const struct telemetry_ctx *c);
	/* Around each benchmark sample, for what is measured per sample rather than per interval. */
	void (*sample_begin)(struct telemetry_slot *s, const struct telemetry_ctx *c);
	void (*sample_end)(struct telemetry_slot *s, const struct telemetry_ctx *c);
	/* The test's summary keys (test_summary_set; "n/a: why" texts when missing),
	 * and its part of the evidence the throttle decision weighs. */
	void (*test_end)(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
			 struct throttle_inputs *in);
	/* Its part of the `kbench run -v` line, from the test's stored summary: "temp max 45.0 °C". */
	void (*test_line)(const struct test_result *tr, char *buf, size_t size);
	/* `kbench sensors`: all it found, two-space indented. NULL: its reading or status. */
	void (*show)(struct telemetry_slot *s, FILE *f);
	/* Preflight findings beyond "n/a" (which the preflight says for every source):
	 * a governor, a battery, a warm CPU. Each through telemetry_finding. */
	void (*preflight)(struct telemetry_slot *s, struct run *run, FILE *out);
};

/* Every source, in the order reports show them; NULL-terminated (registry.c). */
extern const struct telemetry_source *const telemetry_sources[];

/* Allocates slot->priv and opens src. 0, or -errno with err (-ENOMEM, or the source's usage error). */
int telemetry_slot_open(struct telemetry_slot *s, const struct telemetry_source *src, const struct telemetry_ctx *c,
			char *err, size_t errlen);
void telemetry_slot_close(struct telemetry_slot *s);

/* A point of series name (unit) at c->now; nothing when v is NAN or there is no run. */
void telemetry_push(const struct telemetry_ctx *c, const char *name, const char *unit, double v);
/* A summary value, or "n/a: why" ("n/a" without why) when v is NAN or infinite. */
void telemetry_set_or_na(struct test_result *tr, const char *key, double v, const char *why);
/* A stored summary value for a report line: fmt with its value, its text, or "n/a" for any "n/a: why". */
void telemetry_fmt_kv(char *buf, size_t size, const struct kv *kv, const char *fmt);
/* One preflight finding: into the run's notes, and to out (when not NULL) as "preflight: ...". */
void telemetry_finding(struct run *run, FILE *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* `kbench sensors`: each listed source's section. 0, or -errno with err (a --sensor naming nothing here). */
int telemetry_show_sources(FILE *f, const char *sensor, char *err, size_t errlen);

#endif
