/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The import scanner: what an importer (store/import_*.c, a family's import_*.c) reads a text with and makes runs of. */
#ifndef KBENCH_IMPORT_SCAN_H
#define KBENCH_IMPORT_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct run;

/* What an import of one text found: its runs and what was wrong on the way. */
struct import_result {
	int nruns;
	struct run **runs;   /* one per log or table set found, mode "imported" */
	int nwarnings;
	char **warnings;     /* "FILE:LINE: sentence" */
	bool runfile;        /* the text was a kbench run file: one run, measured */
};

/* The text being read (import.c makes it: a normalized copy, its lines indexed). */
struct src {
	const char *name;   /* file name for messages */
	char *text;         /* normalized copy, NUL-terminated */
	size_t len;
	size_t *lines;      /* offset of each line start */
	int nlines;
	struct import_result *res;
	char first_problem[300];
};

/* ---- small text helpers ---- */

static inline bool import_is_sp(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *import_skip_sp(const char *p, const char *end)
{
	while (p < end && import_is_sp(*p))
		p++;
	return p;
}

static inline const char *import_find(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	if (p >= end || (size_t)(end - p) < n)
		return NULL;
	return memmem(p, (size_t)(end - p), needle, n);
}

/* ---- lines, warnings, numbers, runs (import_scan.c) ---- */

int import_line_of(const struct src *s, size_t off);
/* Adds "NAME:LINE: sentence" to the warnings; the first one is also the reason given
 * when nothing is imported. */
void import_warn(struct src *s, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *import_scan_num(const char *p, const char *end, double *out);
/* [p, e) into dst, trimmed, runs of blanks as one space. */
void import_trim_copy(char *dst, size_t size, const char *p, const char *e);
/* A run of s's (mode imported, its source the file); then, filled, into s's result under
 * name (NULL: its kernel release, else the file's name), its results described as a run
 * file's are when read (tests.h: test_describe). */
struct run *import_new_run(struct src *s, const char *name);
void import_finish_run(struct src *s, struct run *r, const char *name);

#endif
