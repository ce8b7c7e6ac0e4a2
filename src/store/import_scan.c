/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The import scanner: line-numbered warnings, number scanning, a text's runs into the import's result. */
#include "import_scan.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "run.h"
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
	while (p < e && (import_is_sp(*p) || *p == '\n'))
		p++;
	while (e > p && (import_is_sp(e[-1]) || e[-1] == '\n'))
		e--;
	size_t n = (size_t)(e - p) < size - 1 ? (size_t)(e - p) : size - 1;
	memcpy(dst, p, n);
	dst[n] = 0;
	/* Collapsed runs of spaces back to one. */
	char *w = dst;
	for (char *r = dst; *r; r++)
		if (!(import_is_sp(*r) && w > dst && w[-1] == ' '))
			*w++ = import_is_sp(*r) ? ' ' : *r;
	*w = 0;
}

struct run *import_new_run(struct src *s, const char *name)
{
	struct run *r = run_new();
	r->meta.mode = &run_mode_imported;
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
	for (int b = 0; b < r->nblocks; b++) /* read as a run file's results are */
		for (int i = 0; i < r->blocks[b].ntests; i++)
			test_describe(&r->blocks[b].tests[i]);
	struct import_result *res = s->res;
	struct run **nv = realloc(res->runs, (size_t)(res->nruns + 1) * sizeof *nv);
	if (!nv)
		abort();
	res->runs = nv;
	res->runs[res->nruns++] = r;
}
