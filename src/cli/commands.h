/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command-line front end's commands: one function each, in the table of main.c. */
#ifndef KBENCH_COMMANDS_H
#define KBENCH_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "session.h"
#include "wrap.h" /* print_wrapped, print_reflowed: the commands wrap their text */

/* Each returns the process exit code: 0 success, 1 the run or a file failed, 2 usage. */
int cmd_run(int argc, char **argv);  /* cmd_run.c */
int cmd_calibrate(int argc, char **argv); /* cmd_calibrate.c */
/* kbench calibrate's own options, where their rows land (the run options land in the request). */
struct calibrate_opts {
	bool full;      /* --full */
	int runs;       /* -n; 0: the default */
	double minutes; /* --minutes; 0: none */
};
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
int cmd_list(int argc, char **argv); /* cmd_list.c */
int cmd_sensors(int argc, char **argv); /* cmd_telemetry.c */
int cmd_events(int argc, char **argv);  /* cmd_telemetry.c */
int cmd_runs(int argc, char **argv);    /* cmd_store.c: the stored runs */
int cmd_show(int argc, char **argv);    /* cmd_store.c */
int cmd_compare(int argc, char **argv); /* cmd_store.c */
int cmd_import(int argc, char **argv);  /* cmd_store.c */
int cmd_export(int argc, char **argv);  /* cmd_store.c */
int cmd_report(int argc, char **argv);  /* cmd_report.c: the HTML report */
int cmd_noise(int argc, char **argv);   /* cmd_store.c */
int cmd_delete(int argc, char **argv);  /* cmd_store.c */
int cmd_help(int argc, char **argv);    /* cmd_help.c: a command's help, the man page, the guide */
int cmd_completion(int argc, char **argv); /* cmd_help.c: the bash completion script */

/* One counter event libpfm4 knows, on a PMU present here. */
struct pmu_event {
	const char *pmu, *pmu_desc;
	int pmu_events;
	const char *name, *desc;
};
/* Calls fn for every event of every PMU present; returns the number of PMUs.
 * libpfm4 must be started (counters_pfm_start). cmd_telemetry.c */
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
