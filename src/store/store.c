/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run store: a directory of <id>.json run files, written so a crash never leaves half a run. */
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"
#include "runfile.h"
#include "storeidx.h"
#include "store_int.h"

const char *store_dir(void)
{
	static char dir[4096];
	const char *home = getenv("KBENCH_HOME");
	const char *xdg = getenv("XDG_DATA_HOME");
	if (home && *home)
		snprintf(dir, sizeof dir, "%s", home);
	else if (xdg && *xdg)
		snprintf(dir, sizeof dir, "%s/kbench", xdg);
	else
		snprintf(dir, sizeof dir, "%s/.local/share/kbench",
			 getenv("HOME") && *getenv("HOME") ? getenv("HOME") : "/tmp");
	return dir;
}

/* mkdir -p, for the store and its parents (~/.local/share may not exist). */
static int make_dirs(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static bool id_ok(const char *id)
{
	if (!*id || strlen(id) > 15)
		return false;
	for (const char *p = id; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || *p == '-' || *p == '_'))
			return false;
	return true;
}

bool store_id_valid(const char *id)
{
	return id_ok(id);
}

int store_new_id(char *id, size_t len, char *err, size_t errlen)
{
	const char *dir = store_dir();
	for (int tries = 0; tries < 100; tries++) {
		uint32_t v;
		if (getrandom(&v, sizeof v, 0) != sizeof v)
			v = (uint32_t)rand() ^ (uint32_t)getpid() ^ (uint32_t)time(NULL);
		snprintf(id, len, "%08x", v);
		char path[4200];
		snprintf(path, sizeof path, "%s/%s.json", dir, id);
		if (access(path, F_OK) != 0)
			return 0;
	}
	snprintf(err, errlen, "cannot find a free run id in %s", dir);
	return -EEXIST;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int store_save(struct run *r, char *err, size_t errlen)
{
	const char *dir = store_dir();
	int rc = make_dirs(dir);
	if (rc < 0) {
		snprintf(err, errlen, "cannot create the store %s: %s", dir, strerror(-rc));
		return rc;
	}
	if (!r->meta.id[0] && (rc = store_new_id(r->meta.id, sizeof r->meta.id, err, errlen)) < 0)
		return rc;
	if (!id_ok(r->meta.id)) {
		snprintf(err, errlen, "run id '%s' is not a valid id (lowercase letters, digits, - and _)",
			 r->meta.id);
		return -EINVAL;
	}
	if (!r->meta.name[0])
		snprintf(r->meta.name, sizeof r->meta.name, "%s",
			 r->meta.kernel_release[0] ? r->meta.kernel_release : "unnamed");
	char path[4200], tmp[4200];
	snprintf(path, sizeof path, "%s/%s.json", dir, r->meta.id);
	snprintf(tmp, sizeof tmp, "%s/.%s.json.XXXXXX", dir, r->meta.id);
	if (access(path, F_OK) == 0) {
		snprintf(err, errlen, "run %s is already stored (%s); not overwriting it", r->meta.id, path);
		return -EEXIST;
	}
	char *text = runfile_dump(r, err, errlen);
	if (!text)
		return -ENOMEM;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a file in %s: %s", dir, strerror(errno));
		free(text);
		return rc;
	}
	fchmod(fd, 0644);
	storeidx_kill_point("save-created");
	rc = write_all(fd, text, strlen(text) / 2);
	storeidx_kill_point("save-half");
	if (!rc)
		rc = write_all(fd, text + strlen(text) / 2, strlen(text) - strlen(text) / 2);
	if (!rc)
		rc = write_all(fd, "\n", 1);
	free(text);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	storeidx_kill_point("save-written");
	if (rc) {
		/* Name the run's file, not the temp file: that one is removed now. */
		snprintf(err, errlen, "cannot write %s: %s (nothing was stored)", path, strerror(-rc));
		unlink(tmp);
		return rc;
	}
	/* link() fails with EEXIST instead of replacing, so a run that
	 * appeared meanwhile under the same id is never overwritten; where
	 * hard links are not supported, renameat2's NOREPLACE does the same. */
	if (link(tmp, path) < 0) {
		rc = -errno;
		if (rc != -EEXIST && renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
			rc = 0;
		else if (rc != -EEXIST && errno == EEXIST)
			rc = -EEXIST;
		if (rc) {
			snprintf(err, errlen, rc == -EEXIST ? "run %s is already stored; not overwriting it"
							   : "cannot store run %s: %s",
				 r->meta.id, strerror(-rc));
			unlink(tmp);
			return rc;
		}
	} else {
		storeidx_kill_point("save-linked");
		unlink(tmp);
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

/* A row of the index as a list entry; its file and error point into the
 * row (valid during the row's callback only). */
static void entry_from(struct store_entry *e, const struct storeidx_row *row)
{
	memset(e, 0, sizeof *e);
	size_t len = strlen(row->file);
	snprintf(e->id, sizeof e->id, "%.*s", (int)(len - 5 < 15 ? len - 5 : 15), row->file);
	e->file = (char *)row->file;
	e->date = (time_t)row->date;
	if (row->error) {
		e->error = (char *)row->error;
		return;
	}
	snprintf(e->name, sizeof e->name, "%s", row->name);
	snprintf(e->kernel, sizeof e->kernel, "%s", row->kernel);
	snprintf(e->host, sizeof e->host, "%s", row->host);
	snprintf(e->mode, sizeof e->mode, "%s", row->mode);
	e->incomplete = row->incomplete;
	e->from_elsewhere = row->has_source && run_mode_info(run_mode_parse(row->mode))->measured;
	snprintf(e->tests, sizeof e->tests, "%s", row->tests);
	/* "copies index partial tests;" per block (storeidx.c writes it) */
	for (char *p = (char *)row->blocks; *p;) {
		char *q = p;
		int copies = (int)strtol(p, &q, 10);
		double index = strtod(q, &q);
		int partial = (int)strtol(q, &q, 10);
		strtol(q, &q, 10);
		if (*q != ';')
			break;
		if (e->nblocks < STORE_LIST_BLOCKS)
			e->blocks[e->nblocks] = (struct store_block){ copies, index, partial != 0 };
		e->nblocks++;
		p = q + 1;
	}
}

/* A row of the index added to a list (arg: the list and its capacity). */
int store_add_row(const struct storeidx_row *row, void *arg)
{
	struct store_list *l = ((void **)arg)[0];
	int *cap = ((void **)arg)[1];
	if (l->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		struct store_entry *ne = realloc(l->e, (size_t)*cap * sizeof *ne);
		if (!ne)
			abort();
		l->e = ne;
	}
	struct store_entry *e = &l->e[l->n++];
	entry_from(e, row);
	if (!(e->file = strdup(e->file)) || (e->error && !(e->error = strdup(e->error))))
		abort();
	return 0;
}

struct each_arg {
	int (*fn)(const struct store_entry *e, void *arg);
	void *arg;
};

static int each_entry(const struct storeidx_row *row, void *arg)
{
	const struct each_arg *a = arg;
	struct store_entry e;
	entry_from(&e, row);
	return a->fn(&e, a->arg);
}

int store_each(int (*fn)(const struct store_entry *e, void *arg), void *arg, char *err, size_t errlen)
{
	struct each_arg a = { fn, arg };
	return storeidx_list(store_dir(), each_entry, &a, err, errlen);
}

int store_page(long offset, long count, struct store_list *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	int cap = 0;
	void *arg[2] = { out, &cap };
	int rc = storeidx_page(store_dir(), offset, count, store_add_row, arg, err, errlen);
	if (rc < 0)
		store_list_free(out);
	return rc;
}

int store_count(long *n, char *err, size_t errlen)
{
	return storeidx_count(store_dir(), n, err, errlen);
}

int store_find(long after, const char *text, long *found, char *err, size_t errlen)
{
	return storeidx_find(store_dir(), after, text, found, err, errlen);
}

int store_list(struct store_list *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	int cap = 0;
	void *arg[2] = { out, &cap };
	int rc = storeidx_list(store_dir(), store_add_row, arg, err, errlen);
	if (rc < 0)
		store_list_free(out);
	return rc;
}

void store_list_free(struct store_list *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->e[i].file);
		free(l->e[i].error);
	}
	free(l->e);
	memset(l, 0, sizeof *l);
}

static struct run *load_file(const char *file, const char *id, char *err, size_t errlen)
{
	char path[4400];
	snprintf(path, sizeof path, "%s/%s", store_dir(), file);
	struct run *r = runfile_read(path, err, errlen);
	/* The file name is the id: the store finds runs by it. */
	if (r && strcmp(r->meta.id, id) != 0)
		snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	return r;
}

struct run *store_entry_load(const struct store_entry *e, char *err, size_t errlen)
{
	if (e->error) {
		snprintf(err, errlen, "%s", e->error);
		return NULL;
	}
	return load_file(e->file, e->id, err, errlen);
}

int store_parse_date(const char *s, bool end_of_day, time_t *out)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *end = strptime(s, "%Y-%m-%d %H:%M", &tm);
	bool day = false;
	if (!end || *end) {
		memset(&tm, 0, sizeof tm);
		end = strptime(s, "%Y-%m-%d", &tm);
		day = true;
	}
	if (!end || *end)
		return -1;
	if (day && end_of_day) {
		tm.tm_hour = 23;
		tm.tm_min = 59;
		tm.tm_sec = 59;
	} else if (!day && end_of_day) {
		tm.tm_sec = 59;
	}
	tm.tm_isdst = -1;
	time_t t = mktime(&tm);
	if (t == (time_t)-1)
		return -1;
	*out = t;
	return 0;
}

