/* The run store's index: a SQLite cache of every run file's summary, checked against the directory on each use. */
#include "storeidx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "runfile.h"

/* Bumped whenever a column or what one holds changes: an older index is rebuilt. */
#define SCHEMA_VERSION 5

/* Rows written per transaction while indexing: a build killed midway keeps its progress. */
#define BATCH 256

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS runs ("
	" file TEXT PRIMARY KEY, id TEXT NOT NULL,"
	" mtime INTEGER, size INTEGER, ino INTEGER,"
	" error TEXT, date INTEGER,"
	" name TEXT, kernel TEXT, kversion TEXT, host TEXT, mode TEXT, cmdline TEXT,"
	" has_source INTEGER, incomplete INTEGER, duration REAL, iterations INTEGER,"
	" blocks TEXT, tests TEXT, testkeys TEXT, noise TEXT, sid INTEGER);"
	/* Each distinct setting noise learning groups runs by, once: its sets are
	 * formed from small numbers, not by sorting ten thousand command lines. */
	"CREATE TABLE IF NOT EXISTS settings (sid INTEGER PRIMARY KEY, host TEXT, kernel TEXT, cmdline TEXT,"
	" mode TEXT, duration REAL, iterations INTEGER,"
	" UNIQUE (host, kernel, cmdline, mode, duration, iterations));"
	"CREATE INDEX IF NOT EXISTS runs_sets ON runs(date DESC, id DESC, error, sid);"
	/* The list order, covering what a list reads: a list of thousands reads
	 * this index alone, not the rows with their long command lines and noise. */
	"CREATE INDEX IF NOT EXISTS runs_list ON runs(date DESC, id DESC, file, error, name, kernel, host,"
	" mode, has_source, incomplete, blocks, tests);"
	/* what noise learning made of one set of runs (named by their rows), kept for the next command */
	"CREATE TABLE IF NOT EXISTS noise_sets (sig TEXT PRIMARY KEY, acc TEXT);"
	/* the directory's mtime (ns) when the rows last matched its listing: unchanged, no listing */
	"CREATE TABLE IF NOT EXISTS synced (dir_mtime INTEGER NOT NULL);";

#define COLS_BASE "file, error, date, name, kernel, kversion, host, mode, cmdline, has_source, incomplete," \
	     " duration, iterations, blocks, tests"
#define COLS COLS_BASE ", testkeys, noise"
/* What a list shows: the columns of the index runs_list (the rest empty). */
#define COLS_LIST "file, error, date, name, kernel, '', host, mode, '', has_source, incomplete, 0, 0," \
		  " blocks, tests, NULL, NULL"
#define COLS_NOISE "runs.file, error, date, name, kernel, kversion, runs.host, runs.mode, runs.cmdline, has_source," \
		   " incomplete, runs.duration, runs.iterations, blocks, tests, NULL, noise"

static sqlite3 *db;
static sqlite3_stmt *cached_st; /* storeidx_set_cached's, on db */
static char db_dir[4096];
static struct timespec synced_mtime, synced_at; /* the last sync's directory mtime, and when */
static int synced_files;
static dev_t db_dev;
static ino_t db_ino; /* of the index file opened: one made anew (the store removed and made again) is reopened */

void storeidx_kill_point(const char *step)
{
	const char *at = getenv("KBENCH_TEST_KILL_AT");
	if (at && !strcmp(at, step))
		raise(SIGKILL);
}

/* The cached connection closed (another store, a replaced or corrupt index). */
static void storeidx_close(void)
{
	sqlite3_finalize(cached_st);
	cached_st = NULL;
	if (db)
		sqlite3_close(db);
	db = NULL;
	db_dir[0] = 0;
	synced_files = 0;
}

static bool is_corrupt(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

/* Sets up a fresh connection: WAL (readers never wait for a saving writer),
 * a long busy wait (two savers take turns), the schema. SQLite's result code. */
static int setup(sqlite3 *h, bool wal)
{
	sqlite3_busy_timeout(h, 30000);
	int rc = SQLITE_OK;
	if (wal) {
		/* The -wal and -shm files stay between commands: made and removed by
		 * each, they would change the directory's mtime, which says whether
		 * the run files need checking (dir_unchanged). */
		int persist = 1;
		sqlite3_file_control(h, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
		if ((rc = sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL,
				       NULL)) != SQLITE_OK)
			return rc;
		/* the kept WAL is cut back after a checkpoint (an index build
		 * grows it to the size of the index) */
		sqlite3_exec(h, "PRAGMA journal_size_limit=1048576", NULL, NULL, NULL);
	}
	/* sorts for the noise sets stay in memory, not in temp files */
	sqlite3_exec(h, "PRAGMA temp_store=MEMORY", NULL, NULL, NULL);
	sqlite3_stmt *st;
	if ((rc = sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL)) != SQLITE_OK)
		return rc;
	int version = 0;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return rc;
	if (version == SCHEMA_VERSION)
		return SQLITE_OK;
	/* Another schema (or none): the index is a cache, so it is made again. */
	char sql[sizeof schema + 256];
	snprintf(sql, sizeof sql, "BEGIN IMMEDIATE; DROP TABLE IF EXISTS runs; DROP TABLE IF EXISTS noise_sets;"
		 " DROP TABLE IF EXISTS synced; DROP TABLE IF EXISTS settings; %s PRAGMA user_version=%d; COMMIT;",
		 schema, SCHEMA_VERSION);
	rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static void remove_index(const char *path)
{
	char p[4200];
	unlink(path);
	snprintf(p, sizeof p, "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", path);
	unlink(p);
}

/* The connection for dir: cached for the process, rebuilt when corrupt, in
 * memory when the store cannot hold an index. NULL only when even that fails. */
static sqlite3 *open_db(const char *dir, char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, STOREIDX_FILE);
	struct stat st;
	bool have = stat(path, &st) == 0;
	if (db && !strcmp(db_dir, dir) && (db_ino ? have && st.st_ino == db_ino && st.st_dev == db_dev : !have))
		return db;
	storeidx_close();
	for (int attempt = 0; attempt < 2; attempt++) {
		sqlite3 *h = NULL;
		int rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
		if (rc == SQLITE_OK)
			rc = setup(h, true);
		if (rc == SQLITE_OK && stat(path, &st) == 0) {
			db = h;
			db_dev = st.st_dev;
			db_ino = st.st_ino;
			break;
		}
		sqlite3_close(h);
		if (!is_corrupt(rc) || attempt)
			break;
		fprintf(stderr, "kbench: the run index %s was corrupt; rebuilding it from the run files\n", path);
		remove_index(path);
	}
	if (!db) {
		/* A store we may read but not write (another user's, a read-only
		 * mount): the same index, for this process only. */
		sqlite3 *h = NULL;
		if (sqlite3_open(":memory:", &h) != SQLITE_OK || setup(h, false) != SQLITE_OK) {
			snprintf(err, errlen, "cannot make an index of the store %s: %s", dir,
				 h ? sqlite3_errmsg(h) : "out of memory");
			sqlite3_close(h);
			return NULL;
		}
		db = h;
		db_ino = 0;
	}
	snprintf(db_dir, sizeof db_dir, "%s", dir);
	return db;
}

/* One file of the listing, or one row of the index. */
struct fstate {
	char *file;
	int64_t mtime, size, ino;
};

static int by_file(const void *a, const void *b)
{
	return strcmp(((const struct fstate *)a)->file, ((const struct fstate *)b)->file);
}

static void fstate_push(struct fstate **v, int *n, int *cap, const char *file, int64_t mtime,
			int64_t size, int64_t ino)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		struct fstate *nv = realloc(*v, (size_t)*cap * sizeof *nv);
		if (!nv)
			abort();
		*v = nv;
	}
	char *f = strdup(file);
	if (!f)
		abort();
	(*v)[(*n)++] = (struct fstate){ f, mtime, size, ino };
}

