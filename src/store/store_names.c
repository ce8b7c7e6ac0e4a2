/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Naming stored runs: an id, a prefix, a name, last~N, host:HOST[:NAME], a file, and groups of them. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "runfile.h"
#include "store.h"
#include "store_int.h"
#include "storeidx.h"

static int entry_ok(const struct store_list *l, int i, char *err, size_t errlen)
{
	if (!l->e[i].error)
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

static bool host_match(const struct store_entry *e, const char *host, const char *name)
{
	return !e->error && !strcmp(e->host, host) && (!name || !strcmp(e->name, name));
}

/* No run matches a host: spec. Says which hosts the store has, the way a user finds the name. */
static void host_unknown(const struct store_list *l, const char *spec, char *err, size_t errlen)
{
	char hosts[300] = "";
	int n = 0;
	for (int i = 0; i < l->n; i++) {
		const struct store_entry *e = &l->e[i];
		if (e->error || !e->host[0])
			continue;
		bool seen = false;
		for (int k = 0; k < i && !seen; k++)
			seen = !l->e[k].error && !strcmp(l->e[k].host, e->host);
		size_t u = strlen(hosts);
		if (!seen && u + strlen(e->host) + 8 < sizeof hosts)
			snprintf(hosts + u, sizeof hosts - u, "%s%s", n++ ? ", " : "", e->host);
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
			if (host_match(&l->e[i], host, hname) && nfound++ == 0)
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
			if (!l->e[i].error && seen++ == k)
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
		if (!l->e[i].error && strcmp(l->e[i].name, spec) == 0) {
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

/* last or last~N: N, else -1. */
static long last_n(const char *spec)
{
	if (strcmp(spec, "last") == 0)
		return 0;
	if (strncmp(spec, "last~", 5) != 0 || !spec[5])
		return -1;
	char *end;
	errno = 0;
	long k = strtol(spec + 5, &end, 10);
	return errno || *end || k < 0 ? -1 : k;
}

/* last~N straight from the index (one row, not a list of thousands): the
 * run, or NULL when the quick way does not find it (the list then says why). */
static struct run *load_last(long k, char *err, size_t errlen)
{
	struct store_list one = { 0 };
	int cap = 0;
	void *arg[2] = { &one, &cap };
	struct run *r = NULL;
	if (storeidx_nth(store_dir(), k, store_add_row, arg, err, errlen) == 0 && one.n == 1)
		r = store_entry_load(&one.e[0], err, errlen);
	store_list_free(&one);
	return r;
}

static bool looks_like_path(const char *spec)
{
	size_t n = strlen(spec);
	return strchr(spec, '/') || (n > 5 && strcmp(spec + n - 5, ".json") == 0);
}

struct run *store_load(const char *spec, char *err, size_t errlen)
{
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty run name");
		return NULL;
	}
	if (looks_like_path(spec) && access(spec, F_OK) == 0)
		return runfile_read(spec, err, errlen);
	struct run *quick = last_n(spec) >= 0 ? load_last(last_n(spec), err, errlen) : NULL;
	if (quick)
		return quick;
	struct store_list l;
	if (store_list(&l, err, errlen) < 0)
		return NULL;
	int i = store_list_find(&l, spec, err, errlen);
	struct run *r = i >= 0 ? store_entry_load(&l.e[i], err, errlen) : NULL;
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

/* Loads listed run i into the group, once: false with err filled when it cannot be read. */
static bool take(const struct store_list *l, bool *taken, int i, struct run ***out, int *n, char *err,
		 size_t errlen)
{
	struct run *r = store_entry_load(&l->e[i], err, errlen);
	if (!r)
		return false;
	taken[i] = true;
	push(out, n, r);
	return true;
}

struct run **store_load_group(const char *spec, int *n, char *err, size_t errlen)
{
	*n = 0;
	struct store_list l = { 0 };
	bool listed = false, *taken = NULL;
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
		if (!listed && last_n(tok) >= 0) {
			/* last~N alone needs no list; named twice is still refused */
			struct run *r = load_last(last_n(tok), err, errlen);
			bool twice = false;
			for (int k = 0; r && k < *n; k++)
				twice |= !strcmp(out[k]->meta.id, r->meta.id) && !looks_like_path(tok);
			if (r && !twice) {
				push(&out, n, r);
				continue;
			}
			run_free(r);
		}
		if (!listed) {
			if (store_list(&l, err, errlen) < 0) {
				free(copy);
				return NULL;
			}
			listed = true;
			if (!(taken = calloc((size_t)l.n + 1, sizeof *taken)))
				abort();
		}
		/* Every run measured on a host (and with a name): a group from a lab. */
		char host[128];
		const char *hname;
		if (host_spec(tok, host, sizeof host, &hname)) {
			int before = *n;
			for (int i = 0; i < l.n; i++)
				if (!taken[i] && host_match(&l.e[i], host, hname) &&
				    !take(&l, taken, i, &out, n, err, errlen))
					goto fail;
			if (*n == before) {
				host_unknown(&l, tok, err, errlen);
				goto fail;
			}
			continue;
		}
		/* A name several runs share is a group: take them all. */
		int named = 0;
		for (int i = 0; i < l.n; i++)
			if (!taken[i] && !l.e[i].error && strcmp(l.e[i].id, tok) != 0 &&
			    strcmp(l.e[i].name, tok) == 0)
				named++;
		if (named > 1) {
			for (int i = 0; i < l.n; i++)
				if (!taken[i] && !l.e[i].error && strcmp(l.e[i].name, tok) == 0 &&
				    !take(&l, taken, i, &out, n, err, errlen))
					goto fail;
			continue;
		}
		int i = store_list_find(&l, tok, err, errlen);
		if (i < 0)
			goto fail;
		if (taken[i]) {
			snprintf(err, errlen, "run '%s' is named twice in '%s'", tok, spec);
			goto fail;
		}
		if (!take(&l, taken, i, &out, n, err, errlen))
			goto fail;
	}
	free(copy);
	free(taken);
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
	free(taken);
	if (listed)
		store_list_free(&l);
	for (int i = 0; i < *n; i++)
		run_free(out[i]);
	free(out);
	*n = 0;
	return NULL;
}
