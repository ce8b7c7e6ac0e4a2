/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plan's rows decided from its boots' means, in the plan's words and as a comparison for the text, forum and HTML reports. */
#include "plan_report.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_place.h"
#include "fileio.h"
#include "noise.h"
#include "paste.h"
#include "plan.h"
#include "report_html.h"
#include "run.h"
#include "stats.h"
#include "store.h"
#include "telemetry/others.h"

/* A test that shared the machine with other processes, or was throttled,
 * measured them too (as noise.c and compare leave it out). */
static bool disturbed(const struct test_result *t)
{
	const struct kv *o = test_summary_get(t, "others.cpu");
	const struct kv *th = test_summary_get(t, "throttled");
	return (o && o->has_value && o->value >= OTHERS_BUSY_CPU) || (th && th->has_value && th->value >= 1);
}

/* The log change a block's index takes with each pair test scored as its row judges it;
 * NAN when a run has no such sample (compare_place_index_shift). */
static double index_shift(const struct run_block *b, const struct plan_result *res)
{
	double shift = 0;
	for (int i = 0; i < res->nrows; i++)
		if (res->rows[i].copies == b->copies)
			shift += compare_place_index_shift(b, res->rows[i].id, (enum placement)res->rows[i].place_only,
							   res->rows[i].place_by_time);
	return shift;
}

/* A run's log value of row (copies, id): 1 with it, 0 none, -1 busy. */
static int run_value(const struct run *r, const struct plan_row *row, const struct plan_result *res, double *v)
{
	int copies = row->copies;
	const char *id = row->id;
	const struct run_block *b = run_find_block(r, copies);
	if (!b)
		return 0;
	if (!strcmp(id, NOISE_INDEX_ID)) {
		double shift = index_shift(b, res);
		if (!(b->index_score > 0) || !isfinite(shift))
			return 0;
		for (int i = 0; i < b->ntests; i++)
			if (disturbed(&b->tests[i]))
				return -1;
		*v = log(b->index_score) + shift;
		return 1;
	}
	char test[48];
	const char *colon = strchr(id, ':');
	snprintf(test, sizeof test, "%.*s", (int)(colon ? colon - id : (long)strlen(id)), id);
	const struct test_result *t = run_block_find_test(b, test);
	if (!t)
		return 0;
	double x;
	if (colon) {
		const struct point *p = test_find_point(t, colon + 1);
		x = p ? point_mean(p) : NAN;
	} else {
		x = t->status != TEST_DONE ? NAN
		  : row->place_only ? compare_place_score(t, (enum placement)row->place_only, row->place_by_time)
				    : t->score;
	}
	if (!(x > 0))
		return 0;
	if (disturbed(t))
		return -1;
	*v = log(x);
	return 1;
}

static struct plan_row *row_slot(struct plan_result *res, int copies, const char *id)
{
	for (int i = 0; i < res->nrows; i++)
		if (res->rows[i].copies == copies && !strcmp(res->rows[i].id, id))
			return &res->rows[i];
	struct plan_row *nr = realloc(res->rows, (size_t)(res->nrows + 1) * sizeof *nr);
	if (!nr)
		abort();
	res->rows = nr;
	struct plan_row *r = &nr[res->nrows++];
	memset(r, 0, sizeof *r);
	snprintf(r->id, sizeof r->id, "%s", id);
	r->copies = copies;
	return r;
}

/* The rows: per copy count the index, then each test (a points test's
 * headline points), in the order the runs hold them. */
static void collect_rows(struct plan_result *res, struct run *const *runs, int nruns)
{
	for (int k = 0; k < nruns; k++)
		for (int b = 0; b < runs[k]->nblocks; b++) {
			const struct run_block *bl = &runs[k]->blocks[b];
			if (bl->index_score > 0) {
				struct plan_row *r = row_slot(res, bl->copies, NOISE_INDEX_ID);
				snprintf(r->label, sizeof r->label, "System Benchmarks Index Score");
				r->weighted = true;
			}
			for (int i = 0; i < bl->ntests; i++) {
				const struct test_result *t = &bl->tests[i];
				if (t->kind == RESULT_POINTS) {
					for (int p = 0; p < t->npoints; p++) {
						if (!t->points[p].summary)
							continue;
						char id[48];
						snprintf(id, sizeof id, "%s:%s", t->id, t->points[p].name);
						struct plan_row *r = row_slot(res, bl->copies, id);
						snprintf(r->label, sizeof r->label, "%s %s", t->label, t->points[p].name);
						r->lower_better = t->points[p].lower_better;
					}
				} else {
					struct plan_row *r = row_slot(res, bl->copies, t->id);
					snprintf(r->label, sizeof r->label, "%s", t->label);
					r->weighted |= t->baseline > 0 && !strcmp(t->category, "system");
				}
			}
		}
	/* the index of each copy count first, as compare's table has it last but reads it first */
	for (int i = 1; i < res->nrows; i++)
		for (int j = i; j > 0 && !strcmp(res->rows[j].id, NOISE_INDEX_ID) &&
				strcmp(res->rows[j - 1].id, NOISE_INDEX_ID) && res->rows[j - 1].copies == res->rows[j].copies;
		     j--) {
			struct plan_row tmp = res->rows[j];
			res->rows[j] = res->rows[j - 1];
			res->rows[j - 1] = tmp;
		}
}

