/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run file, read: JSON -> struct run through jansson, strict on types, tolerant of unknown fields. */
#include "runfile.h"
#include "runfile_int.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "family.h"
#include "fileio.h"
#include "meta_fields.h"
#include "run.h"
#include "tests.h"

/* Limits that keep a hostile file from asking for absurd allocations. */
#define MAX_BLOCKS 64
#define MAX_TESTS 512
#define MAX_SAMPLES 100000
#define MAX_COPIES 4096
#define MAX_SUMMARY 4096
#define MAX_SERIES 4096
#define MAX_POINTS 10000000
#define MAX_MARKERS 1000000
#define MAX_NOTES 100000
#define MAX_RESULT_POINTS 100000
#define WL_MAX_HISTS_FILE 64

/* ---- reading ---- */

struct reader {
	const char *what;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct reader *rd, const char *fmt, ...)
{
	if (rd->failed)
		return;
	rd->failed = true;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s: %s", rd->what, msg);
}

/* Getters: a missing field takes its default (older minor versions may
 * lack it); a field of the wrong type is an error naming its path. */
static void get_str(struct reader *rd, json_t *o, const char *path, const char *key, char *dst,
		    size_t size)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return;
	if (!json_is_string(v)) {
		fail(rd, "field %s%s is not a string", path, key);
		return;
	}
	snprintf(dst, size, "%s", json_string_value(v));
}

static double get_num(struct reader *rd, json_t *o, const char *path, const char *key, double def)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return def;
	if (!json_is_number(v)) {
		fail(rd, "field %s%s is not a number", path, key);
		return def;
	}
	double d = json_number_value(v);
	if (!isfinite(d)) {
		fail(rd, "field %s%s is not a finite number", path, key);
		return def;
	}
	return d;
}

static long long get_int(struct reader *rd, json_t *o, const char *path, const char *key,
			 long long min, long long max, long long def)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return def;
	if (!json_is_integer(v)) {
		fail(rd, "field %s%s is not an integer", path, key);
		return def;
	}
	long long i = json_integer_value(v);
	if (i < min || i > max) {
		fail(rd, "field %s%s is out of range (%lld)", path, key, i);
		return def;
	}
	return i;
}

static bool get_bool(struct reader *rd, json_t *o, const char *path, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return false;
	if (!json_is_boolean(v)) {
		fail(rd, "field %s%s is not true or false", path, key);
		return false;
	}
	return json_is_true(v);
}

static json_t *get_array(struct reader *rd, json_t *o, const char *path, const char *key,
			 size_t max)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_array(v)) {
		fail(rd, "field %s%s is not an array", path, key);
		return NULL;
	}
	if (json_array_size(v) > max) {
		fail(rd, "field %s%s has %zu entries (at most %zu)", path, key, json_array_size(v), max);
		return NULL;
	}
	return v;
}

static bool is_obj(struct reader *rd, json_t *v, const char *path)
{
	if (!json_is_object(v)) {
		fail(rd, "%s is not an object", path);
		return false;
	}
	return true;
}

/* Fills n doubles from a JSON array that must hold exactly n numbers. */
static void get_doubles(struct reader *rd, json_t *a, const char *path, double *dst, size_t n)
{
	if (!json_is_array(a) || json_array_size(a) != n) {
		fail(rd, "field %s is not an array of %zu numbers", path, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);
		if (json_is_null(v)) {
			dst[i] = NAN;
			continue;
		}
		if (!json_is_number(v)) {
			fail(rd, "field %s[%zu] is not a number", path, i);
			return;
		}
		dst[i] = json_number_value(v);
	}
}

/* A sample's optional CPUs per copy (1.2): absent, or n whole numbers from -1 (unknown) up. */
/* A sample's optional per-copy shares (0..1, null unknown): key of object so at path sp. */
static void get_shares(struct reader *rd, json_t *so, const char *sp, const char *key, double *out, int copies)
{
	json_t *v = json_object_get(so, key);
	if (!v || json_is_null(v) || rd->failed)
		return;
	char fp[240];
	snprintf(fp, sizeof fp, "%s.%s", sp, key);
	get_doubles(rd, v, fp, out, (size_t)copies);
	for (int c = 0; c < copies && !rd->failed; c++)
		if (!isnan(out[c]) && !(out[c] >= 0 && out[c] <= 1))
			fail(rd, "field %s[%d] is not a share from 0 to 1", fp, c);
}

