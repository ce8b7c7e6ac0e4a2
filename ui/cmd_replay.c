/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench replay`: a stored run played back on the run screen from its samples and telemetry, then its results (a demo). */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "live.h"
#include "options.h"
#include "setup_mode.h"
#include "store.h"
#include "ui.h"

/* Its own row; --theme and --compare are the console's rows, which it takes too. */
static const struct opt_def replay_rows[] = {
	{ .name = "speed", .kind = OK_DOUBLE,
	  .arg = "N", .what = "a factor",
	  .min = 0.1, .max = 10000, .def = "10",
	  .help = "play back N times as fast as recorded (default 10)",
	  OPT_OWN(struct console_opts, speed) },
	{ .name = NULL },
};

static int replay_exec(int argc, char **argv)
{
	struct console_opts own;
	char **ops;
	int nops, rc;
	struct app *a = app_start("replay", argc, argv, &own, &ops, &nops, &rc);
	if (rc >= 0)
		return rc;
	if (nops != 1) {
		free(ops);
		return usage_error("replay wants one stored run (kbench replay RUN [--speed N])");
	}
	char err[400];
	struct run *r = store_load(ops[0], err, sizeof err);
	free(ops);
	if (!r)
		return runtime_error("%s", err);
	if ((rc = app_open_terminal(a, own.theme)) != 0) {
		run_free(r);
		return rc;
	}
	a->run = r;
	a->run_saved = true;
	a->replay = true;
	a->replay_speed = own.speed;
	const struct screen_ops *screen = setup_mode_of_run(a->run)->screen;
	app_goto(a, screen ? screen : &screen_run);
	live_replay(&a->live, a->run, a->replay_speed);
	if (!a->quit && screen) {
		app_idle_loop(a); /* the mode's own screen shows its verdict */
	} else if (!a->quit) {
		app_pick_base(a);
		app_goto(a, &screen_results);
		app_idle_loop(a);
	}
	app_finish(a);
	return 0;
}

const struct opt_command cmd_replay_entry = {
	.name = "replay", .bit = OC_REPLAY, .args = "RUN [--speed N]",
	.about = "play a stored run back on the console (a demo)",
	.text = "Plays a stored run back on the run screen from its samples and telemetry, then shows\n"
		"its results; the title says REPLAY throughout.",
	.operand = "runs", .options = replay_rows, .exec = replay_exec,
};