/* What is known of a row's noise before the plan: within a boot, the floor
 * the store learned for these runs' setting (or the default); between boots,
 * what earlier plans of this setting taught (plan_between), else as much
 * again as within (a boot's layout can move a score as much as a run's own
 * luck does: "not calibrated" for that part). */
static struct pstat_prior prior_of(const struct noise_table *nt, const struct plan_between *pb, const char *id,
				   int copies, const char *setting, const struct run *like, int *runs, bool *between)
{
	const struct noise_floor *nf = noise_get(nt, id, like);
	struct pstat_prior p = { .within = noise_sigma(nf), .df = INFINITY };
	p.between = p.within;
	if (nf->df > 0) {
		p.calibrated = true;
		p.df = noise_dof(nf);
		if (nf->runs > *runs)
			*runs = nf->runs;
	}
	double bdf;
	double sb = pb ? plan_between_get(pb, id, copies, setting, &bdf) : -1;
	if (sb >= 0) {
		p.between = sb;
		if (bdf < p.df)
			p.df = bdf;
		*between = true;
	}
	return p;
}

static void analyze_with(const struct plan *p, struct run *const *runs, const int *boot_of, int nruns,
			 const struct noise_table *nt, const struct plan_between *pb, struct plan_result *res);

void plan_analyze_runs(const struct plan *p, struct run *const *runs, const int *boot_of, int nruns,
		       const struct noise_table *nt, struct plan_result *res)
{
	analyze_with(p, runs, boot_of, nruns, nt, NULL, res);
}

/* A verdict on a log ratio in the row's own direction: a lower time is faster. */
static int verdict_of(enum pstat_verdict v, bool lower_better)
{
	return v == PSTAT_NA ? VERDICT_NA
	     : v == PSTAT_SAME ? VERDICT_SAME
	     : (v == PSTAT_HIGHER) != lower_better ? VERDICT_FASTER
						   : VERDICT_SLOWER;
}

/* The done boots' runs of each kernel, A's in side[0] and B's in side[1] (free both). */
static void done_sides(const struct plan *p, struct run *const *runs, const int *boot_of, int nruns,
		       const struct run **side[2], int n[2])
{
	n[0] = n[1] = 0;
	side[0] = calloc((size_t)nruns + 1, sizeof *side[0]);
	side[1] = calloc((size_t)nruns + 1, sizeof *side[1]);
	if (!side[0] || !side[1])
		abort();
	for (int r = 0; r < nruns; r++) {
		const struct plan_boot *pb = &p->boot[boot_of[r]];
		if (pb->state == PLAN_BOOT_DONE) {
			int s = pb->side == 'B';
			side[s][n[s]++] = runs[r];
		}
	}
}

/* Each pair test's placement, judged on the done boots' runs of each kernel as compare
 * judges it; a row n/a for placement makes its copy count's index n/a too. */
static void place_rows(const struct plan *p, struct run *const *runs, const int *boot_of, int nruns,
		       struct plan_result *res)
{
	const struct run **side[2];
	int n[2];
	done_sides(p, runs, boot_of, nruns, side, n);
	for (int i = 0; i < res->nrows && n[0] && n[1]; i++) {
		struct plan_row *row = &res->rows[i];
		if (!strcmp(row->id, NOISE_INDEX_ID) || strchr(row->id, ':'))
			continue;
		struct place_pick pp;
		compare_place_pick(&pp, side[0], n[0], side[1], n[1], row->copies, row->id);
		row->place_only = pp.only;
		row->place_by_time = pp.by_time;
		row->place_differs = pp.differs;
	}
	for (int i = 0; i < res->nrows; i++) {
		struct plan_row *ix = &res->rows[i];
		if (strcmp(ix->id, NOISE_INDEX_ID))
			continue;
		for (int k = 0; k < res->nrows; k++)
			if (res->rows[k].copies == ix->copies && res->rows[k].place_differs && res->rows[k].weighted)
				ix->place_differs = true;
	}
	free(side[0]);
	free(side[1]);
}

