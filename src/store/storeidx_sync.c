/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The store index kept true to the files: the directory's listing against the rows, new and changed files read and summarised. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "meta_fields.h"
#include "run.h"
#include "runfile.h"
#include "storeidx.h"
#include "storeidx_int.h"

/* Rows written per transaction while indexing: a build killed midway keeps its progress. */
#define BATCH 256

/* jansson's allocations while a file is read for the index come from an
 * arena, emptied after each file, not malloc'd and freed node by node: the
 * JSON tree of a 110 KB run file is tens of thousands of nodes, and an index
 * built from nothing spent a fifth of its time in malloc and free. Nothing
 * jansson makes outlives runfile_read (the run is copied out of the tree). */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};
static struct chunk *chunks;

static void *arena_malloc(size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!chunks || chunks->cap - chunks->used < n) {
		size_t cap = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
		struct chunk *c = malloc(sizeof *c + cap);
		if (!c)
			return NULL;
		*c = (struct chunk){ chunks, 0, cap };
		chunks = c;
	}
	void *p = (char *)chunks->data + chunks->used;
	chunks->used += n;
	return p;
}

static void arena_free(void *p)
{
	(void)p; /* all at once, in arena_empty */
}

/* Frees every chunk but the last made (the others held one file's outsized tree). */
static void arena_empty(void)
{
	while (chunks && chunks->next) {
		struct chunk *next = chunks->next;
		free(chunks);
		chunks = next;
	}
	if (chunks)
		chunks->used = 0;
}

static struct run *read_for_index(const char *path, char *err, size_t errlen)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
	struct run *r = runfile_read(path, err, errlen);
	json_set_alloc_funcs(malloc, free);
	arena_empty();
	return r;
}

static int by_file(const void *a, const void *b)
{
	return strcmp(((const struct storeidx_file *)a)->file, ((const struct storeidx_file *)b)->file);
}

static void fstate_push(struct storeidx_file **v, int *n, int *cap, const char *file, int64_t mtime,
			int64_t size, int64_t ino)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		struct storeidx_file *nv = realloc(*v, (size_t)*cap * sizeof *nv);
		if (!nv)
			abort();
		*v = nv;
	}
	char *f = strdup(file);
	if (!f)
		abort();
	(*v)[(*n)++] = (struct storeidx_file){ f, mtime, size, ino };
}

void storeidx_files_free(struct storeidx_file *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].file);
	free(v);
}

/* The row id of a run's setting (host, kernel, command line, mode, sample
 * length, iterations), added when new; 0 when SQLite fails (the caller's
 * statement fails next). */
