/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run request: everything a run is asked with, in the one struct the option rows fill and the faces hand to the engine. */
#ifndef KBENCH_SESSION_REQUEST_H
#define KBENCH_SESSION_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"
#include "runner.h"
#include "telemetry/frame.h"

/* The workload settings' words ("sizes=1k:64m huge tasks=1,2"), at most this long. */
#define RUN_PARAMS_MAX 4608

/* One struct for a run, whatever asks for it: the command line, the console, calibration and
 * plans fill it through the option rows (src/cli/options_table.c: a row says where in it its
 * value lands, as fio's options say their offset), never field by field, and give it to the
 * engine (session.h). A new run option is its row and its field. */
struct run_request {
	struct runner_opts run;     /* what the runner measures; run.params is set by run_request_opts */
	struct telemetry_opts tele; /* what is sampled beside it */
	char params[RUN_PARAMS_MAX]; /* the families' settings as words; "" the defaults */
	const char *name;           /* the stored run's name; NULL: the kernel release */
	char compare[64];           /* the run to compare with: "" the automatic choice, "none" none */
	/* What becomes of the run: stored by the rule every run follows (store_worth_saving) unless
	 * no_save; with keep_if_left only when the face leaves in the middle of it (the console's
	 * user quit), else kept for the face to store when its user asks (the console's s). */
	bool no_save, keep_if_left;
	bool pick_baseline; /* pick the run to compare it with once it ran, as compare says */
	bool quiet, verbose;        /* the command line's progress: none, or a line per sample */
	struct run_seq seq;         /* a sequence's run (sequence.h), stored with it; "" id: none */
	bool budget_split;          /* run.budget is each copy count's already (not the --budget asked) */
};

/* An empty request: no tests, no copies, UnixBench's pause, no idle baseline asked. */
void run_request_init(struct run_request *rq);

/* Adds a test, or every test of a group, after those already asked for (a test once):
 * 0, or -1 when name is neither (or the list is full). */
int run_request_add(struct run_request *rq, const char *name);
/* Whether t is asked for; asks for it or not, keeping the test table's order (the console's
 * ticks: its runs go in the table's order whatever order they were ticked in). */
bool run_request_has(const struct run_request *rq, const struct test_def *t);
void run_request_set(struct run_request *rq, const struct test_def *t, bool on);
/* Only the tests of one group (or none: NULL). */
void run_request_only(struct run_request *rq, const char *group);

/* What the command line leaves to defaults, filled as kbench run fills it: a mode's own
 * command's test and defaults (mode NULL: a run's), the index when no test is named, the copies
 * (1 and the CPUs, 1 alone when every test runs its own tasks), then what does not go together;
 * run.params points at its params then. 0, or -1 with one sentence (a usage error). */
int run_request_complete(struct run_request *rq, const struct run_mode_info *mode, char *err, size_t errlen);

/* The families' settings in the request that do not go together (--config without --source):
 * 0, or -1 with one sentence. */
int run_request_conflicts(const struct run_request *rq, char *err, size_t errlen);

/* The runner's options of the request, run.params pointing at its params (a request is copied
 * by value: the pointer is set where it is used). */
const struct runner_opts *run_request_opts(struct run_request *rq);

/* A calibration of run r takes the same kind of samples as r (noise floors are per setting):
 * r's tests, one copy when r had it, its mode, sample length and iterations. */
void run_request_like(struct run_request *rq, const struct run *r);

#endif
