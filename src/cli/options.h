/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one option table: every command's options as rows, and the parser, help, man page and completion made from them. */
#ifndef KBENCH_OPTIONS_H
#define KBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct run_request;
struct setting;
struct opt_item;

/* The commands, as a bitmask: a row says which of them take it. A command that rows of other
 * files name has its bit here; any other gets one when the list is made (its own rows need
 * no name for it: they are its), so adding a command adds no bit. */
enum opt_cmd {
	OC_RUN = 1u << 0,
	OC_CALIBRATE = 1u << 1,
	OC_CONSOLE = 1u << 2,
	OC_REPLAY = 1u << 3,
	OC_SENSORS = 1u << 4,
	OC_REPORT = 1u << 5,
	OC_DELETE = 1u << 6,
	OC_PLAN = 1u << 7, /* its boots' runs take the run options (RUNLIKE) */
	/* the run modes' own commands (run_mode_info.cmd, src/record/run.h): the first one's
	 * bit, the next one's OC_MODE << 1, and so on (six at most) */
	OC_MODE = 1u << 8,
	OC_MODES = 0x3Fu << 8, /* every one of them: the run options each takes as kbench run does */
	OC_FREE = 1u << 14,    /* the first bit a command without one of the above gets */
	OC_ALL = 0xFFFFFFFFu,
};

enum opt_kind {
	OK_FLAG,   /* no value */
	OK_INT,    /* a whole number in [min, max] */
	OK_DOUBLE, /* a number in [min, max] */
	OK_STRING, /* text; its row's check function, if any, decides */
};

/* Where a row's value lands (fio's .off1): nowhere (the command reads the item), in the run
 * request (struct run_request, src/session/request.h), or in the command's own options struct. */
enum opt_lands {
	OL_NONE,
	OL_REQUEST,
	OL_OWN,
};

/* A row's name for the code that must name it (a prompt that checks a typed value by its row,
 * a command that reads an item itself); a row whose value only lands needs none (O_NONE). */
enum opt_id {
	O_NONE,
	O_SAMPLES, O_DURATION, O_PAUSE, /* typed at the console's prompts too */
	O_SETTING, /* where the families' settings (src/base/settings.h) stand: a row each, all of this id */
	O_EVENTS, O_SENSOR,
	O_MODE_ROWS, /* where the run modes' own options stand (struct run_mode_option, src/record/run.h) */
	/* where a command's own rows stand in the order help lists every row (name: the command;
	 * NULL: every command's not placed before) */
	O_COMMAND_ROWS,
	O_HELP,
	O_COUNT
};

struct opt_def {
	enum opt_id id;
	const char *name;  /* long name without "--"; every row has one */
	char short_name;   /* 0: none */
	enum opt_kind kind;
	const char *arg;   /* the value's name in help ("N", "S", "DIR"); NULL for a flag */
	const char *what;  /* the value in an error: "--duration wants <what> from 0.01 to 86400" */
	double min, max;   /* OK_INT and OK_DOUBLE */
	const char *def;   /* the default as the user would type it; NULL: none or computed */
	const char *help;  /* help text; '\n' starts a continuation line */
	unsigned cmds;     /* enum opt_cmd bits */
	/* More than a range (an event name that exists, a sensor that opens):
	 * 0, or -1 with one sentence in err; opt is the option as spelled. */
	int (*check)(const char *opt, const char *arg, char *err, size_t errlen);
	const char *choices; /* the values completion offers, space-separated; NULL: none */
	bool param;          /* a workload's parameter: goes into the run's params as a word */
	const struct setting *setting; /* a family's setting: the row it was made from */
	/* An option this one does not go with ("quick"), and why, for the error
	 * line; NULL: none. */
	const char *refuses, *refuses_why;
	/* Where its value lands, at off in the struct lands names: by kind, an int, a double
	 * (times scale, when not 0: a percentage 0.01, minutes 60), a bool set true, a const char
	 * * (or, with size, text copied into a char array of that size); or store does more with
	 * that struct (a list that grows, a word appended, a date read): 0, or -1 with one
	 * sentence (a usage error). */
	enum opt_lands lands;
	size_t off, size;
	double scale;
	int (*store)(void *base, const struct opt_item *it, char *err, size_t errlen);
};

/* A command's own row lands its value at field of its options struct type. A row two commands
 * share lands at the same offset in both: their structs begin alike. */
#define OPT_OWN(type, field) .lands = OL_OWN, .off = offsetof(type, field)

/* opt_count rows in the order help lists them: the families' settings among them. */
extern const struct opt_def *const opt_table;
extern size_t opt_count;

/* A command, in its own file (cmd_NAME.c; the console's in ui/): its name, usage and help, its
 * own option rows and what it runs; src/cli/command_list.c lists them. */
struct opt_command {
	const char *name;
	unsigned bit;        /* its enum opt_cmd when other files' rows name it; 0: one is given it */
	const char *args;    /* "[options] [TEST|GROUP ...]" */
	const char *about;   /* one line, for kbench --help */
	const char *text;    /* the --help paragraph after the usage line; may be NULL */
	const char *after;   /* after the options; may be NULL */
	const char *operand; /* what completes its operands: "tests", "runs" or NULL */
	/* Its own rows, ended by one without a name (NULL: none): taken by it, and by the
	 * commands a row's cmds names beside it. */
	const struct opt_def *options;
	int (*exec)(int argc, char **argv); /* argv[0] is its name; returns the exit code */
};

