/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run file, written: struct run -> JSON through jansson (runfile_read.c reads it back). */
#include "runfile.h"
#include "runfile_int.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fileio.h"
#include "meta_fields.h"
#include "run.h"

const char *const runfile_status_names[RUNFILE_NSTATUS] = {
	[TEST_WAITING] = "waiting", [TEST_RUNNING] = "running", [TEST_DONE] = "done",
	[TEST_FAILED] = "failed",   [TEST_SKIPPED] = "skipped", [TEST_IMPORTED] = "imported",
};

/* ---- writing ---- */

/* JSON has no NaN or infinity: such values are written as null. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *doubles(const double *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, num(v[i]));
	return a;
}

/* A sample's CPUs per copy, or NULL when no copy's is known (an older run). */
static json_t *cpus(const int *v, int n)
{
	bool any = false;
	for (int i = 0; v && i < n; i++)
		any = any || v[i] >= 0;
	if (!any)
		return NULL;
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i] >= 0 ? v[i] : -1));
	return a;
}

/* The meta object, field by field as the table declares them (src/record/meta_fields.c). */
static json_t *meta_to_json(const struct run_meta *m)
{
	json_t *o = json_object();
	for (size_t i = 0; i < meta_field_count; i++) {
		const struct meta_field *f = &meta_fields[i];
		const void *at = meta_at_c(f, m);
		if (!meta_field_present(f, m))
			continue;
		json_t *v = NULL;
		char date[40] = "";
		struct tm tm;
		switch (f->kind) {
		case MK_TEXT: v = json_string(at); break;
		case MK_DOUBLE: v = num(*(const double *)at); break;
		case MK_INT: v = json_integer(*(const int *)at); break;
		case MK_U64: v = json_integer((json_int_t) * (const uint64_t *)at); break;
		case MK_TIME: v = json_integer((json_int_t) * (const time_t *)at); break;
		case MK_UTC:
			if (gmtime_r((const time_t *)at, &tm))
				strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
			v = json_string(date);
			break;
		case MK_MODE: v = json_string(run_mode_info(*(const struct run_mode_info *const *)at)->name); break;
		case MK_KNOWN_U64:
			v = *(const bool *)((const char *)m + f->known_off) ? json_integer((json_int_t) * (const uint64_t *)at)
								  : json_null();
			break;
		}
		json_object_set_new(o, f->key, v);
	}
	return o;
}


/* 1.2, optional: a latency test's histograms, per set one object per
 * sample with its exact facts and its non-empty buckets as [index, count]
 * (lathist.h gives the edges); a 1.2 reader without them ignores them. */
static json_t *hists_json(const struct test_result *t)
{
	json_t *a = json_array();
	for (int i = 0; i < t->nhists; i++) {
		const struct hist_set *hs = &t->hists[i];
		json_t *so = json_object(), *smp = json_array();
		json_object_set_new(so, "name", json_string(hs->name));
		for (int k = 0; k < hs->n; k++) {
			const struct lat_hist *h = &hs->h[k];
			json_t *ho = json_object(), *bk = json_array();
			json_object_set_new(ho, "n", json_integer((json_int_t)h->n));
			json_object_set_new(ho, "met", json_integer((json_int_t)h->met));
			json_object_set_new(ho, "missed", json_integer((json_int_t)h->missed));
			json_object_set_new(ho, "sum_ns", json_real(h->sum));
			json_object_set_new(ho, "min_ns", json_integer((json_int_t)(h->n ? h->min : 0)));
			json_object_set_new(ho, "max_ns", json_integer((json_int_t)h->max));
			json_object_set_new(ho, "last_ns", json_integer((json_int_t)h->last));
			for (int b = 0; b < LATHIST_BUCKETS; b++)
				if (h->count[b])
					json_array_append_new(bk, json_pack("[iI]", b, (json_int_t)h->count[b]));
			json_object_set_new(ho, "buckets", bk);
			json_array_append_new(smp, ho);
		}
		json_object_set_new(so, "samples", smp);
		json_array_append_new(a, so);
	}
	return a;
}

