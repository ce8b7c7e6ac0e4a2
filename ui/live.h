/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the run screen watches, as one table of functions: a live run through the runner, or a stored run replayed from its samples. */
#ifndef KBENCH_UI_LIVE_H
#define KBENCH_UI_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "request.h"
#include "run.h"
#include "runner.h"
#include "session.h"

struct live;
struct telemetry_frame;
struct telemetry_opts;
struct wl_point;

/* The two kinds of run the screen can watch fill the same table
 * (STYLE.md 1); live_run_ops and live_replay_ops are its instances. */
struct live_ops {
	const char *name;
	void (*stop)(struct live *l); /* end early: abort the run, stop the replay */
	void (*skip)(struct live *l); /* on to the next test */
	/* The sample in progress: copies, each copy's count so far, seconds into it. */
	int (*copies)(const struct live *l);
	double (*count)(const struct live *l, int copy);
	/* Its second count (workload.h: aux); NULL for a kind that has none (a replay). */
	double (*aux)(const struct live *l, int copy);
	double (*elapsed)(const struct live *l);
	/* Run time now (seconds since the run started) and what is left, estimated. */
	double (*now)(const struct live *l);
	double (*remaining)(const struct live *l);
	/* A test's status and finished samples as the screen should show them
	 * now (a replay reveals them as its clock passes them). */
	enum test_status (*status)(const struct live *l, int block, int test);
	int (*samples_done)(const struct live *l, int block, int test);
	/* A points test's points one copy has published in the sample in
	 * progress (workload.h); NULL for a kind that has none (a replay). */
	int (*points)(const struct live *l, int copy, const struct wl_point **pts);
	/* How many points of a series the screen may show now. */
	int (*series_points)(const struct live *l, const struct series *s);
	/* A latency test's histograms one copy fills in the sample in progress. */
	int (*hists)(const struct live *l, int copy, const struct lat_hist **h);
	/* The latest telemetry frame, or NULL with why. */
	const struct telemetry_frame *(*telemetry)(const struct live *l, const char **why);
	void (*close)(void); /* frees what the kind keeps between runs */
};

extern const struct live_ops live_run_ops, live_replay_ops;

/* What the front end sees of the run being watched. The front end owns it
 * and gives the pump: called on every event of a live run and every step
 * of a replay, it reads the keys waiting and draws. */
struct live {
	const struct live_ops *ops; /* the kind watched last; NULL before any */
	const struct run *run;      /* the run watched (the front end owns it) */
	struct runner_event ev;     /* where the run is: the last event */
	bool running;               /* under way (the pump may be on the stack) */
	bool aborted;               /* it ended early */
	double precision;           /* a quick run's precision asked (0.01 = 1%); 0: not quick */
	int wake_fd;                /* readable: the pump has keys to read */
	const bool *leaving;        /* the front end is leaving (its user quit): a run it asked to keep
				       only then is kept (run_request.keep_if_left) */
	void (*pump)(void *ctx);
	void *pump_ctx;
};

/* The face the console gives a run of the session (src/session/session.h), or each run of a
 * sequence: once the runner is set up, *run is freed and replaced by the new run the pump can
 * draw, which the session's result owns then. The telemetry sampler is opened at the first
 * run from rq's options and kept for the next (rq then says it is off when it could not be). */
struct session_face live_face(struct live *l, struct run_request *rq, struct run **run);
/* One run of rq on that face: returns when the run ends (0, res says how), or -1 with a
 * sentence in err when it could not start (*run kept). */
int live_run(struct live *l, struct run_request *rq, struct run **run, struct session_result *res, char *err,
	     size_t errlen);
/* Plays a stored run back at speed times real time; returns when it ends or is stopped. */
void live_replay(struct live *l, const struct run *run, double speed);
/* Frees what every kind keeps between runs (the telemetry sampler, the timeline). */
void live_close(void);

/* The table's entries for the kind being watched, with safe answers before any. */
void live_stop(struct live *l);
void live_skip(struct live *l);
/* The run watched is a quick one: a family's quick defaults are its settings' */
bool live_quick(const struct live *l);
int live_copies(const struct live *l);
double live_count(const struct live *l, int copy);
/* A copy's second count (buildload: the load's work units); 0 when none. */
double live_aux(const struct live *l, int copy);
double live_elapsed(const struct live *l);
double live_now(const struct live *l);
double live_remaining(const struct live *l);
enum test_status live_status(const struct live *l, int block, int test);
int live_samples_done(const struct live *l, int block, int test);
int live_series_points(const struct live *l, const struct series *s);
int live_points(const struct live *l, int copy, const struct wl_point **pts);
struct lat_hist;
int live_hists(const struct live *l, int copy, const struct lat_hist **h);
const struct telemetry_frame *live_telemetry(const struct live *l, const char **why);

/* For the kinds: monotonic seconds, and the pump's turn. */
double live_clock(void);
void live_pump(struct live *l);

#endif
