/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run screen's live view of throughput as tasks grow: jobs/min per task count, tasks on a log2 axis. */
#include "family_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "canvas.h"
#include "live.h"
#include "run.h"
#include "scaling.h"
#include "sysinfo.h"
#include "tests.h"
#include "theme.h"
#include "workload.h"

/* One column of bars per task count (1, 2, 4, ...: evenly spaced, a log2
 * axis), the sample in progress as bars, the finished samples' mean as '*',
 * the peak so far named under its column. */
static void draw(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr,
		 const char *params)
{
	struct scaling_params sp;
	char err[200];
	if (test_settings_fill(&scaling_settings, params, live_quick(l), &sp, err, sizeof err) < 0)
		test_settings_fill(&scaling_settings, NULL, live_quick(l), &sp, err, sizeof err);
	int steps[SCALING_MAX_STEPS];
	int n = scaling_task_list(&sp, sysinfo_ncpus(), steps, SCALING_MAX_STEPS);
	/* a replay, or options changed since: the steps the run measured */
	double mx[SCALING_MAX_STEPS], mv[SCALING_MAX_STEPS];
	int m = scaling_curve(tr, mx, mv, SCALING_MAX_STEPS);
	if (m > 0) {
		n = 0;
		for (int i = 0; i < m; i++)
			steps[n++] = (int)mx[i];
	}
	double now[SCALING_MAX_STEPS], mean[SCALING_MAX_STEPS];
	for (int i = 0; i < n; i++) {
		now[i] = NAN;
		mean[i] = NAN;
		for (int k = 0; k < m; k++)
			if ((int)mx[k] == steps[i])
				mean[i] = mv[k];
	}
	const struct wl_point *pts;
	int np = live_points(l, 0, &pts);
	for (int k = 0; k < np; k++)
		for (int i = 0; i < n; i++)
			if (pts[k].series == SCALING_JPM && (int)pts[k].x == steps[i])
				now[i] = pts[k].v;
	double top = 0;
	for (int i = 0; i < n; i++) {
		top = isfinite(now[i]) && now[i] > top ? now[i] : top;
		top = isfinite(mean[i]) && mean[i] > top ? mean[i] : top;
	}
	int lw = 9, H = rows - 1;
	if (H < 3 || n < 1)
		return;
	if (!(top > 0)) {
		canvas_text(c, 1, y, ROLE_DIM, "(the curve starts when the 1-task step ends)", -1);
		return;
	}
	double ymax = top * 1.1;
	int x0 = 1 + lw, W = c->w - 2 - lw;
	int colw = W / n < 6 ? W / n : 6;
	if (colw < 2)
		return;
	/* the peak of the mean curve, else of this sample */
	double pv[SCALING_MAX_STEPS], px[SCALING_MAX_STEPS];
	for (int i = 0; i < n; i++)
		px[i] = steps[i], pv[i] = isfinite(mean[i]) ? mean[i] : now[i];
	int pk = scaling_peak(px, pv, n, SCALING_MARGIN);
	for (int i = 0; i < n; i++) {
		int cx = x0 + i * colw;
		if (isfinite(now[i])) {
			int h = (int)lround(now[i] / ymax * (H - 1));
			for (int r = 0; r < h; r++)
				canvas_text(c, cx, y + H - 1 - r, i == pk ? ROLE_RUNNING : ROLE_BAR,
					    c->utf8 ? "██" : "##", 2);
		}
		if (isfinite(mean[i])) {
			int r = (int)lround(mean[i] / ymax * (H - 1));
			canvas_text(c, cx, y + H - 1 - r, ROLE_SPARK, "**", 2);
		}
		char lab[8];
		snprintf(lab, sizeof lab, "%d", steps[i]);
		canvas_text(c, cx, y + H, i == pk ? ROLE_HEADER : ROLE_DIM, lab, colw);
	}
	char num[32];
	snprintf(num, sizeof num, "%8.0f", ymax);
	canvas_text(c, 1, y, ROLE_DIM, num, lw);
	canvas_text(c, 1, y + 1, ROLE_DIM, "jobs/min", lw);
	canvas_text(c, 1, y + H - 1, ROLE_DIM, "       0", lw);
	canvas_text(c, 1, y + H, ROLE_DIM, "   tasks", lw);
	int tx = x0 + n * colw + 1;
	if (pk >= 0 && tx + 12 < c->w) {
		snprintf(num, sizeof num, "peak %d", steps[pk]);
		canvas_text(c, tx, y, ROLE_HEADER, num, c->w - tx - 1);
		snprintf(num, sizeof num, "%.0f/min", pv[pk]);
		canvas_text(c, tx, y + 1, ROLE_DIM, num, c->w - tx - 1);
	}
}

/* three points a step: real, CPU, jobs/min */
static bool status(const struct live *l, struct canvas *c, int x, int y, int w, const struct test_result *tr,
		   const char *params)
{
	(void)w, (void)tr, (void)params;
	const struct wl_point *pts;
	canvas_printf(c, x, y, ROLE_RUNNING, "%d steps done", live_points(l, 0, &pts) / 3);
	return true;
}

static bool panel(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr,
		  const char *params)
{
	canvas_text(c, 1, y, ROLE_HEADER, "jobs/min by tasks (log2):  bars this sample   ** mean so far", c->w - 2);
	draw(l, c, y + 1, rows, tr, params);
	return true;
}

/* A sample is a sweep of fixed work: --duration does not set its length
 * (only when it is taken for hung), its nominal length guesses it. */
const struct family_view view_scaling = {
	.family = &family_scaling, .length = VIEW_LENGTH_FIXED_WORK, .status = status, .panel = panel,
};
