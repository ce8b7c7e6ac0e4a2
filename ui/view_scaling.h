/* The run screen's live view of throughput as tasks grow: jobs/min per task count, tasks on a log2 axis. */
#ifndef KBENCH_UI_VIEW_SCALING_H
#define KBENCH_UI_VIEW_SCALING_H

#include <stdbool.h>

struct canvas;
struct live;
struct test_result;

/* Whether the run screen shows this test as a throughput curve. */
bool view_scaling_shows(const struct test_result *tr);
/* The curve in rows [y, y + rows) of c: one column of bars per task count
 * (1, 2, 4, ...: evenly spaced, a log2 axis), the sample in progress as
 * bars, the finished samples' mean as '*', the peak so far named under its
 * column. params: the run's workload parameters (the task counts planned). */
void view_scaling_draw(const struct live *l, struct canvas *c, int y, int rows,
		       const struct test_result *tr, const char *params);

#endif
