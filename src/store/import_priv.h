/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What UnixBench's readers share (import.c, import_log.c, import_table.c, import_util.c, import_facts.c): a block's findings made a run, the header's facts. */
#ifndef KBENCH_IMPORT_PRIV_H
#define KBENCH_IMPORT_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "import_scan.h"

struct run;
struct run_meta;
struct test_def;

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

/* ---- a block made a run: import_util.c ---- */

struct found *import_found_for(struct block *b, const struct test_def *d);
/* Where d's index row at off goes, or NULL: no room, or d has a row already (then
 * warned: "LABEL <again> (first at line N); ignored"). */
struct found *import_row_for(struct src *s, struct block *b, const struct test_def *d, size_t off,
			     const char *again);
const struct test_def **import_labels_by_length(void);
void import_emit_block(struct src *s, struct run *r, struct block *b);

/* The header facts (System:, OS:, CPU 0:, Storage:, ...) in [p, end): import_facts.c. */
void import_header_facts(const char *p, const char *end, struct run_meta *m);

/* The two readers: UnixBench logs (import_log.c) and pasted tables (import_table.c). */
void import_logs(struct src *s, const char *name);
void import_tables(struct src *s, const char *name);

#endif
