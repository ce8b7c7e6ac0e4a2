/* The run store: a directory of <id>.json run files, written so a crash never leaves half a run. */
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
	rc = write_all(fd, text, strlen(text));
	if (!rc)
		rc = write_all(fd, "\n", 1);
	free(text);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
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
		unlink(tmp);
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

static int by_date(const void *a, const void *b)
{
	const struct store_entry *x = a, *y = b;
	if (x->date != y->date)
		return x->date > y->date ? -1 : 1;
	return strcmp(y->id, x->id);
}

int store_list(struct store_list *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	const char *dir = store_dir();
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		int rc = -errno;
		snprintf(err, errlen, "cannot read the store %s: %s", dir, strerror(errno));
		return rc;
	}
	int cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 16;
			struct store_entry *ne = realloc(out->e, (size_t)cap * sizeof *ne);
			if (!ne)
				abort();
			out->e = ne;
		}
		struct store_entry *e = &out->e[out->n++];
		memset(e, 0, sizeof *e);
		snprintf(e->path, sizeof e->path, "%s/%s", dir, de->d_name);
		snprintf(e->id, sizeof e->id, "%.*s", (int)(len - 5 < 15 ? len - 5 : 15), de->d_name);
		e->run = runfile_read(e->path, e->error, sizeof e->error);
		if (e->run) {
			e->date = e->run->meta.date;
			/* The file name is the id: the store finds runs by it. */
			if (strcmp(e->run->meta.id, e->id) != 0)
				snprintf(e->run->meta.id, sizeof e->run->meta.id, "%s", e->id);
		} else {
			struct stat st;
			if (stat(e->path, &st) == 0)
				e->date = st.st_mtime;
		}
	}
	closedir(d);
	if (out->n) /* an empty store has no array to sort (qsort's NULL is undefined) */
		qsort(out->e, (size_t)out->n, sizeof *out->e, by_date);
	return 0;
}

void store_list_free(struct store_list *l)
{
	for (int i = 0; i < l->n; i++)
		run_free(l->e[i].run);
	free(l->e);
	memset(l, 0, sizeof *l);
}

static int entry_ok(const struct store_list *l, int i, char *err, size_t errlen)
{
	if (l->e[i].run)
		return i;
	snprintf(err, errlen, "%s", l->e[i].error);
	return -1;
}

/* host:HOST or host:HOST:NAME: the part after "host:" split at its first ':'
 * (a hostname has none; a run name may). False when spec is not one. */
static bool host_spec(const char *spec, char *host, size_t hostlen, const char **name)
{
	if (strncmp(spec, STORE_HOST_PREFIX, strlen(STORE_HOST_PREFIX)) != 0)
		return false;
	const char *h = spec + strlen(STORE_HOST_PREFIX), *colon = strchr(h, ':');
	size_t n = colon ? (size_t)(colon - h) : strlen(h);
	snprintf(host, hostlen, "%.*s", (int)(n < hostlen ? n : hostlen - 1), h);
	*name = colon ? colon + 1 : NULL;
	return true;
}

static bool host_match(const struct run *r, const char *host, const char *name)
{
	return r && !strcmp(r->meta.hostname, host) && (!name || !strcmp(r->meta.name, name));
}

/* No run matches a host: spec. Says which hosts the store has, the way a user finds the name. */
static void host_unknown(const struct store_list *l, const char *spec, char *err, size_t errlen)
{
	char hosts[300] = "";
	int n = 0;
	for (int i = 0; i < l->n; i++) {
		const struct run *r = l->e[i].run;
		if (!r || !r->meta.hostname[0])
			continue;
		bool seen = false;
		for (int k = 0; k < i && !seen; k++)
			seen = l->e[k].run && !strcmp(l->e[k].run->meta.hostname, r->meta.hostname);
		size_t u = strlen(hosts);
		if (!seen && u + strlen(r->meta.hostname) + 8 < sizeof hosts)
			snprintf(hosts + u, sizeof hosts - u, "%s%s", n++ ? ", " : "", r->meta.hostname);
	}
	snprintf(err, errlen, "no stored run matches '%s' (hosts in the store: %s)", spec,
		 n ? hosts : "none");
}

