/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a whole, bounded, regular file (the run-file reader, the importer), and writing one atomically (reports). */
#ifndef KBENCH_FILEIO_H
#define KBENCH_FILEIO_H

#include <stddef.h>
#include <stdio.h>

/* Reads PATH (a regular file of 1 to MAX bytes) into a malloc'd, NUL-ended
 * buffer. Returns 0, or -errno with "<what>: <why>" in err. */
int file_read_all(const char *path, const char *what, size_t max, char **buf, size_t *len,
		  char *err, size_t errlen);

/* Writes PATH through fn (which returns 0, or -1 leaving errno set) as a
 * whole or not at all: a temporary file in the same directory, fsynced and
 * renamed over PATH, then the directory fsynced. A reader sees the old file
 * or the new one, never half of one. Returns 0, or -errno with
 * "cannot write PATH: <why>" in err. */
int file_write_atomic(const char *path, int (*fn)(FILE *f, void *arg), void *arg, char *err,
		      size_t errlen);

#endif
