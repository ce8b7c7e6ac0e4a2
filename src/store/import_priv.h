/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the importer's files share: the text being read, a block's findings, common helpers. */
#ifndef KBENCH_IMPORT_PRIV_H
#define KBENCH_IMPORT_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

struct import_result;
struct run;
struct run_meta;
struct test_def;

struct src {
	const char *name;   /* file name for messages */
	char *text;         /* normalized copy, NUL-terminated */
	size_t len;
	size_t *lines;      /* offset of each line start */
	int nlines;
	struct import_result *res;
	char first_problem[300];
};

/* ---- small text helpers ---- */

static inline bool is_sp(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_sp(const char *p, const char *end)
{
	while (p < end && is_sp(*p))
		p++;
	return p;
}

static inline const char *find(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	if (p >= end || (size_t)(end - p) < n)
		return NULL;
	return memmem(p, (size_t)(end - p), needle, n);
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

static inline bool same(double a, double b)
{
	return fabs(a - b) <= 0.05 + 1e-9 * fabs(a);
}

/* ---- shared parts: import_util.c ---- */

int import_line_of(const struct src *s, size_t off);
/* Adds "NAME:LINE: sentence" to the warnings; the first one is also the reason given
 * when nothing is imported. */
void import_warn(struct src *s, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *import_scan_num(const char *p, const char *end, double *out);
void import_trim_copy(char *dst, size_t size, const char *p, const char *e);
struct found *import_found_for(struct block *b, const struct test_def *d);
/* Where d's index row at off goes, or NULL: no room, or d has a row already (then
 * warned: "LABEL <again> (first at line N); ignored"). */
struct found *import_row_for(struct src *s, struct block *b, const struct test_def *d, size_t off,
			     const char *again);
const struct test_def **import_labels_by_length(void);
void import_emit_block(struct src *s, struct run *r, struct block *b);
struct run *import_new_run(struct src *s, const char *name);
void import_finish_run(struct src *s, struct run *r, const char *name);

/* The header facts (System:, OS:, CPU 0:, Storage:, ...) in [p, end): import_facts.c. */
void import_header_facts(const char *p, const char *end, struct run_meta *m);

/* The two readers: UnixBench logs (import_log.c) and pasted tables (import_table.c). */
void import_logs(struct src *s, const char *name);
void import_tables(struct src *s, const char *name);
/* kernbench's result blocks as an imported kbuild run: import_kernbench.c. */
bool import_is_kernbench(const char *text, size_t len);
void import_kernbench(struct src *s, const char *name);
/* contest's tables as imported buildload runs, one per kernel: import_contest.c. */
bool import_is_contest(const char *text, size_t len);
void import_contest(struct src *s, const char *name);
/* kcbench's reports ("Run 1 (-j 4): ... seconds / ... kernels/hour") likewise: import_kcbench.c. */
bool import_is_kcbench(const char *text, size_t len);
void import_kcbench(struct src *s, const char *name);

#endif
