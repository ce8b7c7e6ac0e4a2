/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Import of UnixBench logs: their "Benchmark Run:" blocks, whole, collapsed or pasted in part. */
#include "import_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "run.h"
#include "tests.h"

/* ---- one block: its result lines, index table rows and stated score ---- */

/* A word of letters (a unit: lps, MWIPS, KBps, lpm). */
static const char *scan_word(const char *p, const char *end, char *out, size_t size)
{
	size_t n = 0;
	while (p < end && isalpha((unsigned char)*p)) {
		if (n + 1 < size)
			out[n++] = *p;
		p++;
	}
	out[n] = 0;
	return n ? p : NULL;
}

/* After a label: either "SCORE UNIT (TIME s, N samples)" or "BASE RESULT INDEX". */
static void parse_after_label(struct src *s, struct block *b, const struct test_def *d,
			      const char *p, const char *end, size_t off)
{
	const char *q = import_skip_sp(p, end);
	double v1, v2, v3;
	const char *r = import_scan_num(q, end, &v1);
	bool dash1 = false;
	if (!r && end - q >= 3 && !strncmp(q, "---", 3)) {
		dash1 = true;
		r = q + 3;
		v1 = -1;
	}
	if (!r) {
		import_warn(s, off, "'%s' is not followed by a number; ignored", d->label);
		return;
	}
	const char *q2 = import_skip_sp(r, end);
	char unit[16];
	const char *u = scan_word(q2, end, unit, sizeof unit);
	if (u && !dash1) {
		/* A result line. */
		double t = 0, n = 0;
		const char *x = import_skip_sp(u, end);
		if (x < end && *x == '(') {
			x = import_skip_sp(x + 1, end);
			const char *y = import_scan_num(x, end, &t);
			if (y) {
				y = import_skip_sp(y, end);
				if (y < end && *y == 's')
					y++;
				y = import_skip_sp(y, end);
				if (y < end && *y == ',')
					y = import_skip_sp(y + 1, end);
				if (!import_scan_num(y, end, &n))
					n = 0;
			}
		}
		if (v1 <= 0) {
			import_warn(s, off, "score of %s is %s; ignored", d->label, v1 < 0 ? "negative" : "zero");
			return;
		}
		struct found *f = import_found_for(b, d);
		if (!f)
			return;
		if (f->has_result) {
			if (same(f->score, v1))
				import_warn(s, off, "%s is listed again (same result, first at line %d); ignored",
					    d->label, import_line_of(s, f->result_off));
			else
				import_warn(s, off, "%s is listed again with a different score %.1f (first at line %d: %.1f); the first is kept",
					    d->label, v1, import_line_of(s, f->result_off), f->score);
			return;
		}
		f->has_result = true;
		f->score = v1;
		f->time = t > 0 ? t : 0;
		f->samples = n > 0 && n < 1e6 ? (int)n : 0;
		snprintf(f->unit, sizeof f->unit, "%s", unit);
		f->result_off = off;
		return;
	}
	/* An index table row. */
	const char *r2 = import_scan_num(q2, end, &v2);
	if (!r2) {
		import_warn(s, off, "'%s' is followed by no score; ignored", d->label);
		return;
	}
	const char *q3 = import_skip_sp(r2, end);
	const char *r3 = import_scan_num(q3, end, &v3);
	if (!r3 && end - q3 >= 3 && !strncmp(q3, "---", 3))
		v3 = -1, r3 = q3 + 3;
	if (!r3) {
		import_warn(s, off, "'%s' index row has no index; ignored", d->label);
		return;
	}
	if (v2 <= 0 || (!dash1 && v1 <= 0) || (v3 < 0 && !dash1)) {
		import_warn(s, off, "%s has a %s score, baseline or index; ignored", d->label,
			    v2 < 0 || v1 < -0.5 || v3 < -0.5 ? "negative" : "zero");
		return;
	}
	struct found *f = import_row_for(s, b, d, off, "has a second index row");
	if (!f)
		return;
	f->has_row = true;
	f->row_base = v1;
	f->row_score = v2;
	f->row_index = v3;
	f->row_off = off;
	b->has_table = true;
}

