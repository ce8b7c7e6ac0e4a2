/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run screen's live view of memory latency: the curve so far on log-log axes, the caches marked. */
#include "family_view.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "canvas.h"
#include "format.h"
#include "live.h"
#include "memlat.h"
#include "run.h"
#include "tests.h"
#include "theme.h"
#include "workload.h"

#define CURVE_MAX 1024

struct curve {
	int n;
	double x[CURVE_MAX], v[CURVE_MAX];
	char chain[CURVE_MAX]; /* 'r' random, 'f' forward */
};

static void curve_add(struct curve *cv, char chain, double x, double v)
{
	if (cv->n >= CURVE_MAX || !(x > 0) || !(v > 0) || !isfinite(v))
		return;
	for (int i = 0; i < cv->n; i++)
		if (cv->chain[i] == chain && cv->x[i] == x)
			return; /* a finished sample's mean already stands for it */
	cv->x[cv->n] = x;
	cv->v[cv->n] = v;
	cv->chain[cv->n++] = chain;
}

/* This machine's caches, and the sizes a run with params (and quick) measures.
 * Both read sysfs; the screen redraws several times a second with the same
 * run, so they are read once per run, not once per frame. */
static void sizes_of(const char *params, bool quick, struct memlat_caches *caches, struct memlat_sizes *sz)
{
	static struct {
		bool filled, quick;
		char params[512];
		struct memlat_caches caches;
		struct memlat_sizes sz;
	} memo;
	const char *p = params ? params : "";
	if (memo.filled && memo.quick == quick && !strcmp(memo.params, p)) {
		*caches = memo.caches, *sz = memo.sz;
		return;
	}
	char err[200];
	memlat_read_caches(caches);
	if (test_settings_fill(&memlat_settings, params, quick, sz, err, sizeof err) < 0)
		memlat_default_sizes(caches, sz);
	/* params too long for the memo are read every frame, as before */
	memo.filled = strlen(p) < sizeof memo.params;
	if (memo.filled) {
		snprintf(memo.params, sizeof memo.params, "%s", p);
		memo.quick = quick, memo.caches = *caches, memo.sz = *sz;
	}
}

/* The curve so far: finished samples' means, then the sample in progress
 * (copy 0's points), on log axes; '*' the random chain, '+' the forward
 * one (the glyphs differ, so mono loses nothing); the caches marked. */
