/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One run's life as one engine call: the runner and the run record made from a request, telemetry beside it, the run, and its save. */
#ifndef KBENCH_SESSION_SESSION_H
#define KBENCH_SESSION_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "request.h"

struct runner;
struct telemetry;

/* What a front end gives a run: it watches through the runner's listeners, never decides. */
struct session_face {
	void *ctx;
	/* The runner and the new run record are made (run->meta.name set), telemetry's listener
	 * added: add the face's (progress, the console's pump: after telemetry's, so each tick's
	 * frame is fresh; before -v's telemetry line per test), catch signals. May be NULL. */
	void (*watch)(void *ctx, struct runner *r, struct run *run);
	/* The runner returned (rc: runner_run's, -1 when stopped early), before the save: a report
	 * printed here is out before a full disk can lose it. May be NULL. */
	void (*ran)(void *ctx, struct run *run, int rc);
	/* A sampler the face keeps open across its runs (the console shows the last frame after
	 * the run); NULL: the session opens one for the run from the request's tele and frees it. */
	struct telemetry *tele;
	/* Check what makes results untrustworthy first (governor, boost, load, heat ...), the
	 * findings into the run's notes and onto log. */
	bool preflight;
	FILE *log; /* preflight findings and -v's telemetry lines; NULL: none printed */
};

/* What became of the run. */
struct session_result {
	struct run *run;  /* the run record (the caller run_free()s it); NULL when it never started */
	bool aborted;     /* stopped early (its finished samples kept, marked incomplete) */
	bool failed;      /* a test failed */
	bool saved;       /* stored as run->meta.id */
	bool save_failed; /* worth keeping, but the save failed: why says so */
	char why[512];    /* not stored: why (nothing finished, or the save's error) */
};

/* Runs the request (run_request_complete'd) with face f. 0 when it ran (aborted or not, saved
 * or not: res says), or -1 when it could not start, with one sentence in err and *usage set
 * when a value was wrong (an event name, a sensor: exit 2) rather than the machine (exit 1). */
int session_run(struct run_request *rq, const struct session_face *f, struct session_result *res, bool *usage,
		char *err, size_t errlen);

#endif