int store_list_find(const struct store_list *l, const char *spec, char *err, size_t errlen)
{
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty run name");
		return -1;
	}
	char host[128];
	const char *hname;
	if (host_spec(spec, host, sizeof host, &hname)) {
		int found = -1, nfound = 0;
		for (int i = 0; i < l->n; i++)
			if (host_match(l->e[i].run, host, hname) && nfound++ == 0)
				found = i;
		if (nfound == 1)
			return found;
		if (nfound == 0)
			host_unknown(l, spec, err, errlen);
		else
			snprintf(err, errlen, "'%s' matches %d runs: it names a group (compare, export A B), "
					      "or name one run by id", spec, nfound);
		return -1;
	}
	if (strcmp(spec, "last") == 0 || strncmp(spec, "last~", 5) == 0) {
		long k = 0;
		if (spec[4]) {
			char *end;
			errno = 0;
			k = strtol(spec + 5, &end, 10);
			if (errno || *end || k < 0 || end == spec + 5) {
				snprintf(err, errlen, "'%s' is not last or last~N", spec);
				return -1;
			}
		}
		/* last counts good runs only: a broken file is not a run. */
		long seen = 0;
		for (int i = 0; i < l->n; i++)
			if (l->e[i].run && seen++ == k)
				return i;
		snprintf(err, errlen, "the store has no run '%s' (%ld runs in %s)", spec, seen, store_dir());
		return -1;
	}
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->e[i].id, spec) == 0)
			return entry_ok(l, i, err, errlen);
	int found = -1, nfound = 0;
	char ids[200] = "";
	for (int i = 0; i < l->n; i++)
		if (l->e[i].run && strcmp(l->e[i].run->meta.name, spec) == 0) {
			if (nfound++ == 0)
				found = i;
			size_t u = strlen(ids);
			snprintf(ids + u, sizeof ids - u, "%s%s", u ? ", " : "", l->e[i].id);
		}
	if (nfound == 1)
		return found;
	if (nfound > 1) {
		snprintf(err, errlen, "name '%s' matches %d runs (%s); name one by id", spec, nfound, ids);
		return -1;
	}
	for (int i = 0; i < l->n; i++)
		if (strncmp(l->e[i].id, spec, strlen(spec)) == 0) {
			if (nfound++ == 0)
				found = i;
			size_t u = strlen(ids);
			snprintf(ids + u, sizeof ids - u, "%s%s", u ? ", " : "", l->e[i].id);
		}
	if (nfound == 1)
		return entry_ok(l, found, err, errlen);
	if (nfound > 1) {
		snprintf(err, errlen, "'%s' is the start of %d run ids (%s); give more of it", spec,
			 nfound, ids);
		return -1;
	}
	snprintf(err, errlen, "no stored run is called '%s' (see 'kbench runs')", spec);
	return -1;
}

static bool looks_like_path(const char *spec)
{
	size_t n = strlen(spec);
	return strchr(spec, '/') || (n > 5 && strcmp(spec + n - 5, ".json") == 0);
}

/* Takes the run out of the list so the caller owns it. */
static struct run *take(struct store_list *l, int i)
{
	struct run *r = l->e[i].run;
	l->e[i].run = NULL;
	return r;
}

struct run *store_load(const char *spec, char *err, size_t errlen)
{
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty run name");
		return NULL;
	}
	if (looks_like_path(spec) && access(spec, F_OK) == 0)
		return runfile_read(spec, err, errlen);
	struct store_list l;
	if (store_list(&l, err, errlen) < 0)
		return NULL;
	int i = store_list_find(&l, spec, err, errlen);
	struct run *r = i >= 0 ? take(&l, i) : NULL;
	store_list_free(&l);
	return r;
}

static void push(struct run ***v, int *n, struct run *r)
{
	struct run **nv = realloc(*v, (size_t)(*n + 1) * sizeof *nv);
	if (!nv)
		abort();
	*v = nv;
	(*v)[(*n)++] = r;
}