static void get_cpus(struct reader *rd, json_t *so, const char *path, const char *key, int *dst, size_t n)
{
	json_t *a = json_object_get(so, key);
	if (!a || json_is_null(a))
		return;
	if (!json_is_array(a) || json_array_size(a) != n) {
		fail(rd, "field %s.%s is not an array of %zu CPU numbers", path, key, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);
		if (!json_is_integer(v) || json_integer_value(v) < -1 || json_integer_value(v) > 1 << 20) {
			fail(rd, "field %s.%s[%zu] is not a CPU number (-1 for unknown)", path, key, i);
			return;
		}
		dst[i] = (int)json_integer_value(v);
	}
}

/* The meta object, field by field as the table declares them (src/record/meta_fields.c); a
 * field a file lacks keeps what the run had (run_new's mode, 0, empty: unknown). */
static void read_meta(struct reader *rd, json_t *o, struct run_meta *m)
{
	const char *p = "meta.";
	for (size_t i = 0; i < meta_field_count; i++) {
		const struct meta_field *f = &meta_fields[i];
		void *at = meta_at(f, m);
		bool *known = (bool *)((char *)m + f->known_off);
		long long v;
		char mode[16];
		switch (f->kind) {
		case MK_TEXT: get_str(rd, o, p, f->key, at, f->size); break;
		case MK_DOUBLE:
			*(double *)at = get_num(rd, o, p, f->key, 0);
			if (f->positive && *(double *)at < 0)
				fail(rd, "field %s%s is negative", p, f->key);
			break;
		case MK_INT: *(int *)at = (int)get_int(rd, o, p, f->key, f->min, f->max, 0); break;
		case MK_U64: *(uint64_t *)at = (uint64_t)get_int(rd, o, p, f->key, 0, INT64_MAX, 0); break;
		case MK_TIME: *(time_t *)at = (time_t)get_int(rd, o, p, f->key, INT64_MIN, INT64_MAX, 0); break;
		case MK_UTC: break; /* for people; "date" says it */
		case MK_MODE:
			snprintf(mode, sizeof mode, "%s", run_mode_info(*(const struct run_mode_info **)at)->name);
			get_str(rd, o, p, f->key, mode, sizeof mode);
			*(const struct run_mode_info **)at = run_mode_parse(mode);
			break;
		case MK_KNOWN_U64:
			v = get_int(rd, o, p, f->key, 0, INT64_MAX, f->sets_known ? -1 : 0);
			if (f->sets_known)
				*known = v >= 0;
			*(uint64_t *)at = *known && v >= 0 ? (uint64_t)v : 0;
			break;
		}
	}
}

static enum test_status status_from(struct reader *rd, const char *s, const char *path)
{
	for (size_t i = 0; i < RUNFILE_NSTATUS; i++)
		if (strcmp(s, runfile_status_names[i]) == 0)
			return (enum test_status)i;
	fail(rd, "field %sstatus has an unknown value '%.40s'", path, s);
	return TEST_FAILED;
}