static void analyze_with(const struct plan *p, struct run *const *runs, const int *boot_of, int nruns,
			 const struct noise_table *nt, const struct plan_between *pb, struct plan_result *res)
{
	memset(res, 0, sizeof *res);
	res->na = plan_done(p, 'A');
	res->nb = plan_done(p, 'B');
	res->complete = plan_next_slot(p) < 0 || p->ended[0];
	res->look = res->na < res->nb ? res->na : res->nb;
	res->conf = p->until > 0 && res->look > 0 ? pstat_look_conf(res->look, p->boots, p->alpha) : 1 - p->alpha;
	res->index_resolution = NAN;
	res->calibrated = true;
	collect_rows(res, runs, nruns);
	const struct run *like = nruns ? runs[0] : NULL;
	if (like)
		noise_setting(like, res->setting, sizeof res->setting);
	struct pstat_boot *bv = calloc((size_t)p->nboots + 1, sizeof *bv);
	struct plan_obs *ob = calloc((size_t)nruns + 1, sizeof *ob);
	double *pace = calloc((size_t)nruns + 1, sizeof *pace);
	if (!bv || !ob || !pace)
		abort();
	for (int r = 0; r < nruns; r++) { /* a run's, the same for all its rows */
		double v = run_pace(runs[r]);
		pace[r] = v > 0 ? log(v) : NAN;
	}
	place_rows(p, runs, boot_of, nruns, res);
	bool weighted_all = true;
	int weighted = 0;
	for (int i = 0; i < res->nrows; i++) {
		struct plan_row *row = &res->rows[i];
		int nob = 0, cnt[2] = { 0, 0 };
		for (int b = 0; b < p->nboots; b++) {
			if (p->boot[b].state != PLAN_BOOT_DONE)
				continue;
			int k = 0, busy = 0;
			for (int r = 0; r < nruns; r++) {
				double v;
				if (boot_of[r] != b)
					continue;
				int got = row->place_differs ? 0 : run_value(runs[r], row, res, &v);
				busy += got < 0;
				if (got > 0) {
					k++;
					ob[nob++] = (struct plan_obs){ v, pace[r], b, p->boot[b].side == 'B' ? PSTAT_B : PSTAT_A };
				}
			}
			row->busy_boots += busy && !k;
			cnt[p->boot[b].side == 'B'] += k > 0;
		}
		int n = plan_obs_boots(ob, nob, NULL, bv);
		/* what these boots teach of the noise between boots, for later plans */
		double sm[2] = { 0, 0 }, w2 = 0;
		int wn = 0;
		for (int k = 0; k < n; k++) {
			sm[bv[k].side == PSTAT_B] += bv[k].mean;
			if (bv[k].n >= 2) {
				w2 += bv[k].ss / (bv[k].n - 1);
				wn++;
			}
		}
		row->ss_means = 0;
		for (int k = 0; k < n; k++) {
			int s = bv[k].side == PSTAT_B;
			double dev = bv[k].mean - sm[s] / cnt[s];
			row->ss_means += dev * dev;
		}
		row->df_means = (cnt[0] > 1 ? cnt[0] - 1 : 0) + (cnt[1] > 1 ? cnt[1] - 1 : 0);
		row->within2 = wn ? w2 / wn : NAN;
		if (!cnt[0] || !cnt[1])
			row->na_why = row->busy_boots ? "busy" : !res->na ? "no boot of A done yet" : !res->nb ? "no boot of B done yet"
												  : "not measured on both kernels";
		if (row->place_differs)
			row->na_why = "placement";
		row->prior = prior_of(nt, pb, row->id, row->copies, res->setting, like, &res->prior_runs, &res->between_learned);
		res->calibrated &= row->prior.calibrated;
		row->e = pstat_effect(bv, n, &row->prior, res->conf);
		res->any_paired |= row->e.paired;
		row->verdict = verdict_of(row->e.verdict, row->lower_better);
		plan_pace_row(&row->pace, ob, nob, res->conf);
		row->pace_verdict = row->pace.ok ? verdict_of(row->pace.adj.verdict, row->lower_better) : VERDICT_NA;
		if (p->until > 0)
			row->settled = pstat_settled(&row->e, p->until);
		if (row->weighted) {
			weighted++;
			weighted_all &= row->settled;
		}
		if (!strcmp(row->id, NOISE_INDEX_ID) && !isfinite(res->index_resolution) && row->verdict != VERDICT_NA)
			res->index_resolution = row->verdict == VERDICT_SAME ? pstat_rules_out(&row->e)
									     : (row->e.hi - row->e.lo) / 2;
	}
	free(bv);
	free(ob);
	free(pace);
	res->settled = p->until > 0 && weighted > 0 && weighted_all;
}

void plan_result_free(struct plan_result *res)
{
	free(res->rows);
	for (int i = 0; i < res->nruns; i++)
		run_free(res->runs[i]);
	free(res->runs);
	free(res->boot_of);
	memset(res, 0, sizeof *res);
}

