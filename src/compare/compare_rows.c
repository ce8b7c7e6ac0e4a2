/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison's rows: per copy count, every test and point either side has, each decided, then the index row. */
#include "compare.h"
#include "compare_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "noise.h"
#include "run.h"
#include "tests.h"
#include "stats.h"

/* Tests of a block in row order: A's first run's order, then tests only later runs or B have. */
static int collect_ids(char (**ids)[32], const struct run *const *a, int na,
		       const struct run *const *b, int nb, int copies)
{
	int n = 0, cap = 0;
	*ids = NULL;
	for (int side = 0; side < 2; side++) {
		const struct run *const *runs = side ? b : a;
		int nr = side ? nb : na;
		for (int r = 0; r < nr; r++) {
			const struct run_block *bl = run_find_block(runs[r], copies);
			for (int i = 0; bl && i < bl->ntests; i++) {
				bool have = false;
				for (int k = 0; k < n && !have; k++)
					have = !strcmp((*ids)[k], bl->tests[i].id);
				if (have)
					continue;
				if (n == cap) {
					cap = cap ? cap * 2 : 16;
					char(*ni)[32] = realloc(*ids, (size_t)cap * sizeof *ni);
					if (!ni)
						abort();
					*ids = ni;
				}
				snprintf((*ids)[n++], 32, "%s", bl->tests[i].id);
			}
		}
	}
	return n;
}

/* A block's rows: a rate test is one row; a points test is a row per
 * point, in the order of the first run that has it, then points only
 * later runs have. */
struct row_id {
	char test[32];
	char point[32]; /* "" for a rate test */
};

static const struct test_result *find_any(const struct run *const *runs, int n, int copies,
					  const char *id);

/* Where on its curve a point was measured in the first of the runs that has it; NAN none. */
static double point_x(const struct run *const *runs, int n, int copies, const char *test,
		      const char *name)
{
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, test) : NULL;
		const struct point *p = t ? test_find_point(t, name) : NULL;
		if (p)
			return p->x;
	}
	return NAN;
}

static void push_row_id(struct row_id **v, int *n, int *cap, const char *test, const char *point)
{
	if (*n == *cap) {
		*cap *= 2;
		struct row_id *nv = realloc(*v, (size_t)*cap * sizeof *nv);
		if (!nv)
			abort();
		*v = nv;
	}
	snprintf((*v)[*n].test, sizeof (*v)[*n].test, "%s", test);
	snprintf((*v)[*n].point, sizeof (*v)[*n].point, "%s", point);
	(*n)++;
}

static int expand_points(struct row_id **out, char (*ids)[32], int nids, const struct run *const *a,
			 int na, const struct run *const *b, int nb, int copies)
{
	int n = 0, cap = nids + 1;
	struct row_id *v = calloc((size_t)cap, sizeof *v);
	if (!v)
		abort();
	for (int i = 0; i < nids; i++) {
		const struct test_result *t = find_any(a, na, copies, ids[i]);
		if (!t)
			t = find_any(b, nb, copies, ids[i]);
		bool points = t && t->kind == RESULT_POINTS;
		for (int side = 0; points && side < 2; side++)
			for (int r = 0; r < (side ? nb : na); r++) {
				const struct run_block *bl = run_find_block(side ? b[r] : a[r], copies);
				const struct test_result *tr = bl ? run_block_find_test(bl, ids[i]) : NULL;
				for (int p = 0; tr && p < tr->npoints; p++) {
					bool have = false;
					for (int k = n - 1; k >= 0 && !have && !strcmp(v[k].test, ids[i]); k--)
						have = !strcmp(v[k].point, tr->points[p].name);
					if (!have)
						push_row_id(&v, &n, &cap, ids[i], tr->points[p].name);
				}
			}
		if (!points)
			push_row_id(&v, &n, &cap, ids[i], "");
	}
	*out = v;
	return n;
}

/* The facts of a point, from whichever run has it. */
static const struct point *point_any(const struct run *const *a, int na, const struct run *const *b,
				     int nb, int copies, const struct row_id *id)
{
	for (int side = 0; side < 2; side++)
		for (int r = 0; r < (side ? nb : na); r++) {
			const struct run_block *bl = run_find_block(side ? b[r] : a[r], copies);
			const struct test_result *t = bl ? run_block_find_test(bl, id->test) : NULL;
			const struct point *p = t ? test_find_point(t, id->point) : NULL;
			if (p)
				return p;
		}
	return NULL;
}