struct run **store_load_group(const char *spec, int *n, char *err, size_t errlen)
{
	*n = 0;
	struct store_list l;
	bool listed = false;
	struct run **out = NULL;
	char *copy = strdup(spec ? spec : ""), *save = NULL;
	if (!copy)
		abort();
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (looks_like_path(tok) && access(tok, F_OK) == 0) {
			struct run *r = runfile_read(tok, err, errlen);
			if (!r)
				goto fail;
			push(&out, n, r);
			continue;
		}
		if (!listed) {
			if (store_list(&l, err, errlen) < 0) {
				free(copy);
				return NULL;
			}
			listed = true;
		}
		/* Every run measured on a host (and with a name): a group from a lab. */
		char host[128];
		const char *hname;
		if (host_spec(tok, host, sizeof host, &hname)) {
			int before = *n;
			for (int i = 0; i < l.n; i++)
				if (host_match(l.e[i].run, host, hname))
					push(&out, n, take(&l, i));
			if (*n == before) {
				host_unknown(&l, tok, err, errlen);
				goto fail;
			}
			continue;
		}
		/* A name several runs share is a group: take them all. */
		int named = 0;
		for (int i = 0; i < l.n; i++)
			if (l.e[i].run && strcmp(l.e[i].id, tok) != 0 &&
			    strcmp(l.e[i].run->meta.name, tok) == 0)
				named++;
		if (named > 1) {
			for (int i = 0; i < l.n; i++)
				if (l.e[i].run && strcmp(l.e[i].run->meta.name, tok) == 0)
					push(&out, n, take(&l, i));
			continue;
		}
		int i = store_list_find(&l, tok, err, errlen);
		if (i < 0)
			goto fail;
		if (!l.e[i].run) {
			snprintf(err, errlen, "run '%s' is named twice in '%s'", tok, spec);
			goto fail;
		}
		push(&out, n, take(&l, i));
	}
	free(copy);
	if (listed)
		store_list_free(&l);
	if (*n == 0) {
		snprintf(err, errlen, "no run named in '%s'", spec ? spec : "");
		free(out);
		return NULL;
	}
	return out;
fail:
	free(copy);
	if (listed)
		store_list_free(&l);
	for (int i = 0; i < *n; i++)
		run_free(out[i]);
	free(out);
	*n = 0;
	return NULL;
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
	if (unlink(l.e[i].path) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot delete %s: %s", l.e[i].path, strerror(errno));
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

/* Does run r have a block with one of the copy counts of ours? */
/* Something to compare: one of our tests measured at one of our copy counts
 * (a memlat run has nothing to say against a newer timerlat run's rows). */
static bool shares_tests(const struct run *ours, const struct run *r)
{
	for (int i = 0; i < ours->nblocks; i++) {
		const struct run_block *b = run_find_block(r, ours->blocks[i].copies);
		for (int t = 0; b && t < ours->blocks[i].ntests; t++)
			if (run_block_find_test(b, ours->blocks[i].tests[t].id))
				return true;
	}
	return false;
}

struct run *store_pick_baseline(const struct run *r, char *why, size_t whylen)
{
	struct store_list l;
	if (store_list(&l, why, whylen) < 0)
		return NULL;
	int pick = -1;
	/* pass 0: another kernel release; pass 1: any other run (the same kernel);
	 * passes 2 and 3 the same among runs another machine measured, which came
	 * in by kbench import from a lab: a kernel is compared on its own machine first. */
	for (int pass = 0; pass < 4 && pick < 0; pass++)
		for (int i = 0; i < l.n && pick < 0; i++) {
			const struct run *o = l.e[i].run;
			if (!o || !strcmp(l.e[i].id, r->meta.id) || !shares_tests(r, o))
				continue;
			bool elsewhere = o->meta.source[0] && run_mode_info(o->meta.mode)->measured &&
					 strcmp(o->meta.hostname, r->meta.hostname) != 0;
			if (elsewhere != (pass >= 2))
				continue;
			if (pass % 2 == 0 && !strcmp(o->meta.kernel_release, r->meta.kernel_release))
				continue;
			pick = i;
		}
	struct run *base = NULL;
	if (pick >= 0) {
		base = l.e[pick].run;
		l.e[pick].run = NULL; /* taken before the list is freed */
	} else {
		snprintf(why, whylen, "no stored run of these tests at these copy counts");
	}
	store_list_free(&l);
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

int store_find_same(const struct run *r, char *id, size_t idlen, char *err, size_t errlen)
{
	struct store_list l;
	if (store_list(&l, err, errlen) < 0)
		return -1;
	int found = 0;
	for (int i = 0; i < l.n && !found; i++)
		if (l.e[i].run && same_run(l.e[i].run, r)) {
			snprintf(id, idlen, "%s", l.e[i].id);
			found = 1;
		}
	store_list_free(&l);
	return found;
}
