/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The face a benchmark loop shows the runner: do units of work until told to stop, publish the count. */
#ifndef KBENCH_WORKLOAD_H
#define KBENCH_WORKLOAD_H

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lathist.h"

/*
 * One slot per worker copy, in a shared memory area (a memfd, so that it
 * survives exec: execl's chain maps it again). The worker stores its running
 * count with a relaxed atomic store, the runner sets `stop` at the deadline;
 * neither is a syscall, so a loop can afford both every iteration.
 */
/* One measured point of a points test (run.h), as a worker publishes it:
 * which of the workload's curves, where on it, and the value. */
struct wl_point {
	int series;
	double x;
	double v;
};

/* Per copy: 2 chains x 480 sizes and a few more (memory latency's most). */
#define WL_MAX_POINTS 1024
/* Per copy: the latency tests' phases (interactive: 3 tasks x 6 loads). */
#define WL_MAX_HISTS 18

struct worker_slot {
	_Atomic uint64_t count; /* units done so far */
	/* 32-bit machines: the CPU loops' count as they store it (wl_loop_store). */
	_Atomic unsigned long loop_word;
	/* A second live count (buildload: the work units of the load beside
	 * the build, which its processes add to themselves): shown, not scored. */
	_Atomic uint64_t aux;
	_Atomic int stop;       /* set by the runner at the deadline */
	_Atomic int state;      /* enum worker_state */
	double t_start;         /* CLOCK_MONOTONIC seconds when the work began */
	double t_end;           /* ... and when it ended */
	double rate;            /* self-timed tests: the result, already a rate */
	double time;            /* self-timed tests: the time to report (UnixBench's TIME) */
	char err[200];          /* a sentence when the workload failed */
	/* A points test's results so far: points[0 .. npoints) are complete
	 * (stored before npoints grows, with release order), so the runner can
	 * show them live and keep them when the sample is cut short. */
	_Atomic int npoints;
	struct wl_point points[WL_MAX_POINTS];
	/* A latency test's distributions (lathist.h), one per phase it
	 * measures: the measuring thread counts into them directly, nothing
	 * else writes them; nhists says how many phases have begun. */
	_Atomic int nhists;
	struct lat_hist hists[WL_MAX_HISTS];
	/* A points test's facts about what it ran, "key=text" lines, for its
	 * collect to keep in the test's summary (kbuild's kernel mode: the
	 * kernel's version, the compiler its config found, the objects). */
	char facts[512];
	/* Where the copy ran (sched_getcpu) as its work began and as it ended, for
	 * the run's record of each sample; -1 unknown. */
	int cpu_start, cpu_end;
	/* A test of two processes per copy (context1): the partner's CPU as it last
	 * wrote it plus one (wl_pair_mark; 0 none yet), and how often the copy found the two on one CPU
	 * and on two (wl_pair_check). Apart from count: written every few loops. */
	_Atomic int peer_cpu;
	_Atomic uint32_t pair_same, pair_cross;
	/* The time between checks, in ns, by how the later check found the pair;
	 * pair_last: the copy's previous check (wl_now; 0 none yet this sample). */
	_Atomic uint64_t pair_same_ns, pair_cross_ns;
	double pair_last;
	/* The worker replaced itself with kbench-exec (wl_exec_helper): the sample ran in
	 * a new process, with a layout of its own (the run says which tests do). */
	int execed;
};

enum worker_state { WORKER_IDLE, WORKER_RUNNING, WORKER_DONE, WORKER_FAILED };

/* What a workload gets. It lives in the worker process. */
struct workload_ctx {
	struct worker_slot *slot;
	int copy;           /* 0 .. copies-1 */
	int copies;
	double duration;    /* nominal sample length in seconds */
	bool quick;         /* a quick run (--quick); its families' quick defaults are in settings */
	const char *arg;    /* the test row's argument ("1024 2000", "8", "short", ...) */
	const char *tmpdir; /* scratch directory for file tests: exists, writable */
	const char *datadir;/* shell scripts and input data (data/ in the tree) */
	const char *helper; /* kbench-exec, the small program the fork/exec loops run in; NULL if not found */
	int shm_fd;         /* memfd holding the slots; inherited across exec; -1 in-process (unit tests) */
	/* The family's settings struct, filled by the runner once per run from the run's
	 * params (settings_fill): the workload casts it to its family's struct. NULL for a
	 * test whose family has no settings. */
	const void *settings;
};

struct workload {
	const char *name;
	/* Runs until ctx->slot->stop (or for self-timed tests, its own time).
	 * Returns 0, or -1 with a sentence in ctx->slot->err. May exec and never
	 * return (execl), in which case the chain fills t_end itself. */
	int (*run)(struct workload_ctx *ctx);
	/* Optional: one fact about what the test runs on this machine, kept in
	 * the test's summary (the C test: which compiler and version). Called in
	 * the runner's process before a test's samples, outside their time.
	 * Fills key and text and returns 0, or returns -1 for nothing to say. */
	int (*describe)(const char *arg, char *key, size_t keylen, char *text, size_t textlen);
};

static inline int wl_stopped(const struct workload_ctx *c)
{
	return atomic_load_explicit(&c->slot->stop, memory_order_relaxed);
}

static inline void wl_publish(const struct workload_ctx *c, uint64_t count)
{
	atomic_store_explicit(&c->slot->count, count, memory_order_relaxed);
}

