/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Noise floors per test: conservative defaults, refined by the A/A runs the store already holds. */
#include "noise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "store.h"
#include "storeidx.h"
#include "telemetry/others.h"
#include "tests.h"

/* A test's defaults are its row's (tests.c says where they come from). The
 * index score is no row: its own, from the same A/A pairs. An id that is no
 * row (from an imported file) gets what a test without A/A data gets. */
static const struct test_noise index_noise = { 0.030, 0.040 };

/* The row of a test id, or of a point's ("memlat:rnd L1"): a points
 * test's floor is its row's, for each of its points. */
static const struct test_def *row_of(const char *id)
{
	const char *colon = strchr(id, ':');
	if (!colon)
		return test_find(id);
	char test[32];
	snprintf(test, sizeof test, "%.*s", (int)(colon - id), id);
	return test_find(test);
}

static struct test_noise defaults(const char *test_id)
{
	static const struct test_noise unmeasured = TEST_NOISE_UNMEASURED;
	const struct test_def *t = row_of(test_id);
	const char *colon = strchr(test_id, ':');
	if (t && colon && t->point_noise)
		return t->point_noise(t, colon + 1);
	if (t)
		return t->noise;
	return strcmp(test_id, NOISE_INDEX_ID) == 0 ? index_noise : unmeasured;
}

double noise_default(const char *test_id)
{
	return defaults(test_id).full;
}

static bool is_quick(const struct run *r)
{
	return r && run_mode_info(r->meta.mode)->quick;
}

/* A full-length default is for UnixBench's sample lengths. A shorter
 * sample averages over less time, so its rate moves more: the default
 * grows as sqrt(nominal / actual) (at most 3x). */
static double length_scale(const struct run *r, const char *id)
{
	const struct test_def *d = row_of(id);
	double nominal = d ? d->seconds : 10, actual = r ? r->meta.duration_override : 0;
	if (!strcmp(id, NOISE_INDEX_ID))
		nominal = 10;
	if (!(actual > 0) || actual >= nominal)
		return 1;
	double f = sqrt(nominal / actual);
	return f > 3 ? 3 : f;
}

double noise_default_for(const char *test_id, const struct run *r)
{
	if (is_quick(r))
		return defaults(test_id).quick;
	return noise_default(test_id) * length_scale(r, test_id);
}

void noise_setting(const struct run *r, char *buf, size_t size)
{
	const struct run_meta *m = &r->meta;
	bool quick = run_mode_info(m->mode)->quick;
	int n = snprintf(buf, size, "%s", quick ? "quick" : "");
	if (m->duration_override > 0 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "%s%g s samples", n ? ", " : "", m->duration_override);
	if (m->iterations > 0 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "%s-i %d", n ? ", " : "", m->iterations);
	if (n == 0)
		snprintf(buf, size, "full-length");
}

static struct noise_floor *slot(struct noise_table *t, const char *id, const char *setting,
				const struct run *like)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->f[i].id, id) == 0 && strcmp(t->f[i].setting, setting) == 0)
			return &t->f[i];
	struct noise_floor *nf = realloc(t->f, (size_t)(t->n + 1) * sizeof *nf);
	if (!nf)
		abort();
	t->f = nf;
	struct noise_floor *f = &t->f[t->n++];
	memset(f, 0, sizeof *f);
	snprintf(f->id, sizeof f->id, "%s", id);
	snprintf(f->setting, sizeof f->setting, "%s", setting);
	if (like) {
		f->mode = like->meta.mode;
		f->duration_override = like->meta.duration_override;
		f->iterations = like->meta.iterations;
	}
	f->fallback = noise_default_for(id, like);
	f->sigma = f->fallback;
	f->learned = -1;
	return f;
}

static bool same_settings(const struct run *a, const struct run *b)
{
	const struct run_meta *x = &a->meta, *y = &b->meta;
	return !strcmp(x->hostname, y->hostname) && !strcmp(x->kernel_release, y->kernel_release) &&
	       !strcmp(x->cmdline, y->cmdline) && run_mode_info(x->mode) == run_mode_info(y->mode) &&
	       x->duration_override == y->duration_override && x->iterations == y->iterations &&
	       !strcmp(run_noise_group(a), run_noise_group(b));
}

static bool measured(const struct run *r)
{
	return run_mode_info(r->meta.mode)->measured;
}

