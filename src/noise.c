/* Noise floors per test: conservative defaults, refined by the A/A runs the store already holds. */
#include "noise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "store.h"

/* Per-run relative sd. Two runs differ by sqrt(2)*sd, and a 95% interval
 * of their difference is about 2.77*sd wide each way, so these cover the
 * A/A differences UnixBench itself showed on such a VM (UNIXBENCH.md §9:
 * spawn +22%, fsdisk +18%, pipe +9%, dhry -7%) with room to spare. */
static const struct {
	const char *id;
	double sd;
} defaults[] = {
	{ "dhry2reg", 0.035 }, { "whetstone-double", 0.030 }, { "execl", 0.035 },
	{ "fstime", 0.040 },   { "fsbuffer", 0.045 },         { "fsdisk", 0.070 },
	{ "pipe", 0.045 },     { "context1", 0.045 },         { "spawn", 0.080 },
	{ "syscall", 0.040 },  { "shell1", 0.030 },           { "shell8", 0.040 },
	{ NOISE_INDEX_ID, 0.030 },
	/* Not in UnixBench's A/A data: their siblings' floors (the same files,
	 * buffers and page cache; the same scripts), and C the 5% of the other
	 * looped commands (grep, shell16). */
	{ "fstime-w", 0.040 }, { "fstime-r", 0.040 },
	{ "fsbuffer-w", 0.045 }, { "fsbuffer-r", 0.045 },
	{ "fsdisk-w", 0.070 }, { "fsdisk-r", 0.070 },
	{ "shell64", 0.040 },  { "C", 0.050 },
};
#define DEFAULT_SD 0.050 /* tests UnixBench's A/A data says nothing about */

double noise_default(const char *test_id)
{
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
		if (strcmp(defaults[i].id, test_id) == 0)
			return defaults[i].sd;
	return DEFAULT_SD;
}

static struct noise_floor *slot(struct noise_table *t, const char *id)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->f[i].id, id) == 0)
			return &t->f[i];
	struct noise_floor *nf = realloc(t->f, (size_t)(t->n + 1) * sizeof *nf);
	if (!nf)
		abort();
	t->f = nf;
	struct noise_floor *f = &t->f[t->n++];
	memset(f, 0, sizeof *f);
	snprintf(f->id, sizeof f->id, "%s", id);
	f->fallback = noise_default(id);
	f->sigma = f->fallback;
	f->learned = -1;
	return f;
}

static bool same_settings(const struct run *a, const struct run *b)
{
	const struct run_meta *x = &a->meta, *y = &b->meta;
	return !strcmp(x->hostname, y->hostname) && !strcmp(x->kernel_release, y->kernel_release) &&
	       !strcmp(x->cmdline, y->cmdline) && !strcmp(x->mode, y->mode) &&
	       x->duration_override == y->duration_override && x->iterations == y->iterations;
}

static bool measured(const struct run *r)
{
	return strcmp(r->meta.mode, "imported") != 0;
}

static bool excluded(const struct run *r, const char *const *ex, int nex)
{
	for (int i = 0; i < nex; i++)
		if (ex[i] && r->meta.id[0] && strcmp(ex[i], r->meta.id) == 0)
			return true;
	return false;
}

/* Accumulators per (test id): sum of squared deviations of log scores
 * from their set mean, and the degrees of freedom behind them. */
struct acc {
	char id[32];
	int copies;
	double ss;
	int df, runs;
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

/* One set of same-settings runs: per (test, copies) the log scores of the
 * runs that have it, their deviations from the set's mean. */
static void learn_set(struct acc **acc, int *nacc, const struct run **set, int k)
{
	double *logs = calloc((size_t)k, sizeof *logs);
	if (!logs)
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
				int m = 0;
				for (int q = s; q < k; q++) {
					const struct run_block *qb = run_find_block(set[q], bl->copies);
					if (!qb)
						continue;
					double v = 0;
					if (i < 0) {
						v = qb->index_partial == bl->index_partial &&
						    qb->index_tests == bl->index_tests ? qb->index_score : 0;
					} else {
						const struct test_result *t = run_block_find_test(qb, id);
						if (t && t->status == TEST_DONE)
							v = t->score;
					}
					if (v > 0)
						logs[m++] = log(v);
				}
				if (m < 2)
					continue;
				double mean = 0, ss = 0;
				for (int q = 0; q < m; q++)
					mean += logs[q] / m;
				for (int q = 0; q < m; q++)
					ss += (logs[q] - mean) * (logs[q] - mean);
				struct acc *a = acc_slot(acc, nacc, id, bl->copies);
				a->ss += ss;
				a->df += m - 1;
				a->runs += m;
			}
		}
	free(logs);
}

void noise_learn(struct noise_table *t, const struct run *const *runs, int n,
		 const char *const *exclude, int nexclude)
{
	memset(t, 0, sizeof *t);
	bool *used = calloc((size_t)n + 1, sizeof *used);
	const struct run **set = calloc((size_t)n + 1, sizeof *set);
	if (!used || !set)
		abort();
	struct acc *acc = NULL;
	int nacc = 0;
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
		if (k < 2)
			continue;
		t->groups++;
		t->runs += k;
		learn_set(&acc, &nacc, set, k);
	}
	/* Copy counts are pooled per test: the floor is the test's, and one
	 * more copy count is one more set of A/A comparisons. */
	for (int i = 0; i < nacc; i++) {
		struct noise_floor *f = slot(t, acc[i].id);
		double prev_ss = f->learned >= 0 ? f->learned * f->learned * f->df : 0;
		f->df += acc[i].df;
		f->runs += acc[i].runs;
		f->learned = sqrt((prev_ss + acc[i].ss) / f->df);
	}
	for (int i = 0; i < t->n; i++)
		t->f[i].sigma = noise_sigma(&t->f[i], 1);
	free(acc);
	free(used);
	free(set);
}

int noise_learn_store(struct noise_table *t, const char *const *exclude, int nexclude, char *err,
		      size_t errlen)
{
	struct store_list l;
	int rc = store_list(&l, err, errlen);
	if (rc < 0) {
		memset(t, 0, sizeof *t);
		return rc;
	}
	const struct run **runs = calloc((size_t)l.n + 1, sizeof *runs);
	if (!runs)
		abort();
	int n = 0;
	for (int i = 0; i < l.n; i++)
		if (l.e[i].run)
			runs[n++] = l.e[i].run;
	noise_learn(t, runs, n, exclude, nexclude);
	free(runs);
	store_list_free(&l);
	return 0;
}

const struct noise_floor *noise_get(const struct noise_table *t, const char *test_id)
{
	static struct noise_floor fb[4];
	static int next;
	if (t)
		for (int i = 0; i < t->n; i++)
			if (strcmp(t->f[i].id, test_id) == 0)
				return &t->f[i];
	/* A few rotating slots, so two results can be held at once. */
	struct noise_floor *f = &fb[next++ % 4];
	memset(f, 0, sizeof *f);
	snprintf(f->id, sizeof f->id, "%s", test_id);
	f->fallback = f->sigma = noise_default(test_id);
	f->learned = -1;
	return f;
}

void noise_free(struct noise_table *t)
{
	free(t->f);
	memset(t, 0, sizeof *t);
}

double noise_sigma(const struct noise_floor *nf, double scale)
{
	double def = nf->fallback * (scale > 1 ? scale : 1);
	if (nf->df <= 0)
		return def;
	return sqrt((nf->df * nf->learned * nf->learned + NOISE_PRIOR_DF * def * def) /
		    (nf->df + NOISE_PRIOR_DF));
}
