/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The importer's shared parts: line-numbered warnings, number scanning, findings made a run. */
#include "import_priv.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "import.h"
#include "run.h"
#include "score.h"
#include "tests.h"

#define MAX_WARNINGS 200

int import_line_of(const struct src *s, size_t off)
{
	int lo = 0, hi = s->nlines - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (s->lines[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo + 1;
}

void import_warn(struct src *s, size_t off, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!s->first_problem[0])
		snprintf(s->first_problem, sizeof s->first_problem, "line %d: %s", import_line_of(s, off), msg);
	struct import_result *r = s->res;
	if (r->nwarnings >= MAX_WARNINGS)
		return;
	char **nw = realloc(r->warnings, (size_t)(r->nwarnings + 1) * sizeof *nw);
	if (!nw)
		abort();
	r->warnings = nw;
	char buf[700];
	snprintf(buf, sizeof buf, "%s:%d: %s%s", s->name, import_line_of(s, off), msg,
		 r->nwarnings + 1 == MAX_WARNINGS ? " (further warnings not shown)" : "");
	r->warnings[r->nwarnings++] = strdup(buf);
}

/* A plain decimal number (UnixBench prints nothing else): no inf, nan, hex or exponent. */
const char *import_scan_num(const char *p, const char *end, double *out)
{
	const char *q = p;
	if (q < end && (*q == '-' || *q == '+'))
		q++;
	const char *d = q;
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q < end && *q == '.') {
		q++;
		while (q < end && isdigit((unsigned char)*q))
			q++;
	}
	if (q == d || (q == d + 1 && *d == '.'))
		return NULL;
	/* "1e999" or "12abc" is not a number followed by a word. */
	if (q - p > 40 || (q < end && (isalnum((unsigned char)*q) || *q == '.')))
		return NULL;
	char buf[48];
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = 0;
	*out = strtod(buf, NULL);
	return isfinite(*out) ? q : NULL;
}

void import_trim_copy(char *dst, size_t size, const char *p, const char *e)
{
	while (p < e && (is_sp(*p) || *p == '\n'))
		p++;
	while (e > p && (is_sp(e[-1]) || e[-1] == '\n'))
		e--;
	size_t n = (size_t)(e - p) < size - 1 ? (size_t)(e - p) : size - 1;
	memcpy(dst, p, n);
	dst[n] = 0;
	/* Collapsed runs of spaces back to one. */
	char *w = dst;
	for (char *r = dst; *r; r++)
		if (!(is_sp(*r) && w > dst && w[-1] == ' '))
			*w++ = is_sp(*r) ? ' ' : *r;
	*w = 0;
}

struct found *import_found_for(struct block *b, const struct test_def *d)
{
	for (int i = 0; i < b->nf; i++)
		if (b->f[i].def == d)
			return &b->f[i];
	if (b->nf >= 64)
		return NULL;
	struct found *f = &b->f[b->nf++];
	memset(f, 0, sizeof *f);
	f->def = d;
	return f;
}

struct found *import_row_for(struct src *s, struct block *b, const struct test_def *d, size_t off,
			     const char *again)
{
	struct found *f = import_found_for(b, d);
	if (f && f->has_row) {
		import_warn(s, off, "%s %s (first at line %d); ignored", d->label, again,
			    import_line_of(s, f->row_off));
		return NULL;
	}
	return f;
}

/* Labels longest first, so "Shell Scripts (16 concurrent)" is not read as a shorter one. */
const struct test_def **import_labels_by_length(void)
{
	static const struct test_def *v[128];
	static size_t n;
	if (n)
		return v;
	for (size_t i = 0; i < test_count && i < 127; i++)
		v[n++] = &test_table[i];
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strlen(v[j]->label) > strlen(v[j - 1]->label); j--) {
			const struct test_def *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	v[n] = NULL;
	return v;
}

static int def_order(const struct test_def *d)
{
	return (int)(d - test_table);
}

