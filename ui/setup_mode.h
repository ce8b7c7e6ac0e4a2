/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What each kind of run means to the console: the setup screen's Run fields (a run's samples and pause, a thermal check's minutes of load and idle baseline), its preset and the screen its runs get. */
#ifndef KBENCH_SETUP_MODE_H
#define KBENCH_SETUP_MODE_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "run.h"

struct app;
struct runner_opts;
struct screen_ops;

/* A preset of the setup screen (p cycles them): a group of tests and how they run. */
struct setup_preset {
	const char *name, *group;
	int samples;
	double duration, pause;
	bool quick; /* kbench run --quick */
};

/* The setup screen asks its mode, never which mode it is (STYLE.md 1). */
struct setup_mode {
	const char *samples_name, *pause_name; /* the fields' names: "Samples", "Pause" */
	/* The Samples, Sample len and Pause fields' values */
	void (*samples_value)(const struct app *a, char *v, size_t len);
	void (*length_value)(const struct app *a, char *v, size_t len);
	void (*pause_value)(const struct app *a, char *v, size_t len);
	/* ← → on Samples and Pause */
	void (*cycle_samples)(struct app *a, int dir);
	void (*cycle_pause)(struct app *a, int dir);
	/* Enter on Samples and Pause: a prompt */
	void (*edit_samples)(struct app *a);
	void (*edit_pause)(struct app *a);
	/* What the run will be, under the estimate; once: a second line or "" */
	void (*plan)(const struct runner_opts *o, char *what, size_t wlen, char *once, size_t olen);
	/* 0 to start, or -1 after a warning on the message line */
	int (*check)(struct app *a, const struct runner_opts *o);
	/* its preset chosen, and another chosen after it */
	void (*enter)(struct app *a);
	void (*leave)(struct app *a);
	bool any_tests; /* its preset stands whatever test is ticked */
	/* Its runs: what the runner is told they are (a timed mode's; a run's says itself) */
	const struct run_mode_info *mode;
	bool timed; /* a timed run, a->req.run.timed_seconds of load: the console's --minutes and --idle start it */
	/* The screen that shows its run live or replayed, and the verdict after (the run kept at
	 * once: minutes of the machine's time); NULL: the run screen, then the results. */
	const struct screen_ops *screen;
	bool (*shows)(const struct run *r); /* a stored run is one of its runs; NULL: none is */
	/* Its presets, in the order p shows them after the modes listed before it */
	const struct setup_preset *presets;
	size_t npresets;
};

extern const struct setup_mode setup_run, setup_thermal;

/* ---- the list of the console's modes (mode_views.c) ---- */

/* The setup's mode: the timed mode's when it has minutes of load, else a run's. */
const struct setup_mode *setup_mode_of(const struct app *a);
/* The mode whose preset --minutes and --idle start: the listed timed mode. */
const struct setup_mode *setup_mode_timed(void);
/* The mode whose screen shows a stored run (a replay): a run's when no other shows it. */
const struct setup_mode *setup_mode_of_run(const struct run *r);
/* The setup screen's i-th preset (every mode's, in the list's order) and its mode in
 * *mode; NULL past the last. */
const struct setup_preset *setup_preset_at(int i, const struct setup_mode **mode);

/* A field's value typed at a prompt, checked by the option row kbench run and the
 * console's flags use, and landed in the console's request where that row lands it
 * (src/cli/options_table.c); zero, where it means the default, is allowed as well ("each
 * test's own"; NULL: no such zero). A bad value: a warning, the field kept. */
void setup_in_number(struct app *a, const char *s, const struct opt_def *d, const char *zero);
/* The value after cur in vals (dir 1) or before it (-1); from at when cur is none of them. */
double setup_cycle(const double *vals, int n, double cur, int at, int dir);

#endif
