/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run record: building it up sample by sample, and the sums every reader needs. */
#include "run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "strv.h"

static void *grow(void *p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return p;
	int ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *q = realloc(p, (size_t)ncap * size);
	if (!q) {
		fprintf(stderr, "kbench: out of memory\n");
		abort();
	}
	memset((char *)q + (size_t)*cap * size, 0, (size_t)(ncap - *cap) * size);
	*cap = ncap;
	return q;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

struct run *run_new(void)
{
	struct run *r = calloc(1, sizeof *r);
	if (!r) {
		fprintf(stderr, "kbench: out of memory\n");
		abort();
	}
	r->meta.mode = &run_mode_full;
	return r;
}

static void test_free(struct test_result *t)
{
	for (int i = 0; i < t->nsamples; i++) {
		free(t->samples[i].count);
		free(t->samples[i].elapsed);
		free(t->samples[i].cpu);
		free(t->samples[i].cpu_end);
		free(t->samples[i].shared);
		free(t->samples[i].shared_time);
	}
	free(t->samples);
	free(t->summary);
	for (int i = 0; i < t->npoints; i++)
		free(t->points[i].v);
	free(t->points);
	for (int i = 0; i < t->nhists; i++)
		free(t->hists[i].h);
	free(t->hists);
}

void run_free(struct run *r)
{
	if (!r)
		return;
	for (int b = 0; b < r->nblocks; b++) {
		for (int i = 0; i < r->blocks[b].ntests; i++)
			test_free(&r->blocks[b].tests[i]);
		free(r->blocks[b].tests);
	}
	free(r->blocks);
	for (int i = 0; i < r->nseries; i++) {
		free(r->series[i].t);
		free(r->series[i].v);
	}
	free(r->series);
	free(r->markers);
	for (int i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r);
}

/* Blocks and tests are kept in arrays that only grow; a capacity of
 * their own would be one more thing to keep in step, so grow by one. */
struct run_block *run_add_block(struct run *r, int copies)
{
	struct run_block *nb = realloc(r->blocks, (size_t)(r->nblocks + 1) * sizeof *nb);
	if (!nb)
		abort();
	r->blocks = nb;
	struct run_block *b = &r->blocks[r->nblocks++];
	memset(b, 0, sizeof *b);
	b->copies = copies;
	return b;
}

struct test_result *run_block_add_test(struct run_block *b, const char *id, const char *label,
				       const char *unit, int timebase, double baseline,
				       const char *category)
{
	struct test_result *nt = realloc(b->tests, (size_t)(b->ntests + 1) * sizeof *nt);
	if (!nt)
		abort();
	b->tests = nt;
	struct test_result *t = &b->tests[b->ntests++];
	memset(t, 0, sizeof *t);
	copy_str(t->id, sizeof t->id, id);
	copy_str(t->label, sizeof t->label, label);
	copy_str(t->unit, sizeof t->unit, unit);
	copy_str(t->category, sizeof t->category, category);
	t->timebase = timebase;
	t->baseline = baseline;
	t->spread = -1;
	return t;
}

struct sample *test_add_sample(struct test_result *t, int copies)
{
	struct sample *ns = realloc(t->samples, (size_t)(t->nsamples + 1) * sizeof *ns);
	if (!ns)
		abort();
	t->samples = ns;
	struct sample *s = &t->samples[t->nsamples++];
	memset(s, 0, sizeof *s);
	s->copies = copies;
	s->count = calloc((size_t)copies, sizeof *s->count);
	s->elapsed = calloc((size_t)copies, sizeof *s->elapsed);
	s->cpu = calloc((size_t)copies, sizeof *s->cpu);
	s->cpu_end = calloc((size_t)copies, sizeof *s->cpu_end);
	s->shared = calloc((size_t)copies, sizeof *s->shared);
	s->shared_time = calloc((size_t)copies, sizeof *s->shared_time);
	if (!s->count || !s->elapsed || !s->cpu || !s->cpu_end || !s->shared || !s->shared_time)
		abort();
	for (int c = 0; c < copies; c++) {
		s->cpu[c] = s->cpu_end[c] = -1;
		s->shared[c] = s->shared_time[c] = NAN;
	}
	return s;
}

const struct series *run_find_series(const struct run *r, const char *name)
{
	for (int i = 0; i < r->nseries; i++)
		if (strcmp(r->series[i].name, name) == 0)
			return &r->series[i];
	return NULL;
}

double series_median(const struct series *s)
{
	if (!s || s->n <= 0)
		return NAN;
	double *v = malloc((size_t)s->n * sizeof *v);
	if (!v)
		abort();
	memcpy(v, s->v, (size_t)s->n * sizeof *v);
	double m = stats_median(v, s->n);
	free(v);
	return m;
}

double run_pace(const struct run *r)
{
	const struct series *s = run_find_series(r, "pace");
	return s && s->n >= RUN_PACE_MIN ? series_median(s) : NAN;
}

struct series *run_series(struct run *r, const char *name, const char *unit)
{
	const struct series *found = run_find_series(r, name);
	if (found)
		return (struct series *)found;
	struct series *ns = realloc(r->series, (size_t)(r->nseries + 1) * sizeof *ns);
	if (!ns)
		abort();
	r->series = ns;
	struct series *s = &r->series[r->nseries++];
	memset(s, 0, sizeof *s);
	copy_str(s->name, sizeof s->name, name);
	copy_str(s->unit, sizeof s->unit, unit);
	return s;
}

void series_push(struct series *s, double t, double v)
{
	int cap = s->cap;
	s->t = grow(s->t, &cap, s->n + 1, sizeof *s->t);
	cap = s->cap;
	s->v = grow(s->v, &cap, s->n + 1, sizeof *s->v);
	s->cap = cap;
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->n++;
}

void run_add_marker(struct run *r, double t, const char *what)
{
	struct marker *nm = realloc(r->markers, (size_t)(r->nmarkers + 1) * sizeof *nm);
	if (!nm)
		abort();
	r->markers = nm;
	nm[r->nmarkers].t = t;
	copy_str(nm[r->nmarkers].what, sizeof nm[r->nmarkers].what, what);
	r->nmarkers++;
}

void run_add_note(struct run *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strv_vpush(&r->notes, &r->nnotes, 512, fmt, ap);
	va_end(ap);
}

struct kv *test_summary_set(struct test_result *t, const char *key, double value, const char *text)
{
	struct kv *kv = NULL;
	for (int i = 0; i < t->nsummary; i++)
		if (strcmp(t->summary[i].key, key) == 0)
			kv = &t->summary[i];
	if (!kv) {
		struct kv *ns = realloc(t->summary, (size_t)(t->nsummary + 1) * sizeof *ns);
		if (!ns)
			abort();
		t->summary = ns;
		kv = &t->summary[t->nsummary++];
		memset(kv, 0, sizeof *kv);
		copy_str(kv->key, sizeof kv->key, key);
	}
	kv->value = value;
	kv->has_value = text == NULL;
	copy_str(kv->text, sizeof kv->text, text);
	return kv;
}

const struct kv *test_summary_get(const struct test_result *t, const char *key)
{
	for (int i = 0; i < t->nsummary; i++)
		if (strcmp(t->summary[i].key, key) == 0)
			return &t->summary[i];
	return NULL;
}

void test_quick_asked(struct test_result *t, double precision)
{
	t->quick_asked = precision;
	test_summary_set(t, RUN_KEY_QUICK_ASKED, precision, NULL);
}

void test_quick_alloc(struct test_result *t, double budget)
{
	t->quick_budget = budget;
	test_summary_set(t, RUN_KEY_QUICK_ALLOC, budget, NULL);
}

bool test_is_quick(const struct test_result *t)
{
	return t->quick_asked > 0 || t->quick_budget > 0;
}

struct point *test_point(struct test_result *t, const char *name, double x, const char *xunit,
			 const char *unit, bool lower_better, bool summary)
{
	for (int i = 0; i < t->npoints; i++)
		if (strcmp(t->points[i].name, name) == 0)
			return &t->points[i];
	struct point *np = realloc(t->points, (size_t)(t->npoints + 1) * sizeof *np);
	if (!np)
		abort();
	t->points = np;
	struct point *p = &t->points[t->npoints++];
	memset(p, 0, sizeof *p);
	t->kind = RESULT_POINTS;
	copy_str(p->name, sizeof p->name, name);
	copy_str(p->xunit, sizeof p->xunit, xunit);
	copy_str(p->unit, sizeof p->unit, unit);
	p->x = x;
	p->lower_better = lower_better;
	p->summary = summary;
	return p;
}

void point_push(struct point *p, double v)
{
	double *nv = realloc(p->v, (size_t)(p->n + 1) * sizeof *nv);
	if (!nv)
		abort();
	p->v = nv;
	p->v[p->n++] = v;
}

struct hist_set *test_hist_set(struct test_result *t, const char *name)
{
	for (int i = 0; i < t->nhists; i++)
		if (strcmp(t->hists[i].name, name) == 0)
			return &t->hists[i];
	struct hist_set *ns = realloc(t->hists, (size_t)(t->nhists + 1) * sizeof *ns);
	if (!ns)
		abort();
	t->hists = ns;
	struct hist_set *s = &t->hists[t->nhists++];
	memset(s, 0, sizeof *s);
	copy_str(s->name, sizeof s->name, name);
	return s;
}

void hist_set_push(struct hist_set *s, const struct lat_hist *h)
{
	struct lat_hist *nh = realloc(s->h, (size_t)(s->n + 1) * sizeof *nh);
	if (!nh)
		abort();
	s->h = nh;
	s->h[s->n++] = *h;
}

const struct hist_set *test_find_hist(const struct test_result *t, const char *name)
{
	for (int i = 0; i < t->nhists; i++)
		if (strcmp(t->hists[i].name, name) == 0)
			return &t->hists[i];
	return NULL;
}

const struct point *test_find_point(const struct test_result *t, const char *name)
{
	for (int i = 0; i < t->npoints; i++)
		if (strcmp(t->points[i].name, name) == 0)
			return &t->points[i];
	return NULL;
}

double point_mean(const struct point *p)
{
	double sum = 0;
	int n = 0;
	for (int i = 0; i < p->n; i++)
		if (isfinite(p->v[i]))
			sum += p->v[i], n++;
	return n ? sum / n : NAN;
}

double point_spread(const struct point *p)
{
	double m = point_mean(p), ss = 0;
	int n = 0;
	for (int i = 0; i < p->n; i++)
		if (isfinite(p->v[i]))
			ss += (p->v[i] - m) * (p->v[i] - m), n++;
	if (n < 2 || !(m != 0))
		return -1;
	return sqrt(ss / (n - 1)) / fabs(m);
}

bool test_has_result(const struct test_result *t)
{
	if (t->kind == RESULT_POINTS)
		return t->npoints > 0 && t->status != TEST_FAILED;
	return (t->status == TEST_DONE || t->status == TEST_IMPORTED) && t->score > 0;
}

const struct run_block *run_find_block(const struct run *r, int copies)
{
	for (int i = 0; i < r->nblocks; i++)
		if (r->blocks[i].copies == copies)
			return &r->blocks[i];
	return NULL;
}

const struct test_result *run_block_find_test(const struct run_block *b, const char *id)
{
	for (int i = 0; i < b->ntests; i++)
		if (strcmp(b->tests[i].id, id) == 0)
			return &b->tests[i];
	return NULL;
}

int run_test_ids(const struct run *r, const char **ids, int max)
{
	int n = 0;
	for (int b = 0; b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests && n < max; i++) {
			const char *id = r->blocks[b].tests[i].id;
			bool seen = false;
			for (int k = 0; k < n && !seen; k++)
				seen = !strcmp(ids[k], id);
			if (!seen)
				ids[n++] = id;
		}
	return n;
}

void run_tests_text(const struct run *r, char *buf, size_t len)
{
	const char *ids[64];
	int n = run_test_ids(r, ids, 64);
	size_t u = 0;
	buf[0] = '\0';
	for (int k = 0; k < n && u + 1 < len; k++)
		u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? " " : "", ids[k]);
}

