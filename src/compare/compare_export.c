/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison as JSON and CSV, for scripts and spreadsheets. */
#include "compare.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run.h"

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const struct compare_side *s)
{
	if (!s->present)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "runs", json_integer(s->nruns));
	json_object_set_new(o, "score", jnum(s->score));
	json_object_set_new(o, "index", s->index > 0 ? json_real(s->index) : json_null());
	json_object_set_new(o, "samples", json_integer(s->nsamples));
	json_object_set_new(o, "spread", s->spread >= 0 ? json_real(s->spread) : json_null());
	json_object_set_new(o, "drift", json_boolean(s->drift));
	json_object_set_new(o, "drift_pct", jnum(s->drift ? s->drift_pct : NAN));
	json_object_set_new(o, "others_cpu", jnum(s->others_cpu));
	json_object_set_new(o, "busy", json_boolean(s->busy));
	json_object_set_new(o, "throttled", json_boolean(s->throttled));
	json_object_set_new(o, "freq_mhz", jnum(s->freq_mhz));
	/* a pair test's samples by placement (only where its samples say) */
	if (s->place_one + s->place_two + s->place_mixed)
		json_object_set_new(o, "placement", json_pack("{s:i, s:i, s:i}", "one_cpu", s->place_one, "two_cpus",
								s->place_two, "mixed", s->place_mixed));
	return o;
}

static const char *method_name(enum compare_method m)
{
	return m == METHOD_FLOOR ? "noise-floor" : m == METHOD_BETWEEN ? "between-runs" : "none";
}

static json_t *row_json(const struct compare_row *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(r->id));
	json_object_set_new(o, "label", json_string(r->label));
	json_object_set_new(o, "unit", json_string(r->unit));
	json_object_set_new(o, "a", side_json(&r->a));
	json_object_set_new(o, "b", side_json(&r->b));
	json_object_set_new(o, "change_pct", jnum(r->change));
	json_object_set_new(o, "change_lo_pct", jnum(r->change_lo));
	json_object_set_new(o, "change_hi_pct", jnum(r->change_hi));
	json_object_set_new(o, "change_pm_pct", jnum(r->change_pm));
	json_object_set_new(o, "verdict", json_string(compare_verdict_name(r->verdict)));
	json_object_set_new(o, "sure_pct", jnum(r->sure * 100));
	json_object_set_new(o, "method", json_string(method_name(r->method)));
	json_object_set_new(o, "noise_floor_pct", jnum(r->floor_pct));
	json_object_set_new(o, "noise_floor_learned", json_boolean(r->floor_learned));
	json_object_set_new(o, "noise_floor_runs", json_integer(r->floor_runs));
	json_object_set_new(o, "widened", json_boolean(r->widened));
	json_object_set_new(o, "more_runs", r->more_runs ? json_integer(r->more_runs) : json_null());
	json_object_set_new(o, "note", r->note ? json_string(r->note) : json_null());
	if (r->place_only)
		json_object_set_new(o, "compared_on", json_string(r->place_only == PLACE_ONE ? "one_cpu" : "two_cpus"));
	if (r->place_only && r->place_by_time)
		json_object_set_new(o, "compared_by", json_string("time"));
	if (r->point) { /* a point of a points test (compare.h) */
		json_object_set_new(o, "point", json_true());
		json_object_set_new(o, "curve", json_boolean(r->detail));
		json_object_set_new(o, "better", json_string(r->lower_better ? "lower" : "higher"));
	}
	return o;
}

static json_t *refs_json(const struct compare_ref *r, int n, const char *title)
{
	json_t *o = json_object();
	json_object_set_new(o, "title", json_string(title));
	json_t *a = json_array();
	for (int i = 0; i < n; i++) {
		json_t *x = json_object();
		json_object_set_new(x, "id", json_string(r[i].id));
		json_object_set_new(x, "name", json_string(r[i].name));
		json_object_set_new(x, "kernel", json_string(r[i].kernel));
		json_object_set_new(x, "date", json_integer(r[i].date));
		json_object_set_new(x, "mode", json_string(r[i].mode));
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "runs", a);
	return o;
}

