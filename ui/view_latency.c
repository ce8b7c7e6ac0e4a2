/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run screen's live view of a latency test: every phase's percentile bars on a log axis, and each copy's wake-ups. */
#include "family_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "canvas.h"
#include "format.h"
#include "latency.h"
#include "live.h"
#include "run.h"
#include "runner.h"
#include "tests.h"
#include "theme.h"
#include "workload.h"

/* A latency's place on a log axis from 1 us to 100 ms, in columns 0..w-1. */
static int lat_col(double us, int w)
{
	if (!(us > 1))
		return 0;
	int x = (int)(log10(us) / 5 * (w - 1) + 0.5);
	return x < 0 ? 0 : x >= w ? w - 1 : x;
}

/* A latency test's sample in progress with every copy read once, so the
 * numbers on the screen agree: each phase merged over the copies (bucket
 * counts added, the honest aggregate; never an average of percentiles), and
 * each copy's wake-ups and the phase it is in, with that phase's figures. */
struct lat_now {
	int copies; /* copies read; 0: nothing live (a replay, between samples) */
	unsigned long long events; /* all copies, all phases */
	bool hists; /* any copy has published a histogram (wakelat's come at its end) */
	struct lat_hist all[WL_MAX_HISTS];
	struct {
		unsigned long long events;
		int phase; /* -1 before its first wake-up */
		double p50, p99, max, met; /* us, us, us, % (NAN without deadlines) */
	} copy[RUNNER_MAX_COPIES];
};

static void lat_read(const struct live *l, int nph, struct lat_now *s)
{
	static struct lat_hist h; /* one copy of a phase, read from the worker's slot once */
	int n = live_copies(l);
	s->copies = 0;
	s->events = 0;
	s->hists = false;
	for (int p = 0; p < WL_MAX_HISTS; p++)
		lathist_init(&s->all[p]);
	for (int c = 0; c < n && c < RUNNER_MAX_COPIES; c++) {
		const struct lat_hist *lh;
		int k = live_hists(l, c, &lh);
		s->copy[c].events = 0;
		s->copy[c].phase = -1;
		for (int p = 0; p < k && p < nph; p++) {
			h = lh[p];
			if (!h.n)
				continue;
			lathist_merge(&s->all[p], &h);
			s->copy[c].events += h.n;
			s->copy[c].phase = p;
			s->copy[c].p50 = lathist_quantile(&h, 0.5) / 1e3;
			s->copy[c].p99 = lathist_quantile(&h, 0.99) / 1e3;
			s->copy[c].max = (double)h.max / 1e3;
			s->copy[c].met = lathist_met_pct(&h);
			s->hists = true;
		}
		/* no histogram yet: the wake-ups the copy has counted (its published count) */
		if (s->copy[c].phase < 0 && live_count(l, c) > 0)
			s->copy[c].events = (unsigned long long)live_count(l, c);
		s->events += s->copy[c].events;
		if (k > 0)
			s->copies = n < RUNNER_MAX_COPIES ? n : RUNNER_MAX_COPIES;
	}
}

/* The sample line's count: "2504 wake-ups (1252+1252)", each copy's share
 * when it fits in width, else the total alone. */
static void fmt_wakeups(char *buf, size_t len, const struct lat_now *s, int width)
{
	snprintf(buf, len, "%llu wake-ups", s->events);
	if (s->copies < 2)
		return;
	char more[256];
	size_t o = (size_t)snprintf(more, sizeof more, "%s (", buf);
	for (int c = 0; c < s->copies && o < sizeof more; c++)
		o += (size_t)snprintf(more + o, sizeof more - o, "%s%llu", c ? "+" : "",
				      s->copy[c].events);
	if (o + 1 < sizeof more && (int)o + 1 <= width) {
		snprintf(more + o, sizeof more - o, ")");
		snprintf(buf, len, "%s", more);
	}
}

/* A row's figures at x: p50, p99 and max in us, then the share of
 * deadlines met when there are deadlines and room. */
static void lat_figures(struct canvas *c, int x, int row, int role, double p50, double p99,
			double mx, double met)
{
	char n1[16], n2[16], n3[16];
	fmt_number(n1, sizeof n1, p50, 7);
	fmt_number(n2, sizeof n2, p99, 8);
	fmt_number(n3, sizeof n3, mx, 8);
	x += canvas_printf(c, x, row, role, "%7s %8s %8s", n1, n2, n3);
	if (isfinite(met) && x + 6 < c->w)
		canvas_printf(c, x + 1, row, met < 90 ? ROLE_WARN : ROLE_DIM, "%3.0f%%", met);
}

/* A latency test's percentile bars, a row per phase: the sample in progress
 * (all copies' histograms merged, as they fill), or the last finished
 * sample's (merged the same way when it was stored) for a phase not begun
 * yet. On a log axis, '#' up to p50, '=' up to p99, '-' up to the max
 * (glyphs, not colours, tell them apart), then the numbers. Below, with
 * more than one copy and the rows to spare, a row per copy: its wake-ups
 * and the figures of the phase it is in. */