double sample_count(const struct sample *s)
{
	double sum = 0;
	for (int i = 0; i < s->copies; i++)
		sum += s->count[i];
	return sum;
}

double sample_time(const struct sample *s)
{
	double sum = 0;
	for (int i = 0; i < s->copies; i++)
		sum += s->elapsed[i];
	return s->copies ? sum / s->copies : 0;
}

/* 90%: a pair that moved once in a sample is still where it mostly was. */
#define PLACE_CLEAR 0.9

enum placement sample_placement(const struct sample *s)
{
	int one = 0, two = 0, known = 0;
	for (int c = 0; s->shared && c < s->copies; c++) {
		if (!isfinite(s->shared[c]))
			continue;
		known++;
		one += s->shared[c] >= PLACE_CLEAR;
		two += s->shared[c] <= 1 - PLACE_CLEAR;
	}
	if (!known)
		return PLACE_UNKNOWN;
	return one == s->copies ? PLACE_ONE : two == s->copies ? PLACE_TWO : PLACE_MIXED;
}

double sample_time_in(const struct sample *s, int c, enum placement p)
{
	if (!s->shared_time || c < 0 || c >= s->copies || !isfinite(s->shared_time[c]))
		return NAN;
	return p == PLACE_ONE ? s->shared_time[c] : p == PLACE_TWO ? 1 - s->shared_time[c] : NAN;
}

const char *placement_name(enum placement p)
{
	switch (p) {
	case PLACE_ONE: return "one CPU";
	case PLACE_TWO: return "two CPUs";
	case PLACE_MIXED: return "mixed";
	default: break;
	}
	return "unknown";
}

const char *test_status_name(enum test_status s)
{
	switch (s) {
	case TEST_WAITING: return "waiting";
	case TEST_RUNNING: return "running";
	case TEST_DONE: return "done";
	case TEST_FAILED: return "failed";
	case TEST_SKIPPED: return "skipped";
	case TEST_IMPORTED: return "imported";
	}
	return "?";
}

const char *run_noise_group(const struct run *r)
{
	return !strcmp(r->meta.seq.purpose, RUN_SEQ_PLAN) ? r->meta.seq.id : "";
}
