/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A family's face on the console: its part of the run screen's sample line and its live panel, found by the family. */
#ifndef KBENCH_UI_FAMILY_VIEW_H
#define KBENCH_UI_FAMILY_VIEW_H

#include <stdbool.h>

struct canvas;
struct family;
struct live;
struct test_result;

/* How the run screen says the length of a family's sample. */
enum family_view_length {
	VIEW_LENGTH_RUNNER,      /* the runner's (an estimate when the row has sample_seconds) */
	VIEW_LENGTH_LAST_SAMPLE, /* a sweep: the last finished sample's time, once there is one */
	VIEW_LENGTH_FIXED_WORK,  /* a sweep of fixed work: the last sample's time, else the row's
				    nominal length; always an estimate */
};

/* src/ never includes curses, so a family's live view is this ui-side
 * struct (src/record/family.h is the rest of its face), registered by one line in
 * family_views.c and found by its family's pointer. Every hook may be NULL: the run
 * screen's own way (a rate, or a points test's count of points) is then
 * used. params: the run's workload parameters. */
struct family_view {
	const struct family *family; /* whose view it is (family_NAME, its family's header) */
	enum family_view_length length;
	/* Before the sample line and the panel are drawn: read what the workers
	 * publish once, so both show the same moment. */
	void (*begin)(const struct live *l, const struct test_result *tr, const char *params);
	/* The sample line's live part at column x of row y, w columns: true when it wrote one. */
	bool (*status)(const struct live *l, struct canvas *c, int x, int y, int w,
		       const struct test_result *tr, const char *params);
	/* The panel in rows y .. y + rows of c, under the sample line: true when it drew. */
	bool (*panel)(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr,
		      const char *params);
};

/* The view of tr's family, or NULL when it has none. */
const struct family_view *family_view_of(const struct test_result *tr);

#endif
