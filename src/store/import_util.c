/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's readers' shared part: a block's findings made a run's block. */
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