/* The commands in the order help lists them, NULL where the run modes' own commands go (made
 * from the mode's row, src/registry/run_mode.c): src/cli/command_list.c, the program's part
 * above this one, points these at its list as the program starts (options_table.c holds
 * them), so the option table never names it. */
extern const struct opt_command *const *command_list;
extern size_t command_list_count;

/* opt_command_count commands in the order help lists them, each with its bit. */
extern const struct opt_command *const opt_commands;
extern size_t opt_command_count;

const struct opt_command *opts_command(const char *name);
/* The row of that long name one of cmds takes (the first); NULL for none. */
const struct opt_def *opts_find(unsigned cmds, const char *name);

/* The environment variables kbench reads: the man page's ENVIRONMENT and
 * the guide's table come from this list (tests/system/options_cli.sh checks
 * that every variable the code reads is in it). */
struct opt_env {
	const char *name;
	const char *help;
	bool tests; /* for kbench's own tests: the man page lists it, `kbench help` not */
};

extern const struct opt_env opt_env[];
extern const size_t opt_env_count;
const struct opt_def *opts_row(enum opt_id id);

/* One option as given, in command-line order; a command walks these. */
struct opt_item {
	const struct opt_def *def;
	const char *arg; /* the value text; NULL for a flag */
	long i;          /* OK_INT */
	double d;        /* OK_INT and OK_DOUBLE */
};

/* A list of copy counts ("1,2", "1 4", "all" or "N" for ncpus) into list:
 * how many, or -1 when a word is no count from 1 to RUNNER_MAX_COPIES or
 * there are more than max. */
int opts_copy_list(const char *s, int ncpus, int *list, int max);
/* A row's check of such a list (-c 1,2): 0, or -1 with the error line (opt as spelled). */
int opts_check_copies(const char *opt, const char *arg, char *err, size_t errlen);

/* Appends it as a word to buf (space-separated) when its row is a workload
 * parameter: "name=value", or "name" for a flag. 1 when it appended, 0 when
 * the option is not a parameter, -1 when the words would not fit in len. */
int opts_param_append(char *buf, size_t len, const struct opt_item *it);

struct opt_parsed {
	int n, noperands;
	struct opt_item *item; /* n of them */
	char **operand;        /* noperands of them, in order */
};

/* Parses argv[1..] (argv[0] is the command's name) the GNU way: options before
 * or after operands, "--" ends them, --opt=value and --opt value, -c2, -qv, and
 * unambiguous prefixes of long names. Every value is checked against its row.
 * Returns -1 to go on (free p with opts_free), else the exit code: 0 after
 * printing the command's --help, 2 after one "kbench: " line on stderr. */
int opts_parse(const struct opt_command *c, int argc, char **argv, struct opt_parsed *p);
void opts_free(struct opt_parsed *p);

/* Every parsed option's value where its row says it lands: the run request rq, or own (the
 * command's own options; NULL when it has none), in command-line order. 0, or -1 with one
 * sentence in err (a usage error). */
int opts_apply(const struct opt_parsed *p, struct run_request *rq, void *own, char *err, size_t errlen);
/* A command's options parsed (opts_parse) and landed where their rows say (opts_apply): -1 to go
 * on (the operands in p; free it with opts_free), else the exit code (0 after its --help, 2
 * after the one error line). */
int opts_take(const struct opt_command *c, int argc, char **argv, struct opt_parsed *p, struct run_request *rq,
	      void *own);
/* The defaults of the rows command c takes that land in own, landed there (before opts_apply). */
void opts_defaults(const struct opt_command *c, void *own);
/* One of a row's space-separated choices: 0, or -1 with "--format is json, csv or unixbench,
 * not 'x'" in err (opt as spelled). */
int opts_one_of(const char *choices, const char *opt, const char *arg, char *err, size_t errlen);
/* A value typed for row d (a console prompt), checked by the row and landed as the command
 * line lands it: 0, or -1 with the error line (naming --name). Text that lands as a pointer
 * must outlive rq. */
int opts_set(const struct opt_def *d, const char *text, struct run_request *rq, void *own, char *err,
	     size_t errlen);
/* Where row d's value lands in rq (or own): NULL for a row that lands nowhere or by store. */
void *opts_field(const struct opt_def *d, struct run_request *rq, void *own);

/* Checks text as a value of row d. Returns 0 with the number in *d_out (may
 * be NULL), or -1 with "--duration wants seconds from 0.01 to 86400, not 'x'"
 * in err, naming the option as spelled (NULL: --name). */
int opts_value(const struct opt_def *d, const char *spelled, const char *text, double *d_out,
	       char *err, size_t errlen);
/* "seconds from 0.01 to 86400": a row's value and range in words. */
void opts_range_text(const struct opt_def *d, char *buf, size_t len);

/* True when arg is an option (or "--opt=value") that the command takes, --help aside. */
bool opts_takes(unsigned cmd, const char *arg);

/* A command's --help text. */
void opts_print_help(FILE *f, const struct opt_command *c);
/* "-c N" or "-q, --quiet" or "--duration S": how help and the man page show a row. */
void opts_left(const struct opt_def *d, char *buf, size_t len);

#endif
