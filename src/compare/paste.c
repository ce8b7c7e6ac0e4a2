/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tables to paste: a comparison or one run laid out for GitHub/habr (markdown), mailing lists
 * (plain text within 72 columns) and old forums (BBCode), from one model of the table.
 *
 * The builders (compare_doc, run_doc) turn a comparison or a run into rows of
 * cells; the formats only lay the cells out and escape them. Verdict words come
 * from compare_verdict_text, as on the console and in `kbench compare`. */
#include "paste.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare.h"
#include "noise.h"
#include "numfmt.h"
#include "run.h"
#include "tests.h"

#define PT_COLS 8
#define PT_CELL 128
/* Mail clients quote with "> ": a table this wide survives a reply or two. */
#define TEXT_WIDTH 72

struct pt_row {
	char cell[PT_COLS][PT_CELL];
	bool total; /* the index score: set apart */
	/* a point's row: its test's id and the label's "<id> " prefix, which a
	 * narrow text table drops for all of that test's rows rather than cut
	 * the point's name off ("timerlat other+burn p" for p50 and p99) */
	char group[32];
	int prefix;
};

struct pt_table {
	char caption[64]; /* "1 copy", "2 copies (only in A)" */
	int nrows;
	struct pt_row *rows;
};

struct pt_doc {
	int ncols;
	const char *head[PT_COLS];
	bool right[PT_COLS]; /* numbers align right */
	int ntitles;
	char title[2][400];
	int ntables;
	struct pt_table *tables;
	char footer[600];
};

struct paste_format {
	bool compact;	/* short labels and scores fitted to narrow columns */
	const char *pm; /* the interval's sign */
	void (*write)(FILE *f, const struct pt_doc *d);
};

/* ---- the model ---- */

static struct pt_table *add_table(struct pt_doc *d, const char *caption)
{
	struct pt_table *nt = realloc(d->tables, (size_t)(d->ntables + 1) * sizeof *nt);
	if (!nt)
		abort();
	d->tables = nt;
	struct pt_table *t = &d->tables[d->ntables++];
	memset(t, 0, sizeof *t);
	snprintf(t->caption, sizeof t->caption, "%s", caption);
	return t;
}

static struct pt_row *add_row(struct pt_table *t)
{
	struct pt_row *nr = realloc(t->rows, (size_t)(t->nrows + 1) * sizeof *nr);
	if (!nr)
		abort();
	t->rows = nr;
	struct pt_row *r = &t->rows[t->nrows++];
	memset(r, 0, sizeof *r);
	return r;
}

static void doc_free(struct pt_doc *d)
{
	for (int i = 0; i < d->ntables; i++)
		free(d->tables[i].rows);
	free(d->tables);
}

static void set_head(struct pt_doc *d, int n, const char *const *head, const char *right)
{
	d->ncols = n;
	for (int i = 0; i < n; i++) {
		d->head[i] = head[i];
		d->right[i] = right[i] == 'r';
	}
}

/* ---- cells ---- */

static void fmt_score(char *buf, size_t size, double v, bool compact)
{
	if (!isfinite(v) || v <= 0)
		snprintf(buf, size, "--");
	else if (compact && v >= 100)
		compare_fmt_score(buf, size, v, 7);
	else
		/* scores and indexes to a tenth; a latency of 1.287 ns keeps its digits */
		snprintf(buf, size, v >= 100 ? "%.1f" : "%.4g", v);
}

static void fmt_pm(char *buf, size_t size, double v, bool drift)
{
	if (!isfinite(v))
		snprintf(buf, size, "--%s", drift ? "!" : "");
	else
		snprintf(buf, size, v >= 99.95 ? "%.0f%s" : "%.1f%s", v, drift ? "!" : "");
}

static void fmt_date(char *buf, size_t size, long long date)
{
	time_t t = (time_t)date;
	struct tm tm;
	if (!t || !localtime_r(&t, &tm))
		snprintf(buf, size, "date unknown");
	else
		strftime(buf, size, "%Y-%m-%d %H:%M", &tm);
}

/* The label a reader knows: UnixBench's in full, or the test table's short one. */
static const char *row_label(const struct compare_row *r, bool compact)
{
	const struct test_def *t = compact ? test_find(r->id) : NULL;
	return t && t->short_label ? t->short_label : r->label;
}

/* ---- builders ---- */

