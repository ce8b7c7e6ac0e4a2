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
	a->req.run.ncopies = n;
	memcpy(a->req.run.copies, list, sizeof list[0] * (size_t)n);
	return 0;
}

bool app_chosen(const struct app *a, size_t i)
{
	return i < test_count && run_request_has(&a->req, &test_table[i]);
}

void app_set_chosen(struct app *a, size_t i, bool on)
{
	if (i < test_count)
		run_request_set(&a->req, &test_table[i], on);
}

int app_choose(struct app *a, const char *name)
{
	const struct test_def *t = test_find(name);
	if (t) {
		run_request_set(&a->req, t, true);
		return 0;
	}
	const struct test_group *g = test_group_find(name);
	if (!g)
		return -1;
	for (size_t i = 0; i < test_count; i++) {
		bool in = !g->ids;
		for (const char *const *id = g->ids; id && *id; id++)
			in |= !strcmp(*id, test_table[i].id);
		if (in)
			app_set_chosen(a, i, true);
	}
	return 0;
}

void app_choose_group(struct app *a, const char *group)
{
	run_request_only(&a->req, group);
}

void app_request(const struct app *a, struct run_request *rq)
{
	*rq = a->req;
	struct runner_opts *o = &rq->run;
	/* two wake-ups a second: enough to watch, too few to disturb */
	if (o->interval <= 0)
		o->interval = 0.5;
	if (o->timed_seconds > 0) {
		/* one copy count: the largest chosen (all CPUs by default) */
		o->copies[0] = o->copies[o->ncopies - 1];
		o->ncopies = 1;
		o->mode = setup_mode_of(a)->mode;
		o->samples = 0;
		o->quick = false;
	}
}

void app_defaults(struct app *a)
{
	run_request_init(&a->req);
	app_choose(a, "index");
	a->req.run.ncopies = 1;
	a->req.run.copies[0] = 1;
	int n = sysinfo_ncpus();
	if (n > 1)
		a->req.run.copies[a->req.run.ncopies++] = n;
}

int app_parse_args(struct app *a, const char *cmd, int argc, char **argv, struct console_opts *own,
		   char ***ops, int *nops)
{
	struct opt_parsed p;
	opts_defaults(opts_command(cmd), own);
	int rc = opts_take(opts_command(cmd), argc, argv, &p, &a->req, own);
	if (rc >= 0)
		return rc;
	char err[400];
	if (run_request_conflicts(&a->req, err, sizeof err) < 0) {
		opts_free(&p);
		return usage_error("%s", err);
	}
	*ops = p.operand;
	*nops = p.noperands;
	p.operand = NULL;
	opts_free(&p);
	return -1;
}
