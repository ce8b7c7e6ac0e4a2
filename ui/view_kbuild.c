/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run screen's live view of a build (kbuild): the objects compiled, this build's time and estimate, the builds done. */
#include "family_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "canvas.h"
#include "format.h"
#include "kbuild.h"
#include "live.h"
#include "run.h"
#include "tests.h"
#include "theme.h"
#include "workload.h"

/* A build in progress (kbuild): objects compiled of the tree's, this
 * build's time and its estimate (the same -j's earlier builds, else the pace
 * so far), and the times of the builds finished. */
static void draw_build(const struct live *l, struct canvas *c, int y, int rows,
		       const struct test_result *tr, const struct kbuild_live *kl)
{
	char bar[128], el[16], est[16];
	double now = l->ev.sample_elapsed - (kl->began >= 0 ? kl->began : 0);
	double objs = live_count(l, 0);
	if (kl->cleaning) {
		canvas_printf(c, 1, y, ROLE_HEADER, "make clean, sync and a settle before the build at -j%d",
			      kl->next);
		return;
	}
	canvas_text(c, 1, y, ROLE_HEADER,
		    kl->jobs > 0   ? "build progress (objects compiled)"
		    : kl->jobs < 0 ? "preparing the kernel tree: extract, mrproper, config"
		    : kl->began < 0 ? "preparing: generating the tree"
				   : "build progress: the untimed warm-up build",
		    c->w - 2);
	if (rows < 2 || kl->jobs < 0 || kl->began < 0)
		return;
	/* kernel mode's warm-up: its objects are what it counts */
	if (kl->objects <= 0) {
		canvas_printf(c, 1, y + 1, ROLE_NORMAL, "objects %4.0f (the warm-up counts them)", objs);
	} else {
		int x = 1 + canvas_printf(c, 1, y + 1, ROLE_NORMAL, "objects %4.0f of %-4d ", objs,
					  kl->objects);
		fmt_bar(bar, sizeof bar, objs / kl->objects, 20, c->utf8);
		canvas_text(c, x, y + 1, ROLE_BAR, bar, -1);
	}
	if (rows < 3)
		return;
	char name[16];
	snprintf(name, sizeof name, "-j%d", kl->jobs);
	const struct point *p = kl->jobs ? test_find_point(tr, name) : NULL;
	double e = p && p->n ? point_mean(p) : objs > 0 && kl->objects > 0 ? now * kl->objects / objs : NAN;
	fmt_duration(el, sizeof el, now);
	if (isfinite(e))
		fmt_duration(est, sizeof est, e);
	else
		snprintf(est, sizeof est, "?");
	canvas_printf(c, 1, y + 2, ROLE_RUNNING, "elapsed %s  estimate %s (%s)", el, est,
		      p && p->n ? "earlier builds at this -j" : "the pace so far");
	for (int i = 0, row = 3; i < tr->npoints && row < rows; i++) {
		const struct point *q = &tr->points[i];
		if (!q->summary)
			continue;
		char m[16];
		fmt_duration(m, sizeof m, point_mean(q));
		canvas_printf(c, 1, y + row++, ROLE_DIM, "%-5s %s mean of %d timed build%s", q->name, m,
			      q->n, q->n == 1 ? "" : "s");
	}
}

static bool status(const struct live *l, struct canvas *c, int x, int y, int w, const struct test_result *tr,
		   const char *params)
{
	(void)tr;
	const struct wl_point *pts;
	struct kbuild_live kl;
	int np = live_points(l, 0, &pts);
	if (!kbuild_live_state(pts, np, &kl))
		return false;
	struct kbuild_opts ko;
	char err[200], text[96];
	int nb = test_settings_fill(&kbuild_settings, params, live_quick(l), &ko, err, sizeof err) == 0 ? ko.njobs
												: 0;
	kbuild_live_text(&kl, nb, text, sizeof text);
	canvas_text(c, x, y, ROLE_RUNNING, text, w);
	return true;
}

static bool panel(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr,
		  const char *params)
{
	(void)params;
	const struct wl_point *pts;
	struct kbuild_live kl;
	int np = live_points(l, 0, &pts);
	if (l->ev.kind == EV_PAUSE || !kbuild_live_state(pts, np, &kl))
		return false;
	draw_build(l, c, y, rows, tr, &kl);
	return true;
}

/* A replay keeps no build progress: neither hook draws, and the screen says so. */
const struct family_view view_kbuild = {
	.family = &family_kbuild, .status = status, .panel = panel,
};