static int64_t setting_id(sqlite3_stmt *add, sqlite3_stmt *get, const struct run *r)
{
	const struct run_meta *m = &r->meta;
	sqlite3_stmt *sts[2] = { add, get };
	int64_t sid = 0;
	for (int k = 0; k < 2; k++) {
		sqlite3_stmt *st = sts[k];
		sqlite3_bind_text(st, 1, m->hostname, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, m->kernel_release, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, m->cmdline, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, run_mode_info(m->mode)->name, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 5, isfinite(m->duration_override) ? m->duration_override : 0);
		sqlite3_bind_int(st, 6, m->iterations);
		sqlite3_bind_text(st, 7, run_noise_group(r), -1, SQLITE_STATIC); /* a plan's boot is a set of its own */
		if (sqlite3_step(st) == SQLITE_ROW)
			sid = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	return sid;
}

const char *storeidx_meta_columns(bool types)
{
	static char cols[2][768];
	char *b = cols[types];
	if (b[0])
		return b;
	for (size_t i = 0; i < meta_field_count; i++) {
		const struct meta_field *f = &meta_fields[i];
		if (!f->column)
			continue;
		const char *type = f->kind == MK_TEXT && !f->index_set ? "TEXT" : f->kind == MK_MODE ? "TEXT"
				 : f->kind == MK_DOUBLE ? "REAL" : "INTEGER";
		size_t u = strlen(b);
		snprintf(b + u, sizeof cols[0] - u, "%s%s%s%s", u ? ", " : "", f->column, types ? " " : "",
			 types ? type : "");
	}
	return b;
}

const char *storeidx_meta_params(int first)
{
	static char params[256];
	params[0] = '\0';
	for (size_t i = 0, k = 0; i < meta_field_count; i++)
		if (meta_fields[i].column) {
			size_t u = strlen(params);
			snprintf(params + u, sizeof params - u, "%s?%d", k++ ? ", " : "", first++);
		}
	return params;
}

int storeidx_bind_meta(sqlite3_stmt *st, int first, const struct run *r, int64_t mtime)
{
	int n = first;
	for (size_t i = 0; i < meta_field_count; i++) {
		const struct meta_field *f = &meta_fields[i];
		if (!f->column)
			continue;
		const void *at = r ? meta_at_c(f, &r->meta) : NULL;
		if (!r || !meta_field_present(f, &r->meta)) {
			if (!r && f->kind == MK_TIME)
				sqlite3_bind_int64(st, n++, mtime); /* a broken file is dated by its mtime */
			else
				sqlite3_bind_null(st, n++);
			continue;
		}
		double d;
		switch (f->kind) {
		case MK_TEXT:
			if (f->index_set)
				sqlite3_bind_int(st, n++, ((const char *)at)[0] != 0);
			else
				sqlite3_bind_text(st, n++, at, -1, SQLITE_TRANSIENT);
			break;
		case MK_MODE:
			sqlite3_bind_text(st, n++, run_mode_info(*(const struct run_mode_info *const *)at)->name, -1, SQLITE_TRANSIENT);
			break;
		case MK_DOUBLE:
			d = *(const double *)at;
			sqlite3_bind_double(st, n++, isfinite(d) ? d : 0);
			break;
		case MK_INT: sqlite3_bind_int(st, n++, *(const int *)at); break;
		case MK_TIME: sqlite3_bind_int64(st, n++, (int64_t) * (const time_t *)at); break;
		default: sqlite3_bind_int64(st, n++, (int64_t) * (const uint64_t *)at); break;
		}
	}
	return n;
}

/* Binds a run's summary (or a broken file's error) to the insert's parameters 6 on: the error,
 * the metadata columns, then what the run holds. */
static void bind_run(sqlite3_stmt *st, const struct run *r, const char *error, int64_t mtime,
		     struct storeidx_buf *blocks, struct storeidx_buf *keys, struct storeidx_buf *noise, int64_t sid)
{
	blocks->n = keys->n = noise->n = 0;
	int n = storeidx_bind_meta(st, 7, r, mtime);
	if (!r) {
		sqlite3_bind_text(st, 6, error, -1, SQLITE_TRANSIENT);
		for (int i = n; i < n + 6; i++)
			sqlite3_bind_null(st, i);
		return;
	}
	char tests[160];
	run_tests_text(r, tests, sizeof tests);
	storeidx_bprintf(keys, " ");
	for (int i = 0; i < r->nblocks; i++) {
		const struct run_block *bl = &r->blocks[i];
		storeidx_bprintf(blocks, "%d %.17g %d %d;", bl->copies, bl->index_score, bl->index_partial, bl->index_tests);
		for (int k = 0; k < bl->ntests; k++)
			storeidx_bprintf(keys, "%d:%s ", bl->copies, bl->tests[k].id);
	}
	storeidx_noise_text(noise, r);
	sqlite3_bind_null(st, 6);
	sqlite3_bind_int(st, n, r->incomplete);
	sqlite3_bind_text(st, n + 1, blocks->p ? blocks->p : "", (int)blocks->n, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, n + 2, tests, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, n + 3, keys->p, (int)keys->n, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, n + 4, noise->p ? noise->p : "", (int)noise->n, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, n + 5, sid);
}

/* Indexes the files that are new or changed, drops the rows of files gone.
 * SQLite's result code. */
static int apply(sqlite3 *h, const char *dir, struct storeidx_file *fresh, int nfresh, struct storeidx_file *gone,
		 int ngone)
{
	sqlite3_stmt *ins = NULL, *del = NULL, *add_set = NULL, *get_set = NULL;
	char sql[2048];
	int after = 7;
	for (size_t i = 0; i < meta_field_count; i++)
		after += meta_fields[i].column != NULL;
	snprintf(sql, sizeof sql,
		 "INSERT OR REPLACE INTO runs (file, id, mtime, size, ino, error, %s, incomplete, blocks, tests,"
		 " testkeys, noise, sid) VALUES (?1, ?2, ?3, ?4, ?5, ?6, %s, ?%d, ?%d, ?%d, ?%d, ?%d, ?%d)",
		 storeidx_meta_columns(false), storeidx_meta_params(7), after, after + 1, after + 2, after + 3,
		 after + 4, after + 5);
	int rc = sqlite3_prepare_v2(h, sql, -1, &ins, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, "DELETE FROM runs WHERE file = ?1", -1, &del, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h,
					"INSERT OR IGNORE INTO settings (host, kernel, cmdline, mode, duration, iterations, grp)"
					" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
					-1, &add_set, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h,
					"SELECT sid FROM settings WHERE host = ?1 AND kernel = ?2 AND cmdline = ?3"
					" AND mode = ?4 AND duration = ?5 AND iterations = ?6 AND grp = ?7",
					-1, &get_set, NULL);
	struct storeidx_buf blocks = { 0 }, keys = { 0 }, noise = { 0 };
	bool open_tx = false;
	for (int i = 0; rc == SQLITE_OK && i < ngone + nfresh; i++) {
		if (!open_tx) {
			if ((rc = sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL)) != SQLITE_OK)
				break;
			open_tx = true;
			storeidx_kill_point("index-begin");
		}
		if (i < ngone) {
			sqlite3_bind_text(del, 1, gone[i].file, -1, SQLITE_STATIC);
			rc = sqlite3_step(del) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h);
			sqlite3_reset(del);
		} else {
			const struct storeidx_file *f = &fresh[i - ngone];
			char path[4400], error[300] = "";
			snprintf(path, sizeof path, "%s/%s", dir, f->file);
			struct stat st;
			if (stat(path, &st) < 0) {
				/* gone since the listing (deleted meanwhile): no row */
				sqlite3_bind_text(del, 1, f->file, -1, SQLITE_STATIC);
				rc = sqlite3_step(del) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h);
				sqlite3_reset(del);
			} else {
				struct run *r = read_for_index(path, error, sizeof error);
				size_t len = strlen(f->file);
				sqlite3_bind_text(ins, 1, f->file, -1, SQLITE_STATIC);
				sqlite3_bind_text(ins, 2, f->file, (int)(len - 5 < 15 ? len - 5 : 15), SQLITE_STATIC);
				sqlite3_bind_int64(ins, 3, f->mtime);
				sqlite3_bind_int64(ins, 4, f->size);
				sqlite3_bind_int64(ins, 5, f->ino);
				bind_run(ins, r, error, (int64_t)st.st_mtime, &blocks, &keys, &noise,
					 r ? setting_id(add_set, get_set, r) : 0);
				run_free(r);
				rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h);
				sqlite3_reset(ins);
			}
		}
		if (rc == SQLITE_OK && (i % BATCH == BATCH - 1 || i == ngone + nfresh - 1)) {
			storeidx_kill_point("index-commit");
			rc = sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
			open_tx = false;
		}
	}
	if (open_tx)
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(ins);
	sqlite3_finalize(del);
	sqlite3_finalize(add_set);
	sqlite3_finalize(get_set);
	free(blocks.p);
	free(keys.p);
	free(noise.p);
	return rc;
}

