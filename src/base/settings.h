/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A family's settings as rows (name, kind, range, default, help, where in its struct), and the one parser of them. */
#ifndef KBENCH_SETTINGS_H
#define KBENCH_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

enum setting_kind {
	SET_FLAG, /* no value: the word alone ("huge"); a bool in the struct */
	SET_INT,  /* a whole number in [min, max]; an int in the struct */
	SET_TEXT, /* text the row's parse reads into the struct */
};

/* One setting of a family, in the manner of fio's option rows: the command line's
 * --NAME, and the word NAME=VALUE (NAME for a flag) in a run's params, which is how a
 * run stores its settings and how the workers receive them. */
struct setting {
	const char *name;
	enum setting_kind kind;
	const char *arg;  /* the value's name in help ("US", "LIST") */
	const char *what; /* the value in an error: "--period-us wants <what> from 50 to 100000" */
	long min, max;    /* SET_INT */
	const char *def;  /* the default as typed; NULL: none, or the family computes it */
	const char *help; /* help text; '\n' starts a continuation line */
	size_t offset;    /* where the value lands in the family's settings struct */
	/* SET_TEXT: reads text into the field at offset: 0, or -1 with one sentence. */
	int (*parse)(const char *text, void *field, char *err, size_t errlen);
	/* What this machine allows beyond the value (memory, pids, a source tree), for the
	 * command line only: a stored run is read whatever machine reads it. 0, or -1 with
	 * one sentence. May be NULL. */
	int (*check)(const char *text, char *err, size_t errlen);
	const char *choices; /* the values completion offers, space-separated; NULL: none */
	/* Appends " NAME=VALUE" for text given on the command line when the word is not the
	 * text itself (a path: absolute, its spaces escaped); 0, or -1 when it does not fit.
	 * NULL: the text as given. */
	int (*append)(char *params, size_t len, const char *text);
};

/* What a family's computed defaults follow: the run's kind and the machine it runs on
 * (a reader of a stored run: the run's mode, and this machine's CPUs). */
struct settings_env {
	bool quick; /* a quick run: the build tests' smaller defaults */
	int ncpus;  /* CPUs online; < 1 counts as 1 */
};

/* A family's settings: its rows, its struct's size, and the settings that do not go
 * together (checked on a run's whole params: 0, or -1 with one sentence; may be NULL). */
struct settings {
	const struct setting *rows;
	size_t n;
	size_t size;
	int (*conflicts)(const char *params, char *err, size_t errlen);
	/* The defaults the family computes, not typed in a row (the -j list from the CPUs,
	 * the sizes from the caches, the quick tree), into s, which is all zero before.
	 * NULL: zero is every computed default. */
	void (*defaults)(void *s, const struct settings_env *env);
};

/* The largest settings struct settings_value reads a value into. */
#define SETTINGS_MAX_SIZE 8192

/* The rows' defaults (those with def), then every word of params that names one of
 * them, into s (a struct of the family's, already holding what the family computes);
 * words of other families are left. 0, or -1 with the error line the command line
 * prints for the same value ("--period-us wants microseconds from 50 to 100000, not '10'"). */
int settings_parse(const struct settings *f, const char *params, void *s, char *err, size_t errlen);
/* A family's struct filled for a run whose params are params (NULL: none): zeroed, the
 * family's computed defaults (env), then settings_parse. What every entry point of a
 * family receives, and what a reader of a stored run reads its params with. 0, or -1
 * with settings_parse's error line (s then holds the defaults and what came before it). */
int settings_fill(const struct settings *f, const char *params, const struct settings_env *env, void *s,
		  char *err, size_t errlen);
/* Text as a value of row r, read into s (the family's struct; NULL: checked only): 0, or
 * -1 with the error line, naming the option as spelled (NULL: --name). */
int settings_value(const struct setting *r, const char *spelled, const char *text, void *s, char *err,
		   size_t errlen);
/* Whether params has the word of the setting named name ("source" finds "source=..."). */
bool settings_given(const char *params, const char *name);

/* Seconds from the environment variable name (the tests' knobs: a preflight window, a
 * grace, a lead): its value when it is a number from lo to hi, else def (unset, empty,
 * not a number or out of range: the default, never 0 by accident). */
double settings_env_seconds(const char *name, double def, double lo, double hi);

#endif