static bool excluded(const struct run *r, const char *const *ex, int nex)
{
	for (int i = 0; i < nex; i++)
		if (ex[i] && r->meta.id[0] && strcmp(ex[i], r->meta.id) == 0)
			return true;
	return false;
}

/* A test that shared the machine with other processes, or was throttled,
 * measured them too: it says nothing about this machine's own noise. */
static bool disturbed(const struct test_result *t)
{
	const struct kv *o = test_summary_get(t, "others.cpu");
	const struct kv *th = test_summary_get(t, "throttled");
	return (o && o->has_value && o->value >= OTHERS_BUSY_CPU) ||
	       (th && th->has_value && th->value >= 1);
}

/* Accumulators per (test id, copies): sum of squared deviations of log
 * scores from their set mean, and the degrees of freedom behind them. */
struct acc {
	char id[32];
	int copies;
	double ss;
	int df, runs;
	double sxx, sxy, syy; /* the index only: against its runs' pace (noise_floor's pace_*) */
	int pdf;
};

static struct acc *acc_slot(struct acc **v, int *n, const char *id, int copies)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp((*v)[i].id, id) && (*v)[i].copies == copies)
			return &(*v)[i];
	struct acc *nv = realloc(*v, (size_t)(*n + 1) * sizeof *nv);
	if (!nv)
		abort();
	*v = nv;
	struct acc *a = &nv[(*n)++];
	memset(a, 0, sizeof *a);
	snprintf(a->id, sizeof a->id, "%s", id);
	a->copies = copies;
	return a;
}

/* Adds m runs' log scores of (id, copies) to its pooled sum of squares
 * about their mean (m - 1 degrees of freedom); fewer than two add nothing. */
static void acc_logs(struct acc **acc, int *nacc, const char *id, int copies, const double *logs, int m)
{
	if (m < 2)
		return;
	double mean = 0, ss = 0;
	for (int q = 0; q < m; q++)
		mean += logs[q] / m;
	for (int q = 0; q < m; q++)
		ss += (logs[q] - mean) * (logs[q] - mean);
	struct acc *a = acc_slot(acc, nacc, id, copies);
	a->ss += ss;
	a->df += m - 1;
	a->runs += m;
}

/* The index's m log scores y beside its runs' log pace x: their deviations from the
 * set's means, summed into the (index, copies) accumulator; under two add nothing. */
static void acc_pace(struct acc **acc, int *nacc, int copies, const double *x, const double *y, int m)
{
	if (m < 2)
		return;
	double mx = 0, my = 0;
	for (int q = 0; q < m; q++) {
		mx += x[q] / m;
		my += y[q] / m;
	}
	struct acc *a = acc_slot(acc, nacc, NOISE_INDEX_ID, copies);
	for (int q = 0; q < m; q++) {
		a->sxx += (x[q] - mx) * (x[q] - mx);
		a->sxy += (x[q] - mx) * (y[q] - my);
		a->syy += (y[q] - my) * (y[q] - my);
	}
	a->pdf += m - 1;
}

/* A points test's headline points ("memlat:rnd L1") learn as a rate test
 * does, from the log of each run's mean of the point; handled from the
 * first run of the set that has the test. */
static void learn_points(struct acc **acc, int *nacc, const struct run **set, int k, int s,
			 const struct test_result *first, int copies)
{
	double *logs = calloc((size_t)k, sizeof *logs);
	if (!logs)
		abort();
	for (int pi = 0; pi < first->npoints; pi++) {
		const struct point *fp = &first->points[pi];
		if (!fp->summary)
			continue;
		int m = 0;
		for (int q = s; q < k; q++) {
			const struct run_block *qb = run_find_block(set[q], copies);
			const struct test_result *t = qb ? run_block_find_test(qb, first->id) : NULL;
			const struct point *p = t && t->status == TEST_DONE && !disturbed(t)
							? test_find_point(t, fp->name) : NULL;
			double v = p ? point_mean(p) : NAN;
			if (v > 0)
				logs[m++] = log(v);
		}
		char id[32];
		snprintf(id, sizeof id, "%s:%s", first->id, fp->name);
		acc_logs(acc, nacc, id, copies, logs, m);
	}
	free(logs);
}

/* One set of same-settings runs: per (test, copies) the log scores of the
 * runs that have it, their deviations from the set's mean. */
