/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run as a JSON document (the run file), and back: every field of struct run, versioned. */
#ifndef KBENCH_RUNFILE_H
#define KBENCH_RUNFILE_H

#include <stddef.h>
#include <stdio.h>

struct run;

/* The largest run file read (series can be long, but not this long). */
#define RUNFILE_MAX_BYTES (256u << 20)

/* The run as JSON text (malloc'd, NUL-terminated), or NULL with err filled. */
char *runfile_dump(const struct run *r, char *err, size_t errlen);
/* Writes the JSON text to f; 0 or -errno. */
int runfile_write(FILE *f, const struct run *r, char *err, size_t errlen);

/* Parses a run from JSON text of len bytes. `what` names the source in
 * messages ("run file /x/y.json"). NULL with a sentence in err naming the
 * field or line on any problem: a newer major format is refused. */
struct run *runfile_parse(const char *text, size_t len, const char *what, char *err,
			  size_t errlen);
/* Reads and parses a file (size-checked first). */
struct run *runfile_read(const char *path, char *err, size_t errlen);

#endif