bool store_filter_empty(const struct store_filter *f)
{
	return !f->kernel && !f->name && !f->tests && !f->mode && !f->has_since && !f->has_until;
}

/* Is id one of the space-separated words of list? */
static bool has_word(const char *list, const char *id, size_t n)
{
	for (const char *p = list; (p = strstr(p, "")) && *p;) {
		size_t w = strcspn(p, " ");
		if (w == n && !strncmp(p, id, n))
			return true;
		p += w;
		p += strspn(p, " ");
	}
	return false;
}

bool store_filter_match(const struct store_filter *f, const struct store_entry *e)
{
	if (e->error)
		return store_filter_empty(f);
	if (f->kernel && fnmatch(f->kernel, e->kernel, 0) != 0)
		return false;
	if (f->name && fnmatch(f->name, e->name, 0) != 0)
		return false;
	if (f->mode && strcmp(f->mode, e->mode) != 0)
		return false;
	if (f->has_since && e->date < f->since)
		return false;
	if (f->has_until && e->date > f->until)
		return false;
	for (const char *p = f->tests; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n && !has_word(e->tests, p, n))
			return false;
		p += n;
		p += *p == ',';
	}
	return true;
}

int store_delete(const char *spec, char *deleted_id, size_t idlen, char *err, size_t errlen)
{
	struct store_list l;
	int rc = store_list(&l, err, errlen);
	if (rc < 0)
		return rc;
	/* A broken file can be deleted by its exact id: that is how one gets rid of it. */
	int i = -1;
	for (int k = 0; k < l.n; k++)
		if (strcmp(l.e[k].id, spec) == 0)
			i = k;
	if (i < 0)
		i = store_list_find(&l, spec, err, errlen);
	if (i < 0) {
		store_list_free(&l);
		return -ENOENT;
	}
	rc = 0;
	char path[4400];
	snprintf(path, sizeof path, "%s/%s", store_dir(), l.e[i].file);
	if (unlink(path) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot delete %s: %s", path, strerror(errno));
	} else if (deleted_id) {
		snprintf(deleted_id, idlen, "%s", l.e[i].id);
	}
	store_list_free(&l);
	return rc;
}