static void learn_set(struct acc **acc, int *nacc, const struct run **set, int k)
{
	double *logs = calloc((size_t)k, sizeof *logs), *px = calloc((size_t)k, sizeof *px);
	double *py = calloc((size_t)k, sizeof *py);
	if (!logs || !px || !py)
		abort();
	for (int s = 0; s < k; s++)
		for (int b = 0; b < set[s]->nblocks; b++) {
			const struct run_block *bl = &set[s]->blocks[b];
			for (int i = -1; i < bl->ntests; i++) {
				const char *id = i < 0 ? NOISE_INDEX_ID : bl->tests[i].id;
				/* Each (test, copies) is handled once, from the first run that has it. */
				bool seen = false;
				for (int p = 0; p < s && !seen; p++) {
					const struct run_block *pb = run_find_block(set[p], bl->copies);
					seen = pb && (i < 0 ? pb->index_score > 0 : run_block_find_test(pb, id) != NULL);
				}
				if (seen)
					continue;
				if (i >= 0 && bl->tests[i].kind == RESULT_POINTS) {
					learn_points(acc, nacc, set, k, s, &bl->tests[i], bl->copies);
					continue;
				}
				int m = 0, mp = 0;
				for (int q = s; q < k; q++) {
					const struct run_block *qb = run_find_block(set[q], bl->copies);
					if (!qb)
						continue;
					double v = 0;
					if (i < 0) {
						v = qb->index_partial == bl->index_partial &&
						    qb->index_tests == bl->index_tests ? qb->index_score : 0;
						for (int x = 0; x < qb->ntests; x++)
							if (disturbed(&qb->tests[x]))
								v = 0;
					} else {
						const struct test_result *t = run_block_find_test(qb, id);
						if (t && t->status == TEST_DONE && !disturbed(t))
							v = t->score;
					}
					if (v > 0)
						logs[m++] = log(v);
					double pace = i < 0 && v > 0 ? run_pace(set[q]) : NAN;
					if (pace > 0) {
						px[mp] = log(pace);
						py[mp++] = log(v);
					}
				}
				acc_logs(acc, nacc, id, bl->copies, logs, m);
				acc_pace(acc, nacc, bl->copies, px, py, mp);
			}
		}
	free(logs);
	free(px);
	free(py);
}

/* A set's accumulators pooled into the table: copy counts are pooled per
 * test (the floor is the test's, and one more copy count is one more set of
 * A/A comparisons); settings are not (each has its own floor). */
static void pool(struct noise_table *t, const struct acc *acc, int nacc, const struct run *like, int k)
{
	t->groups++;
	t->runs += k;
	char setting[64];
	noise_setting(like, setting, sizeof setting);
	for (int a = 0; a < nacc; a++) {
		struct noise_floor *f = slot(t, acc[a].id, setting, like);
		double prev_ss = f->learned >= 0 ? f->learned * f->learned * f->df : 0;
		f->df += acc[a].df;
		f->runs += acc[a].runs;
		f->learned = sqrt((prev_ss + acc[a].ss) / f->df);
		f->pace_sxx += acc[a].sxx;
		f->pace_sxy += acc[a].sxy;
		f->pace_syy += acc[a].syy;
		f->pace_df += acc[a].pdf;
	}
}

/* One set of two or more same-settings runs, pooled into the table. */
static void learn_group(struct noise_table *t, const struct run **set, int k)
{
	struct acc *acc = NULL;
	int nacc = 0;
	learn_set(&acc, &nacc, set, k);
	pool(t, acc, nacc, set[0], k);
	free(acc);
}

void noise_learn(struct noise_table *t, const struct run *const *runs, int n,
		 const char *const *exclude, int nexclude)
{
	memset(t, 0, sizeof *t);
	bool *used = calloc((size_t)n + 1, sizeof *used);
	const struct run **set = calloc((size_t)n + 1, sizeof *set);
	if (!used || !set)
		abort();
	for (int i = 0; i < n; i++) {
		if (used[i] || !runs[i] || !measured(runs[i]) || excluded(runs[i], exclude, nexclude))
			continue;
		int k = 0;
		for (int j = i; j < n; j++)
			if (!used[j] && runs[j] && measured(runs[j]) &&
			    !excluded(runs[j], exclude, nexclude) && same_settings(runs[i], runs[j])) {
				used[j] = true;
				set[k++] = runs[j];
			}
		if (k >= 2)
			learn_group(t, set, k);
	}
	for (int i = 0; i < t->n; i++)
		t->f[i].sigma = noise_sigma(&t->f[i]);
	free(used);
	free(set);
}

