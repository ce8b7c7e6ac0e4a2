/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Import of pasted result tables: markdown, tab- or space-separated, with Test and Score columns. */
#include "import_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "run.h"
#include "tests.h"

#define MAX_TABLE_LINE 4096 /* a table row longer than this is not a table row */

enum col { COL_TEST, COL_SCORE, COL_UNIT, COL_TIME, COL_ITERS, COL_BASE, COL_INDEX, COL_OTHER };

static enum col col_of(const char *h)
{
	static const struct {
		const char *name;
		enum col c;
	} names[] = {
		{ "test", COL_TEST },	  { "benchmark", COL_TEST }, { "score", COL_SCORE },
		{ "result", COL_SCORE },  { "unit", COL_UNIT },	     { "time", COL_TIME },
		{ "iters.", COL_ITERS },  { "iters", COL_ITERS },    { "iterations", COL_ITERS },
		{ "samples", COL_ITERS }, { "baseline", COL_BASE },  { "index", COL_INDEX },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcasecmp(h, names[i].name))
			return names[i].c;
	return COL_OTHER;
}

#define MAX_CELLS 16

/* Splits a line into cells: markdown pipes, tabs, or (for data rows) a
 * known label followed by whitespace-separated fields. */
static int split_cells(const char *p, const char *e, char cells[][128], bool *md)
{
	int n = 0;
	p = import_skip_sp(p, e);
	*md = p < e && *p == '|';
	char sep = *md ? '|' : memchr(p, '\t', (size_t)(e - p)) ? '\t' : 0;
	if (!sep)
		return 0;
	if (*md)
		p++;
	while (p <= e && n < MAX_CELLS) {
		const char *c = p;
		while (c < e && *c != sep)
			c++;
		if (*md && c == e) {
			/* Text after the last pipe is not a cell unless it holds something. */
			char tmp[128];
			import_trim_copy(tmp, sizeof tmp, p, c);
			if (tmp[0])
				snprintf(cells[n++], 128, "%s", tmp);
			break;
		}
		import_trim_copy(cells[n++], 128, p, c);
		p = c + 1;
		if (c == e)
			break;
	}
	return n;
}

static bool is_rule(char cells[][128], int n)
{
	if (n == 0)
		return false;
	for (int i = 0; i < n; i++)
		for (const char *c = cells[i]; *c; c++)
			if (*c != '-' && *c != ':' && *c != ' ' && *c != '=')
				return false;
	return true;
}

/* A label as people paste it: the known label, ignoring case and extra spaces. */
static const struct test_def *label_lookup(const char *s)
{
	char norm[128];
	import_trim_copy(norm, sizeof norm, s, s + strlen(s));
	for (size_t i = 0; i < test_count; i++)
		if (!strcasecmp(test_table[i].label, norm))
			return &test_table[i];
	return NULL;
}

/* A space-separated line: a known label at its start, then fields. */
static int split_spaces(const char *p, const char *e, char cells[][128], bool header)
{
	p = import_skip_sp(p, e);
	int n = 0;
	if (!header) {
		const struct test_def *hit = NULL;
		for (const struct test_def **d = import_labels_by_length(); *d && !hit; d++) {
			size_t ll = strlen((*d)->label);
			if ((size_t)(e - p) >= ll && !strncasecmp(p, (*d)->label, ll) &&
			    (p + ll == e || import_is_sp(p[ll])))
				hit = *d;
		}
		const char *isx = "System Benchmarks Index Score";
		if (hit) {
			snprintf(cells[n++], 128, "%s", hit->label);
			p += strlen(hit->label);
		} else if ((size_t)(e - p) >= strlen(isx) && !strncasecmp(p, isx, strlen(isx))) {
			snprintf(cells[n++], 128, "%s", isx);
			p += strlen(isx);
		} else {
			return 0;
		}
	}
	while (n < MAX_CELLS) {
		p = import_skip_sp(p, e);
		if (p >= e)
			break;
		const char *c = p;
		while (c < e && !import_is_sp(*c))
			c++;
		char tok[128];
		import_trim_copy(tok, sizeof tok, p, c);
		/* "10.0 s" in a Time column is one value. */
		if (!header && (!strcmp(tok, "s") || !strcmp(tok, "sec")) && n > 1) {
			p = c;
			continue;
		}
		snprintf(cells[n++], 128, "%s", tok);
		p = c;
	}
	return n;
}