bool store_worth_saving(const struct run *r, char *why, size_t whylen)
{
	for (int b = 0; r && b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++) {
			const struct test_result *tr = &r->blocks[b].tests[t];
			/* a points test cut short keeps its finished points */
			if (tr->nsamples > 0 || tr->status == TEST_IMPORTED || tr->npoints > 0)
				return true;
		}
	if (why && whylen)
		snprintf(why, whylen, "nothing was measured (no sample or point finished)");
	return false;
}

/* Something to compare: one of our tests measured at one of our copy counts
 * (a memlat run has nothing to say against a newer timerlat run's rows).
 * keys is the index's " COPIES:TEST ..." of the other run. */
static bool shares_tests(const struct run *ours, const char *keys)
{
	for (int i = 0; i < ours->nblocks; i++)
		for (int t = 0; t < ours->blocks[i].ntests; t++) {
			char key[64];
			snprintf(key, sizeof key, " %d:%s ", ours->blocks[i].copies, ours->blocks[i].tests[t].id);
			if (strstr(keys, key))
				return true;
		}
	return false;
}

/* The candidates for a baseline, newest first, as the index lists them. */
struct candidate {
	char file[256], id[16], kernel[96];
	bool elsewhere;
};

struct pick {
	const struct run *r;
	struct candidate *c;
	int n, cap;
};