static void fstates_free(struct fstate *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].file);
	free(v);
}

/* The dynamic text of a row's summary columns. */
struct buf {
	char *p;
	size_t n, cap;
};

static void bprintf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(struct buf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int w = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (w < 0)
			return;
		if (b->p && b->n + (size_t)w < b->cap) {
			b->n += (size_t)w;
			return;
		}
		size_t cap = (b->cap ? b->cap * 2 : 256) + (size_t)w;
		char *np = realloc(b->p, cap);
		if (!np)
			abort();
		b->p = np;
		b->cap = cap;
		b->p[b->n] = 0;
	}
}

/* A name in one line of the noise text: a newline in a hostile file's name must not start another. */
static void one_line(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	for (char *p = dst; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

static double kv_value(const struct test_result *t, const char *key)
{
	const struct kv *k = test_summary_get(t, key);
	return k && k->has_value ? k->value : NAN;
}

/* What noise learning reads of a run, one fact a line (storeidx_noise_run reads it back). */
static void noise_text(struct buf *b, const struct run *r)
{
	char name[64];
	for (int i = 0; i < r->nblocks; i++) {
		const struct run_block *bl = &r->blocks[i];
		bprintf(b, "B %d %.17g %d %d\n", bl->copies, bl->index_score, bl->index_partial, bl->index_tests);
		for (int k = 0; k < bl->ntests; k++) {
			const struct test_result *t = &bl->tests[k];
			one_line(name, sizeof name, t->id);
			bprintf(b, "T %d %d %.17g %.17g %.17g %s\n", (int)t->kind, (int)t->status, t->score,
				kv_value(t, "others.cpu"), kv_value(t, "throttled"), name);
			for (int p = 0; p < t->npoints; p++) {
				one_line(name, sizeof name, t->points[p].name);
				bprintf(b, "P %d %.17g %s\n", t->points[p].summary, point_mean(&t->points[p]), name);
			}
		}
	}
}

/* The rest of a line after its numbers and the one space before it: a name. */
static void rest_of_line(char *dst, size_t len, const char *p)
{
	if (*p == ' ')
		p++;
	size_t n = strcspn(p, "\n");
	snprintf(dst, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

struct run *storeidx_noise_run(const struct storeidx_row *row)
{
	struct run *r = run_new();
	struct run_meta *m = &r->meta;
	snprintf(m->id, sizeof m->id, "%.*s", (int)(strlen(row->file) > 5 ? strlen(row->file) - 5 : 0),
		 row->file);
	snprintf(m->hostname, sizeof m->hostname, "%s", row->host);
	snprintf(m->kernel_release, sizeof m->kernel_release, "%s", row->kernel);
	snprintf(m->cmdline, sizeof m->cmdline, "%s", row->cmdline);
	m->mode = run_mode_parse(row->mode);
	m->duration_override = row->duration;
	m->iterations = row->iterations;
	m->date = row->date;
	struct run_block *bl = NULL;
	struct test_result *t = NULL;
	for (const char *p = row->noise; p && *p;) {
		char kind = *p;
		char *q = (char *)p + (*p ? 1 : 0);
		if (kind == 'B') {
			int copies = (int)strtol(q, &q, 10);
			double index = strtod(q, &q);
			int partial = (int)strtol(q, &q, 10), itests = (int)strtol(q, &q, 10);
			bl = run_add_block(r, copies);
			bl->index_score = index;
			bl->index_partial = partial != 0;
			bl->index_tests = itests;
			t = NULL;
		} else if (kind == 'T' && bl) {
			int k = (int)strtol(q, &q, 10), status = (int)strtol(q, &q, 10);
			double score = strtod(q, &q), others = strtod(q, &q), throttled = strtod(q, &q);
			char id[32];
			rest_of_line(id, sizeof id, q);
			t = run_block_add_test(bl, id, "", "", 0, 0, "");
			t->kind = k == RESULT_POINTS ? RESULT_POINTS : RESULT_RATE;
			t->status = (enum test_status)status;
			t->score = score;
			if (!isnan(others))
				test_summary_set(t, "others.cpu", others, NULL);
			if (!isnan(throttled))
				test_summary_set(t, "throttled", throttled, NULL);
		} else if (kind == 'P' && t) {
			int summary = (int)strtol(q, &q, 10);
			double mean = strtod(q, &q);
			char name[32];
			rest_of_line(name, sizeof name, q);
			struct point *pt = test_point(t, name, 0, "", "", false, summary != 0);
			if (isfinite(mean))
				point_push(pt, mean);
		}
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : p + strlen(p);
	}
	return r;
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
		if (sqlite3_step(st) == SQLITE_ROW)
			sid = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	return sid;
}

/* Binds a run's summary (or a broken file's error) to the insert's parameters 6 on. */
static void bind_run(sqlite3_stmt *st, const struct run *r, const char *error, int64_t mtime,
		     struct buf *blocks, struct buf *keys, struct buf *noise, int64_t sid)
{
	blocks->n = keys->n = noise->n = 0;
	if (!r) {
		sqlite3_bind_text(st, 6, error, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 7, mtime);
		for (int i = 8; i <= 22; i++)
			sqlite3_bind_null(st, i);
		return;
	}
	const struct run_meta *m = &r->meta;
	char tests[160];
	run_tests_text(r, tests, sizeof tests);
	bprintf(keys, " ");
	for (int i = 0; i < r->nblocks; i++) {
		const struct run_block *bl = &r->blocks[i];
		bprintf(blocks, "%d %.17g %d %d;", bl->copies, bl->index_score, bl->index_partial, bl->index_tests);
		for (int k = 0; k < bl->ntests; k++)
			bprintf(keys, "%d:%s ", bl->copies, bl->tests[k].id);
	}
	noise_text(noise, r);
	sqlite3_bind_null(st, 6);
	sqlite3_bind_int64(st, 7, (int64_t)m->date);
	sqlite3_bind_text(st, 8, m->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, m->kernel_release, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, m->kernel_version, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 11, m->hostname, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 12, run_mode_info(m->mode)->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 13, m->cmdline, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 14, m->source[0] != 0);
	sqlite3_bind_int(st, 15, r->incomplete);
	sqlite3_bind_double(st, 16, isfinite(m->duration_override) ? m->duration_override : 0);
	sqlite3_bind_int(st, 17, m->iterations);
	sqlite3_bind_text(st, 18, blocks->p ? blocks->p : "", (int)blocks->n, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 19, tests, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 20, keys->p, (int)keys->n, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 21, noise->p ? noise->p : "", (int)noise->n, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 22, sid);
}

/* Indexes the files that are new or changed, drops the rows of files gone.
 * SQLite's result code. */
static int apply(sqlite3 *h, const char *dir, struct fstate *fresh, int nfresh, struct fstate *gone,
		 int ngone)
{
	sqlite3_stmt *ins = NULL, *del = NULL, *add_set = NULL, *get_set = NULL;
	int rc = sqlite3_prepare_v2(h,
				    "INSERT OR REPLACE INTO runs (file, id, mtime, size, ino, error, date, name,"
				    " kernel, kversion, host, mode, cmdline, has_source, incomplete, duration,"
				    " iterations, blocks, tests, testkeys, noise, sid)"
				    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
				    " ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
				    -1, &ins, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h, "DELETE FROM runs WHERE file = ?1", -1, &del, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h,
					"INSERT OR IGNORE INTO settings (host, kernel, cmdline, mode, duration, iterations)"
					" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
					-1, &add_set, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h,
					"SELECT sid FROM settings WHERE host = ?1 AND kernel = ?2 AND cmdline = ?3"
					" AND mode = ?4 AND duration = ?5 AND iterations = ?6",
					-1, &get_set, NULL);
	struct buf blocks = { 0 }, keys = { 0 }, noise = { 0 };
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
			const struct fstate *f = &fresh[i - ngone];
			char path[4400], error[300] = "";
			snprintf(path, sizeof path, "%s/%s", dir, f->file);
			struct stat st;
			if (stat(path, &st) < 0) {
				/* gone since the listing (deleted meanwhile): no row */
				sqlite3_bind_text(del, 1, f->file, -1, SQLITE_STATIC);
				rc = sqlite3_step(del) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h);
				sqlite3_reset(del);
			} else {
				struct run *r = runfile_read(path, error, sizeof error);
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
static int list_dir(const char *dir, struct fstate **out, int *n, bool *busy)
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

static int list_rows(sqlite3 *h, struct fstate **out, int *n)
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
static int sync_index(sqlite3 *h, const char *dir, struct fstate *files, int nfiles)
{
	struct fstate *rows;
	int nrows;
	int rc = list_rows(h, &rows, &nrows);
	if (rc != SQLITE_OK)
		return rc;
	if (nfiles)
		qsort(files, (size_t)nfiles, sizeof *files, by_file);
	if (nrows)
		qsort(rows, (size_t)nrows, sizeof *rows, by_file);
	struct fstate *fresh = calloc((size_t)nfiles + 1, sizeof *fresh), *gone = calloc((size_t)nrows + 1, sizeof *gone);
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
	fstates_free(rows, nrows);
	return rc;
}

static void row_from(sqlite3_stmt *st, struct storeidx_row *r)
{
#define TXT(i) ((const char *)sqlite3_column_text(st, i))
#define STR(i) (TXT(i) ? TXT(i) : "")
	r->file = STR(0);
	r->error = TXT(1);
	r->date = sqlite3_column_int64(st, 2);
	r->name = STR(3);
	r->kernel = STR(4);
	r->kversion = STR(5);
	r->host = STR(6);
	r->mode = STR(7);
	r->cmdline = STR(8);
	r->has_source = sqlite3_column_int(st, 9) != 0;
	r->incomplete = sqlite3_column_int(st, 10) != 0;
	r->duration = sqlite3_column_double(st, 11);
	r->iterations = sqlite3_column_int(st, 12);
	r->blocks = STR(13);
	r->tests = STR(14);
	r->testkeys = STR(15);
	r->noise = STR(16);
	r->group = sqlite3_column_count(st) > 17 ? sqlite3_column_int64(st, 17) : 0;
#undef STR
#undef TXT
}

static int64_t ns_of(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The directory's mtime noted when the rows last matched its listing; -1 for none. */
static int64_t noted_mtime(sqlite3 *h)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(h, "SELECT dir_mtime FROM synced", -1, &st, NULL) != SQLITE_OK)
		return -1;
	int64_t mtime = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_finalize(st);
	return mtime;
}

/* Notes the directory's mtime the rows now match (0: none to trust). */
static void note_synced(sqlite3 *h, int64_t mtime)
{
	if (noted_mtime(h) == (mtime ? mtime : -1))
		return;
	sqlite3_stmt *st;
	if (sqlite3_exec(h, "BEGIN IMMEDIATE; DELETE FROM synced", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
		return;
	}
	if (mtime && sqlite3_prepare_v2(h, "INSERT INTO synced (dir_mtime) VALUES (?1)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, mtime);
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	/* a note not kept costs the next command a listing, nothing more */
	if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

/* The connection when the rows need no check against the listing, else
 * NULL. Any file added, removed or renamed in the store changes the
 * directory's mtime, so one equal to the mtime noted at the last full check
 * means the same files: one stat, not ten thousand. (A file overwritten in
 * place leaves it as it was: README says so.) Within one command, a second
 * look in the same second is not checked again either (compare asks for
 * each side, then for the noise sets), index on disk or in memory. */
static sqlite3 *fresh_db(const char *dir, struct timespec now, char *err, size_t errlen)
{
	struct stat dst, ist;
	if (stat(dir, &dst) < 0)
		return NULL;
	sqlite3 *was = db;
	if (db && !strcmp(db_dir, dir) && synced_files > 0 && ns_of(dst.st_mtim) == ns_of(synced_mtime) &&
	    now.tv_sec - synced_at.tv_sec < 1 && open_db(dir, err, errlen) == was)
		return was;
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, STOREIDX_FILE);
	if (stat(path, &ist) < 0)
		return NULL; /* made by a full check, which leaves an empty store without one */
	sqlite3 *h = open_db(dir, err, errlen);
	if (!h || !db_ino || noted_mtime(h) != ns_of(dst.st_mtim))
		return NULL;
	synced_mtime = dst.st_mtim;
	synced_at = now;
	synced_files = 1;
	return h;
}

/* Synced, then the rows of a query (its parameters bound by bind). */
static int each(const char *dir, const char *sql, void (*bind)(sqlite3_stmt *, const void *),
		const void *bind_arg, int (*fn)(const struct storeidx_row *, void *), void *arg, char *err,
		size_t errlen)
{
	struct fstate *files = NULL;
	int nfiles = 0;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t trusted = 0; /* the directory's mtime to note after a full check, 0 for none */
	int rc;
	for (int attempt = 0;; attempt++) {
		sqlite3 *h = attempt == 0 ? fresh_db(dir, now, err, errlen) : NULL;
		bool fresh = h != NULL;
		if (!fresh && !files) {
			struct stat before;
			struct timespec wall;
			clock_gettime(CLOCK_REALTIME, &wall);
			bool have = stat(dir, &before) == 0, busy;
			rc = list_dir(dir, &files, &nfiles, &busy);
			if (rc == -ENOENT)
				return 0;
			if (rc < 0) {
				snprintf(err, errlen, "cannot read the store %s: %s", dir, strerror(-rc));
				return rc;
			}
			if (nfiles == 0) {
				/* No runs, no rows: an empty store is left as it is (no index file made in it). */
				free(files);
				return 0;
			}
			/* the directory's mtime from before the listing: a file added meanwhile shows next time */
			synced_mtime = have ? before.st_mtim : (struct timespec){ 0 };
			/* Trusted next time only when no save was under way and the mtime
			 * is two seconds old: a file added just after the stat, within the
			 * filesystem's timestamp granularity, could leave it unchanged. */
			if (have && !busy && ns_of(wall) - ns_of(before.st_mtim) >= 2000000000LL)
				trusted = ns_of(before.st_mtim);
		}
		if (!h)
			h = open_db(dir, err, errlen);
		if (!h) {
			fstates_free(files, nfiles);
			return -EIO;
		}
		rc = SQLITE_OK;
		if (!fresh) {
			rc = sync_index(h, dir, files, nfiles);
			synced_files = rc == SQLITE_OK && synced_mtime.tv_sec ? nfiles : 0;
			synced_at = now;
			if (rc == SQLITE_OK && db_ino)
				note_synced(h, trusted);
		}
		sqlite3_stmt *st = NULL;
		if (rc == SQLITE_OK)
			rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
		if (rc == SQLITE_OK) {
			if (bind)
				bind(st, bind_arg);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				struct storeidx_row row;
				row_from(st, &row);
				if (fn(&row, arg)) {
					rc = SQLITE_DONE;
					break;
				}
			}
			if (rc == SQLITE_DONE)
				rc = SQLITE_OK;
		}
		sqlite3_finalize(st);
		if (rc == SQLITE_OK)
			break;
		if (is_corrupt(rc) && attempt == 0) {
			/* damaged after it opened (a torn copy, a disk error): made again */
			char path[4200];
			snprintf(path, sizeof path, "%s/%s", dir, STOREIDX_FILE);
			fprintf(stderr, "kbench: the run index %s was corrupt; rebuilding it from the run files\n",
				path);
			storeidx_close();
			remove_index(path);
			continue;
		}
		snprintf(err, errlen, "cannot read the index of the store %s: %s", dir, sqlite3_errstr(rc));
		fstates_free(files, nfiles);
		return -EIO;
	}
	fstates_free(files, nfiles);
	return 0;
}

int storeidx_each(const char *dir, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		  char *err, size_t errlen)
{
	return each(dir, "SELECT " COLS " FROM runs ORDER BY date DESC, id DESC", NULL, NULL, fn, arg, err,
		    errlen);
}

int storeidx_list(const char *dir, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		  char *err, size_t errlen)
{
	return each(dir, "SELECT " COLS_LIST " FROM runs ORDER BY date DESC, id DESC", NULL, NULL, fn, arg,
		    err, errlen);
}

static void bind_nth(sqlite3_stmt *st, const void *arg)
{
	sqlite3_bind_int64(st, 1, *(const long *)arg);
}

int storeidx_nth(const char *dir, long n, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		 char *err, size_t errlen)
{
	return each(dir,
		    "SELECT " COLS_LIST " FROM runs WHERE error IS NULL ORDER BY date DESC, id DESC LIMIT 1 OFFSET ?1",
		    bind_nth, &n, fn, arg, err, errlen);
}

struct page_key {
	long offset, count;
};

static void bind_page(sqlite3_stmt *st, const void *arg)
{
	const struct page_key *k = arg;
	sqlite3_bind_int64(st, 1, k->count);
	sqlite3_bind_int64(st, 2, k->offset);
}

int storeidx_page(const char *dir, long offset, long count,
		  int (*fn)(const struct storeidx_row *row, void *arg), void *arg, char *err, size_t errlen)
{
	struct page_key k = { offset, count };
	return each(dir, "SELECT " COLS_LIST " FROM runs ORDER BY date DESC, id DESC LIMIT ?1 OFFSET ?2", bind_page,
		    &k, fn, arg, err, errlen);
}

/* The number a one-number query yields rides in a row's date column. */
static int take_number(const struct storeidx_row *row, void *arg)
{
	*(long *)arg = (long)row->date;
	return 1;
}

int storeidx_count(const char *dir, long *n, char *err, size_t errlen)
{
	*n = 0;
	return each(dir, "SELECT '', NULL, count(*), '', '', '', '', '', '', 0, 0, 0, 0, '', '', NULL, NULL FROM runs",
		    NULL, NULL, take_number, n, err, errlen);
}

struct find_key {
	long after;
	char *like;
};

static void bind_find(sqlite3_stmt *st, const void *arg)
{
	const struct find_key *k = arg;
	sqlite3_bind_int64(st, 1, k->after);
	sqlite3_bind_text(st, 2, k->like, -1, SQLITE_STATIC);
}

int storeidx_find(const char *dir, long after, const char *text, long *found, char *err, size_t errlen)
{
	/* LIKE is case-blind for ASCII, as the search always was; its own
	 * wildcards in the text are taken literally. */
	struct buf like = { 0 };
	bprintf(&like, "%%");
	for (const char *p = text; *p; p++)
		bprintf(&like, "%s%c", *p == '%' || *p == '_' || *p == '\\' ? "\\" : "", *p);
	bprintf(&like, "%%");
	struct find_key k = { after, like.p };
	*found = -1;
	int rc = each(dir,
		      "SELECT '', NULL, pos, '', '', '', '', '', '', 0, 0, 0, 0, '', '', NULL, NULL FROM"
		      " (SELECT row_number() OVER (ORDER BY date DESC, id DESC) - 1 AS pos, id, error, name, kernel,"
		      " host, tests FROM runs)"
		      " WHERE id LIKE ?2 ESCAPE '\\' OR (error IS NULL AND (name LIKE ?2 ESCAPE '\\'"
		      " OR kernel LIKE ?2 ESCAPE '\\' OR host LIKE ?2 ESCAPE '\\' OR tests LIKE ?2 ESCAPE '\\'))"
		      " ORDER BY pos <= ?1, pos LIMIT 1",
		      bind_find, &k, take_number, found, err, errlen);
	free(like.p);
	return rc;
}

struct same_key {
	const char *host, *kernel, *kversion, *mode;
	int64_t date;
};

static void bind_same(sqlite3_stmt *st, const void *arg)
{
	const struct same_key *k = arg;
	sqlite3_bind_text(st, 1, k->host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, k->date);
	sqlite3_bind_text(st, 3, k->kernel, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->kversion, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, k->mode, -1, SQLITE_STATIC);
}

int storeidx_each_same(const char *dir, const char *host, int64_t date, const char *kernel,
		       const char *kversion, const char *mode,
		       int (*fn)(const struct storeidx_row *row, void *arg), void *arg, char *err,
		       size_t errlen)
{
	struct same_key k = { host, kernel, kversion, mode, date };
	return each(dir,
		    "SELECT " COLS " FROM runs WHERE error IS NULL AND host = ?1 AND date = ?2 AND kernel = ?3"
		    " AND kversion = ?4 AND mode = ?5 ORDER BY date DESC, id DESC",
		    bind_same, &k, fn, arg, err, errlen);
}

struct excl {
	const char *const *ids;
	int n;
};

static void bind_excl(sqlite3_stmt *st, const void *arg)
{
	const struct excl *x = arg;
	for (int i = 0; i < x->n; i++)
		sqlite3_bind_text(st, i + 1, x->ids[i] ? x->ids[i] : "", -1, SQLITE_STATIC);
}

struct groups {
	struct storeidx_set *v;
	int n, cap;
	struct buf sig;
};

static int add_to_group(const struct storeidx_row *row, void *arg)
{
	struct groups *g = arg;
	struct storeidx_set *cur = g->n ? &g->v[g->n - 1] : NULL;
	if (!cur || cur->group != row->group) {
		if (g->n == g->cap) {
			g->cap = g->cap ? g->cap * 2 : 64;
			struct storeidx_set *nv = realloc(g->v, (size_t)g->cap * sizeof *nv);
			if (!nv)
				abort();
			g->v = nv;
		}
		cur = &g->v[g->n++];
		memset(cur, 0, sizeof *cur);
		cur->group = row->group;
		snprintf(cur->mode, sizeof cur->mode, "%s", row->mode);
		cur->duration = row->duration;
		cur->iterations = row->iterations;
	}
	int64_t *nr = realloc(cur->rows, (size_t)(cur->k + 1) * sizeof *nr);
	if (!nr)
		abort();
	cur->rows = nr;
	/* the row id rides in the date column of this query */
	cur->rows[cur->k++] = row->date;
	return 0;
}

int storeidx_noise_sets(const char *dir, const char *const *exclude, int nexclude,
			struct storeidx_set **sets, int *nsets, char *err, size_t errlen)
{
	struct buf sql = { 0 }, in = { 0 };
	bprintf(&in, "''");
	for (int i = 0; i < nexclude && i < 999; i++)
		bprintf(&in, ", ?%d", i + 1);
	/* A set is what noise_learn's same_settings() groups; the first row of
	 * the list order names it, as the first run of a set does there. */
	/* (A setting holds its mode: leaving imported runs out after the
	 * grouping leaves the other sets, and their order, as they were.) */
	bprintf(&sql,
		"WITH o AS (SELECT rowid AS rid, sid, row_number() OVER (ORDER BY date DESC, id DESC) AS pos"
		" FROM runs WHERE error IS NULL AND id NOT IN (%s)),"
		" g AS (SELECT *, min(pos) OVER s AS gpos, count(*) OVER s AS gn FROM o"
		" WINDOW s AS (PARTITION BY sid))"
		" SELECT '', NULL, rid, '', t.kernel, '', t.host, t.mode, t.cmdline, 0, 0, t.duration,"
		" t.iterations, '', '', NULL, NULL, gpos FROM g JOIN settings AS t USING (sid)"
		" WHERE gn >= 2 AND t.mode != 'imported' ORDER BY gpos, pos",
		in.p);
	struct excl x = { exclude, nexclude < 999 ? nexclude : 999 };
	struct groups g = { 0 };
	int rc = each(dir, sql.p, bind_excl, &x, add_to_group, &g, err, errlen);
	free(sql.p);
	free(in.p);
	for (int i = 0; i < g.n; i++) {
		struct storeidx_set *st = &g.v[i];
		g.sig.n = 0;
		for (int k = 0; k < st->k; k++)
			bprintf(&g.sig, "%s%lld", k ? "," : "", (long long)st->rows[k]);
		if (!(st->sig = strdup(g.sig.p)))
			abort();
	}
	free(g.sig.p);
	if (rc < 0) {
		storeidx_sets_free(g.v, g.n);
		g.v = NULL;
		g.n = 0;
	}
	*sets = g.v;
	*nsets = g.n;
	return rc;
}

void storeidx_sets_free(struct storeidx_set *sets, int n)
{
	for (int i = 0; i < n; i++) {
		free(sets[i].rows);
		free(sets[i].sig);
	}
	free(sets);
}

int storeidx_set_rows(const struct storeidx_set *set, int (*fn)(const struct storeidx_row *row, void *arg),
		      void *arg)
{
	sqlite3_stmt *st;
	if (!db || sqlite3_prepare_v2(db, "SELECT " COLS_NOISE ", 0 FROM runs WHERE rowid = ?1", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	int rc = 0;
	for (int k = 0; k < set->k && !rc; k++) {
		sqlite3_bind_int64(st, 1, set->rows[k]);
		if (sqlite3_step(st) == SQLITE_ROW) {
			struct storeidx_row row;
			row_from(st, &row);
			rc = fn(&row, arg);
		} else {
			rc = -EIO;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc < 0 ? rc : 0;
}

char *storeidx_set_cached(const struct storeidx_set *set)
{
	/* prepared once per connection: a store has thousands of sets */
	if (!db || (!cached_st && sqlite3_prepare_v2(db, "SELECT acc FROM noise_sets WHERE sig = ?1", -1,
						     &cached_st, NULL) != SQLITE_OK))
		return NULL;
	sqlite3_stmt *st = cached_st;
	sqlite3_bind_text(st, 1, set->sig, -1, SQLITE_STATIC);
	char *text = NULL;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	    !(text = strdup((const char *)sqlite3_column_text(st, 0))))
		abort();
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return text;
}

void storeidx_set_keep(const struct storeidx_set *set, const char *acc)
{
	sqlite3_stmt *st;
	if (!db || sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO noise_sets (sig, acc) VALUES (?1, ?2)", -1, &st,
				      NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, set->sig, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, acc, -1, SQLITE_STATIC);
	sqlite3_step(st); /* a cache: one not kept is made again next time */
	sqlite3_finalize(st);
}

void storeidx_sets_prune(const struct storeidx_set *sets, int n)
{
	/* sets of rows that changed or went are never asked for again: when
	 * the cache holds many more than the store has, it starts afresh */
	sqlite3_stmt *st;
	if (!db || sqlite3_prepare_v2(db, "SELECT count(*) FROM noise_sets", -1, &st, NULL) != SQLITE_OK)
		return;
	int have = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (have > 2 * n + 64)
		sqlite3_exec(db, "DELETE FROM noise_sets", NULL, NULL, NULL);
	(void)sets;
}