static json_t *test_to_json(const struct test_result *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(t->id));
	json_object_set_new(o, "label", json_string(t->label));
	json_object_set_new(o, "unit", json_string(t->unit));
	json_object_set_new(o, "timebase", json_integer(t->timebase));
	json_object_set_new(o, "baseline", num(t->baseline));
	json_object_set_new(o, "category", json_string(t->category));
	unsigned st = (unsigned)t->status;
	json_object_set_new(o, "status", json_string(st <= TEST_IMPORTED ? runfile_status_names[st] : "failed"));
	json_object_set_new(o, "reason", json_string(t->reason));
	json_object_set_new(o, "score", num(t->score));
	json_object_set_new(o, "time", num(t->time));
	json_object_set_new(o, "kept", json_integer(t->kept));
	json_object_set_new(o, "index", num(t->index));
	json_object_set_new(o, "spread", num(t->spread));
	json_t *samples = json_array();
	for (int i = 0; i < t->nsamples; i++) {
		const struct sample *s = &t->samples[i];
		json_t *so = json_object();
		json_object_set_new(so, "start", num(s->start));
		json_object_set_new(so, "count", doubles(s->count, s->copies));
		json_object_set_new(so, "elapsed", doubles(s->elapsed, s->copies));
		/* 1.2, optional: where the copies ran, and a pair test's placement */
		json_t *c = cpus(s->cpu, s->copies), *ce = cpus(s->cpu_end, s->copies);
		if (c)
			json_object_set_new(so, "cpu", c);
		if (ce)
			json_object_set_new(so, "cpu_end", ce);
		bool pair = false;
		for (int k = 0; s->shared && k < s->copies; k++)
			pair = pair || isfinite(s->shared[k]);
		if (pair)
			json_object_set_new(so, "shared", doubles(s->shared, s->copies));
		bool timed = false;
		for (int k = 0; s->shared_time && k < s->copies; k++)
			timed = timed || isfinite(s->shared_time[k]);
		if (timed)
			json_object_set_new(so, "shared_time", doubles(s->shared_time, s->copies));
		json_array_append_new(samples, so);
	}
	json_object_set_new(o, "samples", samples);
	json_t *sum = json_array();
	for (int i = 0; i < t->nsummary; i++) {
		const struct kv *kv = &t->summary[i];
		json_t *ko = json_object();
		json_object_set_new(ko, "key", json_string(kv->key));
		if (kv->has_value)
			json_object_set_new(ko, "value", num(kv->value));
		else
			json_object_set_new(ko, "text", json_string(kv->text));
		json_array_append_new(sum, ko);
	}
	json_object_set_new(o, "summary", sum);
	/* 1.2: a points result; a rate test's object is as in 1.1. */
	if (t->kind == RESULT_POINTS) {
		json_object_set_new(o, "kind", json_string("points"));
		json_t *pts = json_array();
		for (int i = 0; i < t->npoints; i++) {
			const struct point *p = &t->points[i];
			json_t *po = json_object();
			json_object_set_new(po, "name", json_string(p->name));
			json_object_set_new(po, "x", num(p->x));
			json_object_set_new(po, "xunit", json_string(p->xunit));
			json_object_set_new(po, "unit", json_string(p->unit));
			json_object_set_new(po, "better", json_string(p->lower_better ? "lower" : "higher"));
			json_object_set_new(po, "summary", json_boolean(p->summary));
			json_object_set_new(po, "values", doubles(p->v, p->n));
			json_array_append_new(pts, po);
		}
		json_object_set_new(o, "points", pts);
		if (t->nhists)
			json_object_set_new(o, "hists", hists_json(t));
	}
	return o;
}

/* jansson refuses strings that are not UTF-8; a host name or CPU model
 * from a strange machine must not make the save fail, so such bytes
 * are replaced by '?'. */
