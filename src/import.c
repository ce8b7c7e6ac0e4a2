/* Import of published UnixBench results: logs (also collapsed onto one line) and pasted result tables. */
#include "import.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "run.h"
#include "score.h"
#include "tests.h"

#define MAX_TABLE_LINE 4096 /* a table row longer than this is not a table row */
#define MAX_WARNINGS 200

struct src {
	const char *name;   /* file name for messages */
	char *text;         /* normalized copy, NUL-terminated */
	size_t len;
	size_t *lines;      /* offset of each line start */
	int nlines;
	struct import_result *res;
	char first_problem[300];
};

static int line_of(const struct src *s, size_t off)
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

static void warn(struct src *s, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn(struct src *s, size_t off, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!s->first_problem[0])
		snprintf(s->first_problem, sizeof s->first_problem, "line %d: %s", line_of(s, off), msg);
	struct import_result *r = s->res;
	if (r->nwarnings >= MAX_WARNINGS)
		return;
	char **nw = realloc(r->warnings, (size_t)(r->nwarnings + 1) * sizeof *nw);
	if (!nw)
		abort();
	r->warnings = nw;
	char buf[700];
	snprintf(buf, sizeof buf, "%s:%d: %s%s", s->name, line_of(s, off), msg,
		 r->nwarnings + 1 == MAX_WARNINGS ? " (further warnings not shown)" : "");
	r->warnings[r->nwarnings++] = strdup(buf);
}

/* ---- small text helpers ---- */