/* Copies stated in the text since the previous table: "running 2 parallel copies", "2 copies". */
static int copies_stated(const char *p, const char *e)
{
	int copies = 0;
	for (const char *x = import_find(p, e, "cop"); x; x = import_find(x + 3, e, "cop")) {
		if (strncmp(x, "copy", 4) && strncmp(x, "copies", 6))
			continue;
		const char *b = x;
		while (b > p && import_is_sp(b[-1]))
			b--;
		if (b - p >= 8 && !strncmp(b - 8, "parallel", 8)) {
			b -= 8;
			while (b > p && import_is_sp(b[-1]))
				b--;
		}
		const char *d = b;
		while (d > p && isdigit((unsigned char)d[-1]))
			d--;
		double v;
		if (d < b && import_scan_num(d, b, &v) && v >= 1 && v <= 100000)
			copies = (int)v;
	}
	return copies;
}

static bool cell_num(const char *c, double *v)
{
	const char *e = c + strlen(c);
	const char *r = import_scan_num(c, e, v);
	return r != NULL;
}

/* A table's columns, as its header named them. */
struct header {
	enum col cols[MAX_CELLS];
	int ncols, test_col;
};

/* A data row's cells into tmp by the header's columns; false (said) when the
 * row is to be ignored. */
static bool row_values(struct src *s, const struct test_def *d, char (*cells)[128], int n, bool spaced,
		       const struct header *h, size_t off, struct found *tmp)
{
	bool bad = false, has_score = false;
	/* Space-separated rows may lack empty cells: map from the left,
	 * skipping the header's Test column. */
	for (int i = 1, c = 0; i < n; i++, c++) {
		if (c == h->test_col)
			c++;
		enum col col = spaced ? (c < h->ncols ? h->cols[c] : COL_OTHER) : (i < h->ncols ? h->cols[i] : COL_OTHER);
		double v;
		const char *cell = cells[i];
		bool num = cell_num(cell, &v);
		switch (col) {
		case COL_SCORE:
			if (!num || v <= 0) {
				import_warn(s, off, "score of %s is %s; row ignored", d->label,
					    !num ? "not a number" : v < 0 ? "negative" : "zero");
				bad = true;
			}
			tmp->score = v;
			has_score = true;
			break;
		case COL_UNIT: snprintf(tmp->unit, sizeof tmp->unit, "%.15s", cell); break;
		case COL_TIME: tmp->time = num && v > 0 ? v : 0; break;
		case COL_ITERS: tmp->samples = num && v > 0 && v < 1e6 ? (int)v : 0; break;
		case COL_BASE: tmp->row_base = num && v > 0 ? v : -1; break;
		case COL_INDEX: tmp->row_index = num && v >= 0 ? v : -1; break;
		default: break;
		}
	}
	if (bad)
		return false;
	if (!has_score) {
		import_warn(s, off, "%s has no score; row ignored", d->label);
		return false;
	}
	return true;
}

/* A row read whole: its test's place in the block. */
static void row_store(struct src *s, struct block *blk, const struct test_def *d, size_t off,
		      const struct found *tmp)
{
	struct found *f = import_row_for(s, blk, d, off, "is listed again");
	if (!f)
		return;
	f->has_row = f->has_result = true;
	f->row_score = f->score = tmp->score;
	f->row_base = tmp->row_base ? tmp->row_base : d->baseline;
	f->row_index = tmp->row_index ? tmp->row_index : -1;
	f->time = tmp->time;
	f->samples = tmp->samples;
	snprintf(f->unit, sizeof f->unit, "%s", tmp->unit);
	f->row_off = f->result_off = off;
	blk->has_table = true;
}

