/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run screen's live view of a build beside a load: which load, its work units per second, the build's objects, the loads done. */
#include "family_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buildload.h"
#include "canvas.h"
#include "format.h"
#include "kbuild.h"
#include "live.h"
#include "run.h"
#include "tests.h"
#include "theme.h"
#include "workload.h"

static bool state(const struct live *l, struct buildload_live *bl)
{
	const struct wl_point *pts;
	int n = live_points(l, 0, &pts);
	return buildload_live_state(pts, n, bl);
}

/* Before its loads begin (the tree generated, the warm-up build), a sample
 * is kbuild's build: kbuild's view shows it. */
extern const struct family_view view_kbuild;

/* What the sample in progress is doing ("io_load: build 3 of 4", "warm-up build"). */
static bool status(const struct live *l, struct canvas *c, int x, int y, int w, const struct test_result *tr,
		   const char *params)
{
	struct buildload_live bl;
	if (!state(l, &bl))
		return view_kbuild.status(l, c, x, y, w, tr, params);
	struct buildload_opts o;
	char err[240], text[96];
	int n = test_settings_fill(&buildload_settings, params, live_quick(l), &o, err, sizeof err) == 0 ? o.nloads
												 : 0;
	buildload_live_text(&bl, n, text, sizeof text);
	canvas_text(c, x, y, ROLE_RUNNING, text, w);
	return true;
}

/* The load and its work units per second since it started; the build's
 * objects of the tree's with a bar, its elapsed time and estimate (no_load's
 * time this run, else the pace so far); then each finished load's time this
 * run and its ratio to no_load's. */
static bool draw(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr)
{
	struct buildload_live bl;
	if (!state(l, &bl))
		return false;
	double now = l->ev.sample_elapsed;
	bool building = !bl.cleaning && (bl.build >= 0 ? bl.build == bl.load && bl.began >= bl.load_began
						      : bl.load < 0 && bl.began >= 0);
	const char *load = bl.load >= 0 ? buildload_loads[bl.load].id : "warm-up";
	char line[160];
	if (bl.cleaning > 0 && bl.cleaning <= BL_NLOADS)
		snprintf(line, sizeof line, "cleaning for %s: make clean, then %s", buildload_loads[bl.cleaning - 1].id,
			 bl.cleaning - 1 == BL_CACHERUN ? "sync (the cache kept)" : "the page cache flushed");
	else if (bl.load < 0 && bl.began < 0)
		snprintf(line, sizeof line, "preparing: generating the tree");
	else if (bl.load < 0)
		snprintf(line, sizeof line, "the untimed warm-up build (the tree into the page cache)");
	else if (bl.load == BL_NO_LOAD || bl.load == BL_CACHERUN)
		snprintf(line, sizeof line, "%s: %s", load, buildload_loads[bl.load].what);
	else {
		double secs = now - bl.load_began, units = live_aux(l, 0);
		char rate[32];
		fmt_number(rate, sizeof rate, secs > 0.2 ? units / secs : NAN, 8);
		snprintf(line, sizeof line, "%s: %s %s/s (%s)", load, rate, buildload_loads[bl.load].unit,
			 building ? "building beside it" : "running before the build");
	}
	canvas_text(c, 1, y, ROLE_HEADER, line, c->w - 2);
	if (rows < 2)
		return true;
	double el = building ? now - (bl.began >= 0 ? bl.began : 0) : 0;
	double objs = building ? live_count(l, 0) : 0;
	char bar[128], e[16], est[16];
	int x = 1 + canvas_printf(c, 1, y + 1, ROLE_NORMAL, "objects %4.0f of %-4d ", objs, bl.objects);
	fmt_bar(bar, sizeof bar, bl.objects > 0 ? objs / bl.objects : 0, 20, c->utf8);
	canvas_text(c, x, y + 1, ROLE_BAR, bar, -1);
	if (rows < 3)
		return true;
	/* the estimate: no_load's time this sample or in earlier ones, else the pace so far */
	const struct wl_point *pts;
	int n = live_points(l, 0, &pts);
	double b0 = NAN;
	for (int i = 0; i < n; i++)
		if (pts[i].series == KB_ELAPSED && (int)pts[i].x == BL_NO_LOAD)
			b0 = pts[i].v;
	const struct point *base = test_find_point(tr, buildload_loads[BL_NO_LOAD].id);
	if (!isfinite(b0) && base && base->n)
		b0 = point_mean(base);
	double guess = isfinite(b0) ? b0 : objs > 0 ? el * bl.objects / objs : NAN;
	fmt_duration(e, sizeof e, el);
	if (isfinite(guess))
		fmt_duration(est, sizeof est, guess);
	else
		snprintf(est, sizeof est, "?");
	canvas_printf(c, 1, y + 2, ROLE_RUNNING, "elapsed %s  estimate %s (%s)", e, est,
		      isfinite(b0) ? "no_load's time" : "the pace so far");
	/* the builds this sample has finished: time, and the ratio to no_load's */
	for (int i = 0, row = 3; i < n && row < rows; i++) {
		if (pts[i].series != KB_ELAPSED || pts[i].x < 0 || pts[i].x >= BL_NLOADS)
			continue;
		char m[16], r[16];
		fmt_duration(m, sizeof m, pts[i].v);
		double ra = buildload_ratio(pts[i].v, b0);
		if (isfinite(ra))
			snprintf(r, sizeof r, "%.2f", ra);
		else
			snprintf(r, sizeof r, "-");
		canvas_printf(c, 1, y + row++, ROLE_DIM, "%-13s %8s  ratio %s", buildload_loads[(int)pts[i].x].id, m, r);
	}
	return true;
}

static bool panel(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr,
		  const char *params)
{
	if (l->ev.kind == EV_PAUSE)
		return false;
	return draw(l, c, y, rows, tr) || view_kbuild.panel(l, c, y, rows, tr, params);
}

const struct family_view view_buildload = {
	.family = &family_buildload, .status = status, .panel = panel,
};