/* The plan's stored runs, each with its boot; -1 with err filled when one is gone. */
static int load_runs(const struct plan *p, struct run ***runsp, int **boot_ofp, int *np, char *err, size_t errlen)
{
	int total = 0;
	for (int b = 0; b < p->nboots; b++)
		total += p->boot[b].nruns;
	struct run **runs = calloc((size_t)total + 1, sizeof *runs);
	int *boot_of = calloc((size_t)total + 1, sizeof *boot_of);
	if (!runs || !boot_of)
		abort();
	int n = 0;
	for (int b = 0; b < p->nboots; b++)
		for (int k = 0; k < p->boot[b].nruns; k++) {
			char why[512];
			struct run *r = store_load(p->boot[b].runs[k], why, sizeof why);
			if (!r) {
				snprintf(err, errlen, "plan '%s': run %s of boot %d (%c) is not in the store: %s", p->name,
					 p->boot[b].runs[k], b + 1, p->boot[b].side, why);
				for (int i = 0; i < n; i++)
					run_free(runs[i]);
				free(runs);
				free(boot_of);
				return -1;
			}
			boot_of[n] = b;
			runs[n++] = r;
		}
	*runsp = runs;
	*boot_ofp = boot_of;
	*np = n;
	return 0;
}

int plan_analyze(const struct plan *p, struct plan_result *res, char *err, size_t errlen)
{
	struct run **runs;
	int *boot_of, n;
	if (load_runs(p, &runs, &boot_of, &n, err, errlen) < 0)
		return -1;
	const char **ids = calloc((size_t)n + 1, sizeof *ids);
	if (!ids)
		abort();
	for (int i = 0; i < n; i++)
		ids[i] = runs[i]->meta.id;
	struct noise_table nt;
	struct plan_between pb;
	char why[512];
	bool have_nt = noise_learn_store(&nt, ids, n, why, sizeof why) == 0;
	bool have_pb = plan_between_learn(&pb, p->name, why, sizeof why) == 0;
	analyze_with(p, runs, boot_of, n, have_nt ? &nt : NULL, have_pb ? &pb : NULL, res);
	if (have_nt)
		noise_free(&nt);
	if (have_pb)
		plan_between_free(&pb);
	free(ids);
	res->runs = runs;
	res->boot_of = boot_of;
	res->nruns = n;
	return 0;
}

static struct plan_between_row *between_slot(struct plan_between *b, const char *id, int copies, const char *setting)
{
	for (int i = 0; i < b->n; i++)
		if (b->v[i].copies == copies && !strcmp(b->v[i].id, id) && !strcmp(b->v[i].setting, setting))
			return &b->v[i];
	struct plan_between_row *nv = realloc(b->v, (size_t)(b->n + 1) * sizeof *nv);
	if (!nv)
		abort();
	b->v = nv;
	struct plan_between_row *r = &nv[b->n++];
	memset(r, 0, sizeof *r);
	snprintf(r->id, sizeof r->id, "%s", id);
	snprintf(r->setting, sizeof r->setting, "%s", setting);
	r->copies = copies;
	return r;
}

int plan_between_learn(struct plan_between *b, const char *except, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	char **names;
	int n = plan_list(&names, err, errlen);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		struct plan p;
		char why[512];
		if ((except && !strcmp(names[i], except)) || plan_load(names[i], &p, why, sizeof why) < 0) {
			free(names[i]);
			continue;
		}
		struct run **runs;
		int *boot_of, nr;
		if (load_runs(&p, &runs, &boot_of, &nr, why, sizeof why) == 0) {
			struct plan_result res;
			analyze_with(&p, runs, boot_of, nr, NULL, NULL, &res);
			for (int k = 0; k < res.nrows; k++) {
				const struct plan_row *r = &res.rows[k];
				if (!(r->df_means > 0))
					continue;
				/* a boot mean's variance, less its runs' share of it */
				double v = r->ss_means / r->df_means - (isfinite(r->within2) ? r->within2 / r->e.runs : 0);
				struct plan_between_row *s = between_slot(b, r->id, r->copies, res.setting);
				s->ss += r->df_means * (v > 0 ? v : 0);
				s->df += r->df_means;
			}
			plan_result_free(&res);
			for (int k = 0; k < nr; k++)
				run_free(runs[k]);
			free(runs);
			free(boot_of);
		}
		plan_free(&p);
		free(names[i]);
	}
	free(names);
	return 0;
}

double plan_between_get(const struct plan_between *b, const char *id, int copies, const char *setting, double *df)
{
	for (int i = 0; i < b->n; i++)
		if (b->v[i].copies == copies && !strcmp(b->v[i].id, id) && !strcmp(b->v[i].setting, setting) &&
		    b->v[i].df > 0) {
			*df = b->v[i].df;
			return sqrt(b->v[i].ss / b->v[i].df);
		}
	return -1;
}

void plan_between_free(struct plan_between *b)
{
	free(b->v);
	memset(b, 0, sizeof *b);
}