static void draw_latency(struct canvas *c, int y, int rows, const struct test_result *tr,
			 const char **names, int nph, const struct lat_now *s, int copies)
{
	int bw = c->w - 2 - 13 - 27 - 5; /* 5: the share of deadlines met */
	if (bw < 10)
		bw = 10;
	char axis[160];
	memset(axis, ' ', sizeof axis);
	static const char *const ticks[] = { "1us", "10us", "100us", "1ms", "10ms", "100ms" };
	for (int k = 0, free_from = 0; k < 6; k++) {
		int x = lat_col(pow(10, k), bw);
		int n = (int)strlen(ticks[k]);
		if (x + n > bw)
			x = bw - n;
		if (x < free_from) /* no room on a narrow axis: the tick is left out */
			continue;
		memcpy(axis + x, ticks[k], (size_t)n);
		free_from = x + n + 1;
	}
	axis[bw] = '\0';
	if (copies > 1) /* the bars below are every copy's */
		canvas_text(c, 1, y, ROLE_DIM, "all copies", 12);
	canvas_text(c, 14, y, ROLE_DIM, axis, bw);
	canvas_printf(c, 15 + bw, y, ROLE_HEADER, "%7s %8s %8s", "p50", "p99", "max us");
	int i;
	for (i = 0; i < nph && i + 1 < rows; i++) {
		const struct lat_hist *h = i < WL_MAX_HISTS && s->all[i].n ? &s->all[i] : NULL;
		const struct hist_set *hs = test_find_hist(tr, names[i]);
		bool now = h != NULL;
		if (!h && hs && hs->n)
			h = &hs->h[hs->n - 1];
		int row = y + 1 + i;
		canvas_text(c, 1, row, now ? ROLE_RUNNING : ROLE_NORMAL, names[i], 12);
		if (!h || !h->n) {
			/* wake-ups counted, no histogram: one that comes when the sample ends */
			canvas_text(c, 14, row, ROLE_DIM, s->events && !s->hists ? "when the sample ends" : "not yet",
				    bw);
			continue;
		}
		double p50 = lathist_quantile(h, 0.5) / 1e3, p99 = lathist_quantile(h, 0.99) / 1e3,
		       mx = (double)h->max / 1e3;
		int a = lat_col(p50, bw), b = lat_col(p99, bw), m = lat_col(mx, bw);
		char bar[480];
		size_t o = 0;
		for (int x = 0; x <= m && o + 4 < sizeof bar; x++) {
			const char *g = x <= a ? (c->utf8 ? "█" : "#") : x <= b ? (c->utf8 ? "▒" : "=") : (c->utf8 ? "░" : "-");
			size_t gl = strlen(g);
			memcpy(bar + o, g, gl);
			o += gl;
		}
		bar[o] = '\0';
		canvas_text(c, 14, row, ROLE_BAR, bar, bw);
		lat_figures(c, 15 + bw, row, ROLE_NORMAL, p50, p99, mx, lathist_met_pct(h));
	}
	/* the copies, when every one has a row (else the sample line's sum says it) */
	int free_rows = rows - 1 - i;
	if (s->copies < 2 || free_rows < s->copies)
		return;
	for (int k = 0; k < s->copies; k++) {
		int row = y + 1 + i + k, ph = s->copy[k].phase;
		char what[96];
		canvas_printf(c, 1, row, ROLE_NORMAL, "#%d", k + 1);
		if (ph < 0) {
			if (s->copy[k].events)
				canvas_printf(c, 14, row, ROLE_NORMAL, "%llu wake-ups", s->copy[k].events);
			else
				canvas_text(c, 14, row, ROLE_DIM, "no wake-up yet", bw);
			continue;
		}
		snprintf(what, sizeof what, "%llu wake-ups, in %s", s->copy[k].events, names[ph]);
		fmt_text_fit(c, 14, row, ROLE_NORMAL, what, bw);
		lat_figures(c, 15 + bw, row, ROLE_NORMAL, s->copy[k].p50, s->copy[k].p99, s->copy[k].max,
			    s->copy[k].met);
	}
}

/* All copies read once per frame, for the sample line and the bars */
static struct lat_now lat;
static const char *phases[WL_MAX_HISTS];
static int nph;

static void begin(const struct live *l, const struct test_result *tr, const char *params)
{
	nph = latency_phases(test_find(tr->id), params, phases, WL_MAX_HISTS);
	if (nph > 0)
		lat_read(l, nph, &lat);
}

static bool status(const struct live *l, struct canvas *c, int x, int y, int w, const struct test_result *tr,
		   const char *params)
{
	(void)l, (void)tr, (void)params;
	if (nph <= 0 || lat.copies <= 0)
		return false;
	char wk[256];
	fmt_wakeups(wk, sizeof wk, &lat, w);
	canvas_text(c, x, y, ROLE_RUNNING, wk, w);
	return true;
}

static bool panel(const struct live *l, struct canvas *c, int y, int rows, const struct test_result *tr,
		  const char *params)
{
	(void)params;
	if (nph <= 0)
		return false;
	canvas_text(c, 1, y, ROLE_HEADER,
		    c->utf8 ? "latency, log scale:  █ to p50  ▒ to p99  ░ to max  (%: deadlines met)"
			    : "latency, log scale:  # to p50  = to p99  - to max  (%: deadlines met)",
		    c->w - 2);
	draw_latency(c, y + 1, rows, tr, phases, nph, &lat, l->run->blocks[l->ev.block].copies);
	return true;
}

const struct family_view view_latency = {
	.family = &family_latency, .begin = begin, .status = status, .panel = panel,
};
