/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The setup screen's Run fields for a run: samples, sample length and pause, their prompts and values (a thermal check's: setup_thermal.c). */
#include "setup_mode.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "quick.h"
#include "runner.h"

void setup_in_number(struct app *a, const char *s, const struct opt_def *d, const char *zero)
{
	char err[300], range[120];
	if (zero && !strcmp(s, "0")) {
		/* the field's zero, its default ("each test's own", "nominal"), which no row's range takes */
		void *f = opts_field(d, &a->req, NULL);
		if (d->kind == OK_INT)
			*(int *)f = 0;
		else
			*(double *)f = 0;
		return;
	}
	if (opts_set(d, s, &a->req, NULL, err, sizeof err) == 0)
		return;
	opts_range_text(d, range, sizeof range);
	app_message(a, ROLE_WARN, "%s: %s%s%s%s, not '%s'", d->name, range, zero ? " (0 = " : "",
		    zero ? zero : "", zero ? ")" : "", s);
}

static void in_samples(struct app *a, const char *s)
{
	setup_in_number(a, s, opts_row(O_SAMPLES), "each test's own");
	a->req.run.quick = false;
}

static void in_pause(struct app *a, const char *s)
{
	setup_in_number(a, s, opts_row(O_PAUSE), NULL);
}

double setup_cycle(const double *vals, int n, double cur, int at, int dir)
{
	for (int i = 0; i < n; i++)
		if (fabs(vals[i] - cur) < 1e-9)
			at = i;
	return vals[(at + dir + n) % n];
}

static void run_samples_value(const struct app *a, char *v, size_t len)
{
	const struct runner_opts *o = &a->req.run;
	if (runner_allocation(o) == ALLOC_PRECISION)
		snprintf(v, len, "until +-%g%%", quick_precision_asked(o->precision) * 100);
	else if (o->quick) /* the index allocation (quick.h) */
		snprintf(v, len, "rounds %.0f s", runner_budget(o));
	else if (o->samples)
		snprintf(v, len, "%d", o->samples);
	else
		snprintf(v, len, "own (3/10)");
}

static void run_length_value(const struct app *a, char *v, size_t len)
{
	if (a->req.run.quick)
		snprintf(v, len, "quick (1-5 s)");
	else if (a->req.run.duration > 0)
		snprintf(v, len, "%g s", a->req.run.duration);
	else
		snprintf(v, len, "nominal");
}

static void run_pause_value(const struct app *a, char *v, size_t len)
{
	snprintf(v, len, "%g s", a->req.run.pause < 0 ? 3.0 : a->req.run.pause);
}

static void run_cycle_samples(struct app *a, int dir)
{
	a->req.run.samples += dir;
	if (a->req.run.samples < 0)
		a->req.run.samples = 0;
	a->req.run.quick = false;
}

static void run_cycle_pause(struct app *a, int dir)
{
	static const double pauses[] = { -1, 0, 0.5, 1, 2 };
	a->req.run.pause = setup_cycle(pauses, (int)(sizeof pauses / sizeof pauses[0]), a->req.run.pause, 0, dir);
}

static void run_edit_samples(struct app *a)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%d", a->req.run.samples);
	app_prompt(a, "Samples per test (0 = each test's own):", buf, in_samples);
}

static void run_edit_pause(struct app *a)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%g", a->req.run.pause < 0 ? 3 : a->req.run.pause);
	app_prompt(a, "Pause before each sample, seconds:", buf, in_pause);
}

/* a test that runs its own tasks (scaling, kbuild) is measured once: runner_plan_text's
 * second line */
static const struct setup_preset presets[] = {
	{ "index", "index", 0, 0, -1, false },
	{ "quick", "index", 0, 0, -1, true },
	{ "cpu-only", "cpu", 0, 0, -1, false },
	{ "i/o-only", "io", 0, 0, -1, false },
};

const struct setup_mode setup_run = {
	.samples_name = "Samples", .pause_name = "Pause",
	.samples_value = run_samples_value, .length_value = run_length_value, .pause_value = run_pause_value,
	.cycle_samples = run_cycle_samples, .cycle_pause = run_cycle_pause,
	.edit_samples = run_edit_samples, .edit_pause = run_edit_pause, .plan = runner_plan_text,
	.presets = presets, .npresets = sizeof presets / sizeof presets[0],
};
