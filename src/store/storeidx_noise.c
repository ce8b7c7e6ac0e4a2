/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What noise learning reads from the store index: each run's per-test facts as text, and its sets of same-settings runs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "runfile.h"
#include "storeidx.h"
#include "storeidx_int.h"

/* A noise set's rows as storeidx_noise_run reads them. */
#define COLS_NOISE "runs.file, error, date, name, kernel, kversion, runs.host, runs.mode, runs.cmdline, has_source," \
		   " incomplete, runs.duration, runs.iterations, blocks, tests, NULL, noise"

/* storeidx_set_cached's statement, prepared once per connection (a store has thousands of sets). */
static sqlite3_stmt *cached_st;

void storeidx_noise_close(void)
{
	sqlite3_finalize(cached_st);
	cached_st = NULL;
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
void storeidx_noise_text(struct storeidx_buf *b, const struct run *r)
{
	char name[64];
	/* the run's pace (NAN without): what the index's slope on it is learned from */
	storeidx_bprintf(b, "R %.17g\n", run_pace(r));
	for (int i = 0; i < r->nblocks; i++) {
		const struct run_block *bl = &r->blocks[i];
		storeidx_bprintf(b, "B %d %.17g %d %d\n", bl->copies, bl->index_score, bl->index_partial, bl->index_tests);
		for (int k = 0; k < bl->ntests; k++) {
			const struct test_result *t = &bl->tests[k];
			one_line(name, sizeof name, t->id);
			storeidx_bprintf(b, "T %d %d %.17g %.17g %.17g %s\n", (int)t->kind, (int)t->status, t->score,
				kv_value(t, "others.cpu"), kv_value(t, "throttled"), name);
			for (int p = 0; p < t->npoints; p++) {
				one_line(name, sizeof name, t->points[p].name);
				storeidx_bprintf(b, "P %d %.17g %s\n", t->points[p].summary, point_mean(&t->points[p]), name);
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
		if (kind == 'R') {
			/* run_pace reads back the median of this many readings of the one value */
			double pace = strtod(q, &q);
			struct series *ps = pace > 0 && isfinite(pace) ? run_series(r, "pace", "M/s") : NULL;
			for (int k = 0; ps && ps->n < RUN_PACE_MIN; k++)
				series_push(ps, k, pace);
		} else if (kind == 'B') {
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
	struct storeidx_buf sig;
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
	struct storeidx_buf sql = { 0 }, in = { 0 };
	storeidx_bprintf(&in, "''");
	for (int i = 0; i < nexclude && i < 999; i++)
		storeidx_bprintf(&in, ", ?%d", i + 1);
	/* A set is what noise_learn's same_settings() groups; the first row of
	 * the list order names it, as the first run of a set does there. */
	/* (A setting holds its mode: leaving imported runs out after the
	 * grouping leaves the other sets, and their order, as they were.) */
	storeidx_bprintf(&sql,
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
	int rc = storeidx_query(dir, sql.p, bind_excl, &x, add_to_group, &g, err, errlen);
	free(sql.p);
	free(in.p);
	for (int i = 0; i < g.n; i++) {
		struct storeidx_set *st = &g.v[i];
		g.sig.n = 0;
		for (int k = 0; k < st->k; k++)
			storeidx_bprintf(&g.sig, "%s%lld", k ? "," : "", (long long)st->rows[k]);
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
	if (!storeidx_db || sqlite3_prepare_v2(storeidx_db, "SELECT " COLS_NOISE ", 0 FROM runs WHERE rowid = ?1", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	int rc = 0;
	for (int k = 0; k < set->k && !rc; k++) {
		sqlite3_bind_int64(st, 1, set->rows[k]);
		if (sqlite3_step(st) == SQLITE_ROW) {
			struct storeidx_row row;
			storeidx_row_from(st, &row);
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
	if (!storeidx_db || (!cached_st && sqlite3_prepare_v2(storeidx_db, "SELECT acc FROM noise_sets WHERE sig = ?1", -1,
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
	if (!storeidx_db || sqlite3_prepare_v2(storeidx_db, "INSERT OR REPLACE INTO noise_sets (sig, acc) VALUES (?1, ?2)", -1, &st,
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
	if (!storeidx_db || sqlite3_prepare_v2(storeidx_db, "SELECT count(*) FROM noise_sets", -1, &st, NULL) != SQLITE_OK)
		return;
	int have = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (have > 2 * n + 64)
		sqlite3_exec(storeidx_db, "DELETE FROM noise_sets", NULL, NULL, NULL);
	(void)sets;
}
