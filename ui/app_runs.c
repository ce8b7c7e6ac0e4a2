/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs from the console: start one on the run screen, keep what is worth keeping, calibrate, and load the run to compare with. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include "live.h"
#include "run.h"
#include "setup_mode.h"
#include "store.h"

void app_start_run(struct app *a)
{
	char err[400];
	struct runner_opts o;
	app_opts(a, &o);
	const struct screen_ops *own = setup_mode_of(a)->screen;
	app_goto(a, own ? own : &screen_run);
	if (live_run(&a->live, &o, &a->tele, &a->run, err, sizeof err) < 0) {
		app_goto(a, &screen_setup);
		app_message(a, ROLE_WARN, "%s", err);
		return;
	}
	if (a->run_name[0]) /* --name, as kbench run names its run */
		snprintf(a->run->meta.name, sizeof a->run->meta.name, "%s", a->run_name);
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
	if (!a->run || !strcmp(a->compare_spec, "none")) {
		snprintf(a->base_why, sizeof a->base_why, "no comparison chosen (c picks a stored run)");
		return;
	}
	if (a->compare_spec[0]) {
		a->base = store_load(a->compare_spec, err, sizeof err);
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

void app_calibrate_opts(const struct app *a, struct runner_opts *o)
{
	struct app tmp = *a;
	if (like_shown_run(a))
		app_choose_like(&tmp, a->run);
	app_opts(&tmp, o);
}

int app_calibrate(struct app *a, int n)
{
	/* The shown run, its comparison and the setup choices come back afterwards. */
	struct app keep = *a;
	const struct screen_ops *back = like_shown_run(a) ? &screen_results : &screen_setup;
	if (like_shown_run(a))
		app_choose_like(a, a->run);
	a->run = NULL;
	a->base = NULL;
	int stored = 0;
	char err[400] = "";
	for (int i = 0; i < n && !a->quit; i++) {
		a->calib_run = i + 1;
		a->calib_runs = n;
		struct runner_opts o;
		app_opts(a, &o);
		app_goto(a, &screen_run);
		if (live_run(&a->live, &o, &a->tele, &a->run, err, sizeof err) < 0)
			break;
		/* Kept by the rule every run follows, as `kbench calibrate` keeps it:
		 * an interrupted calibration run is stored incomplete, and only its
		 * finished tests teach a floor (noise.c learns from TEST_DONE). */
		bool whole = !a->live.aborted && !a->quit;
		if (store_worth_saving(a->run, err, sizeof err)) {
			snprintf(a->run->meta.name, sizeof a->run->meta.name, "calibration");
			if (store_save(a->run, err, sizeof err) == 0)
				stored++;
			else
				whole = false;
		}
		run_free(a->run);
		a->run = NULL;
		a->live.run = NULL;
		if (!whole)
			break;
	}
	if (a->run)
		run_free(a->run);
	a->calib_run = a->calib_runs = 0;
	memcpy(a->chosen, keep.chosen, sizeof a->chosen);
	a->ncopies = keep.ncopies;
	memcpy(a->copies, keep.copies, sizeof a->copies);
	a->quick = keep.quick;
	a->duration = keep.duration;
	a->iterations = keep.iterations;
	a->samples = keep.samples;
	a->run = keep.run;
	a->run_saved = keep.run_saved;
	a->base = keep.base;
	if (a->quit)
		return stored;
	app_goto(a, back);
	if (err[0] && stored < n)
		app_message(a, ROLE_WARN, "Calibration stopped after %d run%s: %s", stored, stored == 1 ? "" : "s", err);
	else if (stored < n)
		app_message(a, ROLE_WARN, "Calibration stopped: %d of %d runs stored%s.", stored, n,
			    stored >= 2 ? " (enough to learn from)" : "");
	else
		app_message(a, ROLE_DONE, "Calibrated: %d runs stored; verdicts now use this machine's noise.",
			    stored);
	return stored;
}
