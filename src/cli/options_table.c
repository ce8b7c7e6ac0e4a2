/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one option table: the rows the commands share (the run options, the families' settings, the modes' options), where each command's own rows stand, the commands made from their list, and the environment. */
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

int opts_check_copies(const char *opt, const char *arg, char *err, size_t errlen)
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
static int store_copies(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct runner_opts *o = &((struct run_request *)base)->run;
	int n = opts_copy_list(it->arg, sysinfo_ncpus(), o->copies + o->ncopies, RUNNER_MAX_BLOCKS - o->ncopies);
	if (n < 0) {
		snprintf(err, errlen, "at most %d copy counts in all", RUNNER_MAX_BLOCKS);
		return -1;
	}
	o->ncopies += n;
	return 0;
}

/* A run mode's one copy count (kbench thermal -c N). */
static int store_one_copy(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct run_request *rq = base;
	rq->run.copies[0] = (int)it->i;
	rq->run.ncopies = 1;
	return 0;
}

/* A mode's one test (kbench thermal --test ID; the row checked it). */
static int store_test(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct run_request *rq = base;
	rq->run.ntests = 0;
	run_request_add(rq, it->arg);
	return 0;
}

/* --interval 0 turns telemetry off; any other the runner's ticks follow. */
static int store_interval(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct run_request *rq = base;
	rq->tele.interval = it->d;
	if (it->d == 0)
		rq->tele.off = true;
	else
		rq->run.interval = it->d;
	return 0;
}

/* A family's setting: a word of the run's params. */
static int store_setting(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct run_request *rq = base;
	if (opts_param_append(rq->params, sizeof rq->params, it) < 0) {
		snprintf(err, errlen, "the workload settings are longer than %d characters", RUN_PARAMS_MAX - 1);
		return -1;
	}
	return 0;
}

int opts_one_of(const char *c, const char *opt, const char *arg, char *err, size_t errlen)
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
	return opts_one_of(ALLOCATIONS, opt, arg, err, errlen);
}

static int store_allocate(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct run_request *rq = base;
	rq->run.allocation = strcmp(it->arg, "precision") ? ALLOC_INDEX : ALLOC_PRECISION;
	return 0;
}

/* ---- the table ---- */

#define RUNLIKE (OC_RUN | OC_CALIBRATE | OC_PLAN)
/* Where a value lands: a field of the run request, of calibrate's own options, of the console's. */
#define RQ(f) .lands = OL_REQUEST, .off = offsetof(struct run_request, f)
#define RQ_BY(fn) .lands = OL_REQUEST, .store = fn
/* --quick decides the samples itself: a count beside it was silently ignored. */
#define QUICK_TAKES_SAMPLES "--quick shares its samples out itself"

/* In the order --help lists them; the families' settings take O_SETTING's place and the run
 * modes' options O_MODE_ROWS's (compose, below). */