/* 1.2: "kind": "points" and its points. A file without "kind" is a rate result. */
static void read_points(struct reader *rd, json_t *o, struct test_result *t, const char *path)
{
	char kind[16] = "rate";
	get_str(rd, o, path, "kind", kind, sizeof kind);
	if (rd->failed)
		return;
	if (!strcmp(kind, "rate"))
		return;
	if (strcmp(kind, "points") != 0) {
		fail(rd, "field %skind has an unknown value '%.20s'", path, kind);
		return;
	}
	t->kind = RESULT_POINTS;
	json_t *pts = get_array(rd, o, path, "points", MAX_RESULT_POINTS);
	char pp[200], fp[220];
	for (size_t i = 0; pts && i < json_array_size(pts) && !rd->failed; i++) {
		snprintf(pp, sizeof pp, "%spoints[%zu]", path, i);
		json_t *po = json_array_get(pts, i);
		if (!is_obj(rd, po, pp))
			return;
		snprintf(fp, sizeof fp, "%s.", pp);
		char name[32] = "", xunit[8] = "", unit[16] = "", better[16] = "higher";
		get_str(rd, po, fp, "name", name, sizeof name);
		get_str(rd, po, fp, "xunit", xunit, sizeof xunit);
		get_str(rd, po, fp, "unit", unit, sizeof unit);
		get_str(rd, po, fp, "better", better, sizeof better);
		double x = get_num(rd, po, fp, "x", 0);
		bool summary = get_bool(rd, po, fp, "summary");
		if (rd->failed)
			return;
		if (!name[0] || test_find_point(t, name)) {
			fail(rd, "field %s.name is %s", pp, name[0] ? "not unique" : "missing or empty");
			return;
		}
		if (strcmp(better, "lower") != 0 && strcmp(better, "higher") != 0) {
			fail(rd, "field %s.better is neither lower nor higher", pp);
			return;
		}
		struct point *p = test_point(t, name, x, xunit, unit, !strcmp(better, "lower"), summary);
		json_t *vals = get_array(rd, po, fp, "values", MAX_SAMPLES);
		for (size_t k = 0; vals && k < json_array_size(vals) && !rd->failed; k++) {
			json_t *v = json_array_get(vals, k);
			if (json_is_null(v))
				point_push(p, NAN);
			else if (json_is_number(v) && isfinite(json_number_value(v)))
				point_push(p, json_number_value(v));
			else
				fail(rd, "field %s.values[%zu] is not a number", pp, k);
		}
	}
}

/* 1.2, optional: "hists" (hists_json). Counts must add up to n. */
static void read_hists(struct reader *rd, json_t *o, struct test_result *t, const char *path)
{
	json_t *hs = get_array(rd, o, path, "hists", WL_MAX_HISTS_FILE);
	char sp[200], fp[220], hp[240], hfp[260];
	for (size_t i = 0; hs && i < json_array_size(hs) && !rd->failed; i++) {
		snprintf(sp, sizeof sp, "%shists[%zu]", path, i);
		json_t *so = json_array_get(hs, i);
		if (!is_obj(rd, so, sp))
			return;
		snprintf(fp, sizeof fp, "%s.", sp);
		char name[32] = "";
		get_str(rd, so, fp, "name", name, sizeof name);
		if (rd->failed)
			return;
		if (!name[0] || test_find_hist(t, name)) {
			fail(rd, "field %s.name is %s", sp, name[0] ? "not unique" : "missing or empty");
			return;
		}
		struct hist_set *set = test_hist_set(t, name);
		json_t *smp = get_array(rd, so, fp, "samples", MAX_SAMPLES);
		for (size_t k = 0; smp && k < json_array_size(smp) && !rd->failed; k++) {
			snprintf(hp, sizeof hp, "%ssamples[%zu]", fp, k);
			json_t *ho = json_array_get(smp, k);
			if (!is_obj(rd, ho, hp))
				return;
			snprintf(hfp, sizeof hfp, "%s.", hp);
			struct lat_hist h;
			lathist_init(&h);
			h.n = (uint64_t)get_int(rd, ho, hfp, "n", 0, LLONG_MAX, 0);
			h.met = (uint64_t)get_int(rd, ho, hfp, "met", 0, LLONG_MAX, 0);
			h.missed = (uint64_t)get_int(rd, ho, hfp, "missed", 0, LLONG_MAX, 0);
			h.sum = get_num(rd, ho, hfp, "sum_ns", 0);
			uint64_t mn = (uint64_t)get_int(rd, ho, hfp, "min_ns", 0, LLONG_MAX, 0);
			h.max = (uint64_t)get_int(rd, ho, hfp, "max_ns", 0, LLONG_MAX, 0);
			h.last = (uint64_t)get_int(rd, ho, hfp, "last_ns", 0, LLONG_MAX, 0);
			if (h.n)
				h.min = mn;
			json_t *bk = get_array(rd, ho, hfp, "buckets", LATHIST_BUCKETS);
			uint64_t total = 0;
			for (size_t j = 0; bk && j < json_array_size(bk) && !rd->failed; j++) {
				json_t *e = json_array_get(bk, j), *bi = json_array_get(e, 0), *bc = json_array_get(e, 1);
				if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_integer(bi) ||
				    !json_is_integer(bc) || json_integer_value(bi) < 0 ||
				    json_integer_value(bi) >= LATHIST_BUCKETS || json_integer_value(bc) < 0) {
					fail(rd, "field %s.buckets[%zu] is not [bucket 0..%d, count]", hp, j,
					     LATHIST_BUCKETS - 1);
					return;
				}
				h.count[json_integer_value(bi)] += (uint64_t)json_integer_value(bc);
				total += (uint64_t)json_integer_value(bc);
			}
			if (rd->failed)
				return;
			if (total != h.n || (h.n && h.min > h.max) || !(h.sum >= 0)) {
				fail(rd, "field %s disagrees with itself (its buckets hold %llu events, n is %llu)", hp,
				     (unsigned long long)total, (unsigned long long)h.n);
				return;
			}
			hist_set_push(set, &h);
		}
	}
}

