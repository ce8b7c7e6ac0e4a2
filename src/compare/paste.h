/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tables to paste: a comparison (or one run's index table) as markdown, plain text or BBCode. */
#ifndef KBENCH_PASTE_H
#define KBENCH_PASTE_H

#include <stdio.h>

struct compare;
struct run;

/* One way of laying a table out: markdown (GitHub), plain text (mail) and BBCode (forums);
 * the export formats' rows name them (src/compare/export_list.c). */
struct paste_format;
extern const struct paste_format paste_markdown, paste_text, paste_bbcode;

/* The compare table as the console and `kbench compare` compute it: per copy
 * count a row per test with both sides' scores, the change, its interval and
 * the verdict (compare_verdict_text), the index row, and one footer line (the
 * comparison's basis). */
void paste_compare(FILE *f, const struct compare *c, const struct paste_format *fmt);

/* One run's table: per copy count each test's score, unit, spread and index,
 * the index score, and one footer line saying what the run was. */
void paste_run(FILE *f, const struct run *r, const struct paste_format *fmt);

#endif
