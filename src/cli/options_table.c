/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one option table: a row per option (name, kind, range, default, help, commands), the families' settings among them, the commands and the environment. */
#include "options.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "family.h"
#include "settings.h"
#include "noise.h"
#include "quick.h"
#include "request.h"
#include "run.h"
#include "runner.h"
#include "store.h"
#include "sysinfo.h"
#include "telemetry/telemetry.h"
#include "tests.h"

/* ---- checks beyond a range ---- */

static int check_run_name(const char *opt, const char *arg, char *err, size_t errlen)
{
	if (!*arg || strlen(arg) >= sizeof(((struct run_meta *)0)->name) || strpbrk(arg, "\n\r\t,/")) {
		snprintf(err, errlen, "%s wants a short name without newlines, tabs, ',' or '/'", opt);
		return -1;
	}
	return 0;
}

static int check_import_name(const char *opt, const char *arg, char *err, size_t errlen)
{
	if (!*arg || strlen(arg) >= sizeof(((struct run_meta *)0)->name)) {
		snprintf(err, errlen, "%s wants 1 to %zu characters", opt,
			 sizeof(((struct run_meta *)0)->name) - 1);
		return -1;
	}
	return 0;
}

/* --since/--until: a date the store's filters take (store_parse_date). */
static int check_date(const char *opt, const char *arg, char *err, size_t errlen)
{
	time_t t;
	if (store_parse_date(arg, false, &t) < 0) {
		snprintf(err, errlen, "%s wants a date, YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (got '%s')", opt, arg);
		return -1;
	}
	return 0;
}