/* An effect in words, in the row's direction (verdict as compare's). */
static void effect_words(char *buf, size_t size, int verdict, const struct pstat_effect *e, const char *na_why)
{
	if (verdict == VERDICT_NA) {
		snprintf(buf, size, "n/a (%s)", na_why ? na_why : "no interval");
		return;
	}
	if (verdict == VERDICT_SAME) {
		snprintf(buf, size, "no change larger than %.1f%% either way", pstat_pct(pstat_rules_out(e)));
		return;
	}
	/* The size of the change, and of its interval's ends, in the row's own
	 * direction: a time 4.8% lower is 4.8% faster. Both ends have the
	 * change's sign when a change was found. */
	double x = fabs(pstat_pct(e->d)), a = fabs(pstat_pct(e->lo)), b = fabs(pstat_pct(e->hi));
	snprintf(buf, size, "B is %.1f%% %s (%.1f%% to %.1f%%)", x, verdict == VERDICT_FASTER ? "faster" : "slower",
		 a < b ? a : b, a < b ? b : a);
}

void plan_row_words(char *buf, size_t size, const struct plan_row *r)
{
	effect_words(buf, size, r->verdict, &r->e, r->na_why);
}

void plan_row_pace_words(char *buf, size_t size, const struct plan_row *r)
{
	if (!r->pace.ok) {
		snprintf(buf, size, "n/a (%s)", r->pace.why ? r->pace.why : "no interval");
		return;
	}
	char w[160], pw[120];
	effect_words(w, sizeof w, r->pace_verdict, &r->pace.adj, NULL);
	const struct pstat_effect *pe = &r->pace.pace;
	if (pe->verdict == PSTAT_SAME)
		snprintf(pw, sizeof pw, "pace within %.1f%%", pstat_pct(pstat_rules_out(pe)));
	else
		snprintf(pw, sizeof pw, "B's pace %+.1f%% (%+.1f%% to %+.1f%%)", pstat_pct(pe->d), pstat_pct(pe->lo),
			 pstat_pct(pe->hi));
	snprintf(buf, size, "%s; %s", w, pw);
}

static const struct plan_row *find_row(const struct plan_result *res, int copies, const char *id)
{
	for (int i = 0; i < res->nrows; i++)
		if (res->rows[i].copies == copies && !strcmp(res->rows[i].id, id))
			return &res->rows[i];
	return NULL;
}

/* The first weighted row's words, the index's before any test's. */
static const struct plan_row *headline(const struct plan_result *res)
{
	for (int i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].id, NOISE_INDEX_ID))
			return &res->rows[i];
	return res->nrows ? &res->rows[0] : NULL;
}

/* A kernel as the report names it: its release, and how it was given when that differs. */
static void kernel_name(char *buf, size_t size, const struct plan *p, int side)
{
	if (p->release[side][0] && strcmp(p->release[side], p->kernel[side]))
		snprintf(buf, size, "%s (%s)", p->release[side], p->kernel[side]);
	else
		snprintf(buf, size, "%s", p->kernel[side]);
}

/* How sure a found change is: the t distribution's two-sided level at which
 * the interval would just touch 0, with the plan's widening. */
static double sureness(const struct pstat_effect *e)
{
	double q0 = stats_t_quantile(1 - (1 - e->conf) / 2, e->df), f = q0 > 0 ? e->q / q0 : 1;
	return 2 * stats_t_cdf(fabs(e->d) / (e->se * f), e->df) - 1;
}

static void apply_row(struct compare_row *cr, const struct plan_row *r)
{
	cr->method = METHOD_BETWEEN;
	cr->floor_pct = NAN;
	cr->more_runs = 0;
	cr->widened = false;
	cr->sure = NAN;
	if (!r || r->verdict == VERDICT_NA) {
		cr->verdict = VERDICT_NA;
		cr->change_lo = cr->change_hi = cr->change_pm = NAN;
		cr->note = !r ? (cr->detail ? "curve point" : "not in the plan's boots") : r->na_why ? r->na_why : "no interval";
		return;
	}
	cr->note = NULL;
	cr->verdict = r->verdict;
	cr->change = pstat_pct(r->e.d);
	cr->change_lo = pstat_pct(r->e.lo);
	cr->change_hi = pstat_pct(r->e.hi);
	cr->change_pm = (cr->change_hi - cr->change_lo) / 2;
	if (r->verdict != VERDICT_SAME)
		cr->sure = sureness(&r->e);
}

static void recount(struct compare_block *b)
{
	b->nfaster = b->nslower = b->nsame = b->nna = 0;
	b->dfaster = b->dslower = b->dsame = b->dna = 0;
	for (int i = 0; i < b->nrows; i++) {
		const struct compare_row *r = &b->rows[i];
		int *v[4] = { r->detail ? &b->dna : &b->nna, r->detail ? &b->dsame : &b->nsame,
			      r->detail ? &b->dfaster : &b->nfaster, r->detail ? &b->dslower : &b->nslower };
		(*v[r->verdict])++;
	}
}