static void side_title(char *buf, size_t size, const char *side, const char *title,
		       const struct compare_ref *r, int n)
{
	char date[32];
	if (n == 1) {
		fmt_date(date, sizeof date, r[0].date);
		/* The name is the kernel release unless the run was named. */
		if (!strcmp(r[0].name, r[0].kernel))
			snprintf(buf, size, "%s: %s, %s", side, title, date);
		else
			snprintf(buf, size, "%s: %s, kernel %s, %s", side, title,
				 r[0].kernel[0] ? r[0].kernel : "?", date);
		return;
	}
	int u = snprintf(buf, size, "%s: %s:", side, title);
	for (int i = 0; i < n && i < 8 && u > 0 && (size_t)u < size; i++)
		u += snprintf(buf + u, size - (size_t)u, " %s", r[i].id);
	if (n > 8 && u > 0 && (size_t)u < size)
		snprintf(buf + u, size - (size_t)u, " ...");
}

static void compare_cells(struct pt_row *row, const struct compare_row *r, const char *label,
			  bool index_row, const struct paste_format *fmt)
{
	int k = 0;
	snprintf(row->cell[k++], PT_CELL, "%s", label);
	/* The index row has no score of its own: with one column per side its
	 * index stands in the score's place, with two the score cell is empty. */
	for (int s = 0; s < 2; s++) {
		const struct compare_side *side = s ? &r->b : &r->a;
		if (fmt->compact)
			fmt_score(row->cell[k++], PT_CELL,
				  index_row	  ? side->index
				  : side->present ? side->score
						  : NAN,
				  true);
		else if (index_row)
			k++;
		else
			fmt_score(row->cell[k++], PT_CELL, side->present ? side->score : NAN, false);
		if (!fmt->compact)
			fmt_score(row->cell[k++], PT_CELL, side->index, false);
	}
	num_pct(row->cell[k++], PT_CELL, r->change, NUM_PCT_SIGN);
	fmt_pm(row->cell[k++], PT_CELL, r->change_pm, r->a.drift || r->b.drift);
	compare_verdict_text(row->cell[k++], PT_CELL, r);
	row->total = index_row;
}

static void compare_doc(struct pt_doc *d, const struct compare *c, const struct paste_format *fmt)
{
	static const char *const wide[] = { "Test",    "A score", "A index", "B score",
					    "B index", "Change",  NULL,	     "Verdict" };
	static const char *const narrow[] = { "Test", "A", "B", "change", NULL, "verdict" };
	const char *head[PT_COLS];
	int n = fmt->compact ? 6 : 8;
	memcpy(head, fmt->compact ? narrow : wide, (size_t)n * sizeof *head);
	head[n - 2] = fmt->pm;
	set_head(d, n, head, fmt->compact ? "lrrrrl" : "lrrrrrrl");
	side_title(d->title[0], sizeof d->title[0], "A", c->a_title, c->a_runs, c->na);
	side_title(d->title[1], sizeof d->title[1], "B", c->b_title, c->b_runs, c->nb);
	d->ntitles = 2;
	bool drift = false;
	int ndetail = 0, dchanged = 0;
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		char cap[64];
		snprintf(cap, sizeof cap, "%d cop%s%s", b->copies, b->copies == 1 ? "y" : "ies",
			 !b->in_a   ? " (only in B)"
			 : !b->in_b ? " (only in A)"
				    : "");
		struct pt_table *t = add_table(d, cap);
		for (int i = 0; i < b->nrows; i++) {
			const struct compare_row *r = &b->rows[i];
			if (r->detail) /* a curve point: counted in the footer, as kbench compare does */
				continue;
			struct pt_row *row = add_row(t);
			compare_cells(row, r, row_label(r, fmt->compact), false, fmt);
			const char *colon = r->point ? strchr(r->id, ':') : NULL;
			size_t il = colon ? (size_t)(colon - r->id) : 0;
			if (colon && il < sizeof row->group && !strncmp(row->cell[0], r->id, il) &&
			    row->cell[0][il] == ' ') {
				snprintf(row->group, sizeof row->group, "%.*s", (int)il, r->id);
				row->prefix = (int)il + 1;
			}
			drift = drift || r->a.drift || r->b.drift;
		}
		ndetail += b->ndetail;
		dchanged += b->dfaster + b->dslower;
		if (!b->has_index)
			continue;
		char label[64];
		snprintf(label, sizeof label, "%s%s",
			 fmt->compact ? "Index Score" : "System Benchmarks Index Score",
			 b->a_partial || b->b_partial ? " (partial)" : "");
		compare_cells(add_row(t), &b->index, label, true, fmt);
	}
	char curve[120] = "";
	if (ndetail)
		snprintf(curve, sizeof curve, " Curve points, not listed: %d, %d of them faster or slower.",
			 ndetail, dchanged);
	snprintf(d->footer, sizeof d->footer, "%s %s is the %.0f%% interval of the change.%s%s", c->basis,
		 fmt->pm, c->conf * 100, drift ? " ! marks samples that drift within a run." : "", curve);
}