static const struct test_result *find_any(const struct run *const *runs, int n, int copies,
					  const char *id)
{
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, id) : NULL;
		if (t)
			return t;
	}
	return NULL;
}

/* A block's index with each pair test scored as its row compared it (one
 * placement's samples alone): the log of that change, or NaN when the run has
 * no sample of that placement (compare_place_index_shift). */
static double placed_shift(const struct compare_block *cb, const struct run_block *b)
{
	double shift = 0;
	for (int i = 0; i < cb->nrows; i++)
		shift += compare_place_index_shift(b, cb->rows[i].id, (enum placement)cb->rows[i].place_only,
						   cb->rows[i].place_by_time);
	return shift;
}

static void index_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
		       int n, int copies, const struct compare_block *cb, bool side_b)
{
	compare_side_init(s, n);
	s->freq = NAN;
	cs->others_cpu = cs->freq_mhz = NAN;
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		double shift = b && b->index_score > 0 ? placed_shift(cb, b) : NAN;
		if (isfinite(shift))
			s->all[s->nall++] = log(b->index_score) + shift;
	}
	s->samples = s->nall > 0;
	for (int i = 0; i < cb->nrows; i++) {
		const struct compare_row *row = &cb->rows[i];
		const struct compare_side *side = side_b ? &row->b : &row->a;
		if (!side->present || !(side->index > 0))
			continue;
		if (side->nsamples == 0)
			s->samples = false;
		/* The index is made of its tests: one measured on a busy or
		 * throttled machine makes it so too. */
		s->busy |= side->busy;
		s->throttled |= side->throttled;
	}
	if (!s->busy && !s->throttled) {
		memcpy(s->logs, s->all, (size_t)s->nall * sizeof *s->logs);
		s->k = s->nall;
	}
	if (s->nall) {
		cs->present = true;
		cs->nruns = s->nall;
		cs->score = cs->index = exp(stats_mean(s->all, s->nall));
		cs->busy = s->busy;
		cs->throttled = s->throttled;
	}
}

