/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs from the console: one on the run screen, as one call of the run's whole life it watches, a calibration as a sequence of runs, and the run to compare with. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "live.h"
#include "run.h"
#include "sequence.h"
#include "setup_mode.h"
#include "store.h"

/* The run to compare with, as the session picked it (or did not, and why, with the key that
 * picks another), and the comparison with it the session made (NULL: compared here, by the
 * session). */
static void take_base(struct app *a, struct run *base, const char *why, struct compare *cmp, const char *cmp_why)
{
	if (a->base)
		run_free(a->base);
	a->base = base;
	const char *hint = base ? "" : !a->run || !strcmp(a->req.compare, "none") ? " (c picks a stored run)"
				 : !a->req.compare[0] ? " (c picks another)" : "";
	snprintf(a->base_why, sizeof a->base_why, "%s%s", base ? "" : why, hint);
	if (!cmp || !base) {
		if (cmp)
			compare_free(cmp);
		app_compare(a);
		return;
	}
	if (a->cmp)
		compare_free(a->cmp);
	a->cmp = cmp;
	snprintf(a->cmp_why, sizeof a->cmp_why, "%s", cmp_why);
}

void app_compare(struct app *a)
{
	if (a->cmp)
		compare_free(a->cmp);
	a->cmp = session_compare(a->run, a->base, a->base_why, a->cmp_why, sizeof a->cmp_why);
}

void app_start_run(struct app *a)
{
	char err[400];
	struct run_request rq;
	app_request(a, &rq);
	/* One call for the run's whole life, which the console watches: a timed mode's check (on
	 * its own screen) is kept at once, as kbench thermal keeps it (minutes of the machine's
	 * time); a run, when the console is left in the middle of it, else when s is pressed; a run
	 * gets the run to compare it with, for the results. */
	const struct screen_ops *own = setup_mode_of(a)->screen;
	rq.keep_if_left = !own;
	rq.pick_baseline = !own;
	app_goto(a, own ? own : &screen_run);
	struct session_result res;
	if (live_run(&a->live, &rq, &a->run, &res, err, sizeof err) < 0) {
		app_goto(a, &screen_setup);
		app_message(a, ROLE_WARN, "%s", err);
		return;
	}
	a->run_saved = res.saved;
	if (res.left) {
		/* left in the middle of the run: what finished is kept, by the rule `kbench run` follows */
		if (res.saved)
			snprintf(a->exit_note, sizeof a->exit_note,
				 "kbench: run aborted; the finished samples were saved as %s (incomplete)\n", a->run->meta.id);
		else
			snprintf(a->exit_note, sizeof a->exit_note, "kbench: run aborted%s %s\n",
				 res.save_failed ? " and not saved:" : "; not saved:", res.why);
		return;
	}
	if (own) {
		app_compare(a); /* the results, when asked for later, are this run's */
		if (res.saved)
			app_message(a, ROLE_DONE, "Saved as %s%s: kbench show %s prints its table.", a->run->meta.id,
				    a->run->incomplete ? " (incomplete)" : "", a->run->meta.id);
		else
			app_message(a, ROLE_WARN, "%s: %s", res.save_failed ? "Could not save the check" : "Not saved",
				    res.why);
		return; /* its screen shows the verdict */
	}
	/* the session's comparison: the results screen draws it */
	take_base(a, res.base, res.base_why, res.cmp, res.cmp_why);
	app_goto(a, &screen_results);
}

void app_pick_base(struct app *a)
{
	char why[200];
	struct run *base = session_pick_baseline(a->run, a->req.compare, why, sizeof why);
	take_base(a, base, why, NULL, NULL);
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
	app_compare(a); /* the floors learned from the store: the calibration just taught them */
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
