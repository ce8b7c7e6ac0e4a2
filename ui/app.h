/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console's shared state and the screen interface, private to ui/. */
#ifndef KBENCH_UI_APP_H
#define KBENCH_UI_APP_H

#include <stdbool.h>

#include "canvas.h"
#include "keys.h"
#include "live.h"
#include "options.h"
#include "request.h"
#include "runner.h"
#include "telemetry/frame.h"
#include "tests.h"
#include "theme.h"

struct app;

/* The console's and the replay's own options, where their rows land (ui/cmd_console.c,
 * ui/cmd_replay.c); the run options land in the console's run request. */
struct console_opts {
	const char *theme; /* --theme; NULL: default, or mono without colours */
	double speed;      /* replay --speed */
};

/* A screen is a table of functions (STYLE.md 1); unused slots stay NULL. */
struct screen_ops {
	const char *name;
	void (*enter)(struct app *a);
	void (*draw)(struct app *a, struct canvas *c);
	unsigned (*key)(struct app *a, int ch); /* keys its table does not have */
	void (*tick)(struct app *a);            /* a few times a second */
	void (*leave)(struct app *a);
	const struct key_table *keys;
};

extern const struct screen_ops screen_setup, screen_run, screen_results, screen_history,
	screen_help, screen_thermal, screen_plan;

#define APP_MIN_W 80
#define APP_MIN_H 24
#define APP_MAX_TESTS 64

struct app {
	struct canvas canvas;
	struct theme theme;
	bool utf8, colour; /* what the terminal can do */
	bool force_mono;   /* NO_COLOR or no colours: every theme draws mono */
	const struct screen_ops *screen, *back; /* back: where help returns */
	bool quit;
	int exit_code;

	/* one-line message over the key bar, and a yes/no question */
	char msg[256];
	int msg_role;
	char ask[160];
	unsigned (*on_yes)(struct app *a);
	/* a line being typed at the bottom */
	char prompt[64], input[128];
	void (*on_input)(struct app *a, const char *text);

	/* The run the setup screen asks for: the console's one run request, which its options
	 * filled through their rows (src/cli/options_table.c) and its fields edit; its tests are
	 * the ticked ones, in the table's order. A timed mode's check has run.timed_seconds. */
	struct run_request req;

	/* the run being shown (live, replayed or opened from the store) */
	struct run *run;
	bool run_saved;
	bool replay; /* it is a stored run played back */
	double replay_speed;
	struct live live;       /* the run screen's view of a->run while it runs or replays */
	struct run *base;       /* the run compared against, owned */
	char base_why[200];     /* why there is none */
	/* The comparison of run with base, owned: the session's (session_run's after a run, else
	 * session_compare's when the base or the store changed); the results screen draws it. */
	struct compare *cmp;
	char cmp_why[300];      /* why there is none */
	char exit_note[300];    /* said on stderr once the terminal is restored */
	int calib_run, calib_runs; /* calibrating: run k of n (the run screen says so); 0 = not */
	char seq_what[64];         /* whose runs those are ("Plan pf"); "": a calibration's */
};

/* ---- the loop, screens, messages, drawing (app.c) ---- */

/* Switches screens (leave, enter) and asks for a full redraw. */
void app_goto(struct app *a, const struct screen_ops *s);
/* Shows a message in the line above the key bar until the next key. */
void app_message(struct app *a, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Asks a yes/no question; on_yes runs on 'y'. */
void app_ask(struct app *a, const char *question, unsigned (*on_yes)(struct app *a));
/* Starts a line prompt; on_input gets the text on Enter. */
void app_prompt(struct app *a, const char *prompt, const char *initial,
		void (*on_input)(struct app *a, const char *text));
/* Cycles to the next theme. */
unsigned app_next_theme(struct app *a);
/* The keys every screen takes (app.c), listed last in each screen's help. */
extern const struct key_table app_global_keys;
/* Common drawing: the title line and the bottom lines (message, key bar). */
void app_draw_title(struct app *a, struct canvas *c, const char *screen, const char *right);
/* The version the title shows: the release (0.2.0) without what git describe adds
 * (-3-gabc1234-dirty, +gabc1234), which kbench --version and every run keep. */
const char *app_title_version(void);
void app_draw_bottom(struct app *a, struct canvas *c);

/* The console's process: its one app set up from command cmd's options (rc >= 0: exit with
 * it; the operands in *ops, *nops), the terminal opened in a theme (NULL: the default, mono
 * without colours), the idle screens' loop until quit, and the terminal given back. */
struct app *app_start(const char *cmd, int argc, char **argv, struct console_opts *own, char ***ops, int *nops,
		      int *rc);
int app_open_terminal(struct app *a, const char *theme);
void app_idle_loop(struct app *a);
void app_finish(struct app *a);

/* ---- runs (app_runs.c) ---- */

/* Runs the chosen tests on the run screen; returns when the run ends. */
void app_start_run(struct app *a);
/* Calibrates for the shown run's settings and tests: n runs on the run
 * screen, each stored as an A/A run ('calibration'); then back to the
 * results, compared again with the floors learned. Returns the runs stored. */
int app_calibrate(struct app *a, int n);
/* What app_calibrate would run for the shown run: its request. */
void app_calibrate_request(const struct app *a, struct run_request *rq);
/* Loads the comparison run for a->run: --compare's, none, or the store's pick. */
void app_pick_base(struct app *a);
/* The session compares the shown run with its base again: the base or the store changed
 * (a save, a calibration, a deletion). */
void app_compare(struct app *a);

/* ---- the setup choices (app_choices.c) ---- */

/* The defaults: the index tests, 1 and N copies, UnixBench's pause. */
void app_defaults(struct app *a);
/* The console's and the replay's options, landed where their rows say (the run request, the
 * console's own). Returns -1 to go on (the operands in *ops, *nops; free with free()), else
 * the exit code. */
int app_parse_args(struct app *a, const char *cmd, int argc, char **argv, struct console_opts *own,
		   char ***ops, int *nops);
/* Copy counts ("1,2", "all"); -1 when not a list of counts. */
int app_set_copies(struct app *a, const char *s);
/* Ticks a test or every test of a group; -1 when it is neither. */
int app_choose(struct app *a, const char *name);
/* Only the tests of one group. */
void app_choose_group(struct app *a, const char *group);
/* Whether test_table[i] is ticked; ticks it or not. */
bool app_chosen(const struct app *a, size_t i);
void app_set_chosen(struct app *a, size_t i, bool on);
/* The request a run started now makes: the setup's, with a timed mode's one copy count
 * (the largest chosen) and its mode. */
void app_request(const struct app *a, struct run_request *rq);

#endif
