/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the command-line front end's commands share (each command is its own file, listed in command_list.c). */
#ifndef KBENCH_COMMANDS_H
#define KBENCH_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "sequence.h" /* struct sequence_face: calibrate and plan step make N runs */
#include "session.h"
#include "wrap.h" /* print_wrapped, print_reflowed: the commands wrap their text */

/* Each command's entry is in its own file (cmd_NAME.c), listed in command_list.c; what they
 * share is here. Exit codes: 0 success, 1 the run or a file failed, 2 usage. */

struct plan;
/* cmd_plan.c: the request a plan's runs are made of, from the run options it was made with
 * (the console's plan screen steps with it). 0, or -1 with err filled. */
int cli_plan_request(const struct plan *p, struct run_request *rq, char *err, size_t errlen);
/* cmd_run.c: a run mode's own command, argv[0] its name (run_mode_of_command finds the mode) */
int cmd_mode(int argc, char **argv);
/* cmd_run.c: the face kbench run's runs have, and calibrate's: progress on stderr (none with
 * rq->quiet), signals caught, with report UnixBench's report (and the mode's) on stdout. One
 * run at a time; rq and mode must outlive the run. */
struct session_face cli_run_face(const struct run_request *rq, const struct run_mode_info *mode, bool report);
/* What became of the run's save, told as kbench run tells it: 1 when the save failed. */
int cli_run_told(const struct run_request *rq, const struct session_result *res);
/* The signal that stopped a run (Ctrl-C, kill, a closed terminal), 0 for none. */
int cli_signal(void);
/* cmd_run.c: a sequence of runs' face (calibrate's, plan step's): each run's as cli_run_face's
 * without the report, each told as cli_run_told tells it, a signal ending it between runs;
 * begin (may be NULL) says which run starts. rq must outlive the sequence. */
struct sequence_face cli_sequence_face(const struct run_request *rq, void (*begin)(void *ctx, int k, int n));

/* cmd_compare.c: side A against side B (each a run or a group, as kbench compare takes them),
 * a host: side titled by its selector; NULL with err filled. compare_free() it. */
struct compare;
struct compare_opts;
struct compare *cli_compare(const char *spec_a, const char *spec_b, const struct compare_opts *o, char *err,
			    size_t errlen);

/* The operands of a run (tests and groups) added to its request: -1 to go on, or 2 after the
 * error line for the first that is neither. cli.c */
int cli_add_tests(struct run_request *rq, char **operands, int n);
/* A run's date as the lists print it ("2024-05-01 14:02", "?" for none). cli.c */
void cli_date_text(char *buf, size_t size, time_t t);

/* One counter event libpfm4 knows, on a PMU present here. */
struct pmu_event {
	const char *pmu, *pmu_desc;
	int pmu_events;
	const char *name, *desc;
};
/* Calls fn for every event of every PMU present; returns the number of PMUs.
 * libpfm4 must be started (counters_pfm_start). cmd_events.c */
int events_each(void (*fn)(const struct pmu_event *e, void *arg), void *arg);

/* kbench --help: the commands, one line each (cmd_help.c). */
void help_print_main(FILE *f);

/* Prints "kbench: <message>" on stderr and returns 2 (usage error). */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "kbench: <message>" on stderr and returns 1 (runtime error). */
int runtime_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Strict number parsing for flags: the whole string must be the number. */
int parse_int(const char *s, long min, long max, long *out);
/* Columns for text output: COLUMNS (20 to 1000), else the terminal's when
 * stdout is one, else 80 with *known false (a pipe or a file). */
int terminal_width(bool *known);
/* The width help texts are wrapped to: the terminal's (COLUMNS, or stdout's)
 * less one, 60 to 120; 79 for a pipe or a file. */
int help_width(void);
int parse_double(const char *s, double min, double max, double *out);

#endif