/* Row i's sides filled and its verdict decided, with the floors it used in *fa and *fb. */
static void decide_row(struct compare *c, struct compare_block *cb, struct compare_row *row, const struct row_id *rid,
		       const struct run *const *a, int na, const struct run *const *b, int nb,
		       const struct noise_table *nt, struct noise_floor *fa, struct noise_floor *fb)
{
	const struct test_result *t = find_any(a, na, cb->copies, rid->test);
	if (!t)
		t = find_any(b, nb, cb->copies, rid->test);
	struct side_vals sa, sb;
	struct place_pick pp = { .only = PLACE_UNKNOWN };
	if (rid->point[0]) {
		const struct point *p = point_any(a, na, b, nb, cb->copies, rid);
		row->point = true;
		row->detail = !p->summary;
		row->lower_better = p->lower_better;
		snprintf(row->id, sizeof row->id, "%s:%s", t->id, p->name);
		const struct family *fam = test_result_family(t);
		char size[24];
		if (row->detail && fam->fmt_x && fam->fmt_x(size, sizeof size, p)) {
			snprintf(row->label, sizeof row->label, "%s %.*s %s", t->id,
				 (int)strcspn(p->name, " "), p->name, size);
		} else {
			snprintf(row->label, sizeof row->label, "%s %s", t->id, p->name);
		}
		snprintf(row->unit, sizeof row->unit, "%s", p->unit);
		*fa = *noise_get(nt, row->id, a[0]);
		*fb = *noise_get(nt, row->id, b[0]);
		compare_fill_point_side(&sa, &row->a, a, na, cb->copies, t->id, p->name);
		compare_fill_point_side(&sb, &row->b, b, nb, cb->copies, t->id, p->name);
	} else {
		snprintf(row->id, sizeof row->id, "%s", t->id);
		snprintf(row->label, sizeof row->label, "%s", t->label[0] ? t->label : t->id);
		snprintf(row->unit, sizeof row->unit, "%s", t->unit);
		/* Each side's floor is its own setting's (a quick run moves more than a full one). */
		*fa = *noise_get(nt, row->id, a[0]);
		*fb = *noise_get(nt, row->id, b[0]);
		compare_place_pick(&pp, a, na, b, nb, cb->copies, rid->test);
		row->place_only = pp.only;
		row->place_by_time = pp.by_time;
		compare_fill_test_side(&sa, &row->a, a, na, cb->copies, row->id, noise_sigma(fa), pp.only, pp.by_time);
		compare_fill_test_side(&sb, &row->b, b, nb, cb->copies, row->id, noise_sigma(fb), pp.only, pp.by_time);
		struct compare_side *cs[2] = { &row->a, &row->b };
		for (int s = 0; s < 2; s++) {
			cs[s]->place_one = pp.n[s][PLACE_ONE];
			cs[s]->place_two = pp.n[s][PLACE_TWO];
			cs[s]->place_mixed = pp.n[s][PLACE_MIXED];
		}
	}
	compare_decide(row, &sa, &sb, fa, fb, c->conf);
	/* a placement both sides did not measure says nothing of the kernels */
	if (pp.differs && row->a.present && row->b.present) {
		row->verdict = VERDICT_NA;
		row->note = "placement";
	}
	compare_place_footer(c, row, &pp);
	/* lower is better: a fall is the better ("faster") way */
	if (row->lower_better && row->verdict == VERDICT_FASTER)
		row->verdict = VERDICT_SLOWER;
	else if (row->lower_better && row->verdict == VERDICT_SLOWER)
		row->verdict = VERDICT_FASTER;
	/* a plateau read at another size (runs with other --sizes) is not the same point */
	if (row->point && row->a.present && row->b.present) {
		const char *sep = strchr(row->id, ':');
		double xa = point_x(a, na, cb->copies, rid->test, sep ? sep + 1 : "");
		double xb = point_x(b, nb, cb->copies, rid->test, sep ? sep + 1 : "");
		if (isfinite(xa) && isfinite(xb) && fabs(xa - xb) > 1e-6 * fmax(fabs(xa), fabs(xb))) {
			row->verdict = VERDICT_NA;
			row->note = "at another size";
		}
	}
	/* a test run with other settings (the summary's "settings" its family
	 * writes: a period, the loads asked) is not the same point */
	if (row->point && row->a.present && row->b.present) {
		const struct test_result *ta = find_any(a, na, cb->copies, rid->test);
		const struct test_result *tb = find_any(b, nb, cb->copies, rid->test);
		const struct kv *ka = ta ? test_summary_get(ta, "settings") : NULL;
		const struct kv *kb = tb ? test_summary_get(tb, "settings") : NULL;
		if (ka && kb && strcmp(ka->text, kb->text)) {
			row->verdict = VERDICT_NA;
			row->note = "other settings";
			bool told = false;
			for (int k = 0; k < c->nfooter && !told; k++)
				told = !strncmp(c->footer[k], rid->test, strlen(rid->test)) &&
				       !strncmp(c->footer[k] + strlen(rid->test), " ran with", 9);
			if (!told)
				compare_push_footer(c, "%s ran with other settings: A %s; B %s. Its points are n/a.",
						    rid->test, ka->text, kb->text);
		}
	}
	compare_side_free(&sa);
	compare_side_free(&sb);
}

/* A decided row counted into its block and the footer's tally. */
static void count_row(struct compare *c, struct compare_block *cb, const struct compare_row *row,
		      const struct noise_floor *fa, const struct noise_floor *fb, const struct run *const *a,
		      int na, const struct run *const *b, int nb, struct compare_tally *tl)
{
	if (row->detail) {
		/* a curve's hundreds of points are counted apart from the table's rows */
		cb->ndetail++;
		cb->dfaster += row->verdict == VERDICT_FASTER;
		cb->dslower += row->verdict == VERDICT_SLOWER;
		cb->dsame += row->verdict == VERDICT_SAME;
		cb->dna += row->verdict == VERDICT_NA;
		return;
	}
	tl->drifts += row->a.drift + row->b.drift;
	compare_count_basis(c, row, fa, fb, a[0], b[0], na, nb, &tl->uncalibrated);
	switch (row->verdict) {
	case VERDICT_FASTER: cb->nfaster++; break;
	case VERDICT_SLOWER: cb->nslower++; break;
	case VERDICT_SAME: cb->nsame++; break;
	case VERDICT_NA: cb->nna++; break;
	}
	if (row->verdict == VERDICT_NA && row->note &&
	    (!strcmp(row->note, "busy") || !strcmp(row->note, "throttled")))
		c->nbusy_rows++;
	/* a placement's n/a has its own footer (compare_place.c) */
	else if (row->verdict == VERDICT_NA && row->a.present && row->b.present &&
		 !(row->note && !strcmp(row->note, "placement")))
		tl->na_rows++;
	if (row->verdict == VERDICT_SAME) {
		tl->undecided++;
		if (row->more_runs > 0 && row->more_runs <= 2)
			tl->settle++;
	}
}

