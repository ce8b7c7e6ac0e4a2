/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers fitted to a column, the one rule the console and the compare table share. */
#ifndef KBENCH_NUMFMT_H
#define KBENCH_NUMFMT_H

#include <stddef.h>

/* v (finite, >= 0) in at most width characters: "%.1f", else "%.0f", else
 * scaled by its thousands with a suffix (k M G T P E) and as many of three
 * decimals as fit: 38040918.7 in 6 is "38.04M". Returns 0, or -1 when even
 * that does not fit (buf then holds the shortest try). */
int num_fit(char *buf, size_t size, double v, int width);

/* How num_pct writes a percentage: with its sign ("+5.2%"), without the
 * percent sign (a column headed "%"), with its tenth at any size (the HTML
 * report's cells; else whole percent from 99.95 on, where a tenth says
 * nothing: "+120%"). */
enum {
	NUM_PCT_SIGN = 1,
	NUM_PCT_BARE = 2,
	NUM_PCT_TENTHS = 4,
};
/* What a percentage that is not known (not finite) reads as, in every table. */
#define NUM_PCT_UNKNOWN "--"
/* A change or an interval in percent, the one way the compare table, the
 * pasted tables, the HTML report and the console write it (how: NUM_PCT_*). */
void num_pct(char *buf, size_t size, double v, unsigned how);

#endif