static void read_test(struct reader *rd, json_t *o, struct run_block *b, const char *path)
{
	struct test_result tmp = { 0 };
	get_str(rd, o, path, "id", tmp.id, sizeof tmp.id);
	get_str(rd, o, path, "label", tmp.label, sizeof tmp.label);
	get_str(rd, o, path, "unit", tmp.unit, sizeof tmp.unit);
	get_str(rd, o, path, "category", tmp.category, sizeof tmp.category);
	if (rd->failed)
		return;
	if (!tmp.id[0]) {
		fail(rd, "field %sid is missing or empty", path);
		return;
	}
	struct test_result *t = run_block_add_test(
		b, tmp.id, tmp.label, tmp.unit,
		(int)get_int(rd, o, path, "timebase", 0, 3600, 0),
		get_num(rd, o, path, "baseline", 0), tmp.category);
	char st[32] = "done";
	get_str(rd, o, path, "status", st, sizeof st);
	t->status = status_from(rd, st, path);
	get_str(rd, o, path, "reason", t->reason, sizeof t->reason);
	t->score = get_num(rd, o, path, "score", 0);
	t->time = get_num(rd, o, path, "time", 0);
	t->kept = (int)get_int(rd, o, path, "kept", 0, MAX_SAMPLES, 0);
	t->index = get_num(rd, o, path, "index", 0);
	t->spread = get_num(rd, o, path, "spread", -1);
	if (t->score < 0 || t->baseline < 0) {
		fail(rd, "field %sscore or baseline is negative", path);
		return;
	}
	json_t *samples = get_array(rd, o, path, "samples", MAX_SAMPLES);
	char sp[160];
	for (size_t i = 0; samples && i < json_array_size(samples) && !rd->failed; i++) {
		snprintf(sp, sizeof sp, "%ssamples[%zu]", path, i);
		json_t *so = json_array_get(samples, i);
		if (!is_obj(rd, so, sp))
			return;
		json_t *count = json_object_get(so, "count");
		if (!json_is_array(count) || json_array_size(count) < 1 ||
		    json_array_size(count) > MAX_COPIES) {
			fail(rd, "field %s.count is not an array of 1 to %d numbers", sp, MAX_COPIES);
			return;
		}
		int copies = (int)json_array_size(count);
		struct sample *s = test_add_sample(t, copies);
		char fp[200];
		snprintf(fp, sizeof fp, "%s.", sp);
		s->start = get_num(rd, so, fp, "start", 0);
		snprintf(fp, sizeof fp, "%s.count", sp);
		get_doubles(rd, count, fp, s->count, (size_t)copies);
		snprintf(fp, sizeof fp, "%s.elapsed", sp);
		get_doubles(rd, json_object_get(so, "elapsed"), fp, s->elapsed, (size_t)copies);
		for (int c = 0; c < copies && !rd->failed; c++)
			if (s->count[c] < 0 || s->elapsed[c] < 0)
				fail(rd, "field %s has a negative count or time (copy %d)", sp, c);
		get_cpus(rd, so, sp, "cpu", s->cpu, (size_t)copies);
		get_cpus(rd, so, sp, "cpu_end", s->cpu_end, (size_t)copies);
		get_shares(rd, so, sp, "shared", s->shared, copies);
		get_shares(rd, so, sp, "shared_time", s->shared_time, copies);
	}
	json_t *sum = get_array(rd, o, path, "summary", MAX_SUMMARY);
	for (size_t i = 0; sum && i < json_array_size(sum) && !rd->failed; i++) {
		snprintf(sp, sizeof sp, "%ssummary[%zu]", path, i);
		json_t *ko = json_array_get(sum, i);
		if (!is_obj(rd, ko, sp))
			return;
		char key[64] = "", text[KV_TEXT_MAX] = "";
		char fp[200];
		snprintf(fp, sizeof fp, "%s.", sp);
		get_str(rd, ko, fp, "key", key, sizeof key);
		json_t *tv = json_object_get(ko, "text");
		if (tv && !json_is_null(tv)) {
			get_str(rd, ko, fp, "text", text, sizeof text);
			test_summary_set(t, key, 0, text);
		} else {
			test_summary_set(t, key, get_num(rd, ko, fp, "value", 0), NULL);
		}
	}
	read_points(rd, o, t, path);
	if (t->kind == RESULT_POINTS)
		read_hists(rd, o, t, path);
	test_describe(t); /* its typed fields, and what an older file said put right */
}

