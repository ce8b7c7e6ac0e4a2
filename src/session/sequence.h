/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sequence of runs as one part of the engine: N runs of one request with a name and a purpose (calibration, A/A, a plan's boot), progress, interruption, storing, and resuming what is not stored yet. */
#ifndef KBENCH_SESSION_SEQUENCE_H
#define KBENCH_SESSION_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

/* The most runs one sequence makes. */
#define SEQUENCE_MAX 50

struct run_sequence {
	const char *name;    /* each run's stored name ("calibration") */
	const char *purpose; /* what the runs are for, stored with each ("calibration", "plan") */
	/* The sequence's id, stored with each run (meta.seq) beside its number: "" makes a new one
	 * (purpose and a fresh store id). Started again with the id of one begun before (a step
	 * killed with kill -9, a machine that rebooted), the sequence makes only the runs the store
	 * does not hold yet, so none is made twice. */
	char id[64];
	int runs;       /* how many, 1 to SEQUENCE_MAX */
	double minutes; /* > 0: no run starts, once two are stored, that would end past this (by their mean) */
};

/* What a front end gives a sequence: each run's face, and the sequence's own moments. */
struct sequence_face {
	struct session_face run; /* every run's */
	void *ctx;               /* the calls below get it */
	/* Run k (1-based) of n is about to start. May be NULL. */
	void (*begin)(void *ctx, int k, int n);
	/* Run k ended (res: stored or why not; res->run is freed after the call, NULL when the run
	 * could not start, res->why then saying why). May be NULL. */
	void (*end)(void *ctx, int k, const struct session_result *res);
	/* True: start no further run (a signal came between two). May be NULL. */
	bool (*stopping)(void *ctx);
};

/* How it ended. */
enum sequence_end {
	SEQ_DONE,         /* every run made */
	SEQ_STOPPED,      /* interrupted: a run stopped early, or stopping() said so (the last run's finished samples stored) */
	SEQ_TIME,         /* minutes was reached */
	SEQ_FAILED,       /* a run could not start, a test failed, or a run could not be stored: why says */
	SEQ_USAGE,        /* the request has a bad value (an event name, a sensor): why says */
};

struct sequence_result {
	enum sequence_end end;
	int before;                 /* runs of it the store held already (started again) */
	int stored;                 /* runs stored by this call, ids in order */
	char ids[SEQUENCE_MAX][16];
	char why[512];              /* SEQ_FAILED, SEQ_USAGE, or a run not stored: one sentence */
};

/* Makes s's runs of request rq (run_request_complete'd; its name and sequence are set per run),
 * each stored by the rule every run follows (an interrupted run keeps its finished samples,
 * marked incomplete), stopping at the first run stopped early, failed or not stored. s->id is
 * filled when it was empty. 0, or -1 when the store cannot say which runs it holds (res->why). */
int sequence_run(struct run_sequence *s, const struct run_request *rq, const struct sequence_face *f,
		 struct sequence_result *res);

#endif