/* The index score of a block, as one more row. */
static void index_row(struct compare *c, struct compare_block *cb, const struct run *const *a, int na,
		      const struct run *const *b, int nb, const struct noise_table *nt)
{
	struct compare_row *ix = &cb->index;
	snprintf(ix->id, sizeof ix->id, NOISE_INDEX_ID);
	snprintf(ix->label, sizeof ix->label, "System Benchmarks Index Score");
	const struct run_block *ab = NULL, *bb = NULL;
	for (int r = 0; r < na && !ab; r++)
		ab = run_find_block(a[r], cb->copies);
	for (int r = 0; r < nb && !bb; r++)
		bb = run_find_block(b[r], cb->copies);
	cb->a_partial = ab && ab->index_partial;
	cb->b_partial = bb && bb->index_partial;
	struct noise_floor fa = *noise_get(nt, NOISE_INDEX_ID, a[0]);
	struct noise_floor fb = *noise_get(nt, NOISE_INDEX_ID, b[0]);
	struct side_vals sa, sb;
	index_side(&sa, &ix->a, a, na, cb->copies, cb, false);
	index_side(&sb, &ix->b, b, nb, cb->copies, cb, true);
	compare_decide(ix, &sa, &sb, &fa, &fb, c->conf);
	cb->has_index = ix->a.present || ix->b.present;
	/* An index over different test sets is not one number compared. */
	if (ab && bb && ab->index_tests != bb->index_tests && ix->verdict != VERDICT_NA) {
		ix->verdict = VERDICT_NA;
		ix->note = "index over different tests";
	}
	/* Nor one holding a test the two sides placed differently (its row is n/a). */
	for (int i = 0; i < cb->nrows && ix->verdict != VERDICT_NA; i++)
		if (cb->rows[i].note && !strcmp(cb->rows[i].note, "placement") && cb->rows[i].a.index > 0) {
			ix->verdict = VERDICT_NA;
			ix->note = "placement";
		}
	compare_side_free(&sa);
	compare_side_free(&sb);
}

void compare_block_rows(struct compare *c, struct compare_block *cb, const struct run *const *a, int na,
			const struct run *const *b, int nb, const struct noise_table *nt, struct compare_tally *tl)
{
	char(*ids)[32];
	int nids = collect_ids(&ids, a, na, b, nb, cb->copies);
	struct row_id *rid;
	cb->nrows = expand_points(&rid, ids, nids, a, na, b, nb, cb->copies);
	cb->rows = calloc((size_t)cb->nrows + 1, sizeof *cb->rows);
	if (!cb->rows)
		abort();
	double sum_change = 0, sum_log = 0;
	for (int i = 0; i < cb->nrows; i++) {
		struct compare_row *row = &cb->rows[i];
		struct noise_floor fa, fb;
		decide_row(c, cb, row, &rid[i], a, na, b, nb, nt, &fa, &fb);
		count_row(c, cb, row, &fa, &fb, a, na, b, nb, tl);
		/* The mean change is over rates: a point's change has its own direction. */
		if (!row->detail && isfinite(row->change) && !row->point) {
			cb->ncompared++;
			sum_change += row->change;
			sum_log += log1p(row->change / 100);
		}
	}
	free(rid);
	free(ids);
	cb->mean_change = cb->ncompared ? sum_change / cb->ncompared : NAN;
	cb->geomean_change = cb->ncompared ? (exp(sum_log / cb->ncompared) - 1) * 100 : NAN;
	index_row(c, cb, a, na, b, nb, nt);
	if (cb->has_index && !tl->has_index) {
		const struct noise_floor *f = noise_get(nt, NOISE_INDEX_ID, a[0]);
		tl->has_index = true;
		tl->index_change = cb->index.change;
		tl->pace_learned = noise_pace_slope(f, &tl->pace_slope, &tl->pace_r);
		tl->pace_df = f->pace_df;
	}
	const struct run_mode_info *mode = run_mode_info(a[0]->meta.mode);
	if (mode->compare_rows)
		mode->compare_rows(c, cb, a, na, b, nb, nt);
}