/* The console's copy list: "1", "1,2", "all" (or "N"), at most one block per entry. */
int opts_copy_list(const char *s, int ncpus, int *list, int max)
{
	char buf[128];
	if (strlen(s) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", s);
	int n = 0;
	char *save = NULL;
	for (char *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		long v;
		if (!strcmp(w, "all") || !strcmp(w, "N"))
			v = ncpus;
		else if (parse_int(w, 1, RUNNER_MAX_COPIES, &v))
			return -1;
		if (n >= max)
			return -1;
		list[n++] = (int)v;
	}
	return n ? n : -1;
}

static int check_copy_list(const char *opt, const char *arg, char *err, size_t errlen)
{
	int list[RUNNER_MAX_BLOCKS];
	if (opts_copy_list(arg, 1, list, RUNNER_MAX_BLOCKS) < 0) {
		snprintf(err, errlen, "%s wants a list of counts (1 to %d, or 'all'), at most %d, not '%s'",
			 opt, RUNNER_MAX_COPIES, RUNNER_MAX_BLOCKS, arg);
		return -1;
	}
	return 0;
}

/* ---- values that land by more than a field ---- */

/* -c 1 -c 2 as UnixBench takes them, or -c 1,2 as the console does: blocks added. */
static int store_copies(struct run_request *rq, const struct opt_item *it, char *err, size_t errlen)
{
	struct runner_opts *o = &rq->run;
	int n = opts_copy_list(it->arg, sysinfo_ncpus(), o->copies + o->ncopies, RUNNER_MAX_BLOCKS - o->ncopies);
	if (n < 0) {
		snprintf(err, errlen, "at most %d copy counts in all", RUNNER_MAX_BLOCKS);
		return -1;
	}
	o->ncopies += n;
	return 0;
}

/* The console's -c LIST: the list, in place of the one before (the row checked it). */
static int store_copy_list(struct run_request *rq, const struct opt_item *it, char *err, size_t errlen)
{
	int list[RUNNER_MAX_BLOCKS];
	int n = opts_copy_list(it->arg, sysinfo_ncpus(), list, RUNNER_MAX_BLOCKS);
	if (n > 0) {
		rq->run.ncopies = n;
		memcpy(rq->run.copies, list, sizeof list[0] * (size_t)n);
	}
	return 0;
}

/* A run mode's one copy count (kbench thermal -c N). */
static int store_one_copy(struct run_request *rq, const struct opt_item *it, char *err, size_t errlen)
{
	rq->run.copies[0] = (int)it->i;
	rq->run.ncopies = 1;
	return 0;
}

/* --interval 0 turns telemetry off; any other the runner's ticks follow. */
static int store_interval(struct run_request *rq, const struct opt_item *it, char *err, size_t errlen)
{
	rq->tele.interval = it->d;
	if (it->d == 0)
		rq->tele.off = true;
	else
		rq->run.interval = it->d;
	return 0;
}

/* A family's setting: a word of the run's params. */
static int store_setting(struct run_request *rq, const struct opt_item *it, char *err, size_t errlen)
{
	if (opts_param_append(rq->params, sizeof rq->params, it) < 0) {
		snprintf(err, errlen, "the workload settings are longer than %d characters", RUN_PARAMS_MAX - 1);
		return -1;
	}
	return 0;
}

/* One of a row's choices: "--format is json, csv or unixbench, not 'x'". */
static int one_of(const char *c, const char *opt, const char *arg, char *err, size_t errlen)
{
	char list[200] = "";
	int left = 0;
	for (const char *w = c; *w; w += strspn(w, " "), left++) {
		size_t n = strcspn(w, " ");
		if (strlen(arg) == n && !strncmp(w, arg, n))
			return 0;
		w += n;
	}
	for (const char *w = c; *w; left--) {
		size_t n = strcspn(w, " ");
		size_t u = strlen(list);
		snprintf(list + u, sizeof list - u, "%s%.*s", u == 0 ? "" : left == 1 ? " or " : ", ",
			 (int)n, w);
		w += n;
		w += strspn(w, " ");
	}
	snprintf(err, errlen, "%s is %s, not '%s'", opt, list, arg);
	return -1;
}

/* --allocate's words (runner.h's enum runner_alloc) */
#define ALLOCATIONS "index precision"

static int check_allocate(const char *opt, const char *arg, char *err, size_t errlen)
{
	return one_of(ALLOCATIONS, opt, arg, err, errlen);
}

static int store_allocate(struct run_request *rq, const struct opt_item *it, char *err, size_t errlen)
{
	rq->run.allocation = strcmp(it->arg, "precision") ? ALLOC_INDEX : ALLOC_PRECISION;
	return 0;
}

static int check_format(const char *opt, const char *arg, char *err, size_t errlen)
{
	return one_of(opts_row(O_FORMAT)->choices, opt, arg, err, errlen);
}

/* The run modes' names, from their table (compose fills it): a misspelt mode
 * matched no run and said so as if none were stored. */
static char mode_names[128];

static int check_mode(const char *opt, const char *arg, char *err, size_t errlen)
{
	return one_of(mode_names, opt, arg, err, errlen);
}

/* ---- the table ---- */

#define RUNLIKE (OC_RUN | OC_CALIBRATE)
/* Where a value lands: a field of the run request, of calibrate's own options, of the console's. */
#define RQ(f) .lands = OL_REQUEST, .off = offsetof(struct run_request, f)
#define RQ_BY(fn) .lands = OL_REQUEST, .store = fn
#define CALIB(f) .lands = OL_OWN, .off = offsetof(struct calibrate_opts, f)
#define CONSOLE(f) .lands = OL_OWN, .off = offsetof(struct console_opts, f)
/* --quick decides the samples itself: a count beside it was silently ignored. */
#define QUICK_TAKES_SAMPLES "--quick shares its samples out itself"

/* In the order --help lists them; the families' settings take O_SETTING's place and the run
 * modes' options O_MODE_MINUTES's (compose, below). */
static const struct opt_def core_rows[] = {
	{ .name = "copies", .short_name = 'c', .kind = OK_STRING,
	  .arg = "N", .what = "a list of counts",
	  .help = "parallel copies, a block each: -c 1 -c 2 or -c 1,2 (default: 1 and the CPU count)",
	  .cmds = RUNLIKE, .check = check_copy_list,
	  RQ_BY(store_copies) },
	{ .name = "iterations", .short_name = 'i', .kind = OK_INT,
	  .arg = "N", .what = "a number of iterations",
	  .min = 1, .max = 1000,
	  .help = "samples as UnixBench's -i: long tests N, short tests max(1, (N+1)/3)\n(not with --quick)",
	  .cmds = RUNLIKE | OC_CONSOLE, .refuses = "quick", .refuses_why = QUICK_TAKES_SAMPLES,
	  RQ(run.iterations) },
	{ .id = O_SAMPLES, .name = "samples", .kind = OK_INT,
	  .arg = "N", .what = "a number",
	  .min = 1, .max = 1000,
	  .help = "every test runs exactly N samples (default: each test's own; not with --quick)",
	  .cmds = RUNLIKE | OC_CONSOLE, .refuses = "quick", .refuses_why = QUICK_TAKES_SAMPLES,
	  RQ(run.samples) },
	{ .id = O_DURATION, .name = "duration", .kind = OK_DOUBLE,
	  .arg = "S", .what = "seconds",
	  .min = 0.01, .max = 86400,
	  .help = "every sample lasts S seconds (nominal: 10, 30 or 60; a thermal check 2; memlat a sweep 6)",
	  .cmds = RUNLIKE | OC_CONSOLE | OC_MODES,
	  RQ(run.duration) },
	{ .id = O_PAUSE, .name = "pause", .kind = OK_DOUBLE,
	  .arg = "S", .what = "seconds",
	  .min = 0, .max = 3600,
	  .help = "idle before each sample (default 3: sync, sleep 1, sync, sleep 2)",
	  .cmds = RUNLIKE | OC_CONSOLE,
	  RQ(run.pause) },
	{ .name = "quick", .kind = OK_FLAG,
	  .help = "short samples, shared out over the tests to narrow the index's interval\n"
		  "most in about " QUICK_DEF(QUICK_BUDGET_SECONDS) " s per copy count, in rounds (calibrate: the default)",
	  .cmds = RUNLIKE | OC_CONSOLE,
	  RQ(run.quick) },
	{ .name = "precision", .kind = OK_DOUBLE,
	  .arg = "PCT", .what = "a percentage",
	  .min = 0.01, .max = 50, .def = QUICK_DEF(QUICK_PRECISION_PCT),
	  .help = "quick, --allocate precision: the precision to reach, in percent (default 1)",
	  .cmds = OC_RUN | OC_CONSOLE,
	  RQ(run.precision), .scale = 0.01 },
	{ .name = "max-test-seconds", .kind = OK_DOUBLE,
	  .arg = "S", .what = "seconds",
	  .min = 1, .max = 86400, .def = QUICK_DEF(QUICK_MAX_TEST_SECONDS),
	  .help = "quick, --allocate precision: a test's time limit (default 15)",
	  .cmds = OC_RUN | OC_CONSOLE,
	  RQ(run.max_test_seconds) },
	{ .name = "allocate", .kind = OK_STRING,
	  .arg = "index|precision", .what = "an allocation", .choices = ALLOCATIONS,
	  .help = "how a quick run spends its samples: index (the counts that narrow the\n"
		  "index's interval most, in rounds across the tests; the default) or precision\n"
		  "(each test until its own precision or time limit, one after another)",
	  .cmds = RUNLIKE, .check = check_allocate,
	  RQ_BY(store_allocate) },
	{ .name = "budget", .kind = OK_DOUBLE,
	  .arg = "M", .what = "minutes",
	  .min = 0.1, .max = 10000,
	  .help = "the run's minutes, shared over its copy counts and spent where they narrow\n"
		  "the index's interval most, in rounds; UnixBench's sample lengths (or --quick's)",
	  .cmds = RUNLIKE,
	  RQ(run.budget), .scale = 60 },
	{ .id = O_SETTING }, /* the families' settings, in the registry's order (add_settings) */
	{ .name = "tmpdir", .kind = OK_STRING,
	  .arg = "DIR", .what = "a directory",
	  .help = "scratch directory for the file tests (default $TMPDIR or /tmp)",
	  .cmds = RUNLIKE | OC_MODES | OC_CONSOLE,
	  RQ(run.tmpdir) },
	{ .name = "name", .kind = OK_STRING,
	  .arg = "NAME", .what = "a name",
	  .help = "the stored run's name (default: the kernel release)",
	  .cmds = OC_RUN | OC_MODES | OC_CONSOLE, .check = check_run_name,
	  RQ(name) },
	{ .name = "no-save", .kind = OK_FLAG,
	  .help = "do not store the run",
	  .cmds = OC_RUN | OC_MODES,
	  RQ(no_save) },
	{ .name = "quiet", .short_name = 'q', .kind = OK_FLAG,
	  .help = "no progress on stderr",
	  .cmds = OC_RUN | OC_MODES,
	  RQ(quiet) },
	{ .name = "verbose", .short_name = 'v', .kind = OK_FLAG,
	  .help = "a line per sample, and a telemetry line per test",
	  .cmds = OC_RUN | OC_MODES,
	  RQ(verbose) },
	{ .id = O_EVENTS, .name = "events", .kind = OK_STRING,
	  .arg = "LIST", .what = "event names",
	  .help = "counters per worker, libpfm4 names, comma-separated (kbench events);\n"
		  "default: cycles, ref-cycles, instructions, cache/branch misses and software events",
	  .cmds = OC_RUN | OC_MODES | OC_CONSOLE, .check = telemetry_check_events,
	  RQ(tele.events) },
	{ .name = "interval", .kind = OK_DOUBLE,
	  .arg = "S", .what = "seconds",
	  .min = 0, .max = 3600, .def = "0.5",
	  .help = "seconds between telemetry samples (default 0.5; 0 = no telemetry)",
	  .cmds = OC_RUN | OC_MODES | OC_CONSOLE, .check = telemetry_check_interval,
	  RQ_BY(store_interval) },
	{ .id = O_SENSOR, .name = "sensor", .kind = OK_STRING,
	  .arg = "CHIP:LABEL", .what = "a sensor",
	  .help = "the CPU temperature input (kbench sensors lists them)",
	  .cmds = OC_RUN | OC_SENSORS | OC_MODES | OC_CONSOLE, .check = telemetry_check_sensor,
	  RQ(tele.sensor) },
	{ .id = O_DUMP, .name = "dump", .kind = OK_STRING,
	  .arg = "FILE", .what = "a file name",
	  .help = "write a tar of the sysfs and procfs files kbench reads (values, labels,\n"
		  "modes; no serial numbers or host names) to attach to a bug report",
	  .cmds = OC_SENSORS },
	{ .name = "cooldown", .kind = OK_FLAG,
	  .help = "before each test, wait (up to 2 min) until the CPU is back near its\n"
		  "starting temperature",
	  .cmds = OC_RUN,
	  RQ(tele.cooldown) },
	{ .name = "no-telemetry", .kind = OK_FLAG,
	  .help = "no sampling at all (to measure what telemetry costs)",
	  .cmds = OC_RUN | OC_CONSOLE,
	  RQ(tele.off) },
	{ .name = "full", .kind = OK_FLAG,
	  .help = "full-length runs, UnixBench's samples (about half an hour each)",
	  .cmds = OC_CALIBRATE,
	  CALIB(full) },
	{ .id = O_RUNS, .name = "runs", .short_name = 'n', .kind = OK_INT,
	  .arg = "N", .what = "a number of runs",
	  .min = 2, .max = 50, .def = "5",
	  .help = "how many runs (default 5; at least 2)",
	  .cmds = OC_CALIBRATE,
	  CALIB(runs) },
	{ .id = O_MINUTES, .name = "minutes", .kind = OK_DOUBLE,
	  .arg = "M", .what = "a number of minutes",
	  .min = 1, .max = 100000,
	  .help = "as many runs as fit in M minutes (at least 2, at most -n or 50)",
	  .cmds = OC_CALIBRATE,
	  CALIB(minutes) },
	{ .id = O_MODE_MINUTES }, /* the run modes' own options, in the modes' order (add_mode_options) */
	{ .id = O_THEME, .name = "theme", .kind = OK_STRING,
	  .arg = "NAME", .what = "a theme",
	  .help = "colour theme: default, projector, light, mono, or a user theme",
	  .cmds = OC_CONSOLE | OC_REPLAY, .choices = "default projector light mono",
	  CONSOLE(theme) },
	{ .name = "copies", .short_name = 'c', .kind = OK_STRING,
	  .arg = "LIST", .what = "a list of counts",
	  .help = "copy counts, e.g. 1 or 1,2 or all (default: 1 and all cores)",
	  .cmds = OC_CONSOLE, .check = check_copy_list,
	  RQ_BY(store_copy_list) },
	{ .name = "compare", .kind = OK_STRING,
	  .arg = "RUN", .what = "a stored run",
	  .help = "the stored run to compare against (default: automatic; none: no comparison)",
	  .cmds = OC_CONSOLE | OC_REPLAY,
	  RQ(compare), .size = sizeof(((struct run_request *)0)->compare) },
	{ .id = O_SPEED, .name = "speed", .kind = OK_DOUBLE,
	  .arg = "N", .what = "a factor",
	  .min = 0.1, .max = 10000, .def = "10",
	  .help = "play back N times as fast as recorded (default 10)",
	  .cmds = OC_REPLAY,
	  CONSOLE(speed) },
	{ .id = O_JSON, .name = "json", .kind = OK_FLAG,
	  .help = "the comparison as JSON",
	  .cmds = OC_COMPARE },
	{ .id = O_CSV, .name = "csv", .kind = OK_FLAG,
	  .help = "the comparison as CSV",
	  .cmds = OC_COMPARE },
	{ .id = O_WIDTH, .name = "width", .kind = OK_INT,
	  .arg = "N", .what = "a number",
	  .min = 40, .max = 1000,
	  .help = "the table's width in columns (default: the terminal's, else 80)",
	  .cmds = OC_COMPARE },
	{ .id = O_DEFAULT_NOISE, .name = "default-noise", .kind = OK_FLAG,
	  .help = "ignore noise floors learned from the store",
	  .cmds = OC_COMPARE | OC_REPORT },
	{ .id = O_CONFIDENCE, .name = "confidence", .kind = OK_DOUBLE,
	  .arg = "P", .what = "a level",
	  .min = 0.5, .max = 0.999, .def = "0.95",
	  .help = "the verdicts' confidence level (default 0.95)",
	  .cmds = OC_COMPARE | OC_REPORT },
	{ .id = O_IMPORT_NAME, .name = "name", .short_name = 'n', .kind = OK_STRING,
	  .arg = "NAME", .what = "a name",
	  .help = "the stored runs' name (default: from the file)",
	  .cmds = OC_IMPORT, .check = check_import_name },
	{ .id = O_FORMAT, .name = "format", .short_name = 'f', .kind = OK_STRING,
	  .arg = "FMT", .what = "a format",
	  .def = "json",
	  .help = "json, csv, unixbench (UnixBench's text report), markdown, text, bbcode\n"
		  "(tables to paste) or lava (lava-test-case lines); default json",
	  .cmds = OC_EXPORT, .check = check_format,
	  .choices = "json csv unixbench markdown text bbcode lava" },
	{ .id = O_OUTPUT, .name = "output", .short_name = 'o', .kind = OK_STRING,
	  .arg = "FILE", .what = "a file",
	  .help = "write to FILE instead of stdout",
	  .cmds = OC_EXPORT },
	{ .id = O_VS, .name = "vs", .kind = OK_STRING,
	  .arg = "RUN", .what = "a stored run",
	  .help = "the stored run (or group) to compare with, as kbench compare does",
	  .cmds = OC_REPORT },
	{ .id = O_REPORT_OUTPUT, .name = "output", .short_name = 'o', .kind = OK_STRING,
	  .arg = "FILE", .what = "a file",
	  .help = "the HTML file to write (required; replaced whole, never half-written)",
	  .cmds = OC_REPORT },
	{ .id = O_SEL_KERNEL, .name = "kernel", .kind = OK_STRING,
	  .arg = "PATTERN", .what = "a kernel release pattern",
	  .help = "only runs of a kernel release matching PATTERN (shell wildcards: '6.1*')",
	  .cmds = OC_RUNS | OC_DELETE },
	{ .id = O_SEL_NAME, .name = "name", .kind = OK_STRING,
	  .arg = "PATTERN", .what = "a run name pattern",
	  .help = "only runs whose name matches PATTERN (shell wildcards)",
	  .cmds = OC_RUNS | OC_DELETE },
	{ .id = O_SINCE, .name = "since", .kind = OK_STRING,
	  .arg = "DATE", .what = "a date",
	  .help = "only runs from DATE on (YYYY-MM-DD or 'YYYY-MM-DD HH:MM', local time)",
	  .cmds = OC_RUNS | OC_DELETE, .check = check_date },
	{ .id = O_UNTIL, .name = "until", .kind = OK_STRING,
	  .arg = "DATE", .what = "a date",
	  .help = "only runs up to DATE (a day: its end)",
	  .cmds = OC_RUNS | OC_DELETE, .check = check_date },
	{ .id = O_SEL_TESTS, .name = "tests", .kind = OK_STRING,
	  .arg = "LIST", .what = "test ids",
	  .help = "only runs holding every test of LIST (comma-separated ids: dhry2reg,pipe)",
	  .cmds = OC_RUNS | OC_DELETE },
	{ .id = O_SEL_MODE, .name = "mode", .kind = OK_STRING,
	  .arg = "MODE", .what = "a mode",
	  .help = "only runs of this mode: full, quick, imported, thermal, ...",
	  .cmds = OC_RUNS | OC_DELETE, .choices = mode_names, .check = check_mode },
	{ .id = O_LIMIT, .name = "limit", .kind = OK_INT,
	  .arg = "N", .what = "a number of runs", .min = 1, .max = 999999,
	  .help = "the newest N runs that match",
	  .cmds = OC_RUNS },
	{ .id = O_STORE_SIZE, .name = "size", .kind = OK_FLAG,
	  .help = "how much the store holds: runs, their files' size, the index, by mode",
	  .cmds = OC_RUNS },
	{ .id = O_YES, .name = "yes", .short_name = 'y', .kind = OK_FLAG,
	  .help = "delete the runs a filter selects without asking",
	  .cmds = OC_DELETE },
	{ .id = O_MAN, .name = "man", .kind = OK_FLAG,
	  .help = "the manual page kbench(1) in roff",
	  .cmds = OC_HELP },
	{ .id = O_MARKDOWN, .name = "markdown", .kind = OK_FLAG,
	  .help = "the option table in Markdown, of the commands named (the guide's pages hold them)",
	  .cmds = OC_HELP },
	{ .id = O_HELP, .name = "help", .short_name = 'h', .kind = OK_FLAG,
	  .help = "this text",
	  .cmds = OC_ALL },
};
/* ---- the families' settings and the run modes' options as rows ---- */

/* The families' settings (src/base/settings.h) are options, in the registry's order
 * (src/registry/family_list.c); a setting two families read (kbuild's --tree, which
 * buildload reads too) is one option, its first family's row. */
#define MAX_SETTINGS 48
/* The run modes' own options (run_mode_info.cmd), at most this many in all. */
#define MAX_MODE_ROWS 16

static struct opt_def rows[sizeof core_rows / sizeof core_rows[0] + MAX_SETTINGS + MAX_MODE_ROWS];
const struct opt_def *const opt_table = rows;
size_t opt_count;
static size_t row_of[O_COUNT]; /* each id's first row */

static const enum opt_kind setting_kinds[] = { [SET_FLAG] = OK_FLAG, [SET_INT] = OK_INT, [SET_TEXT] = OK_STRING };

/* What a mode's option sets, as the row the command line reads: its id, kind and where it lands. */
static const struct opt_def mode_sets[RUN_SETS_COUNT] = {
	[RUN_SETS_MINUTES] = { .id = O_MODE_MINUTES, .kind = OK_DOUBLE, RQ(run.timed_seconds), .scale = 60 },
	[RUN_SETS_TEST] = { .id = O_MODE_TEST, .kind = OK_STRING, RQ(test) },
	[RUN_SETS_IDLE] = { .id = O_MODE_IDLE, .kind = OK_DOUBLE, RQ(run.idle) },
	[RUN_SETS_COPIES] = { .id = O_MODE_COPIES, .kind = OK_INT, RQ_BY(store_one_copy) },
};

static size_t add_settings(size_t n)
{
	size_t first = n;
	for (const struct family *const *f = family_list; *f; f++)
		for (size_t k = 0; (*f)->settings && k < (*f)->settings->n; k++) {
			const struct setting *r = &(*f)->settings->rows[k];
			bool dup = false;
			for (size_t i = first; i < n; i++)
				dup = dup || !strcmp(rows[i].name, r->name);
			if (dup || n - first >= MAX_SETTINGS)
				continue;
			rows[n++] = (struct opt_def){
				.id = O_SETTING, .name = r->name, .kind = setting_kinds[r->kind], .arg = r->arg,
				.what = r->what, .min = (double)r->min, .max = (double)r->max, .def = r->def,
				.help = r->help, .cmds = RUNLIKE | OC_CONSOLE, .choices = r->choices,
				.param = true, .setting = r, RQ_BY(store_setting),
			};
		}
	return n;
}

/* Each mode's own options, in the modes' order, taken by its command (the bit its
 * command has, compose_commands) and, where the option says, by the console. */
static size_t add_mode_options(size_t n)
{
	size_t first = n;
	unsigned bit = OC_MODE;
	for (int m = 0; m < RUN_MODE_COUNT; m++) {
		const struct run_mode_info *mi = run_mode_info((enum run_mode)m);
		if (!mi->command || !mi->cmd)
			continue;
		for (const struct run_mode_option *r = mi->cmd->options; r && r->name && n - first < MAX_MODE_ROWS;
		     r++) {
			struct opt_def d = mode_sets[r->sets];
			d.name = r->name, d.short_name = r->short_name, d.arg = r->arg, d.what = r->what;
			d.min = r->min, d.max = r->max, d.def = r->def, d.help = r->help;
			d.cmds = bit | (r->console ? OC_CONSOLE : 0u), d.check = r->check;
			rows[n++] = d;
		}
		bit <<= 1;
	}
	return n;
}

/* The table as help lists it: the core rows in their order, every family's settings where the
 * O_SETTING row stands and the modes' options where O_MODE_MINUTES's does; made before main
 * runs, so every reader sees it whole. */
__attribute__((constructor)) static void compose(void)
{
	size_t n = 0, ncore = sizeof core_rows / sizeof core_rows[0];
	for (int m = 0; m < RUN_MODE_COUNT; m++) {
		const char *name = run_mode_info((enum run_mode)m)->name;
		size_t u = strlen(mode_names);
		if (name[0])
			snprintf(mode_names + u, sizeof mode_names - u, "%s%s", u ? " " : "", name);
	}
	for (size_t c = 0; c < ncore; c++) {
		if (core_rows[c].id == O_SETTING)
			n = add_settings(n);
		else if (core_rows[c].id == O_MODE_MINUTES)
			n = add_mode_options(n);
		else
			rows[n++] = core_rows[c];
	}
	opt_count = n;
	for (size_t i = n; i-- > 0;)
		row_of[rows[i].id] = i; /* each id's first row */
}

/* run and calibrate; then the modes' commands, then core_commands */
static const struct opt_command run_commands[] = {
	{ "run", OC_RUN, "[options] [TEST|GROUP ...]", "run benchmarks headless and print the report",
	  "Runs the tests (default: the index group) with 1 and N copies, like UnixBench's Run,\n"
	  "and prints UnixBench's report on stdout; progress goes to stderr.",
	  "TEST is a test id (kbench list); GROUP is index, system, arithmetic, fs, shell, misc, all, ...",
	  "tests" },
	{ "calibrate", OC_CALIBRATE, "[options] [TEST|GROUP ...]",
	  "learn this machine's run-to-run noise (A/A runs)",
	  "Runs the tests (default: the index, 1 copy) N times on this kernel and stores the runs\n"
	  "(named 'calibration') as A/A runs: 'kbench compare' then learns this machine's run-to-run\n"
	  "noise from them instead of using the wide defaults. Calibrate with the settings you\n"
	  "compare with: quick runs teach the floors of quick runs, full runs those of full ones.\n"
	  "Quick runs unless --full, -i, --samples or --duration asks for others.",
	  "-c, -i, --duration, --samples and --pause are part of the setting floors are learned for.",
	  "tests" },
};

static const struct opt_command core_commands[] = {
	{ "list", OC_LIST, "", "the tests and groups, with units, baselines and lengths",
	  "The tests and groups, with units, baselines, nominal time and quick sample length.", NULL,
	  NULL },
	{ "console", OC_CONSOLE, "[options] [TEST|GROUP ...]",
	  "the interactive console (kbench alone on a terminal)",
	  "Opens the console: choose tests and copies, watch the run, compare with a stored run.\n"
	  "'kbench' alone on a terminal, or with one of these options first, opens it too.",
	  NULL, "tests" },
	{ "replay", OC_REPLAY, "RUN [--speed N]", "play a stored run back on the console (a demo)",
	  "Plays a stored run back on the run screen from its samples and telemetry, then shows\n"
	  "its results; the title says REPLAY throughout.",
	  NULL, "runs" },
	{ "sensors", OC_SENSORS, "[--sensor CHIP:LABEL] [--dump FILE]",
	  "temperatures, frequencies, throttle and power sources here",
	  "The chips, temperatures, frequencies, throttle counters and power sources\n"
	  "found here, with the headline choices, or why each is unavailable.",
	  NULL, NULL },
	{ "events", OC_EVENTS, "[PATTERN]", "the counter events libpfm4 knows here, and which can be opened",
	  "The PMUs libpfm4 detects and their events (name and description), PATTERN\n"
	  "matching PMU::EVENT without case; then the PMUs the kernel registered\n"
	  "(/sys/bus/event_source/devices: a hybrid CPU's core types, RAPL's power PMU)\n"
	  "and whether each default event opens here.\n"
	  "Use the names with 'kbench run --events LIST'.",
	  NULL, NULL },
	{ "runs", OC_RUNS, "[filters] [--limit N] [--size]", "the stored runs, newest first",
	  "The stored runs, newest first; the filters (all must hold) choose which.", NULL, NULL },
	{ "show", OC_SHOW, "RUN", "a stored run's report (UnixBench's text format)",
	  "The run's report in UnixBench's text format.",
	  "RUN: id, unique id prefix, name, file path, last, last~N", "runs" },
	{ "compare", OC_COMPARE, "A B [--json|--csv]", "side-by-side table with honest verdicts",
	  "A, B: a run (id, id prefix, name, file, last, last~N) or a group:\n"
	  "A1,A2,A3, a name several runs share, or host:HOST[:NAME] (the runs measured\n"
	  "on HOST, named NAME). Verdicts use 95% intervals.",
	  NULL, "runs" },
	{ "import", OC_IMPORT, "FILE... [--name NAME]", "store published UnixBench results, or other machines' runs",
	  "Stores UnixBench 5.x/6.x logs (whole, pasted in part, or collapsed onto one\n"
	  "line) and pasted result tables (markdown, tab or space separated) as runs,\n"
	  "and kbench run files (export --format json) from other machines as they\n"
	  "were measured, hostname kept, each once.",
	  NULL, "files" },
	{ "export", OC_EXPORT, "RUN|A B --format FMT",
	  "a run or comparison: file, table to paste, LAVA results",
	  "One run: the run file (json), one line per sample (csv), UnixBench's report\n"
	  "(unixbench), its index table to paste (markdown, text, bbcode), or one\n"
	  "lava-test-case line per test and copy count for a LAVA test shell (lava).\n"
	  "A B: the comparison 'kbench compare A B' shows, as json, csv or a table to\n"
	  "paste with its verdicts (markdown for GitHub, text for mail, bbcode for forums).",
	  "RUN, A, B: as for compare (id, id prefix, name, file, last, last~N, host:HOST, groups)",
	  "runs" },
	{ "report", OC_REPORT, "RUN [--vs RUN] -o FILE.html", "an HTML report with charts, for slides and posts",
	  "Writes one self-contained HTML file (inline CSS and SVG, no script, nothing fetched):\n"
	  "the machine, the index, per test the change with its 95% interval and verdict (with\n"
	  "--vs; the same verdicts as 'kbench compare'), the telemetry through the run, the\n"
	  "counters per test, and UnixBench's text report.",
	  "RUN: id, unique id prefix, name, file path, last, last~N; --vs may name a group.", "runs" },
	{ "noise", OC_NOISE, "", "this machine's run-to-run noise floor per test",
	  "The run-to-run noise floor per test and setting, and how it was learned.", NULL, NULL },
	{ "delete", OC_DELETE, "RUN | filters [--yes]", "remove a stored run, or the runs a filter selects",
	  "Removes one stored run, or every run the filters select (those of 'kbench runs'\n"
	  "with the same filters) after listing them and asking; --yes does not ask.",
	  NULL, "runs" },
	{ "help", OC_HELP, "[COMMAND|TOPIC] [--man|--markdown]", "this list, a command's options, a page of the guide, or the manual",
	  NULL, NULL, "commands" },
	{ "completion", OC_COMPLETION, "bash", "the bash completion script (make install installs it)",
	  "Prints a bash completion script: commands, each command's options, test ids\n"
	  "and groups, and stored runs' names and ids.",
	  NULL, NULL },
};

static struct opt_command commands[sizeof run_commands / sizeof run_commands[0] + RUN_MODE_COUNT +
				   sizeof core_commands / sizeof core_commands[0]];
const struct opt_command *const opt_commands = commands;
size_t opt_command_count;

_Static_assert(RUN_MODE_COUNT <= 6, "OC_MODES has a bit for each mode's own command");

/* The commands as help lists them: made before main runs, as the rows are. */
__attribute__((constructor)) static void compose_commands(void)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof run_commands / sizeof run_commands[0]; i++)
		commands[n++] = run_commands[i];
	unsigned bit = OC_MODE;
	for (int m = 0; m < RUN_MODE_COUNT; m++) {
		const struct run_mode_info *mi = run_mode_info((enum run_mode)m);
		if (!mi->command || !mi->cmd)
			continue;
		commands[n++] = (struct opt_command){ mi->command, bit, mi->cmd->args, mi->cmd->about, mi->cmd->text,
						      mi->cmd->after, NULL };
		bit <<= 1;
	}
	for (size_t i = 0; i < sizeof core_commands / sizeof core_commands[0]; i++)
		commands[n++] = core_commands[i];
	opt_command_count = n;
}