static struct run *from_json(struct reader *rd, json_t *root)
{
	if (!json_is_object(root)) {
		fail(rd, "the top level is not a JSON object");
		return NULL;
	}
	json_t *fmt = json_object_get(root, "format");
	if (!json_is_object(fmt)) {
		fail(rd, "not a kbench run file (no \"format\" object)");
		return NULL;
	}
	long long major = get_int(rd, fmt, "format.", "major", 0, 1000000, -1);
	if (rd->failed)
		return NULL;
	if (major < 1) {
		fail(rd, "field format.major is missing");
		return NULL;
	}
	if (major > RUN_FORMAT_MAJOR) {
		fail(rd, "run file format %lld.%lld is newer than this kbench reads (%d.x); upgrade kbench",
		     major, get_int(rd, fmt, "format.", "minor", 0, 1000000, 0), RUN_FORMAT_MAJOR);
		return NULL;
	}
	struct run *r = run_new();
	json_t *meta = json_object_get(root, "meta");
	if (meta && is_obj(rd, meta, "field meta"))
		read_meta(rd, meta, &r->meta);
	r->incomplete = get_bool(rd, root, "", "incomplete");
	json_t *blocks = get_array(rd, root, "", "blocks", MAX_BLOCKS);
	char path[96];
	for (size_t b = 0; blocks && b < json_array_size(blocks) && !rd->failed; b++) {
		json_t *bo = json_array_get(blocks, b);
		snprintf(path, sizeof path, "blocks[%zu]", b);
		if (!is_obj(rd, bo, path))
			break;
		snprintf(path, sizeof path, "blocks[%zu].", b);
		struct run_block *bl = run_add_block(r, (int)get_int(rd, bo, path, "copies", 1, MAX_COPIES, 1));
		bl->start = (time_t)get_int(rd, bo, path, "start", INT64_MIN, INT64_MAX, 0);
		bl->end = (time_t)get_int(rd, bo, path, "end", INT64_MIN, INT64_MAX, 0);
		bl->index_score = get_num(rd, bo, path, "index_score", 0);
		bl->index_partial = get_bool(rd, bo, path, "index_partial");
		bl->index_tests = (int)get_int(rd, bo, path, "index_tests", 0, MAX_TESTS, 0);
		json_t *tests = get_array(rd, bo, path, "tests", MAX_TESTS);
		for (size_t i = 0; tests && i < json_array_size(tests) && !rd->failed; i++) {
			char tp[96];
			snprintf(tp, sizeof tp, "blocks[%zu].tests[%zu]", b, i);
			json_t *to = json_array_get(tests, i);
			if (!is_obj(rd, to, tp))
				break;
			snprintf(tp, sizeof tp, "blocks[%zu].tests[%zu].", b, i);
			read_test(rd, to, bl, tp);
		}
	}
	json_t *series = get_array(rd, root, "", "series", MAX_SERIES);
	for (size_t i = 0; series && i < json_array_size(series) && !rd->failed; i++) {
		json_t *so = json_array_get(series, i);
		snprintf(path, sizeof path, "series[%zu]", i);
		if (!is_obj(rd, so, path))
			break;
		snprintf(path, sizeof path, "series[%zu].", i);
		char name[64] = "", unit[16] = "";
		get_str(rd, so, path, "name", name, sizeof name);
		get_str(rd, so, path, "unit", unit, sizeof unit);
		json_t *t = get_array(rd, so, path, "t", MAX_POINTS);
		json_t *v = get_array(rd, so, path, "v", MAX_POINTS);
		if (rd->failed)
			break;
		size_t n = t ? json_array_size(t) : 0;
		if ((v ? json_array_size(v) : 0) != n) {
			fail(rd, "field %st and %sv differ in length", path, path);
			break;
		}
		/* A second series of the same name would merge into the first. */
		struct series *s = run_series(r, name, unit);
		for (size_t k = 0; k < n; k++) {
			json_t *tk = json_array_get(t, k), *vk = json_array_get(v, k);
			if ((!json_is_number(tk) && !json_is_null(tk)) ||
			    (!json_is_number(vk) && !json_is_null(vk))) {
				fail(rd, "field %st/v[%zu] is not a number", path, k);
				break;
			}
			series_push(s, json_is_null(tk) ? NAN : json_number_value(tk),
				    json_is_null(vk) ? NAN : json_number_value(vk));
		}
	}
	json_t *markers = get_array(rd, root, "", "markers", MAX_MARKERS);
	for (size_t i = 0; markers && i < json_array_size(markers) && !rd->failed; i++) {
		json_t *mo = json_array_get(markers, i);
		snprintf(path, sizeof path, "markers[%zu]", i);
		if (!is_obj(rd, mo, path))
			break;
		snprintf(path, sizeof path, "markers[%zu].", i);
		char what[80] = "";
		get_str(rd, mo, path, "what", what, sizeof what);
		run_add_marker(r, get_num(rd, mo, path, "t", 0), what);
	}
	json_t *notes = get_array(rd, root, "", "notes", MAX_NOTES);
	for (size_t i = 0; notes && i < json_array_size(notes) && !rd->failed; i++) {
		json_t *n = json_array_get(notes, i);
		if (!json_is_string(n)) {
			fail(rd, "field notes[%zu] is not a string", i);
			break;
		}
		run_add_note(r, "%s", json_string_value(n));
	}
	if (rd->failed) {
		run_free(r);
		return NULL;
	}
	return r;
}

struct run *runfile_parse(const char *text, size_t len, const char *what, char *err, size_t errlen)
{
	struct reader rd = { .what = what ? what : "run file", .err = err, .errlen = errlen };
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		fail(&rd, "line %d, column %d: %s", je.line, je.column, je.text);
		return NULL;
	}
	struct run *r = from_json(&rd, root);
	json_decref(root);
	/* A run file is untrusted (another machine's, a bug report's): its
	 * text goes to terminals and reports, so control bytes and escape
	 * sequences are made harmless as they come in. */
	if (r)
		runfile_sanitize_run(r);
	return r;
}

struct run *runfile_read(const char *path, char *err, size_t errlen)
{
	char what[300];
	snprintf(what, sizeof what, "run file %s", path);
	char *buf;
	size_t got;
	if (file_read_all(path, what, RUNFILE_MAX_BYTES, &buf, &got, err, errlen) < 0)
		return NULL;
	struct run *r = runfile_parse(buf, got, what, err, errlen);
	free(buf);
	return r;
}