/* Is there a label boundary before p (start, space, newline, '|')? */
static bool boundary(const char *text, const char *p)
{
	return p == text || import_is_sp(p[-1]) || p[-1] == '\n' || p[-1] == '|';
}

/* "running 2 parallel copies" at p (UnixBench's "%s in system; running %s of tests"): the
 * copy count, else 0. Strict, because a pasted block may begin here and prose says "running". */
static int copies_at(const char *text, const char *p, const char *end)
{
	if (p > text && isalnum((unsigned char)p[-1]))
		return 0;
	const char *q = p + strlen("running"), *r;
	if (q >= end || !import_is_sp(*q))
		return 0;
	double v;
	r = import_scan_num(import_skip_sp(q, end), end, &v);
	if (!r || v < 1 || v > 100000 || v != floor(v))
		return 0;
	q = import_skip_sp(r, end);
	if (q == r || end - q < 8 || strncmp(q, "parallel", 8))
		return 0;
	r = q + 8;
	q = import_skip_sp(r, end);
	if (q == r || end - q < 4 || strncmp(q, "cop", 3))
		return 0;
	if (q[3] == 'y' || (end - q >= 6 && !strncmp(q + 3, "ies", 3)))
		return (int)v;
	return 0;
}

static void parse_block(struct src *s, struct block *b, const char *p, const char *end)
{
	const char *text = s->text;
	b->off = (size_t)(p - text);
	b->copies = 1;
	/* "Benchmark Run: Mon Nov 30 2026 09:53:59 - 10:21:57"; a pasted block may lack it. */
	if ((size_t)(end - p) > strlen("Benchmark Run:") && !strncmp(p, "Benchmark Run:", 14)) {
		const char *q = import_skip_sp(p + strlen("Benchmark Run:"), end);
		struct tm tm = { 0 };
		const char *r = strptime(q, "%a %b %d %Y %H:%M:%S", &tm);
		if (r && r <= end) {
			tm.tm_isdst = -1;
			b->start = mktime(&tm);
			int hh, mm, ss;
			if (sscanf(r, " - %d:%d:%d", &hh, &mm, &ss) == 3) {
				struct tm te = tm;
				te.tm_hour = hh, te.tm_min = mm, te.tm_sec = ss;
				b->end = mktime(&te);
				if (b->end < b->start)
					b->end += 86400;
			}
		}
	}
	for (const char *run = import_find(p, end, "running"); run && !b->copies_known;
	     run = import_find(run + 7, end, "running")) {
		int c = copies_at(text, run, end);
		if (c) {
			b->copies = c;
			b->copies_known = true;
		}
	}
	if (!b->copies_known)
		import_warn(s, b->off, "block does not say how many copies ran; assuming 1");
	double v;
	const char *cpus = import_find(p, end, " in system");
	if (cpus) {
		const char *c = cpus;
		while (c > p && c[-1] != '\n' && !isdigit((unsigned char)c[-1]))
			c--;
		while (c > p && isdigit((unsigned char)c[-1]))
			c--;
		if (import_scan_num(c, end, &v) && v >= 1 && v < 1e6)
			b->ncpus = (int)v;
	}
	for (const struct test_def **d = import_labels_by_length(); *d; d++) {
		size_t ll = strlen((*d)->label);
		for (const char *x = import_find(p, end, (*d)->label); x; x = import_find(x + ll, end, (*d)->label)) {
			if (!boundary(text, x))
				continue;
			/* A longer label that contains this one was already read there. */
			bool inside = false;
			for (const struct test_def **o = import_labels_by_length(); *o != *d && !inside; o++) {
				size_t ol = strlen((*o)->label);
				const char *y = import_find(x > p + ol ? x - ol : p, x + ol < end ? x + ol : end, (*o)->label);
				inside = y && y <= x && y + ol >= x + ll;
			}
			if (!inside)
				parse_after_label(s, b, *d, x + ll, end, (size_t)(x - text));
		}
	}
	/* Stated index score (full or partial). */
	const char *ix = import_find(p, end, "System Benchmarks Index Score");
	if (ix) {
		const char *y = import_skip_sp(ix + strlen("System Benchmarks Index Score"), end);
		if (end - y >= 14 && !strncmp(y, "(Partial Only)", 14)) {
			b->stated_partial = true;
			y = import_skip_sp(y + 14, end);
		}
		if (!import_scan_num(y, end, &b->stated_index) || b->stated_index <= 0) {
			import_warn(s, (size_t)(ix - text), "index score is not a positive number; recomputed");
			b->stated_index = 0;
		}
	}
	/* Lines shaped like results whose test kbench does not know. */
	for (const char *x = import_find(p, end, " samples)"); x; x = import_find(x + 9, end, " samples)")) {
		const char *ls = x;
		while (ls > p && ls[-1] != '\n')
			ls--;
		if (x - ls > 200)
			continue; /* collapsed text: no line to point at */
		bool known = false;
		for (const struct test_def **d = import_labels_by_length(); *d && !known; d++)
			known = import_find(ls, x, (*d)->label) != NULL;
		if (!known) {
			char name[64];
			const char *e = ls;
			/* The name ends at the score, two blanks after it; a block may now
			 * begin with a digit ("1 CPU in system"), so look back only within the line. */
			while (e < x && !(e - ls >= 2 && isdigit((unsigned char)*e) && import_is_sp(e[-1]) && import_is_sp(e[-2])))
				e++;
			import_trim_copy(name, sizeof name, ls, e);
			import_warn(s, (size_t)(ls - text), "unknown test '%s' not imported", name);
		}
	}
}