/* The plan's sentences: its answer, what the intervals rest on, what it promised. */
static void plan_sentences(const struct plan *p, const struct plan_result *res, char *basis, size_t bsize,
			   char lines[][512], int *nlines)
{
	const struct plan_row *h = headline(res);
	char words[160] = "no rows", a[200], b[200];
	if (h)
		plan_row_words(words, sizeof words, h);
	kernel_name(a, sizeof a, p, 0);
	kernel_name(b, sizeof b, p, 1);
	snprintf(basis, bsize, "Plan %s, %d+%d boots x %d run%s: %s%s %s (%.3g%% intervals from the boots' means%s).",
		 p->name, res->na, res->nb, p->runs_per_boot, p->runs_per_boot == 1 ? "" : "s",
		 h && !strcmp(h->id, NOISE_INDEX_ID) ? "the index: " : "", words,
		 res->complete ? "" : "so far", res->conf * 100, res->any_paired ? ", neighbours paired" : "");
	int n = 0;
	snprintf(lines[n++], 512, "A is %s and B is %s; each boot's runs are averaged and the boots' means "
		 "compared, so the noise between boots (layout, page placement, firmware state) is in every interval.",
		 a, b);
	if (res->any_paired)
		snprintf(lines[n++], 512, "Where the boots ran in neighbouring pairs (A B | B A ...) and their "
			 "differences gave the narrower interval, they were used: a drift of the machine cancels "
			 "between neighbours (both intervals widened so that choosing keeps %.3g%% false calls).",
			 p->alpha * 100);
	if (p->until > 0)
		snprintf(lines[n++], 512, "--until %.1f%%: %s after %d boot%s a kernel (of at most %d); each look "
			 "spends part of the %.3g%% false-alarm rate, this one's intervals are %.2f%%.",
			 pstat_pct(p->until), res->settled ? "settled" : "not settled", res->look,
			 res->look == 1 ? "" : "s", p->boots, p->alpha * 100, res->conf * 100);
	if (isfinite(p->promise))
		snprintf(lines[n++], 512, "Promised before it ran: an index change of %.1f%% found 9 times in 10 "
			 "(%s); the index's interval now is +-%.1f%%.", pstat_pct(p->promise),
			 p->promise_calibrated ? "from learned noise" : "from default noise, not calibrated",
			 isfinite(res->index_resolution) ? pstat_pct(res->index_resolution) : NAN);
	if (h && h->pace.ok) {
		snprintf(lines[n++], 512, "At the same pace: each run's scores with the machine's pace taken out (a "
			 "fixed chain timed beside the tests; slope %.2f, learned within each kernel), from the boots "
			 "alone. Right when the machine's pace moved on its own (a VM's host, the heat), wrong when the "
			 "kernel moved it (a governor, idle states): the pace's own difference says which.",
			 h->pace.slope);
		if (h->pace.pace.verdict != PSTAT_SAME)
			snprintf(lines[n++], 512, "The machine's pace differed between the kernels (B %+.1f%%): if "
				 "the kernel did that, the plain answer is the one to read.", pstat_pct(h->pace.pace.d));
	}
	for (int i = 0; i < res->nrows; i++) { /* one sentence: context1 is the one pair test */
		const struct plan_row *r = &res->rows[i];
		if (r->place_differs && strcmp(r->id, NOISE_INDEX_ID)) {
			snprintf(lines[n++], 512, "%s placed its pairs of processes differently on the two kernels' runs: "
				 "a placement is not a kernel's difference, so the row is n/a and the index with it "
				 "(--pair-cpus one or two measures one case).", r->id);
			break;
		}
		if (r->place_only) {
			snprintf(lines[n++], 512, "%s judged %s, in each run that has it, and the index with it: a "
				 "placement is not a kernel's difference.", r->id,
				 r->place_by_time ? (r->place_only == PLACE_ONE ? "by each pair's time on one CPU (a "
						     "sample's round trips there over its time there)"
						   : "by each pair's time on two CPUs (a sample's round trips "
						     "there over its time there)")
				 : r->place_only == PLACE_ONE ? "on its samples with each pair on one CPU"
							       : "on its samples with each pair on two CPUs");
			break;
		}
	}
	snprintf(lines[n++], 512, "Noise known before the plan: %s; between boots %s.",
		 res->calibrated ? "floors learned from stored runs of these settings" : "default floors (not calibrated)",
		 res->between_learned ? "as earlier plans of these settings taught it"
				      : "assumed as large as within a boot (not calibrated)");
	*nlines = n;
}