/* A points test's headline points, one row each: its value (the mean of
 * its samples), unit and spread; no index. */
static void point_rows(struct pt_table *t, const struct test_result *tr)
{
	for (int p = 0; p < tr->npoints; p++) {
		const struct point *pt = &tr->points[p];
		if (!pt->summary)
			continue;
		struct pt_row *row = add_row(t);
		snprintf(row->cell[0], PT_CELL, "%s %s", tr->id, pt->name);
		fmt_score(row->cell[1], PT_CELL, point_mean(pt), true);
		snprintf(row->cell[2], PT_CELL, "%s", pt->unit);
		double sp = point_spread(pt);
		if (sp >= 0)
			snprintf(row->cell[3], PT_CELL, "%.1f%%", sp * 100);
		else
			snprintf(row->cell[3], PT_CELL, "--");
		snprintf(row->cell[4], PT_CELL, "--");
	}
}

static void run_doc(struct pt_doc *d, const struct run *r, const struct paste_format *fmt)
{
	const char *head[] = { "Test", fmt->compact ? "score" : "Score", fmt->compact ? "unit" : "Unit",
			       fmt->pm, fmt->compact ? "index" : "Index" };
	set_head(d, 5, head, "lrlrr");
	const struct run_meta *m = &r->meta;
	char date[32];
	fmt_date(date, sizeof date, m->date);
	snprintf(d->title[0], sizeof d->title[0], "%s (%s): kernel %s on %s, %s", m->name, m->id,
		 m->kernel_release[0] ? m->kernel_release : "?", m->hostname[0] ? m->hostname : "?", date);
	d->ntitles = 1;
	if (m->cpu_model[0]) {
		snprintf(d->title[1], sizeof d->title[1], "CPU: %s, %d CPUs", m->cpu_model, m->ncpus);
		d->ntitles = 2;
	}
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		char cap[64];
		snprintf(cap, sizeof cap, "%d cop%s", bl->copies, bl->copies == 1 ? "y" : "ies");
		struct pt_table *t = add_table(d, cap);
		bool indexed = false;
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *tr = &bl->tests[i];
			indexed = indexed || tr->baseline > 0;
			if (tr->kind == RESULT_POINTS) {
				point_rows(t, tr);
				continue;
			}
			struct pt_row *row = add_row(t);
			const struct test_def *def = fmt->compact ? test_find(tr->id) : NULL;
			snprintf(row->cell[0], PT_CELL, "%s",
				 def && def->short_label ? def->short_label : tr->label);
			if (tr->status == TEST_DONE || tr->status == TEST_IMPORTED)
				fmt_score(row->cell[1], PT_CELL, tr->score, fmt->compact);
			else
				snprintf(row->cell[1], PT_CELL, "%s", test_status_name(tr->status));
			snprintf(row->cell[2], PT_CELL, "%s", tr->unit);
			if (tr->spread >= 0 && tr->kept > 1 && tr->status == TEST_DONE)
				snprintf(row->cell[3], PT_CELL, "%.1f%%", tr->spread * 100);
			else
				snprintf(row->cell[3], PT_CELL, "--");
			fmt_score(row->cell[4], PT_CELL, tr->index, false);
		}
		if (!indexed) /* points tests alone: no index to state */
			continue;
		struct pt_row *row = add_row(t);
		snprintf(row->cell[0], PT_CELL, "%s%s",
			 fmt->compact ? "Index Score" : "System Benchmarks Index Score",
			 bl->index_partial ? " (partial)" : "");
		snprintf(row->cell[1], PT_CELL, "%s", "");
		snprintf(row->cell[2], PT_CELL, "%s", "");
		snprintf(row->cell[3], PT_CELL, "%s", "");
		fmt_score(row->cell[4], PT_CELL, bl->index_score, false);
		row->total = true;
	}
	char setting[64];
	noise_setting(r, setting, sizeof setting);
	if (!run_mode_info(m->mode)->measured)
		snprintf(d->footer, sizeof d->footer,
			 "One imported result: no samples, so no spread and no verdicts.");
	else
		snprintf(d->footer, sizeof d->footer,
			 "One run (%s), no verdicts: %s is the spread (relative sd) of each test's "
			 "kept samples.",
			 setting, fmt->pm);
}

