/* Inside the comparison: what compare.c and compare_notes.c share. Not for other files. */
#ifndef KBENCH_COMPARE_INT_H
#define KBENCH_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>

struct compare;
struct compare_row;
struct noise_floor;
struct run;
struct test_result;

/* What compare_runs counted while deciding rows, for the footer. */
struct compare_tally {
	int undecided;                   /* rows with no significant change */
	int settle;                      /* of those, rows one or two more runs would likely settle */
	int na_rows;                     /* rows on both sides without samples on one */
	int drifts;                      /* sides whose samples drift */
	const struct run *uncalibrated;  /* a side whose setting has no learned floors */
};

/* A test's summary value (others.cpu, throttled, ...), when it has a finite one. */
bool compare_summary_value(const struct test_result *t, const char *key, double *v);
void compare_push_footer(struct compare *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "name (id)" for one run, "name (N runs)" or "group (N runs)" for several. */
void compare_title(char *buf, size_t size, const struct run *const *r, int n);
void compare_count_basis(struct compare *c, const struct compare_row *row, const struct noise_floor *fa,
			 const struct noise_floor *fb, const struct run *ra, const struct run *rb, int na,
			 int nb, const struct run **uncalibrated);
/* Environment differences, the basis line and the footer sentences. */
void compare_footer(struct compare *c, const struct run *const *a, int na, const struct run *const *b,
		    int nb, const struct compare_tally *t);

#endif