struct compare *plan_to_compare(const struct plan *p, const struct plan_result *res, char *err, size_t errlen)
{
	const struct run **side[2];
	int nside[2];
	done_sides(p, res->runs, res->boot_of, res->nruns, side, nside);
	struct compare *c = NULL;
	if (!nside[0] || !nside[1]) {
		snprintf(err, errlen, "plan '%s': no boot of %s done yet, nothing to compare", p->name,
			 !nside[0] ? "A" : "B");
	} else {
		struct compare_opts o = { .default_noise = true };
		c = compare_stored(side[0], nside[0], side[1], nside[1], &o, err, errlen);
	}
	free(side[0]);
	free(side[1]);
	if (!c)
		return NULL;
	char an[200], bn[200];
	kernel_name(an, sizeof an, p, 0);
	kernel_name(bn, sizeof bn, p, 1);
	snprintf(c->a_title, sizeof c->a_title, "%.100s (%d boots)", an, res->na);
	snprintf(c->b_title, sizeof c->b_title, "%.100s (%d boots)", bn, res->nb);
	for (int k = 0; k < c->nblocks; k++) {
		struct compare_block *cb = &c->blocks[k];
		for (int i = 0; i < cb->nrows; i++)
			apply_row(&cb->rows[i], find_row(res, cb->copies, cb->rows[i].id));
		if (cb->has_index)
			apply_row(&cb->index, find_row(res, cb->copies, NOISE_INDEX_ID));
		recount(cb);
	}
	for (int i = 0; i < c->nfooter; i++)
		free(c->footer[i]);
	free(c->footer);
	c->footer = NULL;
	c->nfooter = 0;
	char lines[10][512];
	int n;
	plan_sentences(p, res, c->basis, sizeof c->basis, lines, &n);
	c->footer = calloc((size_t)n, sizeof *c->footer);
	if (!c->footer)
		abort();
	for (int i = 0; i < n; i++)
		if (!(c->footer[c->nfooter++] = strdup(lines[i])))
			abort();
	c->floors_learned = res->calibrated;
	return c;
}