int compare_print_json(FILE *f, const struct compare *c)
{
	json_t *root = json_object();
	json_object_set_new(root, "a", refs_json(c->a_runs, c->na, c->a_title));
	json_object_set_new(root, "b", refs_json(c->b_runs, c->nb, c->b_title));
	json_object_set_new(root, "confidence", json_real(c->conf));
	json_object_set_new(root, "floors", json_string(c->rows_learned && c->rows_default ? "mixed"
							: c->rows_learned ? "learned"
							: c->rows_default ? "default" : "none"));
	json_object_set_new(root, "basis", json_string(c->basis));
	json_object_set_new(root, "calibrate", json_string(c->calibrate_cmd));
	json_t *diffs = json_array();
	for (int i = 0; i < c->ndiffs; i++) {
		json_t *d = json_object();
		json_object_set_new(d, "what", json_string(c->diffs[i].what));
		json_object_set_new(d, "a", json_string(c->diffs[i].a));
		json_object_set_new(d, "b", json_string(c->diffs[i].b));
		json_array_append_new(diffs, d);
	}
	json_object_set_new(root, "differences", diffs);
	json_t *blocks = json_array();
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		json_t *bo = json_object();
		json_object_set_new(bo, "copies", json_integer(b->copies));
		json_t *rows = json_array();
		for (int i = 0; i < b->nrows; i++)
			json_array_append_new(rows, row_json(&b->rows[i]));
		json_object_set_new(bo, "tests", rows);
		/* runs of points tests alone (memlat, latency, scaling) have no index */
		json_object_set_new(bo, "index", b->has_index ? row_json(&b->index) : json_null());
		json_object_set_new(bo, "mean_change_pct", jnum(b->mean_change));
		json_object_set_new(bo, "geomean_change_pct", jnum(b->geomean_change));
		json_object_set_new(bo, "faster", json_integer(b->nfaster));
		json_object_set_new(bo, "slower", json_integer(b->nslower));
		json_object_set_new(bo, "no_significant_change", json_integer(b->nsame));
		json_object_set_new(bo, "na", json_integer(b->nna));
		json_array_append_new(blocks, bo);
	}
	json_object_set_new(root, "blocks", blocks);
	json_t *foot = json_array();
	for (int i = 0; i < c->nfooter; i++)
		json_array_append_new(foot, json_string(c->footer[i]));
	json_object_set_new(root, "footer", foot);
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return rc < 0 ? -EIO : 0;
}

static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.10g", v);
	else
		fputc(',', f);
}

static void csv_row(FILE *f, int copies, const struct compare_row *r)
{
	fprintf(f, "%d,", copies);
	csv_str(f, r->id);
	fputc(',', f);
	csv_str(f, r->label);
	csv_num(f, r->a.present ? r->a.score : NAN);
	csv_num(f, r->a.index > 0 ? r->a.index : NAN);
	csv_num(f, r->b.present ? r->b.score : NAN);
	csv_num(f, r->b.index > 0 ? r->b.index : NAN);
	csv_num(f, r->change);
	csv_num(f, r->change_lo);
	csv_num(f, r->change_hi);
	fprintf(f, ",%s,%d,%d", compare_verdict_name(r->verdict), r->a.drift, r->b.drift);
	csv_num(f, r->floor_pct);
	csv_num(f, r->sure * 100);
	fputc(',', f);
	csv_str(f, r->note ? r->note : "");
	fputc('\n', f);
}

void compare_print_csv(FILE *f, const struct compare *c)
{
	fprintf(f, "copies,test,label,a_score,a_index,b_score,b_index,change_pct,change_lo_pct,"
		   "change_hi_pct,verdict,a_drift,b_drift,noise_floor_pct,sure_pct,note\n");
	for (int k = 0; k < c->nblocks; k++) {
		for (int i = 0; i < c->blocks[k].nrows; i++)
			csv_row(f, c->blocks[k].copies, &c->blocks[k].rows[i]);
		if (c->blocks[k].has_index)
			csv_row(f, c->blocks[k].copies, &c->blocks[k].index);
	}
}
