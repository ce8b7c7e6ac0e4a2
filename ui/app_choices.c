/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console's setup choices: its options, copy counts, tests and groups, and the runner options they make. */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "run.h"
#include "sysinfo.h"
#include "tests.h"
#include "setup_mode.h"
#include "ui.h"

bool ui_is_option(const char *arg)
{
	return opts_takes(OC_CONSOLE, arg);
}

int app_set_copies(struct app *a, const char *s)
{
	int list[RUNNER_MAX_BLOCKS];
	int n = opts_copy_list(s, sysinfo_ncpus(), list, RUNNER_MAX_BLOCKS);
	if (n < 0)
		return -1;
	a->ncopies = n;
	memcpy(a->copies, list, sizeof list[0] * (size_t)n);
	return 0;
}

int app_choose(struct app *a, const char *name)
{
	const struct test_def *t = test_find(name);
	if (t) {
		a->chosen[t - test_table] = true;
		return 0;
	}
	const struct test_group *g = test_group_find(name);
	if (!g)
		return -1;
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS; i++) {
		bool in = !g->ids;
		for (const char *const *id = g->ids; id && *id; id++)
			in |= !strcmp(*id, test_table[i].id);
		if (in)
			a->chosen[i] = true;
	}
	return 0;
}

void app_choose_group(struct app *a, const char *group)
{
	memset(a->chosen, 0, sizeof a->chosen);
	app_choose(a, group);
}

void app_opts(const struct app *a, struct runner_opts *o)
{
	memset(o, 0, sizeof *o);
	for (size_t i = 0; i < test_count && i < APP_MAX_TESTS && o->ntests < RUNNER_MAX_TESTS; i++)
		if (a->chosen[i])
			o->tests[o->ntests++] = &test_table[i];
	o->ncopies = a->ncopies;
	memcpy(o->copies, a->copies, sizeof o->copies);
	o->samples = a->samples;
	o->duration = a->duration;
	o->pause = a->pause;
	o->quick = a->quick;
	o->iterations = a->iterations;
	o->params = a->params[0] ? a->params : NULL;
	o->precision = a->precision;
	o->max_test_seconds = a->max_test_seconds;
	o->tmpdir = a->tmpdir;
	/* two wake-ups a second: enough to watch, too few to disturb */
	o->interval = a->tele.interval > 0 ? a->tele.interval : 0.5;
	if (a->timed_minutes > 0) {
		/* one copy count: the largest chosen (all CPUs by default) */
		o->ncopies = 1;
		o->copies[0] = a->copies[a->ncopies - 1];
		o->timed_seconds = a->timed_minutes * 60;
		o->mode = setup_mode_of(a)->mode;
		o->idle = a->idle;
		o->samples = 0;
		o->quick = false;
	}
}

void app_defaults(struct app *a)
{
	a->pause = -1;
	a->idle = -1;
	a->replay_speed = strtod(opts_row(O_SPEED)->def, NULL);
	app_choose(a, "index");
	a->ncopies = 1;
	a->copies[0] = 1;
	int n = sysinfo_ncpus();
	if (n > 1)
		a->copies[a->ncopies++] = n;
}

int app_parse_args(struct app *a, const char *cmd, int argc, char **argv, const char **theme,
		   char ***ops, int *nops)
{
	struct opt_parsed p;
	int rc = opts_parse(opts_command(cmd), argc, argv, &p);
	if (rc >= 0)
		return rc;
	for (int k = 0; k < p.n; k++) {
		const struct opt_item *it = &p.item[k];
		if (opts_param_append(a->params, sizeof a->params, it) < 0) {
			fprintf(stderr, "kbench: the workload settings are longer than %d characters\n",
				OPT_PARAMS_MAX - 1);
			opts_free(&p);
			return 2;
		}
		if (it->def->param)
			continue;
		switch (it->def->id) {
		case O_THEME: *theme = it->arg; break;
		case O_COPY_LIST: app_set_copies(a, it->arg); break; /* the row checked it */
		case O_SAMPLES: a->samples = (int)it->i; break;
		case O_DURATION: a->duration = it->d; break;
		case O_PAUSE: a->pause = it->d; break;
		case O_COMPARE: snprintf(a->compare_spec, sizeof a->compare_spec, "%s", it->arg); break;
		case O_SPEED: a->replay_speed = it->d; break;
		/* a timed mode's --minutes and --idle: its preset (ui_main) */
		case O_MODE_MINUTES: a->timed_minutes = it->d; break;
		case O_MODE_IDLE: a->idle = it->d; break;
		/* the run options, as kbench run takes them (cmd_run.c) */
		case O_QUICK: a->quick = true; break;
		case O_PRECISION: a->precision = it->d / 100; break;
		case O_MAX_TEST: a->max_test_seconds = it->d; break;
		case O_ITERATIONS: a->iterations = (int)it->i; break;
		case O_TMPDIR: a->tmpdir = it->arg; break;
		case O_NAME: snprintf(a->run_name, sizeof a->run_name, "%s", it->arg); break;
		case O_EVENTS: a->tele.events = it->arg; break;
		case O_INTERVAL:
			a->tele.interval = it->d;
			a->tele.off |= it->d == 0;
			break;
		case O_SENSOR: a->tele.sensor = it->arg; break;
		case O_NO_TELEMETRY: a->tele.off = true; break;
		default: break;
		}
	}
	char perr[200];
	if (opts_params_check(a->params, perr, sizeof perr) < 0) {
		fprintf(stderr, "kbench: %s\n", perr);
		opts_free(&p);
		return 2;
	}
	*ops = p.operand;
	*nops = p.noperands;
	p.operand = NULL;
	opts_free(&p);
	return -1;
}

/* The shown run's settings as setup choices: a calibration must take the
 * same kind of samples as the runs it will judge (noise.h: per setting). */
void app_choose_like(struct app *a, const struct run *r)
{
	memset(a->chosen, 0, sizeof a->chosen);
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++)
			app_choose(a, r->blocks[b].tests[t].id);
	/* One copy when the run had it: the floor is a test's, pooled over copy counts. */
	a->ncopies = 1;
	a->copies[0] = run_find_block(r, 1) || r->nblocks == 0 ? 1 : r->blocks[0].copies;
	a->quick = r->meta.mode == RUN_MODE_QUICK;
	a->duration = r->meta.duration_override;
	a->iterations = r->meta.iterations;
	a->samples = 0;
}
