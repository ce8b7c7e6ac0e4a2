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

#endif
