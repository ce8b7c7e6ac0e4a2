/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One run's life as one engine call, for both faces: the runner and the run record made from a request, preflight and telemetry beside it, the run, its save by the one rule, and the run to compare it with. */
#ifndef KBENCH_SESSION_SESSION_H
#define KBENCH_SESSION_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "request.h"

struct compare;
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
	/* The face is leaving in the middle of the run (the console's user quit, which stopped
	 * it): a run asked to be kept only then (keep_if_left) is kept. May be NULL: never. */
	bool (*leaving)(void *ctx);
	/* A sampler the face keeps open across its runs (the console shows the last frame after
	 * the run); NULL: the session opens one for the run from the request's tele and frees it. */
	struct telemetry *tele;
	FILE *log; /* the preflight findings (always in the run's notes) and -v's telemetry lines; NULL: none printed */
};

/* What became of the run. */
struct session_result {
	struct run *run;  /* the run record (the caller run_free()s it); NULL when it never started */
	bool aborted;     /* stopped early (its finished samples kept, marked incomplete) */
	bool failed;      /* a test failed */
	bool saved;       /* stored as run->meta.id */
	bool save_failed; /* worth keeping, but the save failed: why says so */
	char why[512];    /* not stored: why (nothing finished, or the save's error) */
	bool left;        /* the face was leaving when the run ended */
	/* pick_baseline: the run to compare it with (the caller run_free()s it), or NULL and why */
	struct run *base;
	char base_why[200];
	/* ... and the comparison of the run with it, as session_compare makes it (the caller
	 * compare_free()s it), or NULL and why (no base: base_why's words) */
	struct compare *cmp;
	char cmp_why[300];
};

/* The stored run to compare run r with, as a compare spec says: "none" (no comparison), a run
 * (store_load's spec), or "" the store's pick (store_pick_baseline). NULL with why filled. */
struct run *session_pick_baseline(const struct run *r, const char *spec, char *why, size_t whylen);

/* The comparison of run r with base as `kbench compare BASE R` makes it (the floors learned
 * from the store, so call it again when the store changed); NULL with why filled when there
 * is no base (why: no_base_why, else "no stored run to compare with") or it fails. */
struct compare *session_compare(const struct run *r, const struct run *base, const char *no_base_why, char *why,
				size_t whylen);

/* The run's whole life: runs the request (run_request_complete'd) with face f watching, stores
 * it as the request says, and picks its baseline and compares the run with it when asked. 0 when it ran (aborted or not,
 * saved or not: res says), or -1 when it could not start, with one sentence in err and *usage
 * set when a value was wrong (an event name, a sensor: exit 2) rather than the machine (1). */
int session_run(struct run_request *rq, const struct session_face *f, struct session_result *res, bool *usage,
		char *err, size_t errlen);

#endif