static const struct opt_def core_rows[] = {
	{ .name = "copies", .short_name = 'c', .kind = OK_STRING,
	  .arg = "N", .what = "a list of counts",
	  .help = "parallel copies, a block each: -c 1 -c 2 or -c 1,2 (default: 1 and the CPU count)",
	  .cmds = RUNLIKE, .check = opts_check_copies,
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
	  .help = "short samples; stop each test once its 95% interval is within\n"
		  "the precision (default +-1%), at least 3 samples (calibrate: the default)",
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
	  .help = "how a quick run spends its samples: precision (each test until its own\n"
		  "precision or time limit, one after another; the default) or index (the counts\n"
		  "that narrow the index's interval most in about " QUICK_DEF(QUICK_BUDGET_SECONDS) " s per copy count for\n"
		  "the index, in rounds across the tests; opt-in: not yet shown to narrow it more)",
	  .cmds = RUNLIKE | OC_CONSOLE, .check = check_allocate,
	  RQ_BY(store_allocate) },
	{ .name = "budget", .kind = OK_DOUBLE,
	  .arg = "M", .what = "minutes",
	  .min = 0.1, .max = 10000,
	  .help = "the run's minutes, shared over its copy counts and spent where they narrow\n"
		  "the index's interval most, in rounds; UnixBench's sample lengths (or --quick's)",
	  .cmds = RUNLIKE | OC_CONSOLE,
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
	{ .id = O_COMMAND_ROWS, .name = "sensors" },
	{ .name = "cooldown", .kind = OK_FLAG,
	  .help = "before each test, wait (up to 2 min) until the CPU is back near its\n"
		  "starting temperature",
	  .cmds = OC_RUN,
	  RQ(tele.cooldown) },
	{ .name = "no-telemetry", .kind = OK_FLAG,
	  .help = "no sampling at all (to measure what telemetry costs)",
	  .cmds = OC_RUN | OC_CONSOLE,
	  RQ(tele.off) },
	/* Each command's own rows (in its file), in this order: the order help lists them in */
	{ .id = O_COMMAND_ROWS, .name = "calibrate" },
	{ .id = O_MODE_ROWS }, /* the run modes' own options, in the modes' order (add_mode_options) */
	{ .id = O_COMMAND_ROWS, .name = "console" },
	{ .id = O_COMMAND_ROWS, .name = "replay" },
	{ .id = O_COMMAND_ROWS, .name = "compare" },
	{ .id = O_COMMAND_ROWS, .name = "import" },
	{ .id = O_COMMAND_ROWS, .name = "export" },
	{ .id = O_COMMAND_ROWS, .name = "report" },
	{ .id = O_COMMAND_ROWS, .name = "runs" },
	{ .id = O_COMMAND_ROWS, .name = "delete" },
	{ .id = O_COMMAND_ROWS, .name = "help" },
	{ .id = O_COMMAND_ROWS }, /* every other command's */
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

/* Every row: the core rows, the settings, the modes' options, the commands' own. */
#define MAX_ROWS (sizeof core_rows / sizeof core_rows[0] + MAX_SETTINGS + MAX_MODE_ROWS + 64)

static struct opt_def rows[MAX_ROWS];
const struct opt_def *const opt_table = rows;
size_t opt_count;
static size_t row_of[O_COUNT]; /* each id's first row */

static const enum opt_kind setting_kinds[] = { [SET_FLAG] = OK_FLAG, [SET_INT] = OK_INT, [SET_TEXT] = OK_STRING };

/* A mode's option as the row the command line reads: where its value lands, as the mode's row
 * says (a number in the runner's options, the one test, the one copy count). */
static struct opt_def mode_row(const struct run_mode_option *r)
{
	struct opt_def d = { .name = r->name, .short_name = r->short_name, .arg = r->arg, .what = r->what,
			     .min = r->min, .max = r->max, .def = r->def, .help = r->help, .check = r->check,
			     .lands = OL_REQUEST };
	if (r->value == RMV_TEST) {
		d.kind = OK_STRING;
		d.store = store_test;
	} else if (r->value == RMV_COPIES) {
		d.kind = OK_INT;
		d.store = store_one_copy;
	} else {
		d.kind = r->whole ? OK_INT : OK_DOUBLE;
		d.off = offsetof(struct run_request, run) + r->off;
		d.scale = r->scale;
	}
	return d;
}

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
	for (const struct run_mode_info *const *m = run_mode_list; *m; m++) {
		const struct run_mode_info *mi = *m;
		if (!mi->command || !mi->cmd)
			continue;
		for (const struct run_mode_option *r = mi->cmd->options; r && r->name && n - first < MAX_MODE_ROWS;
		     r++) {
			rows[n] = mode_row(r);
			rows[n++].cmds = bit | (r->console ? OC_CONSOLE : 0u);
		}
		bit <<= 1;
	}
	return n;
}

/* The commands as help lists them, each with its bit: the list's, the run modes' own where
 * it says (each mode's bit OC_MODE and on), a bit from OC_FREE on for a command that has none. */
#define MAX_COMMANDS 32

static struct opt_command commands[MAX_COMMANDS];
const struct opt_command *const opt_commands = commands;
size_t opt_command_count;

/* Empty until command_list.c's constructor points them at its list (options.h). */
static const struct opt_command *const no_commands[] = { NULL };
const struct opt_command *const *command_list = no_commands;
size_t command_list_count;

static void compose_commands(void)
{
	size_t n = 0;
	unsigned mode_bit = OC_MODE, free_bit = OC_FREE;
	for (size_t i = 0; i < command_list_count && n < MAX_COMMANDS; i++) {
		if (command_list[i]) {
			commands[n] = *command_list[i];
			if (!commands[n].bit) {
				commands[n].bit = free_bit;
				free_bit <<= 1;
			}
			n++;
			continue;
		}
		for (const struct run_mode_info *const *m = run_mode_list; *m && n < MAX_COMMANDS; m++) {
			const struct run_mode_info *mi = *m;
			if (!mi->command || !mi->cmd)
				continue;
			commands[n++] = (struct opt_command){ mi->command, mode_bit, mi->cmd->args, mi->cmd->about,
							      mi->cmd->text, mi->cmd->after, NULL, NULL, cmd_mode };
			mode_bit <<= 1;
		}
	}
	opt_command_count = n;
}

/* A command's own rows, each taken by it (and by those its cmds names beside it). */
static size_t add_command_rows(size_t n, const struct opt_command *c)
{
	for (const struct opt_def *d = c->options; d && d->name && n < MAX_ROWS; d++) {
		rows[n] = *d;
		rows[n++].cmds |= c->bit;
	}
	return n;
}

/* The table as help lists it: the core rows in their order, every family's settings where the
 * O_SETTING row stands, the modes' options where O_MODE_ROWS's does, and each command's own
 * rows where its O_COMMAND_ROWS row does (the others' at the one without a name); made before
 * main runs, so every reader sees it whole. */
__attribute__((constructor)) static void compose(void)
{
	compose_commands();
	size_t n = 0, ncore = sizeof core_rows / sizeof core_rows[0];
	bool placed[MAX_COMMANDS] = { false };
	for (size_t c = 0; c < ncore; c++) {
		const struct opt_def *d = &core_rows[c];
		if (d->id == O_SETTING) {
			n = add_settings(n);
		} else if (d->id == O_MODE_ROWS) {
			n = add_mode_options(n);
		} else if (d->id == O_COMMAND_ROWS) {
			for (size_t k = 0; k < opt_command_count; k++)
				if (!placed[k] && (d->name ? !strcmp(d->name, commands[k].name) : true)) {
					n = add_command_rows(n, &commands[k]);
					placed[k] = true;
				}
		} else if (n < MAX_ROWS) {
			rows[n++] = *d;
		}
	}
	opt_count = n;
	for (size_t i = n; i-- > 0;)
		row_of[rows[i].id] = i; /* each id's first row */
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
	{ "KBENCH_PREFLIGHT_WINDOW", "the preflight: seconds it watches what other processes use\n"
				    "before a run (0 to 5, default 0.5; tests shorten it)", true },
	{ "KBENCH_TEST_GRACE", "tests only: seconds a worker may run past its sample's deadline\n"
			      "before it is killed as hung (default 10 and a quarter of the sample)", true },
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


const struct opt_def *opts_find(unsigned cmds, const char *name)
{
	for (size_t i = 0; i < opt_count; i++)
		if ((rows[i].cmds & cmds) && !strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}