const struct opt_env opt_env[] = {
	{ "KBENCH_HOME", "the run store (default: $XDG_DATA_HOME/kbench)", false },
	{ "XDG_DATA_HOME", "where the store is when KBENCH_HOME is unset (default ~/.local/share)", false },
	{ "XDG_CONFIG_HOME", "user themes in $XDG_CONFIG_HOME/kbench/themes (default ~/.config)", false },
	{ "TMPDIR", "where the file tests write when --tmpdir is not given (default /tmp)", false },
	{ "KBENCH_DATADIR", "the shell, grep and C tests' data files (found beside the binary\n"
			    "or in the installed share directory otherwise)", false },
	{ "KBENCH_HELPER", "the kbench-exec program the fork, exec and loop tests run in\n"
			   "(found beside the binary or in the installed libexec directory otherwise)", false },
	{ "KBENCH_SYSFS_ROOT", "read /sys and /proc telemetry files below this directory (for tests, and to read an extracted sensors --dump; their read cost is not timed)", false },
	{ "KBENCH_MEM_AVAILABLE_KIB", "buildload: take this as the memory and swap available (tests\n"
				      "fake a small machine to see mem_load refuse)", true },
	{ "KBENCH_DISK_FREE_KIB", "buildload: take this as the scratch directory's free space (io_load's\n"
				  "file is a quarter of it; under 256 MiB the disk loads refuse)", true },
	{ "KBENCH_BUILDLOAD_FLUSH", "buildload: 0 = do not flush the page cache before the loads (tests;\n"
				    "the run's notes say so)", true },
	{ "KBENCH_BUILDLOAD_LEAD", "buildload: seconds a load runs before its build (default 3; tests\n"
				   "shorten it)", true },
	{ "KBENCH_TEST_KILL_AT", "tests only: kill kbench (SIGKILL) at this step of a save or of\n"
				"an index update (save-created, save-half, save-written,\n"
				"save-linked, index-begin, index-commit)", true },
	{ "NO_COLOR", "the console draws without colour", false },
	{ "ESCDELAY", "milliseconds the console waits after Esc (default 25)", false },
};
const size_t opt_env_count = sizeof opt_env / sizeof opt_env[0];

const struct opt_command *opts_command(const char *name)
{
	for (size_t i = 0; i < opt_command_count; i++)
		if (!strcmp(opt_commands[i].name, name))
			return &opt_commands[i];
	return NULL;
}

const struct opt_def *opts_row(enum opt_id id)
{
	return &rows[row_of[(unsigned)id < O_COUNT ? id : O_HELP]];
}

