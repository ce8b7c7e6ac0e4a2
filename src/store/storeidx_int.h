/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the store index's three files share (storeidx.c, storeidx_sync.c, storeidx_noise.c); nothing else includes it. */
#ifndef KBENCH_STOREIDX_INT_H
#define KBENCH_STOREIDX_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "storeidx.h"

struct run;

/* The open index (NULL before the first query): one connection per process. */
extern sqlite3 *storeidx_db;

/* Growing text (a row's summary columns, a query). */
struct storeidx_buf {
	char *p;
	size_t n, cap;
};
void storeidx_bprintf(struct storeidx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Brought up to date with dir's files, then the rows of sql (its
 * parameters bound by bind), fn called for each. 0 or -errno. */
int storeidx_query(const char *dir, const char *sql, void (*bind)(sqlite3_stmt *, const void *),
		   const void *bind_arg, int (*fn)(const struct storeidx_row *, void *), void *arg, char *err,
		   size_t errlen);

/* The row a query's statement is on, in the columns' usual order (valid until its next step). */
void storeidx_row_from(sqlite3_stmt *st, struct storeidx_row *r);

/* One file of the listing, or one row of the index. */
struct storeidx_file {
	char *file;
	int64_t mtime, size, ino;
};
void storeidx_files_free(struct storeidx_file *v, int n);
/* The run files of dir now (*busy: a save's temp file is there). -errno; -ENOENT for no directory. */
int storeidx_list_dir(const char *dir, struct storeidx_file **out, int *n, bool *busy);
/* The listing against the rows: new and changed files indexed, rows of files gone dropped. SQLite's result code. */
int storeidx_sync_rows(sqlite3 *h, const char *dir, struct storeidx_file *files, int nfiles);

/* The runs table's columns of the run's metadata, made from its rows (the fields with a column,
 * src/record/meta_fields.c) in their order: "name TEXT, host TEXT, ..." with types, else
 * "name, host, ..."; and the placeholders of an insert for them from parameter first on
 * ("?7, ?8, ..."). */
const char *storeidx_meta_columns(bool types);
const char *storeidx_meta_params(int first);
/* Binds a run's metadata columns from parameter first on (a broken file: all NULL but the
 * date, its mtime); returns the parameter after them. */
int storeidx_bind_meta(sqlite3_stmt *st, int first, const struct run *r, int64_t mtime);

/* What noise learning reads of a run, one fact a line (storeidx_noise_run reads it back). */
void storeidx_noise_text(struct storeidx_buf *b, const struct run *r);
/* Forgets the statements prepared on the connection about to close. */
void storeidx_noise_close(void);

#endif
