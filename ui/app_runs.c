/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs from the console: start one on the run screen, keep what is worth keeping, calibrate, and load the run to compare with. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include "live.h"
#include "run.h"
#include "sequence.h"
#include "setup_mode.h"
#include "store.h"

void app_start_run(struct app *a)
{
	char err[400];
	struct run_request rq;
	app_request(a, &rq);
	rq.no_save = true; /* the console saves below, or when s is pressed */
	const struct screen_ops *own = setup_mode_of(a)->screen;
	app_goto(a, own ? own : &screen_run);
	struct session_result res;
	if (live_run(&a->live, &rq, &a->run, &res, err, sizeof err) < 0) {
		app_goto(a, &screen_setup);
		app_message(a, ROLE_WARN, "%s", err);
		return;
	}
	a->run_saved = false;
	if (own && !a->quit) {
		/* a check is minutes of the machine's time: kept at once, as kbench thermal keeps it */
		if (!store_worth_saving(a->run, err, sizeof err))
			app_message(a, ROLE_WARN, "Not saved: %s", err);
		else if (store_save(a->run, err, sizeof err) == 0) {
			a->run_saved = true;
			app_message(a, ROLE_DONE, "Saved as %s%s: kbench show %s prints its table.", a->run->meta.id,
				    a->run->incomplete ? " (incomplete)" : "", a->run->meta.id);
		} else {
			app_message(a, ROLE_WARN, "Could not save the check: %s", err);
		}
		return; /* its screen shows the verdict */
	}
	if (a->quit) {
		/* left in the middle of the run: keep what finished, by the rule `kbench run` follows */
		if (!store_worth_saving(a->run, err, sizeof err)) {
			snprintf(a->exit_note, sizeof a->exit_note, "kbench: run aborted; not saved: %s\n", err);
		} else if (store_save(a->run, err, sizeof err) == 0) {
			a->run_saved = true;
			snprintf(a->exit_note, sizeof a->exit_note,
				 "kbench: run aborted; the finished samples were saved as %s (incomplete)\n",
				 a->run->meta.id);
		} else {
			snprintf(a->exit_note, sizeof a->exit_note, "kbench: run aborted and not saved: %s\n", err);
		}
		return;
	}
	app_pick_base(a);
	app_goto(a, &screen_results);
}

void app_pick_base(struct app *a)
{
	char err[400];
	if (a->base)
		run_free(a->base);
	a->base = NULL;
	a->base_why[0] = '\0';
	if (!a->run || !strcmp(a->req.compare, "none")) {
		snprintf(a->base_why, sizeof a->base_why, "no comparison chosen (c picks a stored run)");
		return;
	}
	if (a->req.compare[0]) {
		a->base = store_load(a->req.compare, err, sizeof err);
		if (!a->base)
			snprintf(a->base_why, sizeof a->base_why, "%s", err);
		return;
	}
	a->base = store_pick_baseline(a->run, err, sizeof err);
	if (!a->base)
		snprintf(a->base_why, sizeof a->base_why, "%s (c picks another)", err);
}

/* From the results: like the run shown. From the setup: its choices. */
static bool like_shown_run(const struct app *a)
{
	return a->screen == &screen_results && a->run;
}

void app_calibrate_request(const struct app *a, struct run_request *rq)
{
	struct app tmp = *a;
	if (like_shown_run(a))
		run_request_like(&tmp.req, a->run);
	app_request(&tmp, rq);
}

/* The calibration's moments on the run screen. */
static void calib_begin(void *ctx, int k, int n)
{
	struct app *a = ctx;
	a->calib_run = k;
	a->calib_runs = n;
	app_goto(a, &screen_run);
}

static void calib_end(void *ctx, int k, const struct session_result *res)
{
	struct app *a = ctx;
	/* the sequence frees the run: the screen lets go of it */
	a->run = NULL;
	a->live.run = NULL;
}

static bool calib_stopping(void *ctx)
{
	return ((struct app *)ctx)->quit;
}

int app_calibrate(struct app *a, int n)
{
	/* The shown run and its comparison come back afterwards. */
	struct run *shown = a->run, *base = a->base;
	bool shown_saved = a->run_saved;
	const struct screen_ops *back = like_shown_run(a) ? &screen_results : &screen_setup;
	static struct run_request rq;
	app_calibrate_request(a, &rq);
	a->run = NULL;
	a->base = NULL;
	/* Kept by the rule every run follows, as `kbench calibrate` keeps them: an interrupted
	 * calibration run is stored incomplete, and only its finished tests teach a floor
	 * (noise.c learns from TEST_DONE). */
	struct run_sequence seq = { .name = "calibration", .purpose = "calibration", .runs = n };
	struct sequence_face f = { .run = live_face(&a->live, &rq, &a->run), .ctx = a, .begin = calib_begin,
				   .end = calib_end, .stopping = calib_stopping };
	struct sequence_result res;
	if (sequence_run(&seq, &rq, &f, &res) < 0)
		res.end = SEQ_FAILED;
	int stored = res.stored;
	a->calib_run = a->calib_runs = 0;
	a->run = shown;
	a->run_saved = shown_saved;
	a->base = base;
	if (a->quit)
		return stored;
	app_goto(a, back);
	if (res.why[0] && stored < n)
		app_message(a, ROLE_WARN, "Calibration stopped after %d run%s: %s", stored, stored == 1 ? "" : "s",
			    res.why);
	else if (stored < n)
		app_message(a, ROLE_WARN, "Calibration stopped: %d of %d runs stored%s.", stored, n,
			    stored >= 2 ? " (enough to learn from)" : "");
	else
		app_message(a, ROLE_DONE, "Calibrated: %d runs stored; verdicts now use this machine's noise.",
			    stored);
	return stored;
}