/* ---- a log split into blocks ---- */

/* What marks the blocks of a UnixBench report. A pasted report often keeps
 * only some of them: the "running" line or just the index table. */
enum mark_kind {
	MARK_RUN,    /* "Benchmark Run: <date> <time> - <time>", a block's first line */
	MARK_COPIES, /* "running N parallel copies of tests", its second (a paste's first) */
	MARK_TABLE,  /* "<category> Index Values|Partial Index   BASELINE   RESULT   INDEX" */
	MARK_SCORE,  /* "<category> Index Score", the last line of a table */
};

struct mark {
	enum mark_kind kind;
	const char *at, *after; /* after: the end of the mark (a score: of its number) */
	int cat;                /* a table's category, an index into categories[] */
};

/* UnixBench prints one index table per category, in Perl's hash order. */
static const char *const categories[] = { "System Benchmarks", "2D Graphics Benchmarks",
	"3D Graphics Benchmarks", "Non-Index Benchmarks" };

static void add_mark(struct mark **v, int *n, int *cap, struct mark m)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		struct mark *nv = realloc(*v, (size_t)*cap * sizeof *nv);
		if (!nv)
			abort();
		*v = nv;
	}
	(*v)[(*n)++] = m;
}

static int mark_cmp(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at ? 1 : (int)x->kind - (int)y->kind;
}

