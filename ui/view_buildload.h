/* The run screen's live view of a build beside a load (buildload): the load and its pace, the build's progress, the loads done. */
#ifndef KBENCH_UI_VIEW_BUILDLOAD_H
#define KBENCH_UI_VIEW_BUILDLOAD_H

#include <stdbool.h>

struct canvas;
struct live;
struct test_result;

/* What the sample in progress is doing, for the status line ("io_load: build
 * 3 of 4", "warm-up build"); false when the test is not buildload. */
bool view_buildload_status(const struct live *l, char *buf, int len, const char *params);
/* The view in rows [y, y + rows) of c: the load and its work units per
 * second since it started; the build's objects of the tree's with a bar,
 * its elapsed time and estimate (no_load's time this run, else the pace
 * so far); then each finished load's time this run and its ratio to
 * no_load's. False (nothing drawn) when the test is not buildload. */
bool view_buildload_draw(const struct live *l, struct canvas *c, int y, int rows,
			 const struct test_result *tr);

#endif
