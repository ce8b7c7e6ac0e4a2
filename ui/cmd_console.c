/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench console` (and kbench alone on a terminal): the console with its choices made, its options landing in its run request and its own. */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "request.h"
#include "setup_mode.h"
#include "sysinfo.h"
#include "ui.h"

/* The console's -c LIST: the list, in place of the one before (the row checked it). */
static int store_copy_list(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct run_request *rq = base;
	int list[RUNNER_MAX_BLOCKS];
	int n = opts_copy_list(it->arg, sysinfo_ncpus(), list, RUNNER_MAX_BLOCKS);
	if (n > 0) {
		rq->run.ncopies = n;
		memcpy(rq->run.copies, list, sizeof list[0] * (size_t)n);
	}
	return 0;
}

/* Its own rows (kbench replay takes --theme and --compare too); the run options it takes are
 * the shared rows (src/cli/options_table.c). */
static const struct opt_def console_rows[] = {
	{ .name = "theme", .kind = OK_STRING,
	  .arg = "NAME", .what = "a theme",
	  .help = "colour theme: default, projector, light, mono, or a user theme",
	  .cmds = OC_REPLAY, .choices = "default projector light mono",
	  OPT_OWN(struct console_opts, theme) },
	{ .name = "copies", .short_name = 'c', .kind = OK_STRING,
	  .arg = "LIST", .what = "a list of counts",
	  .help = "copy counts, e.g. 1 or 1,2 or all (default: 1 and all cores)",
	  .check = opts_check_copies, .lands = OL_REQUEST, .store = store_copy_list },
	{ .name = "compare", .kind = OK_STRING,
	  .arg = "RUN", .what = "a stored run",
	  .help = "the stored run to compare against (default: automatic; none: no comparison)",
	  .cmds = OC_REPLAY, .lands = OL_REQUEST, .off = offsetof(struct run_request, compare),
	  .size = sizeof(((struct run_request *)0)->compare) },
	{ .name = NULL },
};

static int console_exec(int argc, char **argv)
{
	struct console_opts own;
	char **ops;
	int nops, rc;
	struct app *a = app_start("console", argc, argv, &own, &ops, &nops, &rc);
	if (rc >= 0)
		return rc;
	if (nops > 0)
		app_choose_group(a, NULL);
	for (int i = 0; i < nops && rc < 0; i++)
		if (app_choose(a, ops[i]) < 0)
			rc = usage_error("unknown test or group '%s' (try 'kbench list')", ops[i]);
	free(ops);
	if (rc >= 0)
		return rc;
	/* --minutes or --idle: the timed mode's preset, with the tests named (else its own) */
	if (a->req.run.timed_seconds > 0 || a->req.run.idle >= 0) {
		if (!nops)
			app_choose_group(a, NULL);
		const struct setup_mode *m = setup_mode_timed();
		if (m->enter)
			m->enter(a);
	}
	if ((rc = app_open_terminal(a, own.theme)) != 0)
		return rc;
	app_goto(a, &screen_setup);
	app_idle_loop(a);
	app_finish(a);
	fputs(a->exit_note, stderr);
	return a->exit_code;
}

const struct opt_command cmd_console_entry = {
	.name = "console", .bit = OC_CONSOLE, .args = "[options] [TEST|GROUP ...]",
	.about = "the interactive console (kbench alone on a terminal)",
	.text = "Opens the console: choose tests and copies, watch the run, compare with a stored run.\n"
		"'kbench' alone on a terminal, or with one of these options first, opens it too.",
	.operand = "tests", .options = console_rows, .exec = console_exec,
};