/* Every mark in [p, end), in text order. Each needle is searched once, so a large paste stays linear. */
static int collect_marks(const char *text, const char *p, const char *end, struct mark **out)
{
	struct mark *v = NULL;
	int n = 0, cap = 0;
	for (const char *x = import_find(p, end, "Benchmark Run:"); x; x = import_find(x + 14, end, "Benchmark Run:"))
		add_mark(&v, &n, &cap, (struct mark){ MARK_RUN, x, x + 14, 0 });
	for (const char *x = import_find(p, end, "running"); x; x = import_find(x + 7, end, "running"))
		if (copies_at(text, x, end))
			add_mark(&v, &n, &cap, (struct mark){ MARK_COPIES, x, x + 7, 0 });
	static const char *const heads[] = { "Index Values", "Partial Index" };
	for (int h = 0; h < 2; h++)
		for (const char *x = import_find(p, end, heads[h]); x; x = import_find(x + 12, end, heads[h])) {
			/* The header names its columns; prose naming the table does not. */
			const char *y = x + strlen(heads[h]);
			while (y < end && (import_is_sp(*y) || *y == '\n'))
				y++;
			if (y == x + strlen(heads[h]) || end - y < 8 || strncmp(y, "BASELINE", 8))
				continue;
			for (int c = 0; c < (int)(sizeof categories / sizeof categories[0]); c++) {
				size_t cl = strlen(categories[c]);
				if ((size_t)(x - p) > cl && x[-1] == ' ' && !strncmp(x - 1 - cl, categories[c], cl)) {
					add_mark(&v, &n, &cap, (struct mark){ MARK_TABLE, x - 1 - cl, y + 8, c });
					break;
				}
			}
		}
	for (const char *x = import_find(p, end, "Index Score"); x; x = import_find(x + 11, end, "Index Score")) {
		if ((size_t)(x - p) < strlen("Benchmarks ") || strncmp(x - 11, "Benchmarks ", 11))
			continue;
		/* The block ends with the score's number (collapsed text has no line end), else its line. */
		const char *y = import_skip_sp(x + 11, end);
		if (end - y >= 14 && !strncmp(y, "(Partial Only)", 14))
			y = import_skip_sp(y + 14, end);
		double v1;
		const char *after = import_scan_num(y, end, &v1);
		if (!after) {
			after = x + 11;
			while (after < end && *after != '\n')
				after++;
		}
		add_mark(&v, &n, &cap, (struct mark){ MARK_SCORE, x, after, 0 });
	}
	if (n > 1)
		qsort(v, (size_t)n, sizeof *v, mark_cmp);
	*out = v;
	return n;
}

/* Does [p, e) hold a test's label? */
static bool any_label(const char *p, const char *e)
{
	for (const struct test_def **d = import_labels_by_length(); *d; d++)
		if (import_find(p, e, (*d)->label))
			return true;
	return false;
}

/* A block that begins at its "running" line also owns the "2 CPUs in system; " before it. */
static const char *copies_line_start(const char *lower, const char *run)
{
	const char *ls = run, *cpu = NULL;
	while (ls > lower && ls[-1] != '\n' && run - ls < 48)
		ls--;
	for (const char *x = import_find(ls, run, "CPU"); x; x = import_find(x + 3, run, "CPU"))
		cpu = x;
	if (!cpu)
		return run;
	const char *c = cpu;
	while (c > ls && import_is_sp(c[-1]))
		c--;
	const char *d = c;
	while (d > ls && isdigit((unsigned char)d[-1]))
		d--;
	return d < c ? d : run;
}

/* A UnixBench result line: a label first, "(10.0 s, 7 samples)" last. */
static bool is_result_line(const char *p, const char *e)
{
	p = import_skip_sp(p, e);
	if (e - p > 200 || !import_find(p, e, " samples)"))
		return false;
	for (const struct test_def **d = import_labels_by_length(); *d; d++) {
		size_t ll = strlen((*d)->label);
		if ((size_t)(e - p) > ll && !strncmp(p, (*d)->label, ll))
			return true;
	}
	return false;
}

/* A block that begins at its index table keeps the result lines pasted just above it
 * (they carry the times and sample counts), but no prose. */
static const char *results_above(const char *lower, const char *table)
{
	const char *ls = table, *start = table;
	while (ls > lower && import_is_sp(ls[-1]))
		ls--;
	if (ls == lower || ls[-1] != '\n')
		return table;
	while (ls > lower) {
		const char *le = ls - 1, *pls = le;
		while (pls > lower && pls[-1] != '\n')
			pls--;
		if (import_skip_sp(pls, le) == le) {
			ls = pls; /* a blank line */
			continue;
		}
		if (!is_result_line(pls, le))
			break;
		start = ls = pls;
	}
	return start;
}

/* A block of a report as found in the text. */
struct span {
	const char *start, *end;
	bool dated;        /* began at "Benchmark Run:" */
	bool copies;       /* has its "running" line */
	unsigned tables;   /* bit per category whose index table it has */
	const char *last;  /* where its last mark ends */
	const char *tail;  /* the end of its score line, when only text followed so far */
};

/* Splits [p, end) into blocks. A block starts at "Benchmark Run:", at a "running N
 * parallel copies" line that does not follow its own "Benchmark Run:", or at an index
 * table whose category the current block already has; it ends where the next starts,
 * or after its last score line, so blog prose after it is not read as results. */