/* ---- markdown (GitHub, habr): a pipe table per copy count ---- */

/* What could start markup inside a cell or a line: escaped, or written as an
 * entity ('<' could open HTML; '>' only quotes at a line's start, where no
 * cell or title has one, so "(>99.9% sure)" stays as it reads). */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else {
			if (strchr("\\|`*_[]#", *s))
				fputc('\\', f);
			fputc(*s, f);
		}
	}
}

static void md_write(FILE *f, const struct pt_doc *d)
{
	for (int i = 0; i < d->ntitles; i++) {
		md_text(f, d->title[i]);
		fputs("\n\n", f);
	}
	for (int k = 0; k < d->ntables; k++) {
		const struct pt_table *t = &d->tables[k];
		fputs("**", f);
		md_text(f, t->caption);
		fputs("**\n\n|", f);
		for (int c = 0; c < d->ncols; c++) {
			fputc(' ', f);
			md_text(f, d->head[c]);
			fputs(" |", f);
		}
		fputs("\n|", f);
		for (int c = 0; c < d->ncols; c++)
			fputs(d->right[c] ? "---:|" : ":---|", f);
		fputc('\n', f);
		for (int i = 0; i < t->nrows; i++) {
			fputc('|', f);
			for (int c = 0; c < d->ncols; c++) {
				const char *cell = t->rows[i].cell[c];
				bool strong = t->rows[i].total && *cell && (c == 0 || d->right[c]);
				fputs(strong ? " **" : " ", f);
				md_text(f, cell);
				fputs(strong ? "** |" : " |", f);
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	md_text(f, d->footer);
	fputc('\n', f);
}

/* ---- plain text (mailing lists) and BBCode (forums) ---- */

/* Characters on screen of UTF-8 text (continuation bytes take no column). */
static int text_cols(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s cut to at most cols columns, padded to width (left or right aligned). */
static void text_cell(FILE *f, const char *s, int cols, int width, bool right,
		      void (*out)(FILE *, const char *, size_t))
{
	size_t bytes = 0;
	int seen = 0;
	for (; s[bytes]; bytes++) {
		if (((unsigned char)s[bytes] & 0xc0) != 0x80 && seen++ == cols)
			break;
	}
	int used = seen > cols ? cols : seen;
	if (right)
		fprintf(f, "%*s", width - used, "");
	out(f, s, bytes);
	if (!right && width > used)
		fprintf(f, "%*s", width - used, "");
}

static void raw_out(FILE *f, const char *s, size_t n)
{
	fwrite(s, 1, n, f);
}

/* Inside [code] no forum reads tags but [/code]; brackets from a run name or
 * an imported label become parentheses, so none can close the block. */
static void bb_out(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc(s[i] == '[' ? '(' : s[i] == ']' ? ')' : s[i], f);
}

/* Words wrapped at TEXT_WIDTH, continuation lines indented by indent. */
static void text_wrap(FILE *f, const char *s, int indent, void (*out)(FILE *, const char *, size_t))
{
	int col = 0;
	bool first = true;
	while (*s) {
		while (*s == ' ')
			s++;
		size_t len = strcspn(s, " ");
		if (!len)
			break;
		char word[PT_CELL * 4];
		snprintf(word, sizeof word, "%.*s", (int)len, s);
		int w = text_cols(word);
		if (!first && col + 1 + w > TEXT_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		out(f, s, len);
		col += w;
		first = false;
		s += len;
	}
	fputc('\n', f);
}

/* The tests whose rows show their points' names alone (see pt_row). */
struct pt_dropped {
	int n;
	char id[16][32];
};

static bool dropped(const struct pt_dropped *dr, const struct pt_row *row)
{
	for (int i = 0; row->prefix && i < dr->n; i++)
		if (!strcmp(dr->id[i], row->group))
			return true;
	return false;
}

static const char *row_cell(const struct pt_dropped *dr, const struct pt_row *row, int c)
{
	return c == 0 && dropped(dr, row) ? row->cell[0] + row->prefix : row->cell[c];
}

/* Columns as wide as their widest cell; the row's whole width back. */
static int text_widths(const struct pt_doc *d, const struct pt_dropped *dr, int *width)
{
	int total = d->ncols - 1;
	for (int c = 0; c < d->ncols; c++) {
		width[c] = text_cols(d->head[c]);
		for (int k = 0; k < d->ntables; k++)
			for (int i = 0; i < d->tables[k].nrows; i++) {
				int w = text_cols(row_cell(dr, &d->tables[k].rows[i], c));
				if (w > width[c])
					width[c] = w;
			}
		total += width[c];
	}
	return total;
}

static void text_body(FILE *f, const struct pt_doc *d, void (*out)(FILE *, const char *, size_t))
{
	for (int i = 0; i < d->ntitles; i++)
		text_wrap(f, d->title[i], 2, out);
	/* The label gives way when the row is too wide: first a points test's
	 * id in front of its points' names (for all its rows, where one would
	 * be cut), then the label's end. */
	int width[PT_COLS] = { 0 };
	struct pt_dropped dr = { 0 };
	int total = text_widths(d, &dr, width);
	if (total > TEXT_WIDTH) {
		int room = width[0] - (total - TEXT_WIDTH);
		for (int k = 0; k < d->ntables; k++)
			for (int i = 0; i < d->tables[k].nrows; i++) {
				const struct pt_row *row = &d->tables[k].rows[i];
				if (row->prefix && text_cols(row->cell[0]) > room && !dropped(&dr, row) && dr.n < 16)
					snprintf(dr.id[dr.n++], sizeof dr.id[0], "%s", row->group);
			}
		total = text_widths(d, &dr, width);
	}
	if (total > TEXT_WIDTH && width[0] - (total - TEXT_WIDTH) >= 10)
		width[0] -= total - TEXT_WIDTH;
	for (int k = 0; k < d->ntables; k++) {
		const struct pt_table *t = &d->tables[k];
		fputc('\n', f);
		out(f, t->caption, strlen(t->caption));
		fputc('\n', f);
		int line = 0;
		for (int c = 0; c < d->ncols; c++) {
			if (c)
				fputc(' ', f);
			bool last = c == d->ncols - 1;
			text_cell(f, d->head[c], width[c], last && !d->right[c] ? 0 : width[c], d->right[c],
				  out);
			line += width[c] + (c > 0);
		}
		fputc('\n', f);
		for (int i = 0; i < t->nrows; i++) {
			if (t->rows[i].total)
				fprintf(f, "%.*s\n", line < TEXT_WIDTH ? line : TEXT_WIDTH,
					"------------------------------------------------------------------"
					"------"
					"--------");
			for (int c = 0; c < d->ncols; c++) {
				if (c)
					fputc(' ', f);
				bool last = c == d->ncols - 1;
				text_cell(f, row_cell(&dr, &t->rows[i], c), width[c],
					  last && !d->right[c] ? 0 : width[c], d->right[c], out);
			}
			fputc('\n', f);
		}
	}
}

static void text_write(FILE *f, const struct pt_doc *d)
{
	text_body(f, d, raw_out);
	fputc('\n', f);
	text_wrap(f, d->footer, 0, raw_out);
}

/* phpBB, the most common old forum, has no [table] tag by default (SMF,
 * MyBB and vBulletin differ among themselves), but every one of them shows
 * [code] in a monospace font with the spaces kept: the text table inside it
 * lines up everywhere. The footer stays outside, as prose the forum wraps. */
static void bb_write(FILE *f, const struct pt_doc *d)
{
	fputs("[code]\n", f);
	text_body(f, d, bb_out);
	fputs("[/code]\n", f);
	bb_out(f, d->footer, strlen(d->footer));
	fputc('\n', f);
}

const struct paste_format paste_markdown = { .compact = false, .pm = "±", .write = md_write };
const struct paste_format paste_text = { .compact = true, .pm = "+-", .write = text_write };
const struct paste_format paste_bbcode = { .compact = true, .pm = "+-", .write = bb_write };

void paste_compare(FILE *f, const struct compare *c, const struct paste_format *fmt)
{
	struct pt_doc d = { 0 };
	compare_doc(&d, c, fmt);
	fmt->write(f, &d);
	doc_free(&d);
}

void paste_run(FILE *f, const struct run *r, const struct paste_format *fmt)
{
	struct pt_doc d = { 0 };
	run_doc(&d, r, fmt);
	fmt->write(f, &d);
	doc_free(&d);
}
