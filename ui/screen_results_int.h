/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results screen's state as one struct: screen_results.c keeps it and passes it to results_draw.c, which draws it. */
#ifndef KBENCH_UI_SCREEN_RESULTS_INT_H
#define KBENCH_UI_SCREEN_RESULTS_INT_H

#include <stdbool.h>

#include "canvas.h"
#include "runner.h"

struct app;

/* A row of the table: a compare row, or (no comparison) a test of the run. */
struct line {
	int block, row;
	double change; /* as a gain: a latency or time that fell is positive */
	int point; /* no comparison, a points test: its headline point; else -1 */
	/* 1 + the index of a summary of test (block, row) of the run (not of the
	 * comparison) that says a part was refused ("mem_load refused: needs
	 * ..."), shown as a line of its own after the rows; 0 a row */
	int note;
};

/* What the screen shows: the console's comparison (or why none: struct app's, the session's,
 * never made here) and the table's lines. */
struct results_state {
	const struct compare *cmp;
	const char *cmp_why;
	bool by_change;
	int top; /* the first line in view (drawing keeps it in range) */
	struct line lines[RUNNER_MAX_BLOCKS * RUNNER_MAX_TESTS + 8];
	int nlines;
};

/* The screen as state st has it (results_draw.c). */
void results_draw(struct app *a, struct results_state *st, struct canvas *c);

#endif