static json_t *build(const struct run *r)
{
	json_t *root = json_object();
	json_t *fmt = json_object();
	json_object_set_new(fmt, "major", json_integer(RUN_FORMAT_MAJOR));
	json_object_set_new(fmt, "minor", json_integer(RUN_FORMAT_MINOR));
	json_object_set_new(root, "format", fmt);
	json_object_set_new(root, "meta", meta_to_json(&r->meta));
	json_object_set_new(root, "incomplete", json_boolean(r->incomplete));
	json_t *blocks = json_array();
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		json_t *bo = json_object();
		json_object_set_new(bo, "copies", json_integer(bl->copies));
		json_object_set_new(bo, "start", json_integer((json_int_t)bl->start));
		json_object_set_new(bo, "end", json_integer((json_int_t)bl->end));
		json_object_set_new(bo, "index_score", num(bl->index_score));
		json_object_set_new(bo, "index_partial", json_boolean(bl->index_partial));
		json_object_set_new(bo, "index_tests", json_integer(bl->index_tests));
		json_t *tests = json_array();
		for (int i = 0; i < bl->ntests; i++)
			json_array_append_new(tests, test_to_json(&bl->tests[i]));
		json_object_set_new(bo, "tests", tests);
		json_array_append_new(blocks, bo);
	}
	json_object_set_new(root, "blocks", blocks);
	json_t *series = json_array();
	for (int i = 0; i < r->nseries; i++) {
		const struct series *s = &r->series[i];
		json_t *so = json_object();
		json_object_set_new(so, "name", json_string(s->name));
		json_object_set_new(so, "unit", json_string(s->unit));
		json_object_set_new(so, "t", doubles(s->t, s->n));
		json_object_set_new(so, "v", doubles(s->v, s->n));
		json_array_append_new(series, so);
	}
	json_object_set_new(root, "series", series);
	json_t *markers = json_array();
	for (int i = 0; i < r->nmarkers; i++) {
		json_t *mo = json_object();
		json_object_set_new(mo, "t", num(r->markers[i].t));
		json_object_set_new(mo, "what", json_string(r->markers[i].what));
		json_array_append_new(markers, mo);
	}
	json_object_set_new(root, "markers", markers);
	json_t *notes = json_array();
	for (int i = 0; i < r->nnotes; i++)
		json_array_append_new(notes, json_string(r->notes[i] ? r->notes[i] : ""));
	json_object_set_new(root, "notes", notes);
	return root;
}

/* json_string() returns NULL for invalid UTF-8, and json_object_set_new()
 * then fails silently; check the whole tree was built by re-walking is
 * costly, so sanitize copies of the strings up front instead. */
static void sanitize(char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char *w = (unsigned char *)s;
	while (*p) {
		int len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
		bool ok = len > 0;
		for (int i = 1; ok && i < len; i++)
			ok = (p[i] >> 6) == 2;
		/* C0 controls but tab and newline, DEL, and the C1 controls
		 * (U+0080..U+009F: a terminal may take U+009B as CSI) */
		if (!ok || (len == 1 && ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)) ||
		    (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			*w++ = '?';
			p++;
			continue;
		}
		for (int i = 0; i < len; i++)
			*w++ = *p++;
	}
	*w = 0;
}

void runfile_sanitize_run(struct run *r)
{
	for (size_t i = 0; i < meta_field_count; i++)
		if (meta_fields[i].kind == MK_TEXT)
			sanitize(meta_at(&meta_fields[i], &r->meta));
	for (int b = 0; b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests; i++) {
			struct test_result *t = &r->blocks[b].tests[i];
			sanitize(t->id), sanitize(t->label), sanitize(t->unit);
			sanitize(t->category), sanitize(t->reason);
			for (int k = 0; k < t->nsummary; k++)
				sanitize(t->summary[k].key), sanitize(t->summary[k].text);
			for (int k = 0; k < t->npoints; k++)
				sanitize(t->points[k].name), sanitize(t->points[k].xunit),
					sanitize(t->points[k].unit);
		}
	for (int i = 0; i < r->nseries; i++)
		sanitize(r->series[i].name), sanitize(r->series[i].unit);
	for (int i = 0; i < r->nmarkers; i++)
		sanitize(r->markers[i].what);
	for (int i = 0; i < r->nnotes; i++)
		if (r->notes[i])
			sanitize(r->notes[i]);
}

char *runfile_dump(const struct run *r, char *err, size_t errlen)
{
	/* The caller's run is const: sanitizing needs a writable view, and
	 * the fixed-size strings are edited in place only when they hold
	 * bytes jansson would refuse, which a sane run never has. */
	runfile_sanitize_run((struct run *)r);
	json_t *root = build(r);
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(root);
	if (!text)
		snprintf(err, errlen, "cannot encode the run as JSON (out of memory)");
	return text;
}

int runfile_write(FILE *f, const struct run *r, char *err, size_t errlen)
{
	char *text = runfile_dump(r, err, errlen);
	if (!text)
		return -ENOMEM;
	size_t len = strlen(text);
	int rc = 0;
	if (fwrite(text, 1, len, f) != len || fputc('\n', f) == EOF) {
		rc = -errno ? -errno : -EIO;
		snprintf(err, errlen, "cannot write the run: %s", strerror(-rc));
	}
	free(text);
	return rc;
}