/*
 * The CPU loops' count (Dhrystone, the arithmetic loops, Hanoi), stored once
 * a loop as UnixBench's loops store their `unsigned long` counter. On a
 * 64-bit machine that is the slot's count. On a 32-bit one a 64-bit atomic
 * store goes through the FPU or SSE registers and the stack (i686:
 * Dhrystone read 0.92 of UnixBench's, arithoh ran at 1/37 of its speed), so
 * the loop stores a 32-bit word, as UnixBench's does there, and
 * wl_run_timed folds it into the 64-bit count every 10 ms and at the
 * deadline, counting its wraps (a 10 s arithoh sample passes 2^32 on a
 * fast CPU; UnixBench's own count wraps there).
 */
static inline void wl_loop_store(struct worker_slot *s, unsigned long n)
{
#if ULONG_MAX > 0xffffffffUL
	atomic_store_explicit(&s->count, n, memory_order_relaxed);
#else
	atomic_store_explicit(&s->loop_word, n, memory_order_relaxed);
#endif
}

static inline unsigned long wl_loop_load(struct worker_slot *s)
{
#if ULONG_MAX > 0xffffffffUL
	return (unsigned long)atomic_load_explicit(&s->count, memory_order_relaxed);
#else
	return atomic_load_explicit(&s->loop_word, memory_order_relaxed);
#endif
}

/* A points test's result: one point, outside any timed part. Points past
 * WL_MAX_POINTS are dropped. */
static inline void wl_publish_point(const struct workload_ctx *c, int series, double x, double v)
{
	int n = atomic_load_explicit(&c->slot->npoints, memory_order_relaxed);
	if (n >= WL_MAX_POINTS)
		return;
	c->slot->points[n] = (struct wl_point){ .series = series, .x = x, .v = v };
	atomic_store_explicit(&c->slot->npoints, n + 1, memory_order_release);
}

double wl_now(void); /* CLOCK_MONOTONIC in seconds */

/* In a child just forked, parent being the forker's getpid() taken before the fork: sig when
 * the parent dies (PR_SET_PDEATHSIG), and _exit(1) at once if it has died already, between the
 * fork and this call, which the prctl alone would miss (a make that then built the whole tree
 * into a killed run's scratch). Async-signal-safe. */
void wl_die_with(pid_t parent, int sig);

/*
 * Where a pair of processes runs (context1's two, passing a counter): the
 * partner calls wl_pair_mark before it answers, the copy wl_pair_check once
 * it has the answer, each every WL_PAIR_EVERY loops. sched_getcpu reads the
 * CPU from rseq (glibc 2.35 and later) or the vDSO: no system call, and once
 * in 16 loops is nothing beside the two pipe transfers of each loop.
 */
#define WL_PAIR_EVERY 16
void wl_pair_mark(const struct workload_ctx *c);
void wl_pair_check(const struct workload_ctx *c);

/*
 * A loop that forks or execs costs what the forking (or exec'd) process
 * costs to copy (or to load): its mappings, its libraries, its dirtied
 * pages. UnixBench runs those loops in small, dynamically linked programs;
 * kbench's worker is a fork of the whole console. So such a workload
 * replaces its worker with kbench-exec (`kbench-exec MODE FD COPY`, built
 * the way UnixBench builds its programs), which maps the same slot and runs
 * the loop named by MODE. Returns -1 with a sentence in the slot if the
 * helper is missing or cannot be executed, and 1 without doing anything
 * when there are no shared slots to hand over (a workload run in-process
 * by the unit tests), so the caller runs its loop itself.
 */
int wl_exec_helper(const struct workload_ctx *ctx, const char *mode);

#define WL_HELPER_MAX_ARGS 16

/* The same with arguments after COPY (`kbench-exec MODE FD COPY ARG...`;
 * extra ends with NULL). */
int wl_exec_helper_argv(const struct workload_ctx *ctx, const char *mode, char *const extra[]);

/* For kbench-exec: maps the slots from the inherited memfd and fills ctx.
 * Returns 0, or -1 with a sentence in err. */
int wl_attach(const char *fdarg, const char *copyarg, struct workload_ctx *ctx, char *err,
	      size_t errlen);

/*
 * For the CPU loops (Dhrystone, the arithmetic loops, Hanoi): UnixBench's
 * programs loop forever and are ended by their own alarm(), and gcc
 * compiles an endless loop differently from one that can end (it keeps
 * work whose result nothing after the loop reads, or drops it, by other
 * rules). So these loops never end by themselves either: this runs
 * loop(ctx), which must not return, and leaves it by a signal when
 * ctx->duration has passed on a timer aimed at the calling thread, then
 * returns 0. The loop keeps its count in the slot, not in a register (a
 * signal ends it), and ignores the stop flag: on a skip or an abort the
 * runner kills the worker. Returns -1 with a sentence if no timer can be
 * made.
 */
int wl_run_timed(struct workload_ctx *ctx, void (*loop)(struct workload_ctx *ctx));

/* Where execvp would find the program NAME: the first regular executable
 * file of that name in PATH (glibc's default path when PATH is unset). 0 with
 * its path in out, or -1 when there is none. */
int wl_find_program(const char *name, char *out, size_t len);

/* For a test that runs programs kbench does not ship (gcc, make, cc): 0 when
 * each of names (NULL-ended) is in PATH, else wl_fail's -1 with "NAME is not
 * installed (no NAME in PATH): " and what (why the test needs it). */
int wl_need_programs(const struct workload_ctx *c, const char *what, const char *const *names);

/* Fills slot->err with a formatted sentence and returns -1. */
int wl_fail(const struct workload_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