static void print_words(FILE *f, const struct plan_result *res, bool markdown)
{
	for (int i = 0; i < res->nrows; i++) {
		const struct plan_row *r = &res->rows[i];
		if (!r->weighted && strncmp(r->id, "boot:", 5))
			continue;
		char w[320];
		plan_row_words(w, sizeof w, r);
		fprintf(f, "%s%s (%d cop%s): %s%s\n", markdown ? "- " : "  ", r->label, r->copies,
			r->copies == 1 ? "y" : "ies", w, r->settled ? ", settled" : "");
		if (!strcmp(r->id, NOISE_INDEX_ID) && r->pace.ok) {
			plan_row_pace_words(w, sizeof w, r);
			fprintf(f, "%s  at the same pace: %s\n", markdown ? "" : "  ", w);
		}
	}
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A row's answer at the same pace of the machine, and the pace's own difference. */
static json_t *pace_json(const struct plan_row *r)
{
	json_t *j = json_object();
	json_object_set_new(j, "ok", json_boolean(r->pace.ok));
	if (!r->pace.ok) {
		json_object_set_new(j, "why", json_string(r->pace.why ? r->pace.why : "no interval"));
		return j;
	}
	const struct pstat_effect *a = &r->pace.adj, *pe = &r->pace.pace;
	json_object_set_new(j, "verdict", json_string(compare_verdict_name(r->pace_verdict)));
	json_object_set_new(j, "change_pct", jnum(pstat_pct(a->d)));
	json_object_set_new(j, "lo_pct", jnum(pstat_pct(a->lo)));
	json_object_set_new(j, "hi_pct", jnum(pstat_pct(a->hi)));
	json_object_set_new(j, "df", jnum(a->df));
	json_object_set_new(j, "slope", jnum(r->pace.slope));
	json_object_set_new(j, "pace_change_pct", jnum(pstat_pct(pe->d)));
	json_object_set_new(j, "pace_lo_pct", jnum(pstat_pct(pe->lo)));
	json_object_set_new(j, "pace_hi_pct", jnum(pstat_pct(pe->hi)));
	return j;
}

static int print_json(FILE *f, const struct plan *p, const struct plan_result *res)
{
	char *dump = plan_dump(p);
	json_t *o = json_loads(dump, 0, NULL), *rows = json_array();
	free(dump);
	if (!o)
		return -1;
	for (int i = 0; i < res->nrows; i++) {
		const struct plan_row *r = &res->rows[i];
		json_t *j = json_object();
		char w[160];
		plan_row_words(w, sizeof w, r);
		json_object_set_new(j, "id", json_string(r->id));
		json_object_set_new(j, "copies", json_integer(r->copies));
		json_object_set_new(j, "label", json_string(r->label));
		json_object_set_new(j, "lower_better", json_boolean(r->lower_better));
		json_object_set_new(j, "weighted", json_boolean(r->weighted));
		json_object_set_new(j, "verdict", json_string(compare_verdict_name(r->verdict)));
		json_object_set_new(j, "words", json_string(w));
		if (r->place_only) /* as compare's JSON says it */
			json_object_set_new(j, "compared_on", json_string(r->place_only == PLACE_ONE ? "one_cpu" : "two_cpus"));
		if (r->place_only && r->place_by_time)
			json_object_set_new(j, "compared_by", json_string("time"));
		json_object_set_new(j, "change_pct", jnum(pstat_pct(r->e.d)));
		json_object_set_new(j, "lo_pct", jnum(pstat_pct(r->e.lo)));
		json_object_set_new(j, "hi_pct", jnum(pstat_pct(r->e.hi)));
		json_object_set_new(j, "rules_out_pct", jnum(r->verdict == VERDICT_SAME ? pstat_pct(pstat_rules_out(&r->e)) : NAN));
		json_object_set_new(j, "boots_a", json_integer(r->e.na));
		json_object_set_new(j, "boots_b", json_integer(r->e.nb));
		json_object_set_new(j, "runs_per_boot", jnum(r->e.runs));
		json_object_set_new(j, "df", jnum(r->e.df));
		json_object_set_new(j, "paired", json_boolean(r->e.paired));
		json_object_set_new(j, "prior_only", json_boolean(r->e.prior_only));
		json_object_set_new(j, "settled", json_boolean(r->settled));
		json_object_set_new(j, "busy_boots", json_integer(r->busy_boots));
		json_object_set_new(j, "same_pace", pace_json(r));
		json_array_append_new(rows, j);
	}
	json_t *result = json_object();
	json_object_set_new(result, "complete", json_boolean(res->complete));
	json_object_set_new(result, "confidence", jnum(res->conf));
	json_object_set_new(result, "settled", json_boolean(res->settled));
	json_object_set_new(result, "calibrated", json_boolean(res->calibrated));
	json_object_set_new(result, "setting", json_string(res->setting));
	json_object_set_new(result, "rows", rows);
	json_object_set_new(o, "result", result);
	int rc = json_dumpf(o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(o);
	return rc;
}

int plan_print(FILE *f, const struct plan *p, const struct plan_result *res, const char *format, int width,
	       char *err, size_t errlen)
{
	if (!strcmp(format, "json"))
		return print_json(f, p, res) < 0 ? (snprintf(err, errlen, "cannot write the JSON"), -1) : 0;
	bool md = !strcmp(format, "markdown");
	if (!md && strcmp(format, "text")) {
		snprintf(err, errlen, "unknown format '%s' (text, markdown, html or json)", format);
		return -1;
	}
	char why[512];
	struct compare *c = plan_to_compare(p, res, why, sizeof why);
	char an[200], bn[200];
	kernel_name(an, sizeof an, p, 0);
	kernel_name(bn, sizeof bn, p, 1);
	fprintf(f, "%sPlan %s: A %s, B %s%s\n", md ? "**" : "", p->name, an, bn, md ? "**\n" : "");
	fprintf(f, "%d of %d boots done (%d+%d), %d run%s a boot%s%s.\n", res->na + res->nb, 2 * p->boots, res->na,
		res->nb, p->runs_per_boot, p->runs_per_boot == 1 ? "" : "s", res->complete ? "" : "; the answer so far",
		p->ended[0] ? "" : "");
	if (p->ended[0])
		fprintf(f, "Ended: %s.\n", p->ended);
	fprintf(f, "\n");
	print_words(f, res, md);
	fprintf(f, "\n");
	if (!c) /* the table comes once both kernels have a boot */
		fprintf(f, "%s\n", why);
	else if (md)
		paste_compare(f, c, &paste_markdown);
	else
		compare_print_text(f, c, width);
	compare_free(c);
	return 0;
}

struct html_arg {
	const struct plan *p;
	const struct plan_result *res;
	struct compare *c;
	const struct run *const *a;
	int na;
	const struct run *b;
};

static int write_html(FILE *f, void *arg)
{
	struct html_arg *h = arg;
	return report_html_write(f, h->b, h->a, h->na, h->c, getenv("HOME"));
}

int plan_save_html(const char *path, const struct plan *p, const struct plan_result *res, char *err, size_t errlen)
{
	struct compare *c = plan_to_compare(p, res, err, errlen);
	if (!c)
		return -1;
	const struct run **side[2];
	int nside[2];
	done_sides(p, res->runs, res->boot_of, res->nruns, side, nside);
	struct html_arg h = { .p = p, .res = res, .c = c, .a = side[0], .na = nside[0],
			      .b = nside[1] ? side[1][nside[1] - 1] : NULL };
	int rc = file_write_atomic(path, write_html, &h, err, errlen);
	free(side[0]);
	free(side[1]);
	compare_free(c);
	return rc < 0 ? -1 : 0;
}