static bool is_sp(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_sp(const char *p, const char *end)
{
	while (p < end && is_sp(*p))
		p++;
	return p;
}

static const char *find(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	if (p >= end || (size_t)(end - p) < n)
		return NULL;
	return memmem(p, (size_t)(end - p), needle, n);
}

/* A plain decimal number (UnixBench prints nothing else): no inf, nan, hex or exponent. */
static const char *scan_num(const char *p, const char *end, double *out)
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

static void trim_copy(char *dst, size_t size, const char *p, const char *e)
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

/* ---- one test's findings within a block ---- */

struct found {
	const struct test_def *def;
	bool has_result, has_row;
	double score, time;      /* from the result line */
	int samples;
	char unit[16];
	size_t result_off;
	double row_base, row_score, row_index; /* from the index table, <0 when "---" */
	size_t row_off;
};

struct block {
	int copies;
	bool copies_known;
	time_t start, end;
	int ncpus;
	struct found f[64];
	int nf;
	bool has_table;
	double stated_index;
	bool stated_partial;
	size_t off;
};

static struct found *found_for(struct block *b, const struct test_def *d)
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

static bool same(double a, double b)
{
	return fabs(a - b) <= 0.05 + 1e-9 * fabs(a);
}

/* After a label: either "SCORE UNIT (TIME s, N samples)" or "BASE RESULT INDEX". */
static void parse_after_label(struct src *s, struct block *b, const struct test_def *d,
			      const char *p, const char *end, size_t off)
{
	const char *q = skip_sp(p, end);
	double v1, v2, v3;
	const char *r = scan_num(q, end, &v1);
	bool dash1 = false;
	if (!r && end - q >= 3 && !strncmp(q, "---", 3)) {
		dash1 = true;
		r = q + 3;
		v1 = -1;
	}
	if (!r) {
		warn(s, off, "'%s' is not followed by a number; ignored", d->label);
		return;
	}
	const char *q2 = skip_sp(r, end);
	char unit[16];
	const char *u = scan_word(q2, end, unit, sizeof unit);
	if (u && !dash1) {
		/* A result line. */
		double t = 0, n = 0;
		const char *x = skip_sp(u, end);
		if (x < end && *x == '(') {
			x = skip_sp(x + 1, end);
			const char *y = scan_num(x, end, &t);
			if (y) {
				y = skip_sp(y, end);
				if (y < end && *y == 's')
					y++;
				y = skip_sp(y, end);
				if (y < end && *y == ',')
					y = skip_sp(y + 1, end);
				if (!scan_num(y, end, &n))
					n = 0;
			}
		}
		if (v1 <= 0) {
			warn(s, off, "score of %s is %s; ignored", d->label, v1 < 0 ? "negative" : "zero");
			return;
		}
		struct found *f = found_for(b, d);
		if (!f)
			return;
		if (f->has_result) {
			if (same(f->score, v1))
				warn(s, off, "%s is listed again (same result, first at line %d); ignored",
				     d->label, line_of(s, f->result_off));
			else
				warn(s, off, "%s is listed again with a different score %.1f (first at line %d: %.1f); the first is kept",
				     d->label, v1, line_of(s, f->result_off), f->score);
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
	const char *r2 = scan_num(q2, end, &v2);
	if (!r2) {
		warn(s, off, "'%s' is followed by no score; ignored", d->label);
		return;
	}
	const char *q3 = skip_sp(r2, end);
	const char *r3 = scan_num(q3, end, &v3);
	if (!r3 && end - q3 >= 3 && !strncmp(q3, "---", 3))
		v3 = -1, r3 = q3 + 3;
	if (!r3) {
		warn(s, off, "'%s' index row has no index; ignored", d->label);
		return;
	}
	if (v2 <= 0 || (!dash1 && v1 <= 0) || (v3 < 0 && !dash1)) {
		warn(s, off, "%s has a %s score, baseline or index; ignored", d->label,
		     v2 < 0 || v1 < -0.5 || v3 < -0.5 ? "negative" : "zero");
		return;
	}
	struct found *f = found_for(b, d);
	if (!f)
		return;
	if (f->has_row) {
		warn(s, off, "%s has a second index row (first at line %d); ignored", d->label,
		     line_of(s, f->row_off));
		return;
	}
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
	return p == text || is_sp(p[-1]) || p[-1] == '\n' || p[-1] == '|';
}

/* Labels longest first, so "Shell Scripts (16 concurrent)" is not read as a shorter one. */
static const struct test_def **labels_by_length(void)
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

/* "running 2 parallel copies" at p (UnixBench's "%s in system; running %s of tests"): the
 * copy count, else 0. Strict, because a pasted block may begin here and prose says "running". */
static int copies_at(const char *text, const char *p, const char *end)
{
	if (p > text && isalnum((unsigned char)p[-1]))
		return 0;
	const char *q = p + strlen("running"), *r;
	if (q >= end || !is_sp(*q))
		return 0;
	double v;
	r = scan_num(skip_sp(q, end), end, &v);
	if (!r || v < 1 || v > 100000 || v != floor(v))
		return 0;
	q = skip_sp(r, end);
	if (q == r || end - q < 8 || strncmp(q, "parallel", 8))
		return 0;
	r = q + 8;
	q = skip_sp(r, end);
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
		const char *q = skip_sp(p + strlen("Benchmark Run:"), end);
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
	for (const char *run = find(p, end, "running"); run && !b->copies_known;
	     run = find(run + 7, end, "running")) {
		int c = copies_at(text, run, end);
		if (c) {
			b->copies = c;
			b->copies_known = true;
		}
	}
	if (!b->copies_known)
		warn(s, b->off, "block does not say how many copies ran; assuming 1");
	double v;
	const char *cpus = find(p, end, " in system");
	if (cpus) {
		const char *c = cpus;
		while (c > p && c[-1] != '\n' && !isdigit((unsigned char)c[-1]))
			c--;
		while (c > p && isdigit((unsigned char)c[-1]))
			c--;
		if (scan_num(c, end, &v) && v >= 1 && v < 1e6)
			b->ncpus = (int)v;
	}
	for (const struct test_def **d = labels_by_length(); *d; d++) {
		size_t ll = strlen((*d)->label);
		for (const char *x = find(p, end, (*d)->label); x; x = find(x + ll, end, (*d)->label)) {
			if (!boundary(text, x))
				continue;
			/* A longer label that contains this one was already read there. */
			bool inside = false;
			for (const struct test_def **o = labels_by_length(); *o != *d && !inside; o++) {
				size_t ol = strlen((*o)->label);
				const char *y = find(x > p + ol ? x - ol : p, x + ol < end ? x + ol : end, (*o)->label);
				inside = y && y <= x && y + ol >= x + ll;
			}
			if (!inside)
				parse_after_label(s, b, *d, x + ll, end, (size_t)(x - text));
		}
	}
	/* Stated index score (full or partial). */
	const char *ix = find(p, end, "System Benchmarks Index Score");
	if (ix) {
		const char *y = skip_sp(ix + strlen("System Benchmarks Index Score"), end);
		if (end - y >= 14 && !strncmp(y, "(Partial Only)", 14)) {
			b->stated_partial = true;
			y = skip_sp(y + 14, end);
		}
		if (!scan_num(y, end, &b->stated_index) || b->stated_index <= 0) {
			warn(s, (size_t)(ix - text), "index score is not a positive number; recomputed");
			b->stated_index = 0;
		}
	}
	/* Lines shaped like results whose test kbench does not know. */
	for (const char *x = find(p, end, " samples)"); x; x = find(x + 9, end, " samples)")) {
		const char *ls = x;
		while (ls > p && ls[-1] != '\n')
			ls--;
		if (x - ls > 200)
			continue; /* collapsed text: no line to point at */
		bool known = false;
		for (const struct test_def **d = labels_by_length(); *d && !known; d++)
			known = find(ls, x, (*d)->label) != NULL;
		if (!known) {
			char name[64];
			const char *e = ls;
			/* The name ends at the score, two blanks after it; a block may now
			 * begin with a digit ("1 CPU in system"), so look back only within the line. */
			while (e < x && !(e - ls >= 2 && isdigit((unsigned char)*e) && is_sp(e[-1]) && is_sp(e[-2])))
				e++;
			trim_copy(name, sizeof name, ls, e);
			warn(s, (size_t)(ls - text), "unknown test '%s' not imported", name);
		}
	}
}

static int def_order(const struct test_def *d)
{
	return (int)(d - test_table);
}

/* Turns a parsed block into a run block, the index table taking precedence. */
static void emit_block(struct src *s, struct run *r, struct block *b)
{
	if (run_find_block(r, b->copies)) {
		warn(s, b->off, "a second block for %d cop%s; ignored", b->copies, b->copies == 1 ? "y" : "ies");
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
		warn(s, b->off, "block has no results; ignored");
		return;
	}
	struct run_block *rb = run_add_block(r, b->copies);
	rb->start = b->start;
	rb->end = b->end;
	/* The stored run must say so too: the warning goes, the run stays. */
	if (!b->copies_known)
		run_add_note(r, "imported block at %s:%d does not say how many copies ran; 1 copy assumed",
			     s->name, line_of(s, b->off));
	if (!b->has_table)
		warn(s, b->off, "block has no index table: indexes computed from the scores and UnixBench's baselines");
	for (int i = 0; i < b->nf; i++) {
		struct found *f = &b->f[i];
		const struct test_def *d = f->def;
		if (!f->has_result && !f->has_row)
			continue;
		double baseline = d->baseline;
		if (f->has_row)
			baseline = f->row_base > 0 ? f->row_base : 0;
		if (f->has_row && f->row_base > 0 && d->baseline > 0 && !same(f->row_base, d->baseline))
			warn(s, f->row_off, "%s baseline %.1f is not UnixBench's %.1f", d->label,
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
				warn(s, f->result_off, "%s: the result line says %.1f but the index table says %.1f; the table is used",
				     d->label, f->score, f->row_score);
		} else {
			t->score = f->score;
			if (b->has_table && d->baseline > 0)
				warn(s, f->result_off, "%s has no row in the index table", d->label);
		}
		t->index = score_index(t->score, t->baseline);
		if (f->has_row && f->row_index >= 0 && !same(f->row_index, t->index))
			warn(s, f->row_off, "%s: stated index %.1f, but %.1f / %.1f x 10 is %.1f; the stated one is kept",
			     d->label, f->row_index, t->score, t->baseline, t->index);
		if (f->has_row && f->row_index >= 0)
			t->index = f->row_index;
	}
	score_block(rb);
	double recomputed = rb->index_score;
	if (b->stated_index > 0) {
		if (fabs(b->stated_index - recomputed) > 0.05 + 5e-4 * b->stated_index)
			warn(s, b->off, "stated index score %.1f differs from %.1f recomputed from the tests; the stated one is kept",
			     b->stated_index, recomputed);
		rb->index_score = b->stated_index;
	}
}

/* ---- header facts: the same keys in a log and in text around a table ---- */

/* The value after `key` up to the end of the line, or in collapsed text up
 * to the next key that UnixBench prints after it. */
static bool header_value(const char *p, const char *end, const char *key, char *out, size_t size)
{
	static const char *const stops[] = { " OS: ", " Machine: ", " Language: ", " CPU 0:",
		" Graphics: ", " Kernel: ", "-----", "Benchmark Run:", " Uptime: ", " Storage: ",
		" Kernel settings: ", NULL };
	const char *k = find(p, end, key);
	while (k && k > p && !is_sp(k[-1]) && k[-1] != '\n')
		k = find(k + 1, end, key);
	if (!k)
		return false;
	const char *v = k + strlen(key), *e = v;
	while (e < end && *e != '\n')
		e++;
	for (int i = 0; stops[i]; i++) {
		const char *st = find(v, e, stops[i]);
		if (st && st < e)
			e = st;
	}
	trim_copy(out, size, v, e);
	return out[0] != 0;
}

/* The last occurrence of needle in s, or NULL. */
static char *last_of(char *s, const char *needle)
{
	char *last = NULL;
	for (char *q = strstr(s, needle); q; q = strstr(q + 1, needle))
		last = q;
	return last;
}

/* kbench's "Storage: DIR on TYPE (OPTIONS) SOURCE, scheduler SCHED" (src/report.c),
 * or "DIR (filesystem unknown)". TYPE and OPTIONS hold no blanks, so DIR ends
 * at the last " on " that such a pair follows: DIR is whatever --tmpdir was,
 * the source is a device or a server's path. */
static void storage_facts(char *v, struct run_meta *m)
{
	static const char unknown_fs[] = " (filesystem unknown)";
	size_t n = strlen(v), u = sizeof unknown_fs - 1;
	if (n > u && !strcmp(v + n - u, unknown_fs)) {
		v[n - u] = 0;
		snprintf(m->scratch_dir, sizeof m->scratch_dir, "%s", v);
		snprintf(m->fs_type, sizeof m->fs_type, "unknown");
		snprintf(m->fs_options, sizeof m->fs_options, "unknown");
		snprintf(m->fs_source, sizeof m->fs_source, "unknown");
		snprintf(m->io_scheduler, sizeof m->io_scheduler, "unknown");
		return;
	}
	char *sched = last_of(v, ", scheduler ");
	if (!sched)
		return;
	*sched = 0;
	sched += strlen(", scheduler ");
	char *on = NULL, *paren = NULL, *close = NULL;
	for (char *o = strstr(v, " on "); o; o = strstr(o + 1, " on ")) {
		char *type = o + 4, *pa = strstr(type, " (");
		if (!pa || pa == type || memchr(type, ' ', (size_t)(pa - type)))
			continue;
		char *opts = pa + 2, *cl = strstr(opts, ") ");
		if (!cl || cl == opts || memchr(opts, ' ', (size_t)(cl - opts)))
			continue;
		on = o, paren = pa, close = cl;
	}
	if (!on)
		return;
	char *type = on + 4, *opts = paren + 2;
	*on = *paren = *close = 0;
	snprintf(m->scratch_dir, sizeof m->scratch_dir, "%s", v);
	snprintf(m->fs_type, sizeof m->fs_type, "%s", type);
	snprintf(m->fs_options, sizeof m->fs_options, "%s", opts);
	snprintf(m->fs_source, sizeof m->fs_source, "%s", close + 2);
	snprintf(m->io_scheduler, sizeof m->io_scheduler, "%s", sched);
}

/* The text of one part of a fact line: after `key`, up to `stop` (or the end). */
static bool part(const char *v, const char *key, const char *stop, char *out, size_t size)
{
	const char *k = strstr(v, key);
	if (!k)
		return false;
	k += strlen(key);
	const char *e = stop ? strstr(k, stop) : NULL;
	if (!e)
		e = k + strlen(k);
	snprintf(out, size, "%.*s", (int)(e - k), k);
	return out[0] != 0;
}

/* kbench's "Kernel settings: clocksource C, THP E (defrag D)[, memory M MiB], swap S",
 * where S is "none", "unknown" or "N MiB (U MiB used)". Each part is read on its own. */
static void settings_facts(const char *v, struct run_meta *m)
{
	char buf[128];
	if (!strncmp(v, "clocksource ", 12) && part(v, "clocksource ", ", THP ", buf, sizeof buf))
		snprintf(m->clocksource, sizeof m->clocksource, "%s", buf);
	if (part(v, ", THP ", " (defrag ", buf, sizeof buf))
		snprintf(m->thp_enabled, sizeof m->thp_enabled, "%s", buf);
	if (part(v, " (defrag ", ")", buf, sizeof buf))
		snprintf(m->thp_defrag, sizeof m->thp_defrag, "%s", buf);
	unsigned long long mem;
	if (part(v, ", memory ", ", swap ", buf, sizeof buf) && sscanf(buf, "%llu MiB", &mem) == 1 &&
	    mem > 0 && mem < (1ull << 40))
		m->mem_kib = mem * 1024;
	if (!part(v, ", swap ", NULL, buf, sizeof buf))
		return;
	unsigned long long total, used;
	if (!strcmp(buf, "none")) {
		m->swap_known = true;
		m->swap_total_kib = m->swap_used_kib = 0;
	} else if (sscanf(buf, "%llu MiB (%llu MiB used)", &total, &used) == 2 &&
		   total < (1ull << 40) && used < (1ull << 40)) {
		m->swap_known = true;
		m->swap_total_kib = total * 1024;
		m->swap_used_kib = used * 1024;
	}
}

static void header_facts(const char *p, const char *end, struct run_meta *m)
{
	char buf[1024];
	if (header_value(p, end, "System:", buf, sizeof buf)) {
		char *colon = strchr(buf, ':');
		if (colon)
			*colon = 0;
		snprintf(m->hostname, sizeof m->hostname, "%s", buf);
	}
	if (header_value(p, end, "OS:", buf, sizeof buf)) {
		/* "GNU/Linux -- 6.1.0-13-amd64 -- #1 SMP PREEMPT_DYNAMIC ..." */
		char *a = strstr(buf, " -- ");
		if (a) {
			*a = 0;
			char *b = strstr(a + 4, " -- ");
			if (b) {
				*b = 0;
				snprintf(m->kernel_version, sizeof m->kernel_version, "%s", b + 4);
			}
			snprintf(m->kernel_release, sizeof m->kernel_release, "%s", a + 4);
		}
		snprintf(m->os, sizeof m->os, "%s", buf);
	}
	if (header_value(p, end, "Kernel:", buf, sizeof buf))
		snprintf(m->kernel_release, sizeof m->kernel_release, "%s", buf);
	if (header_value(p, end, "Machine:", buf, sizeof buf)) {
		char *sp = strchr(buf, ' ');
		if (sp)
			*sp = 0;
		snprintf(m->machine, sizeof m->machine, "%s", buf);
	}
	if (header_value(p, end, "Language:", buf, sizeof buf)) {
		/* en_US.utf8 (charmap="UTF-8", collate="UTF-8"): the quotes are kept, as UnixBench prints them. */
		char *cm = strstr(buf, "charmap="), *co = strstr(buf, "collate=");
		if (cm) {
			cm += 8;
			snprintf(m->charmap, sizeof m->charmap, "%.*s", (int)strcspn(cm, ",)"), cm);
		}
		if (co) {
			co += 8;
			snprintf(m->collate, sizeof m->collate, "%.*s", (int)strcspn(co, ",)"), co);
		}
		char *sp = strchr(buf, ' ');
		if (sp)
			*sp = 0;
		snprintf(m->lang, sizeof m->lang, "%s", buf);
	}
	/* The uptime line (only where lines survived: a collapsed one has no edges). */
	const char *la = find(p, end, "load average");
	if (la) {
		const char *ls = la, *le = la;
		while (ls > p && ls[-1] != '\n')
			ls--;
		while (le < end && *le != '\n')
			le++;
		const char *rl = find(ls, le, "; runlevel");
		if (la - ls < 120 && le - la < 120)
			trim_copy(m->uptime, sizeof m->uptime, ls, rl ? rl : le);
	}
	if (header_value(p, end, "CPU 0:", buf, sizeof buf)) {
		/* "AMD EPYC (4890.8 bogomips) <flag words>" */
		char *bm = strstr(buf, " bogomips)");
		if (bm) {
			char *open = bm;
			while (open > buf && *open != '(')
				open--;
			if (*open == '(') {
				m->bogomips = strtod(open + 1, NULL);
				if (!isfinite(m->bogomips) || m->bogomips < 0)
					m->bogomips = 0;
				char *flags = bm + strlen(" bogomips)");
				while (*flags == ' ')
					flags++;
				snprintf(m->cpu_flags, sizeof m->cpu_flags, "%s", flags);
				/* In a log the flag words are the next, indented line. */
				const char *c0 = find(p, end, "CPU 0:");
				const char *nl = c0 ? memchr(c0, '\n', (size_t)(end - c0)) : NULL;
				if (!m->cpu_flags[0] && nl && nl + 1 < end && is_sp(nl[1])) {
					const char *fe = memchr(nl + 1, '\n', (size_t)(end - nl - 1));
					if (!find(nl + 1, fe ? fe : end, ":"))
						trim_copy(m->cpu_flags, sizeof m->cpu_flags, nl + 1, fe ? fe : end);
				}
				while (open > buf && open[-1] == ' ')
					open--;
				*open = 0;
			}
		}
		snprintf(m->cpu_model, sizeof m->cpu_model, "%s", buf);
	}
	if (header_value(p, end, "Storage:", buf, sizeof buf))
		storage_facts(buf, m);
	if (header_value(p, end, "Kernel settings:", buf, sizeof buf))
		settings_facts(buf, m);
	int ncpu = 0;
	char key[16];
	for (int i = 0; i < 4096; i++) {
		snprintf(key, sizeof key, "CPU %d:", i);
		if (!find(p, end, key))
			break;
		ncpu++;
	}
	if (ncpu)
		m->ncpus = ncpu;
}

static struct run *new_import_run(struct src *s, const char *name)
{
	struct run *r = run_new();
	snprintf(r->meta.mode, sizeof r->meta.mode, "imported");
	snprintf(r->meta.source, sizeof r->meta.source, "%s", s->name);
	(void)name;
	return r;
}

static void finish_run(struct src *s, struct run *r, const char *name)
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

/* ---- logs ---- */

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
	for (const char *x = find(p, end, "Benchmark Run:"); x; x = find(x + 14, end, "Benchmark Run:"))
		add_mark(&v, &n, &cap, (struct mark){ MARK_RUN, x, x + 14, 0 });
	for (const char *x = find(p, end, "running"); x; x = find(x + 7, end, "running"))
		if (copies_at(text, x, end))
			add_mark(&v, &n, &cap, (struct mark){ MARK_COPIES, x, x + 7, 0 });
	static const char *const heads[] = { "Index Values", "Partial Index" };
	for (int h = 0; h < 2; h++)
		for (const char *x = find(p, end, heads[h]); x; x = find(x + 12, end, heads[h])) {
			/* The header names its columns; prose naming the table does not. */
			const char *y = x + strlen(heads[h]);
			while (y < end && (is_sp(*y) || *y == '\n'))
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
	for (const char *x = find(p, end, "Index Score"); x; x = find(x + 11, end, "Index Score")) {
		if ((size_t)(x - p) < strlen("Benchmarks ") || strncmp(x - 11, "Benchmarks ", 11))
			continue;
		/* The block ends with the score's number (collapsed text has no line end), else its line. */
		const char *y = skip_sp(x + 11, end);
		if (end - y >= 14 && !strncmp(y, "(Partial Only)", 14))
			y = skip_sp(y + 14, end);
		double v1;
		const char *after = scan_num(y, end, &v1);
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
	for (const struct test_def **d = labels_by_length(); *d; d++)
		if (find(p, e, (*d)->label))
			return true;
	return false;
}

/* A block that begins at its "running" line also owns the "2 CPUs in system; " before it. */
static const char *copies_line_start(const char *lower, const char *run)
{
	const char *ls = run, *cpu = NULL;
	while (ls > lower && ls[-1] != '\n' && run - ls < 48)
		ls--;
	for (const char *x = find(ls, run, "CPU"); x; x = find(x + 3, run, "CPU"))
		cpu = x;
	if (!cpu)
		return run;
	const char *c = cpu;
	while (c > ls && is_sp(c[-1]))
		c--;
	const char *d = c;
	while (d > ls && isdigit((unsigned char)d[-1]))
		d--;
	return d < c ? d : run;
}

/* A UnixBench result line: a label first, "(10.0 s, 7 samples)" last. */
static bool is_result_line(const char *p, const char *e)
{
	p = skip_sp(p, e);
	if (e - p > 200 || !find(p, e, " samples)"))
		return false;
	for (const struct test_def **d = labels_by_length(); *d; d++) {
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
	while (ls > lower && is_sp(ls[-1]))
		ls--;
	if (ls == lower || ls[-1] != '\n')
		return table;
	while (ls > lower) {
		const char *le = ls - 1, *pls = le;
		while (pls > lower && pls[-1] != '\n')
			pls--;
		if (skip_sp(pls, le) == le) {
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
	struct run *r = new_import_run(s, name);
	const char *first = spans[0].start;
	header_facts(p, first, &r->meta);
	const char *ver = find(p, first, "BYTE UNIX Benchmarks (Version ");
	if (ver) {
		char v[32] = "";
		const char *vs = ver + strlen("BYTE UNIX Benchmarks (Version ");
		const char *ve = vs;
		while (ve < end && ve - vs < 20 && *ve != ')')
			ve++;
		trim_copy(v, sizeof v, vs, ve);
		snprintf(r->meta.kbench_version, sizeof r->meta.kbench_version, "UnixBench %s", v);
	}
	for (int i = 0; i < n; i++) {
		struct block *blk = calloc(1, sizeof *blk);
		if (!blk)
			abort();
		parse_block(s, blk, spans[i].start, spans[i].end);
		if (blk->ncpus && !r->meta.ncpus)
			r->meta.ncpus = blk->ncpus;
		emit_block(s, r, blk);
		free(blk);
	}
	free(spans);
	if (r->nblocks == 0) {
		run_free(r);
		return;
	}
	finish_run(s, r, name);
}

/* Logs split at their "BYTE UNIX Benchmarks" banners; blocks before the first banner
 * (or in a paste that lost it) form a log of their own. */
static void import_logs(struct src *s, const char *name)
{
	const char *t = s->text, *end = s->text + s->len;
	const char *h = find(t, end, "BYTE UNIX Benchmarks");
	import_log(s, t, h ? h : end, name);
	while (h) {
		const char *next = find(h + 20, end, "BYTE UNIX Benchmarks");
		import_log(s, h, next ? next : end, name);
		h = next;
	}
}

/* ---- tables ---- */

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
	p = skip_sp(p, e);
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
			trim_copy(tmp, sizeof tmp, p, c);
			if (tmp[0])
				snprintf(cells[n++], 128, "%s", tmp);
			break;
		}
		trim_copy(cells[n++], 128, p, c);
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
	trim_copy(norm, sizeof norm, s, s + strlen(s));
	for (size_t i = 0; i < test_count; i++)
		if (!strcasecmp(test_table[i].label, norm))
			return &test_table[i];
	return NULL;
}

/* A space-separated line: a known label at its start, then fields. */
static int split_spaces(const char *p, const char *e, char cells[][128], bool header)
{
	p = skip_sp(p, e);
	int n = 0;
	if (!header) {
		const struct test_def *hit = NULL;
		for (const struct test_def **d = labels_by_length(); *d && !hit; d++) {
			size_t ll = strlen((*d)->label);
			if ((size_t)(e - p) >= ll && !strncasecmp(p, (*d)->label, ll) &&
			    (p + ll == e || is_sp(p[ll])))
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
		p = skip_sp(p, e);
		if (p >= e)
			break;
		const char *c = p;
		while (c < e && !is_sp(*c))
			c++;
		char tok[128];
		trim_copy(tok, sizeof tok, p, c);
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
	for (const char *x = find(p, e, "cop"); x; x = find(x + 3, e, "cop")) {
		if (strncmp(x, "copy", 4) && strncmp(x, "copies", 6))
			continue;
		const char *b = x;
		while (b > p && is_sp(b[-1]))
			b--;
		if (b - p >= 8 && !strncmp(b - 8, "parallel", 8)) {
			b -= 8;
			while (b > p && is_sp(b[-1]))
				b--;
		}
		const char *d = b;
		while (d > p && isdigit((unsigned char)d[-1]))
			d--;
		double v;
		if (d < b && scan_num(d, b, &v) && v >= 1 && v <= 100000)
			copies = (int)v;
	}
	return copies;
}

static bool cell_num(const char *c, double *v)
{
	const char *e = c + strlen(c);
	const char *r = scan_num(c, e, v);
	return r != NULL;
}

static void import_tables(struct src *s, const char *name)
{
	struct run *r = new_import_run(s, name);
	header_facts(s->text, s->text + s->len, &r->meta);
	enum col cols[MAX_CELLS];
	int ncols = 0, hdr_test_col = 0;
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
			warn(s, (size_t)(p - s->text), "line is %zu characters long; skipped", (size_t)(e - p));
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
			if (in_table && skip_sp(p, e) == e)
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
				emit_block(s, r, blk);
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
				warn(s, blk->off, "table does not say how many copies ran; assuming 1");
			ncols = n;
			hdr_test_col = test_col;
			for (int i = 0; i < n; i++)
				cols[i] = col_of(cells[i]);
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
				warn(s, off, "index score is not a positive number");
			since = (size_t)(e - s->text);
			continue;
		}
		const struct test_def *d = label_lookup(cells[0]);
		if (!d) {
			if (cells[0][0])
				warn(s, off, "unknown test '%.60s' not imported", cells[0]);
			continue;
		}
		since = (size_t)(e - s->text);
		struct found tmp = { .def = d }, *f;
		bool bad = false, has_score = false;
		/* Space-separated rows may lack empty cells: map from the left,
		 * skipping the header's Test column. */
		for (int i = 1, c = 0; i < n; i++, c++) {
			if (c == hdr_test_col)
				c++;
			enum col col = spaced ? (c < ncols ? cols[c] : COL_OTHER) : (i < ncols ? cols[i] : COL_OTHER);
			double v;
			const char *cell = cells[i];
			bool num = cell_num(cell, &v);
			switch (col) {
			case COL_SCORE:
				if (!num || v <= 0) {
					warn(s, off, "score of %s is %s; row ignored", d->label,
					     !num ? "not a number" : v < 0 ? "negative" : "zero");
					bad = true;
				}
				tmp.score = v;
				has_score = true;
				break;
			case COL_UNIT: snprintf(tmp.unit, sizeof tmp.unit, "%.15s", cell); break;
			case COL_TIME: tmp.time = num && v > 0 ? v : 0; break;
			case COL_ITERS: tmp.samples = num && v > 0 && v < 1e6 ? (int)v : 0; break;
			case COL_BASE: tmp.row_base = num && v > 0 ? v : -1; break;
			case COL_INDEX: tmp.row_index = num && v >= 0 ? v : -1; break;
			default: break;
			}
		}
		if (bad)
			continue;
		if (!has_score) {
			warn(s, off, "%s has no score; row ignored", d->label);
			continue;
		}
		f = found_for(blk, d);
		if (!f)
			continue;
		if (f->has_row) {
			warn(s, off, "%s is listed again (first at line %d); ignored", d->label,
			     line_of(s, f->row_off));
			continue;
		}
		f->has_row = f->has_result = true;
		f->row_score = f->score = tmp.score;
		f->row_base = tmp.row_base ? tmp.row_base : d->baseline;
		f->row_index = tmp.row_index ? tmp.row_index : -1;
		f->time = tmp.time;
		f->samples = tmp.samples;
		snprintf(f->unit, sizeof f->unit, "%s", tmp.unit);
		f->row_off = f->result_off = off;
		blk->has_table = true;
	}
	if (blk) {
		emit_block(s, r, blk);
		free(blk);
	}
	if (r->nblocks == 0) {
		run_free(r);
		return;
	}
	finish_run(s, r, name);
}

/* ---- entry points ---- */

/* Warnings of a reading that found nothing would only confuse the one that follows. */
static void drop_warnings(struct import_result *res)
{
	for (int i = 0; i < res->nwarnings; i++)
		free(res->warnings[i]);
	free(res->warnings);
	res->warnings = NULL;
	res->nwarnings = 0;
}

static void normalize(struct src *s, const char *text, size_t len)
{
	s->text = malloc(len + 1);
	if (!s->text)
		abort();
	bool line_start = true; /* only blanks so far on this line */
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		/* Web pages bring CRs, NULs and no-break spaces (C2 A0): all become spaces.
		 * So do a Windows editor's byte order mark and the "> " that forum and mail
		 * quoting put before each line; the text keeps its offsets, so line numbers hold. */
		if (i == 0 && len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
			memset(s->text, ' ', 3);
			i += 2;
			continue;
		}
		if ((unsigned char)c == 0xc2 && i + 1 < len && (unsigned char)text[i + 1] == 0xa0) {
			s->text[i] = ' ';
			s->text[++i] = ' ';
			continue;
		}
		if (c == '\r' || c == '\0' || c == '\f' || c == '\v')
			c = ' ';
		if (c == '\n')
			line_start = true;
		else if (line_start && c == '>')
			c = ' ';
		else if (!is_sp(c))
			line_start = false;
		s->text[i] = c;
	}
	s->text[len] = 0;
	s->len = len;
	int cap = 64;
	s->lines = malloc((size_t)cap * sizeof *s->lines);
	if (!s->lines)
		abort();
	s->lines[s->nlines++] = 0;
	for (size_t i = 0; i < len; i++)
		if (s->text[i] == '\n' && i + 1 < len) {
			if (s->nlines == cap) {
				cap *= 2;
				size_t *nl = realloc(s->lines, (size_t)cap * sizeof *nl);
				if (!nl)
					abort();
				s->lines = nl;
			}
			s->lines[s->nlines++] = i + 1;
		}
}

int import_text(const char *text, size_t len, const char *source, const char *name,
		struct import_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct src s = { .name = source ? source : "input", .res = out };
	if (len > IMPORT_MAX_BYTES) {
		snprintf(err, errlen, "%s: too large to be a result (%zu bytes)", s.name, len);
		return -EFBIG;
	}
	normalize(&s, text, len);
	if (find(s.text, s.text + s.len, "Benchmark Run:")) {
		import_logs(&s, name);
	} else {
		/* A pasted table, else a pasted report that lost its "Benchmark Run:"
		 * lines (a table header is never a report line, so the order is safe). */
		import_tables(&s, name);
		if (out->nruns == 0) {
			drop_warnings(out);
			import_logs(&s, name);
		}
	}
	int rc = 0;
	if (out->nruns == 0) {
		if (s.first_problem[0])
			snprintf(err, errlen, "%s: no usable UnixBench results (%s)", s.name, s.first_problem);
		else
			snprintf(err, errlen, "%s: no UnixBench results found (no 'running N parallel copies' "
					      "block, no index table and no table with Test and Score columns)", s.name);
		import_result_free(out);
		rc = -EINVAL;
	}
	free(s.text);
	free(s.lines);
	return rc;
}

int import_file(const char *path, const char *name, struct import_result *out, char *err,
		size_t errlen)
{
	memset(out, 0, sizeof *out);
	char *buf;
	size_t got;
	int rd = file_read_all(path, path, IMPORT_MAX_BYTES, &buf, &got, err, errlen);
	if (rd < 0)
		return rd;
	int rc = import_text(buf, got, path, name, out, err, errlen);
	free(buf);
	return rc;
}

void import_result_free(struct import_result *res)
{
	for (int i = 0; i < res->nruns; i++)
		run_free(res->runs[i]);
	free(res->runs);
	for (int i = 0; i < res->nwarnings; i++)
		free(res->warnings[i]);
	free(res->warnings);
	memset(res, 0, sizeof *res);
}
