/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#include "storeidx_int.h"

/* Bumped whenever a column or what one holds changes: an older index is rebuilt. */
#define SCHEMA_VERSION 9

/* The runs table: the file's facts, its error when broken, the run's metadata columns (made from
 * their rows, storeidx_meta_columns), and what lists, picking and noise learning read. */
static const char runs_table[] =
	"CREATE TABLE IF NOT EXISTS runs ("
	" file TEXT PRIMARY KEY, id TEXT NOT NULL,"
	" mtime INTEGER, size INTEGER, ino INTEGER,"
	" error TEXT, %s, incomplete INTEGER,"
	" blocks TEXT, tests TEXT, testkeys TEXT, noise TEXT, sid INTEGER);";
static const char schema[] =
	/* Each distinct setting noise learning groups runs by, once: its sets are
	 * formed from small numbers, not by sorting ten thousand command lines. */
	"CREATE TABLE IF NOT EXISTS settings (sid INTEGER PRIMARY KEY, host TEXT, kernel TEXT, cmdline TEXT,"
	" mode TEXT, duration REAL, iterations INTEGER, grp TEXT,"
	" UNIQUE (host, kernel, cmdline, mode, duration, iterations, grp));"
	"CREATE INDEX IF NOT EXISTS runs_sets ON runs(date DESC, id DESC, error, sid);"
	/* a sequence's runs (meta.seq), found when it is started again */
	"CREATE INDEX IF NOT EXISTS runs_seq ON runs(seq, seq_run) WHERE seq IS NOT NULL;"
	/* The list order, covering what a list reads: a list of thousands reads
	 * this index alone, not the rows with their long command lines and noise. */
	"CREATE INDEX IF NOT EXISTS runs_list ON runs(date DESC, id DESC, file, error, name, kernel, host,"
	" mode, has_source, incomplete, blocks, tests);"
	/* what noise learning made of one set of runs (named by their rows), kept for the next command */
	"CREATE TABLE IF NOT EXISTS noise_sets (sig TEXT PRIMARY KEY, acc TEXT);"
	/* the directory (device, inode, mtime in ns) when the rows last matched its listing:
	 * unchanged, no listing */
	"CREATE TABLE IF NOT EXISTS synced (dir TEXT NOT NULL);";

#define COLS_BASE "file, error, date, name, kernel, kversion, host, mode, cmdline, has_source, incomplete," \
	     " duration, iterations, blocks, tests"
#define COLS COLS_BASE ", testkeys, noise"
/* What a list shows: the columns of the index runs_list (the rest empty). */
#define COLS_LIST "file, error, date, name, kernel, '', host, mode, '', has_source, incomplete, 0, 0," \
		  " blocks, tests, NULL, NULL"

sqlite3 *storeidx_db;
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
	storeidx_noise_close();
	if (storeidx_db)
		sqlite3_close(storeidx_db);
	storeidx_db = NULL;
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
	char sql[sizeof schema + sizeof runs_table + 1024], runs[sizeof runs_table + 768];
	snprintf(runs, sizeof runs, runs_table, storeidx_meta_columns(true));
	snprintf(sql, sizeof sql, "BEGIN IMMEDIATE; DROP TABLE IF EXISTS runs; DROP TABLE IF EXISTS noise_sets;"
		 " DROP TABLE IF EXISTS synced; DROP TABLE IF EXISTS settings; %s %s PRAGMA user_version=%d; COMMIT;",
		 runs, schema, SCHEMA_VERSION);
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
	if (storeidx_db && !strcmp(db_dir, dir) && (db_ino ? have && st.st_ino == db_ino && st.st_dev == db_dev : !have))
		return storeidx_db;
	storeidx_close();
	for (int attempt = 0; attempt < 2; attempt++) {
		sqlite3 *h = NULL;
		/* one thread uses the connection (the worker threads never touch the
		 * store): no mutex taken for every column of every row */
		int rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
					 NULL);
		if (rc == SQLITE_OK)
			rc = setup(h, true);
		if (rc == SQLITE_OK && stat(path, &st) == 0) {
			storeidx_db = h;
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
	if (!storeidx_db) {
		/* A store we may read but not write (another user's, a read-only
		 * mount): the same index, for this process only. */
		sqlite3 *h = NULL;
		if (sqlite3_open(":memory:", &h) != SQLITE_OK || setup(h, false) != SQLITE_OK) {
			snprintf(err, errlen, "cannot make an index of the store %s: %s", dir,
				 h ? sqlite3_errmsg(h) : "out of memory");
			sqlite3_close(h);
			return NULL;
		}
		storeidx_db = h;
		db_ino = 0;
	}
	snprintf(db_dir, sizeof db_dir, "%s", dir);
	return storeidx_db;
}

