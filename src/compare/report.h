/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The UnixBench text report of a run, so it can be pasted where UnixBench results always went. */
#ifndef KBENCH_REPORT_H
#define KBENCH_REPORT_H

#include <stdio.h>

struct run;
struct run_block;

/* The whole report: header (System/OS/Machine/CPU lines, then kbench's Storage and
 * Kernel settings lines when the run has them), then one block per copy count. */
void report_print(FILE *f, const struct run *r);
/* The header alone, and one block alone (dashes line through the index score line). */
void report_header(FILE *f, const struct run *r);
void report_block(FILE *f, const struct run *r, const struct run_block *b);

/* A points result (run.h) is no UnixBench rate: its headline points as a table of
 * their own, their means over the samples and spreads, and which way is better;
 * the default of a family's print verb (family.h), which ends it with a blank line. */
struct test_result;
void report_points(FILE *f, const struct test_result *t);

#endif