static int add_run(const struct storeidx_row *row, void *arg)
{
	struct run **set = arg;
	int k = 0;
	while (set[k])
		k++;
	set[k] = storeidx_noise_run(row);
	return 0;
}

/* A set's accumulators as text, one "copies df runs ss sxx sxy syy pdf id" a line (the cache's form). */
static char *acc_text(const struct acc *acc, int nacc)
{
	size_t cap = (size_t)nacc * 200 + 1, u = 0;
	char *text = malloc(cap);
	if (!text)
		abort();
	text[0] = 0;
	for (int a = 0; a < nacc; a++)
		u += (size_t)snprintf(text + u, cap - u, "%d %d %d %.17g %.17g %.17g %.17g %d %s\n", acc[a].copies,
				      acc[a].df, acc[a].runs, acc[a].ss, acc[a].sxx, acc[a].sxy, acc[a].syy,
				      acc[a].pdf, acc[a].id);
	return text;
}

static struct acc *acc_parse(const char *text, int *nacc)
{
	struct acc *acc = NULL;
	*nacc = 0;
	for (const char *p = text; *p;) {
		char *q;
		struct acc a = { .copies = (int)strtol(p, &q, 10) };
		a.df = (int)strtol(q, &q, 10);
		a.runs = (int)strtol(q, &q, 10);
		a.ss = strtod(q, &q);
		a.sxx = strtod(q, &q);
		a.sxy = strtod(q, &q);
		a.syy = strtod(q, &q);
		a.pdf = (int)strtol(q, &q, 10);
		size_t n = *q == ' ' ? strcspn(q + 1, "\n") : 0;
		snprintf(a.id, sizeof a.id, "%.*s", (int)(n < sizeof a.id ? n : sizeof a.id - 1), q + 1);
		struct acc *na = realloc(acc, (size_t)(*nacc + 1) * sizeof *na);
		if (!na)
			abort();
		acc = na;
		acc[(*nacc)++] = a;
		const char *nl = strchr(q, '\n');
		p = nl ? nl + 1 : q + strlen(q);
	}
	return acc;
}

int noise_learn_store(struct noise_table *t, const char *const *exclude, int nexclude, char *err,
		      size_t errlen)
{
	/* The index's sets, not the run files: what learn_set reads of a run is
	 * in the index, and what it made of a set is kept there, so a store of
	 * thousands of runs costs a query and the sets that changed. */
	memset(t, 0, sizeof *t);
	struct storeidx_set *sets;
	int nsets;
	int rc = storeidx_noise_sets(store_dir(), exclude, nexclude, &sets, &nsets, err, errlen);
	if (rc < 0)
		return rc;
	struct run *like = run_new();
	for (int i = 0; i < nsets; i++) {
		const struct storeidx_set *st = &sets[i];
		struct acc *acc = NULL;
		int nacc = 0;
		char *cached = storeidx_set_cached(st);
		if (cached) {
			acc = acc_parse(cached, &nacc);
			free(cached);
		} else {
			struct run **set = calloc((size_t)st->k + 1, sizeof *set);
			if (!set)
				abort();
			if (storeidx_set_rows(st, add_run, set) == 0) {
				learn_set(&acc, &nacc, (const struct run **)set, st->k);
				char *text = acc_text(acc, nacc);
				storeidx_set_keep(st, text);
				free(text);
			}
			for (int k = 0; k < st->k; k++)
				run_free(set[k]);
			free(set);
		}
		/* the settings a floor is filed under are the set's (its first run's) */
		like->meta.mode = run_mode_parse(st->mode);
		like->meta.duration_override = st->duration;
		like->meta.iterations = st->iterations;
		pool(t, acc, nacc, like, st->k);
		free(acc);
	}
	run_free(like);
	storeidx_sets_prune(sets, nsets);
	storeidx_sets_free(sets, nsets);
	for (int i = 0; i < t->n; i++)
		t->f[i].sigma = noise_sigma(&t->f[i]);
	return 0;
}