static int add_candidate(const struct storeidx_row *row, void *arg)
{
	struct pick *p = arg;
	size_t len = strlen(row->file);
	if (row->error || len >= sizeof p->c->file || !shares_tests(p->r, row->testkeys))
		return 0;
	char id[16];
	snprintf(id, sizeof id, "%.*s", (int)(len - 5 < 15 ? len - 5 : 15), row->file);
	if (!strcmp(id, p->r->meta.id))
		return 0;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		struct candidate *nc = realloc(p->c, (size_t)p->cap * sizeof *nc);
		if (!nc)
			abort();
		p->c = nc;
	}
	struct candidate *c = &p->c[p->n++];
	snprintf(c->file, sizeof c->file, "%s", row->file);
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->kernel, sizeof c->kernel, "%s", row->kernel);
	c->elsewhere = row->has_source && run_mode_info(run_mode_parse(row->mode))->measured &&
		       strcmp(row->host, p->r->meta.hostname) != 0;
	return 0;
}

struct run *store_pick_baseline(const struct run *r, char *why, size_t whylen)
{
	struct pick p = { .r = r };
	if (storeidx_each(store_dir(), add_candidate, &p, why, whylen) < 0) {
		free(p.c);
		return NULL;
	}
	int pick = -1;
	/* pass 0: another kernel release; pass 1: any other run (the same kernel);
	 * passes 2 and 3 the same among runs another machine measured, which came
	 * in by kbench import from a lab: a kernel is compared on its own machine first. */
	for (int pass = 0; pass < 4 && pick < 0; pass++)
		for (int i = 0; i < p.n && pick < 0; i++) {
			if (p.c[i].elsewhere != (pass >= 2))
				continue;
			if (pass % 2 == 0 && !strcmp(p.c[i].kernel, r->meta.kernel_release))
				continue;
			pick = i;
		}
	struct run *base = NULL;
	if (pick >= 0)
		base = load_file(p.c[pick].file, p.c[pick].id, why, whylen);
	else
		snprintf(why, whylen, "no stored run of these tests at these copy counts");
	free(p.c);
	return base;
}

/* The same measurement: where, when and what ran, and what every test scored. */
static bool same_run(const struct run *a, const struct run *b)
{
	const struct run_meta *x = &a->meta, *y = &b->meta;
	if (strcmp(x->hostname, y->hostname) || x->date != y->date ||
	    strcmp(x->kernel_release, y->kernel_release) || strcmp(x->kernel_version, y->kernel_version) ||
	    x->mode != y->mode || a->nblocks != b->nblocks)
		return false;
	for (int k = 0; k < a->nblocks; k++) {
		const struct run_block *p = &a->blocks[k], *q = &b->blocks[k];
		if (p->copies != q->copies || p->ntests != q->ntests)
			return false;
		for (int i = 0; i < p->ntests; i++) {
			const struct test_result *s = &p->tests[i], *t = &q->tests[i];
			/* the file keeps 17 digits: a score read back is the score written */
			if (strcmp(s->id, t->id) || s->nsamples != t->nsamples ||
			    !(s->score == t->score || (s->score != s->score && t->score != t->score)))
				return false;
		}
	}
	return true;
}

struct same {
	const struct run *r;
	char *id;
	size_t idlen;
	int found;
};

/* A candidate the index names (same host, date, kernel, mode): read in full to compare scores. */
static int check_same(const struct storeidx_row *row, void *arg)
{
	struct same *s = arg;
	char id[16], err[300];
	size_t len = strlen(row->file);
	snprintf(id, sizeof id, "%.*s", (int)(len - 5 < 15 ? len - 5 : 15), row->file);
	struct run *o = load_file(row->file, id, err, sizeof err);
	if (o && same_run(o, s->r)) {
		snprintf(s->id, s->idlen, "%s", id);
		s->found = 1;
	}
	run_free(o);
	return s->found;
}

int store_find_same(const struct run *r, char *id, size_t idlen, char *err, size_t errlen)
{
	struct same s = { r, id, idlen, 0 };
	const struct run_meta *m = &r->meta;
	if (storeidx_each_same(store_dir(), m->hostname, (int64_t)m->date, m->kernel_release,
			       m->kernel_version, run_mode_info(m->mode)->name, check_same, &s, err, errlen) < 0)
		return -1;
	return s.found;
}

struct seq_marks {
	bool *stored;
	int n, found;
};

static int mark_seq_run(const struct storeidx_row *row, void *arg)
{
	struct seq_marks *s = arg;
	if (row->seq_run >= 1 && row->seq_run <= s->n && !s->stored[row->seq_run - 1]) {
		s->stored[row->seq_run - 1] = true;
		s->found++;
	}
	return 0;
}

int store_seq_stored(const char *id, bool *stored, int n, char *err, size_t errlen)
{
	struct seq_marks s = { stored, n, 0 };
	for (int i = 0; i < n; i++)
		stored[i] = false;
	int rc = storeidx_each_seq(store_dir(), id, mark_seq_run, &s, err, errlen);
	return rc < 0 ? rc : s.found;
}
