/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the comparison: what compare.c, compare_rows.c and compare_notes.c share, beyond
 * the plug-in API (compare_plugin.h) a family or a run mode adds to a comparison with. */
#ifndef KBENCH_COMPARE_INT_H
#define KBENCH_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare_place.h"
#include "compare_plugin.h"
#include "run.h"

struct compare;
struct compare_block;
struct compare_side;
struct compare_row;
struct noise_floor;
struct noise_table;
struct run;
struct test_result;

/* What compare_runs counted while deciding rows, for the footer. */
struct compare_tally {
	int undecided;                   /* rows with no significant change */
	int settle;                      /* of those, rows one or two more runs would likely settle */
	int na_rows;                     /* rows on both sides without samples on one */
	int drifts;                      /* sides whose samples drift */
	const struct run *uncalibrated;  /* a side whose setting has no learned floors */
	/* the first block with an index: its change (%), and how far the index follows the
	 * machine's pace in A's setting (noise_pace_slope), when learned */
	bool has_index;
	double index_change;
	bool pace_learned;
	double pace_slope, pace_r;
	int pace_df;
};

/* The footer sentence of a row compared on one placement, or withheld for placement. */
void compare_place_footer(struct compare *c, const struct compare_row *row, const struct place_pick *p);

/* One test or point of a points test on one side: per run its log score (its mean
 * over the samples, for a point), and the variance within the runs (compare.c). */
void compare_fill_test_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
			    int n, int copies, const char *id, double sigma, enum placement only, bool by_time);
void compare_fill_point_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
			     int n, int copies, const char *id, const char *point);
/* Block cb's rows (every test and point either side has, decided and counted into
 * tl), its index row and its run mode's rows (compare_rows.c). */
void compare_block_rows(struct compare *c, struct compare_block *cb, const struct run *const *a, int na,
			const struct run *const *b, int nb, const struct noise_table *nt, struct compare_tally *tl);

/* A test's summary value (others.cpu, throttled, ...), when it has a finite one. */
bool compare_summary_value(const struct test_result *t, const char *key, double *v);
/* "name (id)" for one run, "name (N runs)" or "group (N runs)" for several. */
void compare_title(char *buf, size_t size, const struct run *const *r, int n);
void compare_count_basis(struct compare *c, const struct compare_row *row, const struct noise_floor *fa,
			 const struct noise_floor *fb, const struct run *ra, const struct run *rb, int na,
			 int nb, const struct run **uncalibrated);
/* Environment differences, the basis line and the footer sentences. */
void compare_footer(struct compare *c, const struct run *const *a, int na, const struct run *const *b,
		    int nb, const struct compare_tally *t);

#endif