const struct noise_floor *noise_get(const struct noise_table *t, const char *test_id,
				    const struct run *r)
{
	static struct noise_floor fb[4];
	static int next;
	char setting[64] = "full";
	if (r)
		noise_setting(r, setting, sizeof setting);
	if (t)
		for (int i = 0; i < t->n; i++)
			if (strcmp(t->f[i].id, test_id) == 0 && strcmp(t->f[i].setting, setting) == 0)
				return &t->f[i];
	/* A few rotating slots, so two results can be held at once. */
	struct noise_floor *f = &fb[next++ % 4];
	memset(f, 0, sizeof *f);
	snprintf(f->id, sizeof f->id, "%s", test_id);
	snprintf(f->setting, sizeof f->setting, "%s", setting);
	f->fallback = f->sigma = noise_default_for(test_id, r);
	f->learned = -1;
	return f;
}

void noise_free(struct noise_table *t)
{
	free(t->f);
	memset(t, 0, sizeof *t);
}

bool noise_pace_slope(const struct noise_floor *nf, double *slope, double *r)
{
	if (nf->pace_df < NOISE_PACE_MIN_DF || !(nf->pace_sxx > 0) || !(nf->pace_syy > 0))
		return false;
	*slope = nf->pace_sxy / nf->pace_sxx;
	*r = nf->pace_sxy / sqrt(nf->pace_sxx * nf->pace_syy);
	return isfinite(*slope) && isfinite(*r);
}

double noise_sigma(const struct noise_floor *nf)
{
	double def = nf->fallback;
	if (nf->df <= 0)
		return def;
	return sqrt((nf->df * nf->learned * nf->learned + NOISE_PRIOR_DF * def * def) /
		    (nf->df + NOISE_PRIOR_DF));
}

double noise_dof(const struct noise_floor *nf)
{
	return nf->df > 0 ? nf->df + NOISE_PRIOR_DF : INFINITY;
}

static void print_floor(FILE *f, const struct noise_table *t, const struct run *like, const char *id)
{
	const struct noise_floor *nf = noise_get(t, id, like);
	char learned[16] = "--";
	if (nf->df > 0)
		snprintf(learned, sizeof learned, "%.1f%%", nf->learned * 100);
	fprintf(f, "%-18s %7.1f%% %7.1f%% %8s %5d %5d\n", id, nf->sigma * 100, nf->fallback * 100,
		learned, nf->df, nf->runs);
}

static bool listed(const char *const *list, const char *id)
{
	for (int k = 0; list && list[k]; k++)
		if (!strcmp(list[k], id))
			return true;
	return false;
}

void noise_print(FILE *f, const struct noise_table *t, const struct run *like,
		 const char *const *ids)
{
	/* The index's tests are the index group's, in its order, then the index score. */
	const struct test_group *ix = test_group_find("index");
	const char *const *index_ids = ix ? ix->ids : NULL;
	char setting[64];
	noise_setting(like, setting, sizeof setting);
	fprintf(f, "%-18s %8s %8s %8s %5s %5s\n", "TEST", "FLOOR", "DEFAULT", "LEARNED", "DF", "RUNS");
	const char *const *list = ids ? ids : index_ids;
	for (int i = 0; list && list[i]; i++)
		print_floor(f, t, like, list[i]);
	if (!ids)
		print_floor(f, t, like, NOISE_INDEX_ID);
	for (int i = 0; t && !ids && i < t->n; i++)
		if (!listed(index_ids, t->f[i].id) && strcmp(t->f[i].id, NOISE_INDEX_ID) != 0 &&
		    !strcmp(t->f[i].setting, setting))
			fprintf(f, "%-18s %7.1f%% %7.1f%% %7.1f%% %5d %5d\n", t->f[i].id,
				t->f[i].sigma * 100, t->f[i].fallback * 100, t->f[i].learned * 100, t->f[i].df,
				t->f[i].runs);
	double slope, r;
	const struct noise_floor *ix_floor = noise_get(t, NOISE_INDEX_ID, like);
	if (noise_pace_slope(ix_floor, &slope, &r))
		fprintf(f, "The index against the machine's pace: %.1f times it between runs (r %.2f, %d df);\n"
			   "kbench compare says what a pace difference alone would do to it.\n",
			slope, r, ix_floor->pace_df);
}