void import_tables(struct src *s, const char *name)
{
	struct run *r = import_new_run(s, name);
	import_header_facts(s->text, s->text + s->len, &r->meta);
	struct header h = { .ncols = 0, .test_col = 0 };
	bool in_table = false;
	struct block *blk = NULL;
	size_t since = 0; /* where text for the next table's copies starts */
	char cells[MAX_CELLS][128];
	for (int ln = 0; ln < s->nlines; ln++) {
		const char *p = s->text + s->lines[ln];
		const char *e = ln + 1 < s->nlines ? s->text + s->lines[ln + 1] : s->text + s->len;
		while (e > p && (e[-1] == '\n'))
			e--;
		if (e - p > MAX_TABLE_LINE) {
			import_warn(s, (size_t)(p - s->text), "line is %zu characters long; skipped", (size_t)(e - p));
			continue;
		}
		bool md;
		int n = split_cells(p, e, cells, &md);
		bool spaced = false, header_only = false;
		if (n == 0) {
			/* A data row in plain spaces (a known label first), else maybe a header. */
			spaced = true;
			n = in_table ? split_spaces(p, e, cells, false) : 0;
			if (n == 0) {
				n = split_spaces(p, e, cells, true);
				header_only = true;
			}
		}
		if (n == 0) {
			if (in_table && import_skip_sp(p, e) == e)
				continue;
			continue;
		}
		if (is_rule(cells, n))
			continue;
		int test_col = -1, hits = 0;
		for (int i = 0; i < n; i++) {
			enum col c = col_of(cells[i]);
			hits += c != COL_OTHER;
			if (c == COL_TEST && test_col < 0)
				test_col = i;
		}
		bool has_score_col = false;
		for (int i = 0; i < n; i++)
			has_score_col = has_score_col || col_of(cells[i]) == COL_SCORE;
		if (test_col >= 0 && hits >= 3 && has_score_col && !label_lookup(cells[0])) {
			/* A header: a new table, a new block. */
			if (blk) {
				import_emit_block(s, r, blk);
				free(blk);
			}
			blk = calloc(1, sizeof *blk);
			if (!blk)
				abort();
			blk->off = (size_t)(p - s->text);
			int c = copies_stated(s->text + since, p);
			blk->copies = c ? c : 1;
			blk->copies_known = c > 0;
			if (!c && r->nblocks)
				import_warn(s, blk->off, "table does not say how many copies ran; assuming 1");
			h.ncols = n;
			h.test_col = test_col;
			for (int i = 0; i < n; i++)
				h.cols[i] = col_of(cells[i]);
			in_table = true;
			continue;
		}
		if (!in_table || header_only || (spaced && n < 2))
			continue;
		/* A data row. */
		size_t off = (size_t)(p - s->text);
		if (!strncasecmp(cells[0], "System Benchmarks Index Score", 29)) {
			double v = 0;
			for (int i = n - 1; i > 0; i--)
				if (cell_num(cells[i], &v))
					break;
			if (v > 0)
				blk->stated_index = v;
			else
				import_warn(s, off, "index score is not a positive number");
			since = (size_t)(e - s->text);
			continue;
		}
		const struct test_def *d = label_lookup(cells[0]);
		if (!d) {
			if (cells[0][0])
				import_warn(s, off, "unknown test '%.60s' not imported", cells[0]);
			continue;
		}
		since = (size_t)(e - s->text);
		struct found tmp = { .def = d };
		if (row_values(s, d, cells, n, spaced, &h, off, &tmp))
			row_store(s, blk, d, off, &tmp);
	}
	if (blk) {
		import_emit_block(s, r, blk);
		free(blk);
	}
	if (r->nblocks == 0) {
		run_free(r);
		return;
	}
	import_finish_run(s, r, name);
}