/* Turns a parsed block into a run block, the index table taking precedence. */
void import_emit_block(struct src *s, struct run *r, struct block *b)
{
	if (run_find_block(r, b->copies)) {
		import_warn(s, b->off, "a second block for %d cop%s; ignored", b->copies, b->copies == 1 ? "y" : "ies");
		return;
	}
	/* UnixBench's test order, whatever order they were found in. */
	for (int i = 1; i < b->nf; i++)
		for (int j = i; j > 0 && def_order(b->f[j].def) < def_order(b->f[j - 1].def); j--) {
			struct found t = b->f[j];
			b->f[j] = b->f[j - 1];
			b->f[j - 1] = t;
		}
	int usable = 0;
	for (int i = 0; i < b->nf; i++)
		usable += b->f[i].has_result || b->f[i].has_row;
	if (!usable) {
		import_warn(s, b->off, "block has no results; ignored");
		return;
	}
	struct run_block *rb = run_add_block(r, b->copies);
	rb->start = b->start;
	rb->end = b->end;
	/* The stored run must say so too: the warning goes, the run stays. */
	if (!b->copies_known)
		run_add_note(r, "imported block at %s:%d does not say how many copies ran; 1 copy assumed",
			     s->name, import_line_of(s, b->off));
	if (!b->has_table)
		import_warn(s, b->off, "block has no index table: indexes computed from the scores and UnixBench's baselines");
	for (int i = 0; i < b->nf; i++) {
		struct found *f = &b->f[i];
		const struct test_def *d = f->def;
		if (!f->has_result && !f->has_row)
			continue;
		double baseline = d->baseline;
		if (f->has_row)
			baseline = f->row_base > 0 ? f->row_base : 0;
		if (f->has_row && f->row_base > 0 && d->baseline > 0 && !same(f->row_base, d->baseline))
			import_warn(s, f->row_off, "%s baseline %.1f is not UnixBench's %.1f", d->label,
				    f->row_base, d->baseline);
		struct test_result *t = run_block_add_test(rb, d->id, d->label,
							   f->has_result && f->unit[0] ? f->unit : d->unit,
							   d->timebase, baseline, d->category);
		t->status = TEST_IMPORTED;
		t->time = f->time;
		t->kept = f->samples;
		t->spread = -1;
		if (f->has_row) {
			t->score = f->row_score;
			if (f->has_result && !same(f->score, f->row_score))
				import_warn(s, f->result_off, "%s: the result line says %.1f but the index table says %.1f; the table is used",
					    d->label, f->score, f->row_score);
		} else {
			t->score = f->score;
			if (b->has_table && d->baseline > 0)
				import_warn(s, f->result_off, "%s has no row in the index table", d->label);
		}
		t->index = score_index(t->score, t->baseline);
		if (f->has_row && f->row_index >= 0 && !same(f->row_index, t->index))
			import_warn(s, f->row_off, "%s: stated index %.1f, but %.1f / %.1f x 10 is %.1f; the stated one is kept",
				    d->label, f->row_index, t->score, t->baseline, t->index);
		if (f->has_row && f->row_index >= 0)
			t->index = f->row_index;
	}
	score_block(rb);
	double recomputed = rb->index_score;
	if (b->stated_index > 0) {
		if (fabs(b->stated_index - recomputed) > 0.05 + 5e-4 * b->stated_index)
			import_warn(s, b->off, "stated index score %.1f differs from %.1f recomputed from the tests; the stated one is kept",
				    b->stated_index, recomputed);
		rb->index_score = b->stated_index;
	}
}

struct run *import_new_run(struct src *s, const char *name)
{
	struct run *r = run_new();
	r->meta.mode = RUN_MODE_IMPORTED;
	snprintf(r->meta.source, sizeof r->meta.source, "%s", s->name);
	(void)name;
	return r;
}

void import_finish_run(struct src *s, struct run *r, const char *name)
{
	if (name)
		snprintf(r->meta.name, sizeof r->meta.name, "%s", name);
	else if (r->meta.kernel_release[0])
		snprintf(r->meta.name, sizeof r->meta.name, "%s", r->meta.kernel_release);
	else {
		const char *base = strrchr(s->name, '/');
		snprintf(r->meta.name, sizeof r->meta.name, "%s", base ? base + 1 : s->name);
	}
	if (!r->meta.date)
		r->meta.date = r->nblocks && r->blocks[0].start ? r->blocks[0].start : time(NULL);
	r->incomplete = false;
	struct import_result *res = s->res;
	struct run **nv = realloc(res->runs, (size_t)(res->nruns + 1) * sizeof *nv);
	if (!nv)
		abort();
	res->runs = nv;
	res->runs[res->nruns++] = r;
}