void storeidx_bprintf(struct storeidx_buf *b, const char *fmt, ...)
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

void storeidx_row_from(sqlite3_stmt *st, struct storeidx_row *r)
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
	r->seq_run = sqlite3_column_count(st) > 18 ? sqlite3_column_int(st, 18) : 0;
#undef STR
#undef TXT
}

static int64_t ns_of(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A directory as the index notes it: its device and inode (a store copied
 * elsewhere, index and all, is another directory) and its mtime. */
static void dir_stamp(const struct stat *st, char *buf, size_t len)
{
	snprintf(buf, len, "%llu:%llu:%lld", (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		 (long long)ns_of(st->st_mtim));
}

/* Is stamp (NULL: none) the one noted when the rows last matched the listing? */
static bool noted_is(sqlite3 *h, const char *stamp)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(h, "SELECT dir FROM synced", -1, &st, NULL) != SQLITE_OK)
		return false;
	bool same = sqlite3_step(st) == SQLITE_ROW
			    ? stamp && sqlite3_column_text(st, 0) && !strcmp((const char *)sqlite3_column_text(st, 0), stamp)
			    : !stamp;
	sqlite3_finalize(st);
	return same;
}

/* Notes the directory the rows now match (NULL: none to trust). */
static void note_synced(sqlite3 *h, const char *stamp)
{
	if (noted_is(h, stamp))
		return;
	sqlite3_stmt *st;
	if (sqlite3_exec(h, "BEGIN IMMEDIATE; DELETE FROM synced", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
		return;
	}
	if (stamp && sqlite3_prepare_v2(h, "INSERT INTO synced (dir) VALUES (?1)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, stamp, -1, SQLITE_STATIC);
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	/* a note not kept costs the next command a listing, nothing more */
	if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

/* The connection when the rows need no check against the listing, else
 * NULL. Any file added, removed or renamed in the store changes the
 * directory's mtime, so the same directory (device, inode) with the mtime
 * noted at the last full check means the same files: one stat, not ten
 * thousand. (A file overwritten in
 * place leaves it as it was: docs/store.md says so.) Within one command, a second
 * look in the same second is not checked again either (compare asks for
 * each side, then for the noise sets), index on disk or in memory. */
static sqlite3 *fresh_db(const char *dir, struct timespec now, char *err, size_t errlen)
{
	struct stat dst, ist;
	if (stat(dir, &dst) < 0)
		return NULL;
	sqlite3 *was = storeidx_db;
	if (storeidx_db && !strcmp(db_dir, dir) && synced_files > 0 && ns_of(dst.st_mtim) == ns_of(synced_mtime) &&
	    now.tv_sec - synced_at.tv_sec < 1 && open_db(dir, err, errlen) == was)
		return was;
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, STOREIDX_FILE);
	if (stat(path, &ist) < 0)
		return NULL; /* made by a full check, which leaves an empty store without one */
	sqlite3 *h = open_db(dir, err, errlen);
	char stamp[80];
	dir_stamp(&dst, stamp, sizeof stamp);
	if (!h || !db_ino || !noted_is(h, stamp))
		return NULL;
	synced_mtime = dst.st_mtim;
	synced_at = now;
	synced_files = 1;
	return h;
}

/* Synced, then the rows of a query (its parameters bound by bind). */
int storeidx_query(const char *dir, const char *sql, void (*bind)(sqlite3_stmt *, const void *),
		const void *bind_arg, int (*fn)(const struct storeidx_row *, void *), void *arg, char *err,
		size_t errlen)
{
	struct storeidx_file *files = NULL;
	int nfiles = 0;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	char trusted[80] = ""; /* the directory to note after a full check, "" for none */
	int rc;
	for (int attempt = 0;; attempt++) {
		sqlite3 *h = attempt == 0 ? fresh_db(dir, now, err, errlen) : NULL;
		bool fresh = h != NULL;
		if (!fresh && !files) {
			struct stat before;
			struct timespec wall;
			clock_gettime(CLOCK_REALTIME, &wall);
			bool have = stat(dir, &before) == 0, busy;
			rc = storeidx_list_dir(dir, &files, &nfiles, &busy);
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
				dir_stamp(&before, trusted, sizeof trusted);
		}
		if (!h)
			h = open_db(dir, err, errlen);
		if (!h) {
			storeidx_files_free(files, nfiles);
			return -EIO;
		}
		rc = SQLITE_OK;
		if (!fresh) {
			rc = storeidx_sync_rows(h, dir, files, nfiles);
			synced_files = rc == SQLITE_OK && synced_mtime.tv_sec ? nfiles : 0;
			synced_at = now;
			if (rc == SQLITE_OK && db_ino)
				note_synced(h, trusted[0] ? trusted : NULL);
		}
		sqlite3_stmt *st = NULL;
		if (rc == SQLITE_OK)
			rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
		if (rc == SQLITE_OK) {
			if (bind)
				bind(st, bind_arg);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				struct storeidx_row row;
				storeidx_row_from(st, &row);
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
		storeidx_files_free(files, nfiles);
		return -EIO;
	}
	storeidx_files_free(files, nfiles);
	return 0;
}

int storeidx_each(const char *dir, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		  char *err, size_t errlen)
{
	return storeidx_query(dir, "SELECT " COLS " FROM runs ORDER BY date DESC, id DESC", NULL, NULL, fn, arg, err,
		    errlen);
}

int storeidx_list(const char *dir, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		  char *err, size_t errlen)
{
	return storeidx_query(dir, "SELECT " COLS_LIST " FROM runs ORDER BY date DESC, id DESC", NULL, NULL, fn, arg,
		    err, errlen);
}

static void bind_nth(sqlite3_stmt *st, const void *arg)
{
	sqlite3_bind_int64(st, 1, *(const long *)arg);
}

int storeidx_nth(const char *dir, long n, int (*fn)(const struct storeidx_row *row, void *arg), void *arg,
		 char *err, size_t errlen)
{
	return storeidx_query(dir,
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
	return storeidx_query(dir, "SELECT " COLS_LIST " FROM runs ORDER BY date DESC, id DESC LIMIT ?1 OFFSET ?2", bind_page,
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
	return storeidx_query(dir, "SELECT '', NULL, count(*), '', '', '', '', '', '', 0, 0, 0, 0, '', '', NULL, NULL FROM runs",
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
	struct storeidx_buf like = { 0 };
	storeidx_bprintf(&like, "%%");
	for (const char *p = text; *p; p++)
		storeidx_bprintf(&like, "%s%c", *p == '%' || *p == '_' || *p == '\\' ? "\\" : "", *p);
	storeidx_bprintf(&like, "%%");
	struct find_key k = { after, like.p };
	*found = -1;
	int rc = storeidx_query(dir,
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
	return storeidx_query(dir,
		    "SELECT " COLS " FROM runs WHERE error IS NULL AND host = ?1 AND date = ?2 AND kernel = ?3"
		    " AND kversion = ?4 AND mode = ?5 ORDER BY date DESC, id DESC",
		    bind_same, &k, fn, arg, err, errlen);
}


static void bind_seq(sqlite3_stmt *st, const void *arg)
{
	sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
}

int storeidx_each_seq(const char *dir, const char *seq, int (*fn)(const struct storeidx_row *row, void *arg),
		      void *arg, char *err, size_t errlen)
{
	return storeidx_query(dir,
			      "SELECT " COLS ", 0, seq_run FROM runs WHERE error IS NULL AND seq = ?1"
			      " ORDER BY seq_run, date DESC, id DESC",
			      bind_seq, seq, fn, arg, err, errlen);
}