/* A save's temp file (".<id>.json.XXXXXX", store_save) left by a save killed
 * before it finished, an hour old: no save takes that long, so it is litter. */
static bool stale_temp(int dfd, const char *name, time_t now)
{
	const char *j = strstr(name, ".json.");
	struct stat st;
	return name[0] == '.' && j && j > name + 1 && strlen(j) == 12 &&
	       fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	       now - st.st_mtime > 3600;
}

/* The run files of dir now: every visible *.json (temp files of a save in
 * progress start with a dot; *busy says whether one is there). -errno;
 * -ENOENT for no directory. */
int storeidx_list_dir(const char *dir, struct storeidx_file **out, int *n, bool *busy)
{
	*out = NULL;
	*n = 0;
	*busy = false;
	int cap = 0;
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	struct dirent *de;
	time_t now = time(NULL);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (stale_temp(dirfd(d), de->d_name, now))
			unlinkat(dirfd(d), de->d_name, 0);
		else if (de->d_name[0] == '.' && strstr(de->d_name, ".json."))
			*busy = true;
		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, 0) < 0)
			continue;
		fstate_push(out, n, &cap, de->d_name, (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec,
			    (int64_t)st.st_size, (int64_t)st.st_ino);
	}
	closedir(d);
	return 0;
}

static int list_rows(sqlite3 *h, struct storeidx_file **out, int *n)
{
	*out = NULL;
	*n = 0;
	int cap = 0;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h, "SELECT file, mtime, size, ino FROM runs", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fstate_push(out, n, &cap, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1),
			    sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The listing against the rows: SQLite's result code. */
int storeidx_sync_rows(sqlite3 *h, const char *dir, struct storeidx_file *files, int nfiles)
{
	struct storeidx_file *rows;
	int nrows;
	int rc = list_rows(h, &rows, &nrows);
	if (rc != SQLITE_OK)
		return rc;
	if (nfiles)
		qsort(files, (size_t)nfiles, sizeof *files, by_file);
	if (nrows)
		qsort(rows, (size_t)nrows, sizeof *rows, by_file);
	struct storeidx_file *fresh = calloc((size_t)nfiles + 1, sizeof *fresh), *gone = calloc((size_t)nrows + 1, sizeof *gone);
	if (!fresh || !gone)
		abort();
	int nfresh = 0, ngone = 0, i = 0, j = 0;
	while (i < nfiles || j < nrows) {
		int c = i == nfiles ? 1 : j == nrows ? -1 : strcmp(files[i].file, rows[j].file);
		if (c < 0) {
			fresh[nfresh++] = files[i++];
		} else if (c > 0) {
			gone[ngone++] = rows[j++];
		} else {
			if (files[i].mtime != rows[j].mtime || files[i].size != rows[j].size ||
			    files[i].ino != rows[j].ino)
				fresh[nfresh++] = files[i];
			i++;
			j++;
		}
	}
	if (nfresh || ngone)
		rc = apply(h, dir, fresh, nfresh, gone, ngone);
	free(fresh);
	free(gone);
	storeidx_files_free(rows, nrows);
	return rc;
}
