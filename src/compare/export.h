/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The export formats as rows: a name, what it takes (one run, a comparison of two sides) and its writers; kbench export, its --format help and choices are made from them. */
#ifndef KBENCH_EXPORT_H
#define KBENCH_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct compare;
struct run;

struct export_format {
	const char *name;
	const char *note; /* said after its name in --format's help ("UnixBench's text report"); NULL: none */
	/* Writes one run, or the comparison of two sides: 0, or -1 with one sentence in err.
	 * NULL: the format does not take that (lava is one run's; a table to paste takes both). */
	int (*run)(FILE *f, const struct run *r, const void *arg, char *err, size_t errlen);
	int (*pair)(FILE *f, const struct compare *c, const void *arg, char *err, size_t errlen);
	const void *arg; /* what its writers are given (a paste layout); NULL: nothing */
};

/* The formats in the order help lists them, the default first. */
extern const struct export_format export_formats[];
extern const size_t export_format_count;

/* The format of that name; NULL for none. */
const struct export_format *export_format_find(const char *name);

/* The names, space-separated (the choices completion offers), and of those that take a
 * comparison ("json, csv, markdown, text or bbcode"), into buf. */
void export_format_names(char *buf, size_t len, bool pairs);

#endif