static int split_blocks(const char *text, const char *p, const char *end, struct span **out)
{
	struct mark *m;
	int nm = collect_marks(text, p, end, &m);
	struct span *v = NULL;
	int n = 0;
	for (int i = 0; i < nm; i++) {
		struct span *cur = n ? &v[n - 1] : NULL;
		const char *lower = cur ? (cur->tail ? cur->tail : cur->last) : p;
		if (lower > m[i].at)
			lower = m[i].at;
		const char *start = NULL;
		switch (m[i].kind) {
		case MARK_RUN: start = m[i].at; break;
		case MARK_COPIES:
			if (cur && cur->dated && !cur->copies && !cur->tables && !any_label(cur->last, m[i].at))
				cur->copies = true;
			else
				start = copies_line_start(lower, m[i].at);
			break;
		case MARK_TABLE:
			if (cur && !(cur->tables & 1u << m[i].cat))
				cur->tables |= 1u << m[i].cat;
			else
				start = results_above(lower, m[i].at);
			break;
		case MARK_SCORE:
			if (cur) {
				cur->tail = m[i].after;
				cur->last = m[i].after;
			}
			continue;
		}
		if (start) {
			if (cur)
				cur->end = cur->tail && cur->tail <= start ? cur->tail : start;
			/* Prose that says "running 2 parallel copies of tests" before the
			 * real line is no block: the next one takes its place. */
			if (cur && !cur->dated && !any_label(cur->start, cur->end))
				n--;
			struct span *nv = realloc(v, (size_t)(n + 1) * sizeof *nv);
			if (!nv)
				abort();
			v = nv;
			cur = &v[n++];
			*cur = (struct span){ .start = start,
					      .dated = m[i].kind == MARK_RUN,
					      .copies = m[i].kind == MARK_COPIES,
					      .tables = m[i].kind == MARK_TABLE ? 1u << m[i].cat : 0 };
		}
		if (!cur->last || m[i].after > cur->last)
			cur->last = m[i].after;
		cur->tail = NULL;
	}
	if (n)
		v[n - 1].end = v[n - 1].tail ? v[n - 1].tail : end;
	free(m);
	*out = v;
	return n;
}

/* One log: the header facts before its first block, then its blocks. */
static void import_log(struct src *s, const char *p, const char *end, const char *name)
{
	struct span *spans;
	int n = split_blocks(s->text, p, end, &spans);
	if (!n)
		return;
	struct run *r = import_new_run(s, name);
	const char *first = spans[0].start;
	import_header_facts(p, first, &r->meta);
	const char *ver = import_find(p, first, "BYTE UNIX Benchmarks (Version ");
	if (ver) {
		char v[32] = "";
		const char *vs = ver + strlen("BYTE UNIX Benchmarks (Version ");
		const char *ve = vs;
		while (ve < end && ve - vs < 20 && *ve != ')')
			ve++;
		import_trim_copy(v, sizeof v, vs, ve);
		snprintf(r->meta.kbench_version, sizeof r->meta.kbench_version, "UnixBench %s", v);
	}
	for (int i = 0; i < n; i++) {
		struct block *blk = calloc(1, sizeof *blk);
		if (!blk)
			abort();
		parse_block(s, blk, spans[i].start, spans[i].end);
		if (blk->ncpus && !r->meta.ncpus)
			r->meta.ncpus = blk->ncpus;
		import_emit_block(s, r, blk);
		free(blk);
	}
	free(spans);
	if (r->nblocks == 0) {
		run_free(r);
		return;
	}
	import_finish_run(s, r, name);
}

/* Logs split at their "BYTE UNIX Benchmarks" banners; blocks before the first banner
 * (or in a paste that lost it) form a log of their own. */
void import_logs(struct src *s, const char *name)
{
	const char *t = s->text, *end = s->text + s->len;
	const char *h = import_find(t, end, "BYTE UNIX Benchmarks");
	import_log(s, t, h ? h : end, name);
	while (h) {
		const char *next = import_find(h + 20, end, "BYTE UNIX Benchmarks");
		import_log(s, h, next ? next : end, name);
		h = next;
	}
}
