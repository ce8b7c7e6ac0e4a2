/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console's thermal check: its setup fields (minutes of load, the idle baseline, one rate test), its preset and its screen (src/families/thermal.h). */
#include "setup_mode.h"

#include <stdio.h>

#include "app.h"
#include "runner.h"
#include "sysinfo.h"
#include "thermal.h"

/* The minutes of load asked: the request holds seconds, as the runner takes them. */
static double minutes(const struct app *a)
{
	return a->req.run.timed_seconds / 60;
}

static void samples_value(const struct app *a, char *v, size_t len)
{
	snprintf(v, len, "for %g min", minutes(a));
}

static void length_value(const struct app *a, char *v, size_t len)
{
	if (a->req.run.duration <= 0)
		snprintf(v, len, "%g s", THERMAL_SAMPLE_SECONDS);
	else
		setup_run.length_value(a, v, len);
}

static void pause_value(const struct app *a, char *v, size_t len)
{
	snprintf(v, len, "%g s", a->req.run.idle);
}

static void cycle_samples(struct app *a, int dir)
{
	static const double mins[] = { 1, 2, 5, 10, 20, 30, 60 };
	a->req.run.timed_seconds = setup_cycle(mins, (int)(sizeof mins / sizeof mins[0]), minutes(a), 3, dir) * 60;
}

static void cycle_pause(struct app *a, int dir)
{
	static const double idles[] = { 0, 10, 30, 60, 120 };
	a->req.run.idle = setup_cycle(idles, (int)(sizeof idles / sizeof idles[0]), a->req.run.idle, 2, dir);
}

static void in_minutes(struct app *a, const char *s)
{
	setup_in_number(a, s, opts_find(OC_CONSOLE, "minutes"), NULL);
}

static void in_idle(struct app *a, const char *s)
{
	setup_in_number(a, s, opts_find(OC_CONSOLE, "idle"), NULL);
}

static void edit_samples(struct app *a)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%g", minutes(a));
	app_prompt(a, "Minutes of load:", buf, in_minutes);
}

static void edit_pause(struct app *a)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%g", a->req.run.idle);
	app_prompt(a, "Idle baseline first, seconds (0 = none):", buf, in_idle);
}

static void plan(const struct runner_opts *o, char *what, size_t wlen, char *once, size_t olen)
{
	(void)once;
	(void)olen;
	snprintf(what, wlen, "%d cop%s of %s, back to back", o->copies[0], o->copies[0] == 1 ? "y" : "ies",
		 o->ntests == 1 ? o->tests[0]->id : "one test");
}

static int check(struct app *a, const struct runner_opts *o)
{
	if (o->ntests != 1) {
		app_message(a, ROLE_WARN, "A thermal check loads the CPUs with one test: tick one (dhry2reg, "
			    "whetstone-double).");
		return -1;
	}
	if (o->tests[0]->collect) {
		app_message(a, ROLE_WARN, "A thermal check follows a score per sample: %s gives a curve. Tick "
			    "dhry2reg or whetstone-double.", o->tests[0]->id);
		return -1;
	}
	return 0;
}

/* The thermal check preset: the chosen test (default dhry2reg), all CPUs,
 * THERMAL_MINUTES of 2 s samples after the idle baseline (the values set keep). */
static void enter(struct app *a)
{
	bool any = false;
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++)
		any |= app_chosen(a, i);
	if (!any)
		app_choose(a, THERMAL_TEST);
	if (a->req.run.timed_seconds <= 0)
		a->req.run.timed_seconds = THERMAL_MINUTES * 60;
	if (a->req.run.idle < 0)
		a->req.run.idle = THERMAL_IDLE_SECONDS;
	if (a->req.run.ncopies != 1) { /* the default 1 and N: the check loads every CPU */
		a->req.run.ncopies = 1;
		a->req.run.copies[0] = sysinfo_ncpus();
	}
	a->req.run.samples = 0;
	a->req.run.quick = false;
}

/* another preset after it: the copies a run's presets start from */
static void leave(struct app *a)
{
	app_set_copies(a, sysinfo_ncpus() > 1 ? "1,all" : "1");
}

/* a thermal check of Dhrystone, the test enter() picks when none is ticked */
static const struct setup_preset presets[] = {
	{ "thermal check", "dhry", 0, 0, -1, false },
};

const struct setup_mode setup_thermal = {
	.samples_name = "Load", .pause_name = "Idle first",
	.samples_value = samples_value, .length_value = length_value, .pause_value = pause_value,
	.cycle_samples = cycle_samples, .cycle_pause = cycle_pause,
	.edit_samples = edit_samples, .edit_pause = edit_pause,
	.plan = plan, .check = check, .enter = enter, .leave = leave, .any_tests = true,
	.mode = &thermal_mode, .timed = true, .screen = &screen_thermal, .shows = thermal_is,
	.presets = presets, .npresets = sizeof presets / sizeof presets[0],
};