static void draw_curve(const struct live *l, struct canvas *c, int y, int rows,
		       const struct test_result *tr, const char *params)
{
	static struct curve cv;
	cv.n = 0;
	for (int i = 0; i < tr->npoints; i++) {
		const struct point *p = &tr->points[i];
		if (!p->summary && !strcmp(p->xunit, "B"))
			curve_add(&cv, p->name[0] == 'r' ? 'r' : 'f', p->x, point_mean(p));
	}
	int stored = cv.n; /* a finished sample's sizes are the whole range */
	const struct wl_point *pts;
	int np = live_points(l, 0, &pts);
	for (int i = 0; i < np; i++)
		if (pts[i].series == MEMLAT_FWD || pts[i].series == MEMLAT_RND)
			curve_add(&cv, pts[i].series == MEMLAT_RND ? 'r' : 'f', pts[i].x, pts[i].v);
	struct memlat_caches caches;
	struct memlat_sizes sz;
	sizes_of(params, live_quick(l), &caches, &sz);
	double xmin = (double)sz.min, xmax = (double)sz.max, ymin = INFINITY, ymax = 0;
	if (stored) /* a replay, or a later sample: the range measured, whatever the options now */
		xmin = INFINITY, xmax = 0;
	for (int i = 0; i < cv.n; i++) {
		xmin = cv.x[i] < xmin ? cv.x[i] : xmin;
		xmax = cv.x[i] > xmax ? cv.x[i] : xmax;
		ymin = cv.v[i] < ymin ? cv.v[i] : ymin;
		ymax = cv.v[i] > ymax ? cv.v[i] : ymax;
	}
	int lw = 8, W = c->w - 2 - lw, H = rows - 1;
	if (H < 2 || W < 10)
		return;
	if (!cv.n) {
		canvas_text(c, 1, y, ROLE_DIM, "(the curve starts with the first size)", -1);
		return;
	}
	if (ymax < ymin * 4)
		ymax = ymin * 4; /* a flat start keeps room to rise */
	double lx0 = log2(xmin), lxs = log2(xmax) - lx0, ly0 = log(ymin), lys = log(ymax) - ly0;
	int x0 = 1 + lw;
	/* the caches, as vertical marks */
	for (int k = 0; k < caches.n; k++) {
		int col = (int)lround((log2((double)caches.size[k]) - lx0) / lxs * (W - 1));
		if (col < 0 || col >= W)
			continue;
		for (int r = 0; r < H; r++)
			canvas_text(c, x0 + col, y + r, ROLE_BORDER, c->utf8 ? "│" : "|", 1);
	}
	for (int i = 0; i < cv.n; i++) {
		int col = (int)lround((log2(cv.x[i]) - lx0) / lxs * (W - 1));
		int row = H - 1 - (int)lround((log(cv.v[i]) - ly0) / lys * (H - 1));
		if (col < 0 || col >= W || row < 0 || row >= H)
			continue;
		/* the random chain drawn over the forward one where they meet */
		if (cv.chain[i] == 'f' && canvas_at(c, x0 + col, y + row)->ch == '*')
			continue;
		canvas_text(c, x0 + col, y + row, cv.chain[i] == 'r' ? ROLE_RUNNING : ROLE_SPARK,
			    cv.chain[i] == 'r' ? "*" : "+", 1);
	}
	char lab[32];
	snprintf(lab, sizeof lab, "%7.*f", ymax < 10 ? 2 : ymax < 100 ? 1 : 0, ymax);
	canvas_text(c, 1, y, ROLE_DIM, lab, lw);
	snprintf(lab, sizeof lab, "%7.*f", ymin < 10 ? 2 : 1, ymin);
	canvas_text(c, 1, y + H - 1, ROLE_DIM, lab, lw);
	if (H >= 4)
		canvas_text(c, 1, y + H / 2, ROLE_DIM, "ns/load", lw);
	/* the size axis: its ends, then each cache's name under its mark; a
	 * name that has no room beside the ends has them shortened ("64M") */
	char names[6][24];
	int want[6], nw[6], at[6], n = 2;
	for (int k = 0; k < caches.n && n < 6; k++) {
		int col = (int)lround((log2((double)caches.size[k]) - lx0) / lxs * (W - 1));
		if (col < 0 || col >= W)
			continue;
		snprintf(names[n], sizeof names[n], "L%d", caches.level[k]);
		want[n++] = col > 0 ? col - 1 : 0;
	}
	for (int compact = 0; compact < 2; compact++) {
		for (int e = 0; e < 2; e++) {
			memlat_fmt_size(names[e], sizeof names[e], e ? xmax : xmin);
			char *sp = strchr(names[e], ' ');
			if (compact && sp && sp[1] != 'B')
				sp[0] = sp[1], sp[1] = '\0'; /* "64 MiB" as "64M" */
		}
		for (int i = 0; i < n; i++)
			nw[i] = canvas_strwidth(names[i]);
		want[0] = 0, want[1] = W - nw[1];
		fmt_axis_place(W, NULL, 0, want, nw, n, at);
		bool all = true;
		for (int i = 2; i < n; i++)
			all = all && at[i] >= 0;
		if (all)
			break;
	}
	for (int i = 0; i < n; i++)
		if (at[i] >= 0)
			canvas_text(c, x0 + at[i], y + H, ROLE_DIM, names[i], -1);
}

static bool panel(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr,
		  const char *params)
{
	canvas_text(c, 1, y, ROLE_HEADER, "latency so far, log-log:  * random chain   + forward 64 B", c->w - 2);
	draw_curve(l, c, y + 1, rows, tr, params);
	return true;
}

/* A sample is a sweep of the sizes: the same sizes take about the same again. */
const struct family_view view_memlat = {
	.family = &family_memlat, .length = VIEW_LENGTH_LAST_SAMPLE, .panel = panel,
};
