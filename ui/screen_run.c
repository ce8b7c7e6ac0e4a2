/* The run screen: every test's status and progress, the running test's copies, telemetry, time left. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "format.h"
#include "kbuild.h"
#include "latency.h"
#include "live.h"
#include "memlat.h"
#include "view_buildload.h"
#include "view_scaling.h"
#include "run.h"
#include "quick.h"
#include "scaling.h"
#include "score.h"
#include "sysinfo.h"
#include "telemetry/telemetry.h"
#include "tests.h"
#include "workload.h"

static int top; /* first test row shown */

static unsigned act_skip(struct app *a)
{
	if (!a->live.running)
		return 0;
	live_skip(&a->live);
	app_message(a, ROLE_NORMAL, "Skipping the current test.");
	return UI_REDRAW;
}

static unsigned abort_yes(struct app *a)
{
	live_stop(&a->live);
	return UI_REDRAW;
}

static unsigned act_abort(struct app *a)
{
	if (!a->live.running)
		return 0;
	app_ask(a, a->replay ? "Stop the replay and show the results? (y/n)"
			     : "Abort the run? Finished tests are kept. (y/n)",
		abort_yes);
	return UI_REDRAW;
}

static const struct key_def run_keys[] = {
	{ 's', 0, NULL, "skip test", act_skip, true },
	{ 'q', UK_ESC, "q", "abort run", act_abort, true },
};
static const struct key_table run_table = KEY_TABLE("Run", run_keys);

static const char *status_glyph(const struct canvas *c, enum test_status st, int *role)
{
	switch (st) {
	case TEST_RUNNING: *role = ROLE_RUNNING; return c->utf8 ? "▶" : ">";
	case TEST_DONE:
	case TEST_IMPORTED: *role = ROLE_DONE; return c->utf8 ? "✓" : "*";
	case TEST_FAILED: *role = ROLE_FAILED; return c->utf8 ? "✗" : "x";
	case TEST_SKIPPED: *role = ROLE_DIM; return "-";
	default: *role = ROLE_DIM; return c->utf8 ? "·" : ".";
	}
}

/* A points test (memlat, scaling, the builds, ...): how many points it has
 * is what to show in the tests table, not a count. */
static bool shows_curve(const struct test_result *tr)
{
	const struct test_def *d = test_find(tr->id);
	return d && d->collect;
}

/* A points test whose points lie on a byte axis (memory latency): its curve
 * is what to watch. The other points tests have their own views, or none
 * while nothing live has come (a replay keeps no build progress). */
static bool on_byte_axis(const struct test_result *tr)
{
	const struct test_def *d = test_find(tr->id);
	return d && d->collect == memlat_collect;
}

/* Does the test time itself (whetstone, the file tests)? Its workers publish
 * progress, not a count to make a rate of: its rate is known when a sample ends. */
static bool times_itself(const struct test_result *tr)
{
	const struct test_def *d = test_find(tr->id);
	return d ? d->self_timed : tr->timebase == 0;
}

/* The test's last finished sample, as far as the screen shows the run now; or NULL. */
static const struct sample *last_sample(const struct live *l, int b, int t)
{
	const struct test_result *tr = &l->run->blocks[b].tests[t];
	int done = live_samples_done(l, b, t);
	return done > 0 && done <= tr->nsamples ? &tr->samples[done - 1] : NULL;
}

/* The live score estimate of a running test: all copies' counts over the time
 * so far; for a test that times itself, the rate of its last finished sample. */
static double live_rate(const struct live *l, int b, int t)
{
	const struct test_result *tr = &l->run->blocks[b].tests[t];
	if (times_itself(tr)) {
		const struct sample *s = last_sample(l, b, t);
		return s ? score_rate(sample_count(s), sample_time(s), tr->timebase) : NAN;
	}
	double el = live_elapsed(l), sum = 0;
	int n = live_copies(l);
	if (n <= 0 || el <= 0.2)
		return NAN;
	for (int i = 0; i < n; i++)
		sum += live_count(l, i);
	return tr->timebase ? sum / el * tr->timebase : sum;
}

/* A quick run's test: the half width of its score's 95% interval from the
 * samples finished so far, as the runner judges it (INFINITY below 2). */
static double precision_now(const struct live *l, int b, int t)
{
	const struct test_result *tr = &l->run->blocks[b].tests[t];
	double rates[256];
	int n = live_samples_done(l, b, t);
	if (n > tr->nsamples)
		n = tr->nsamples;
	if (n > 256)
		n = 256;
	for (int i = 0; i < n; i++)
		rates[i] = score_rate(sample_count(&tr->samples[i]), sample_time(&tr->samples[i]), tr->timebase);
	return quick_precision(rates, n);
}

/* The length of the running test's sample as the screen shows it: the
 * runner's, which is an estimate for a test whose samples last what they
 * take (kbuild's builds, memlat's sweeps: tests.h sample_seconds; scaling's
 * sweeps); for a memlat or scaling sweep, once one has finished, that
 * sweep's time (the same sizes or steps take about the same again).
 * *estimated says it is one. */
static double shown_length(const struct live *l, bool *estimated)
{
	const struct runner_event *ev = &l->ev;
	const struct run *r = l->run;
	*estimated = false;
	if (ev->block < 0 || ev->block >= r->nblocks || ev->test < 0 || ev->test >= r->blocks[ev->block].ntests)
		return ev->sample_length;
	const struct test_def *d = test_find(r->blocks[ev->block].tests[ev->test].id);
	/* a scaling sample is a sweep of fixed work: --duration does not set its
	 * length (only when it is taken for hung), its nominal length guesses it */
	bool sweep = d && d->collect == scaling_collect;
	*estimated = d && (d->sample_seconds || sweep);
	if (!d || (d->collect != memlat_collect && !sweep) || ev->sample_length <= 0)
		return ev->sample_length;
	const struct sample *s = last_sample(l, ev->block, ev->test);
	return s && sample_time(s) > 0 ? sample_time(s) : sweep ? d->seconds : ev->sample_length;
}

/* "±1.42%" (ASCII "+-1.42%"), with the decimals that fit width. */
static void fmt_pm(char *buf, size_t len, const struct canvas *c, double frac, int width)
{
	const char *pm = c->utf8 ? "±" : "+-";
	for (int dec = 2; dec >= 0; dec--) {
		snprintf(buf, len, "%s%.*f%%", pm, dec, frac * 100);
		if (canvas_strwidth(buf) <= width)
			return;
	}
}

static void draw_tests(const struct live *l, struct canvas *c, int y, int rows, const char *params)
{
	bool est;
	double length = shown_length(l, &est);
	const struct run *r = l->run;
	int total = 0, cur = -1;
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++, total++)
			if (b == l->ev.block && t == l->ev.test && live_status(l, b, t) == TEST_RUNNING)
				cur = total;
	if (cur >= 0) {
		if (cur < top)
			top = cur;
		if (cur >= top + rows)
			top = cur - rows + 1;
	}
	if (top > total - rows)
		top = total - rows < 0 ? 0 : total - rows;
	char title[64];
	/* the rows shown, as a pager says them: "Tests 1-3 of 24" (not "test 1 of 24") */
	snprintf(title, sizeof title, "Tests %d-%d of %d", top + 1, top + rows < total ? top + rows : total, total);
	canvas_rule(c, 0, y - 1, c->w, ROLE_BORDER, total > rows ? title : "Tests", ROLE_HEADER);
	struct fmt_col cols[] = { { 1, 1, false },  { 3, 4, false }, { 20, 40, false },
				  { 10, 24, false }, { 7, 9, false }, { 11, 12, false },
				  { 7, 8, true } };
	int wd[7];
	fmt_columns(cols, 7, c->w - 2, wd);
	int k = 0;
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++, k++) {
			if (k < top || k >= top + rows)
				continue;
			int yy = y + k - top, x = 1, role;
			const struct test_result *tr = &r->blocks[b].tests[t];
			enum test_status st = live_status(l, b, t);
			const char *g = status_glyph(c, st, &role);
			char buf[160], num[32];
			canvas_text(c, x, yy, role, g, 1);
			x += wd[0] + 1;
			snprintf(buf, sizeof buf, "%s%d", c->utf8 ? "×" : "x", r->blocks[b].copies);
			fmt_fit(num, sizeof num, buf, wd[1], FMT_LEFT);
			canvas_text(c, x, yy, ROLE_DIM, num, -1);
			x += wd[1] + 1;
			fmt_fit(buf, sizeof buf, tr->label, wd[2], FMT_LEFT);
			canvas_text(c, x, yy, st == TEST_RUNNING ? ROLE_RUNNING : ROLE_NORMAL, buf, -1);
			x += wd[2] + 1;
			/* progress: finished samples, plus the running one's share */
			int done = live_samples_done(l, b, t);
			int n = st == TEST_RUNNING ? l->ev.nsamples : tr->nsamples;
			double frac = st == TEST_DONE || st == TEST_IMPORTED ? 1 : 0;
			if (st == TEST_RUNNING && n > 0) {
				double part = l->ev.kind == EV_PAUSE || length <= 0 ? 0 : l->ev.sample_elapsed / length;
				frac = (l->ev.sample + (part > 1 ? 1 : part)) / n;
			}
			fmt_bar(buf, sizeof buf, frac, wd[3], c->utf8);
			canvas_text(c, x, yy, ROLE_BAR, buf, -1);
			x += wd[3] + 1;
			const char *what = test_status_name(st);
			if (st == TEST_RUNNING && n <= 0) /* a quick run: samples until precise */
				snprintf(buf, sizeof buf, "%d", l->ev.sample + 1);
			else if (st == TEST_RUNNING)
				snprintf(buf, sizeof buf, "%d/%d", l->ev.sample + 1, n);
			else if (st == TEST_DONE)
				snprintf(buf, sizeof buf, "%d/%d", done, done);
			else
				snprintf(buf, sizeof buf, "%s", what);
			fmt_fit(num, sizeof num, buf, wd[4], FMT_LEFT);
			canvas_text(c, x, yy, role, num, -1);
			x += wd[4] + 1;
			if (shows_curve(tr) && (st == TEST_DONE || st == TEST_RUNNING ||
						(st == TEST_SKIPPED && tr->npoints))) {
				/* points, not a score: how many so far (the curve shows them) */
				const struct wl_point *pts;
				int np = st == TEST_RUNNING ? live_points(l, 0, &pts) : 0;
				snprintf(buf, sizeof buf, "%d pts", tr->npoints > np ? tr->npoints : np);
				fmt_fit(num, sizeof num, buf, wd[5], FMT_RIGHT);
				canvas_text(c, x, yy, st == TEST_RUNNING ? ROLE_RUNNING : ROLE_NORMAL, num, -1);
			} else if (st == TEST_DONE || st == TEST_IMPORTED) {
				fmt_number(buf, sizeof buf, tr->score, wd[5]);
				fmt_fit(num, sizeof num, buf, wd[5], FMT_RIGHT);
				canvas_text(c, x, yy, ROLE_NORMAL, num, -1);
				if (wd[6] && tr->index > 0) {
					fmt_number(buf, sizeof buf, tr->index, wd[6]);
					fmt_fit(num, sizeof num, buf, wd[6], FMT_RIGHT);
					canvas_text(c, x + wd[5] + 1, yy, ROLE_HEADER, num, -1);
				}
			} else if (st == TEST_RUNNING) {
				char est[40];
				fmt_number(buf, sizeof buf, live_rate(l, b, t), wd[5] - 1);
				snprintf(est, sizeof est, "~%s", buf); /* the ~ stays on the number */
				fmt_fit(num, sizeof num, est, wd[5], FMT_RIGHT);
				canvas_text(c, x, yy, ROLE_RUNNING, num, -1);
				/* a quick run: where the score's interval is now, against the precision asked */
				double p = l->precision > 0 && wd[6] ? precision_now(l, b, t) : INFINITY;
				if (isfinite(p)) {
					fmt_pm(buf, sizeof buf, c, p, wd[6]);
					fmt_fit(num, sizeof num, buf, wd[6], FMT_RIGHT);
					canvas_text(c, x + wd[5] + 1, yy, p <= l->precision ? ROLE_DONE : ROLE_WARN,
						    num, -1);
				}
			} else if (st == TEST_FAILED || st == TEST_SKIPPED) {
				canvas_text(c, x, yy, ROLE_DIM, tr->reason, c->w - x - 1);
			}
		}
}

/* A counter's per-copy value as a rate per second of the sample, or n/a. */
static void counter_cell(char *buf, size_t len, const struct telemetry_frame *f, int copy,
			 const char *label, double el)
{
	snprintf(buf, len, "n/a");
	if (!f || !f->values || copy >= f->ncopies)
		return;
	for (int e = 0; e < f->nevents; e++)
		if (strstr(f->events[e].label, label) || strstr(f->events[e].name, label)) {
			const struct counter_value *v = &f->values[copy * f->nevents + e];
			if (v->state == COUNTER_VALUE && el > 0)
				fmt_number(buf, len, v->value / el, 7);
			return;
		}
}

static void ipc_cell(char *buf, size_t len, const struct telemetry_frame *f, int copy)
{
	snprintf(buf, len, "n/a");
	if (!f || !f->values || copy >= f->ncopies)
		return;
	int ins = -1, cyc = -1;
	for (int e = 0; e < f->nevents; e++) {
		if (f->events[e].role == ROLE_INSTRUCTIONS)
			ins = e;
		if (f->events[e].role == ROLE_CYCLES)
			cyc = e;
	}
	if (ins < 0 || cyc < 0)
		return;
	double v = counter_ratio(&f->values[copy * f->nevents + ins], &f->values[copy * f->nevents + cyc]);
	if (!isnan(v))
		snprintf(buf, len, "%.2f", v);
}

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
	memlat_run_sizes(params, &caches, &sz);
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

static void draw_current(const struct live *l, struct canvas *c, int y, int rows,
			 const struct telemetry_frame *f, const char *params)
{
	const struct run *r = l->run;
	const struct runner_event *ev = &l->ev;
	bool valid = ev->block >= 0 && ev->block < r->nblocks && ev->test >= 0 &&
		     ev->test < r->blocks[ev->block].ntests && l->running;
	if (!valid) {
		canvas_rule(c, 0, y, c->w, ROLE_BORDER, "Current test", ROLE_HEADER);
		canvas_text(c, 1, y + 1, ROLE_DIM, l->running ? "starting..." : "the run has ended", -1);
		return;
	}
	const struct test_result *tr = &r->blocks[ev->block].tests[ev->test];
	char title[128], asked[32], now[32];
	snprintf(title, sizeof title, "%s %s %d cop%s", tr->id, c->utf8 ? "·" : "-",
		 r->blocks[ev->block].copies, r->blocks[ev->block].copies == 1 ? "y" : "ies");
	if (l->precision > 0) {
		/* a quick run samples until the interval is within the precision asked */
		double p = precision_now(l, ev->block, ev->test);
		snprintf(asked, sizeof asked, "%s%g%%", c->utf8 ? "±" : "+-", l->precision * 100);
		fmt_pm(now, sizeof now, c, p, 8);
		snprintf(title + strlen(title), sizeof title - strlen(title), " %s %s%s%s asked",
			 c->utf8 ? "·" : "-", isfinite(p) ? now : "", isfinite(p) ? " now, " : "", asked);
	}
	canvas_rule(c, 0, y, c->w, ROLE_BORDER, title, ROLE_RUNNING);
	/* a latency test: all copies read once, for the sample line and the bars */
	static struct lat_now lat;
	const char *phases[WL_MAX_HISTS];
	int nph = latency_phases(test_find(tr->id), params, phases, WL_MAX_HISTS);
	if (nph > 0)
		lat_read(l, nph, &lat);
	char el[16], len[16], rate[32], bar[128];
	bool est;
	double length = shown_length(l, &est);
	fmt_duration(el, sizeof el, ev->sample_elapsed);
	fmt_duration(len, sizeof len, length);
	char of[24] = ""; /* a quick run takes samples until the score is precise: no "of N" */
	if (ev->nsamples > 0)
		snprintf(of, sizeof of, " of %d", ev->nsamples);
	int x = 1;
	if (ev->kind == EV_PAUSE) {
		x += canvas_printf(c, x, y + 1, ROLE_DIM, "sample %d%s: sync and pause %s of %s",
				   ev->sample + 1, of, el, len);
	} else {
		/* an estimated length: "of ~0:14", and "over ~0:14" once the sample runs past it */
		bool over = est && ev->sample_elapsed > length + 0.5;
		x += canvas_printf(c, x, y + 1, ROLE_NORMAL, "sample %d%s  %s %s %s%s ", ev->sample + 1, of,
				   el, over ? "over" : "of", est ? "~" : "", len);
		double frac = length > 0 ? ev->sample_elapsed / length : 0;
		fmt_bar(bar, sizeof bar, frac, 16, c->utf8);
		x += canvas_text(c, x, y + 1, ROLE_BAR, bar, -1) + 1;
		double lr = live_rate(l, ev->block, ev->test);
		const struct wl_point *pts;
		struct kbuild_live kl;
		char status[96];
		int np = live_points(l, 0, &pts);
		if (nph > 0 && lat.copies > 0) {
			char wk[256];
			fmt_wakeups(wk, sizeof wk, &lat, c->w - x - 2);
			canvas_text(c, x + 1, y + 1, ROLE_RUNNING, wk, c->w - x - 2);
		} else if (view_buildload_status(l, status, sizeof status, params)) {
			canvas_text(c, x + 1, y + 1, ROLE_RUNNING, status, c->w - x - 2);
		} else if (kbuild_live_state(pts, np, &kl)) {
			struct kbuild_opts ko;
			char err[200];
			int nb = kbuild_parse_params(params, sysinfo_ncpus(), false, &ko, err, sizeof err) == 0
					 ? ko.njobs : 0;
			kbuild_live_text(&kl, nb, status, sizeof status);
			canvas_text(c, x + 1, y + 1, ROLE_RUNNING, status, c->w - x - 2);
		} else if (view_scaling_shows(tr)) {
			/* three points a step: real, CPU, jobs/min */
			canvas_printf(c, x + 1, y + 1, ROLE_RUNNING, "%d steps done",
				      live_points(l, 0, &pts) / 3);
		} else if (shows_curve(tr)) {
			canvas_printf(c, x + 1, y + 1, ROLE_RUNNING, "%d points this sample",
				      live_points(l, 0, &pts));
		} else if (times_itself(tr)) {
			/* no live rate to show: say so, and the last sample's once there is one */
			char what[96] = "timing itself", longer[96];
			for (int w = 10; w >= 4 && !isnan(lr); w--) {
				fmt_number(rate, sizeof rate, lr, w);
				snprintf(longer, sizeof longer, "timing itself, last ~%s %s", rate, tr->unit);
				if (canvas_strwidth(longer) <= c->w - x - 2) {
					snprintf(what, sizeof what, "%s", longer);
					break;
				}
			}
			canvas_text(c, x + 1, y + 1, ROLE_RUNNING, what, c->w - x - 2);
		} else {
			fmt_number(rate, sizeof rate, lr, 12);
			canvas_printf(c, x + 1, y + 1, ROLE_RUNNING, "live %s%s %s", isnan(lr) ? "" : "~",
				      rate, isnan(lr) ? "" : tr->unit);
		}
	}
	if (rows < 3)
		return;
	if (nph > 0) {
		canvas_text(c, 1, y + 2, ROLE_HEADER,
			    c->utf8 ? "latency, log scale:  █ to p50  ▒ to p99  ░ to max  (%: deadlines met)"
				    : "latency, log scale:  # to p50  = to p99  - to max  (%: deadlines met)",
			    c->w - 2);
		draw_latency(c, y + 3, rows - 2, tr, phases, nph, &lat, r->blocks[ev->block].copies);
		return;
	}
	if (ev->kind != EV_PAUSE && view_buildload_draw(l, c, y + 2, rows - 2, tr))
		return;
	const struct wl_point *kp;
	struct kbuild_live kl;
	int nkp = live_points(l, 0, &kp);
	if (ev->kind != EV_PAUSE && kbuild_live_state(kp, nkp, &kl)) {
		draw_build(l, c, y + 2, rows - 2, tr, &kl);
		return;
	}
	if (view_scaling_shows(tr)) {
		canvas_text(c, 1, y + 2, ROLE_HEADER,
			    "jobs/min by tasks (log2):  bars this sample   ** mean so far", c->w - 2);
		view_scaling_draw(l, c, y + 3, rows - 2, tr, params);
		return;
	}
	if (on_byte_axis(tr)) {
		canvas_text(c, 1, y + 2, ROLE_HEADER,
			    "latency so far, log-log:  * random chain   + forward 64 B", c->w - 2);
		draw_curve(l, c, y + 3, rows - 2, tr, params);
		return;
	}
	if (shows_curve(tr)) {
		/* no copy counts to show either: its points are its result */
		canvas_text(c, 1, y + 2, ROLE_DIM,
			    l->ops == &live_replay_ops
				    ? "(a stored run keeps no live progress of this test)"
				    : "(waiting for the test's first progress)",
			    c->w - 2);
		return;
	}
	canvas_text(c, 1, y + 2, ROLE_HEADER,
		    "copy        count     rate/s    IPC  misses/s   csw/s  migr/s", c->w - 2);
	int n = live_copies(l);
	double secs = live_elapsed(l);
	/* a test that times itself: each copy's rate in its last finished sample */
	const struct sample *last = times_itself(tr) ? last_sample(l, ev->block, ev->test) : NULL;
	for (int i = 0; i < n && i < rows - 2; i++) {
		char cnt[16], rt[16], ipc[16], miss[16], cs[16], mig[16];
		double v = live_count(l, i), r = NAN;
		if (last && i < last->copies)
			r = score_rate(last->count[i], last->elapsed[i], tr->timebase);
		else if (!times_itself(tr) && tr->timebase && secs > 0.2)
			r = v / secs;
		fmt_count(cnt, sizeof cnt, v, 12);
		fmt_number(rt, sizeof rt, r, 9);
		ipc_cell(ipc, sizeof ipc, f, i);
		counter_cell(miss, sizeof miss, f, i, "cache-misses", secs);
		counter_cell(cs, sizeof cs, f, i, "context-switches", secs);
		counter_cell(mig, sizeof mig, f, i, "cpu-migrations", secs);
		if (!f && !strstr(ipc, "."))
			snprintf(ipc, sizeof ipc, "n/a");
		canvas_printf(c, 1, y + 3 + i, ROLE_NORMAL, "#%-4d %12s %10s %6s %9s %7s %7s", i + 1,
			      cnt, rt, ipc, miss, cs, mig);
	}
	if (n > rows - 2)
		canvas_printf(c, 1, y + rows, ROLE_DIM, "(%d more copies)", n - (rows - 2));
	if (n == 0)
		canvas_text(c, 1, y + 3, ROLE_DIM, "(no workers between samples)", -1);
}

/* The series of the run whose name contains one of the words (frequency, temperature). */
static const struct series *find_series(const struct run *r, const char *w1, const char *w2)
{
	for (int i = 0; i < r->nseries; i++)
		if (strstr(r->series[i].name, w1) || (w2 && strstr(r->series[i].name, w2)))
			return &r->series[i];
	return NULL;
}

static void spark(const struct live *l, struct canvas *c, int x, int y, int w, const struct series *s)
{
	char buf[512];
	if (!s || w <= 0)
		return;
	int n = live_series_points(l, s);
	fmt_sparkline(buf, sizeof buf, s->v, n, w, c->utf8);
	canvas_text(c, x, y, ROLE_SPARK, buf, w);
}

static void draw_machine(const struct live *l, struct canvas *c, int y, const struct telemetry_frame *f,
			 const char *why)
{
	canvas_rule(c, 0, y, c->w, ROLE_BORDER, "Machine", ROLE_HEADER);
	const struct series *sf = find_series(l->run, "freq", "mhz");
	const struct series *st = find_series(l->run, "temp", NULL);
	char v[64];
	int half = c->w / 2, w = c->w;
	/* frequency */
	int x = 1 + canvas_text(c, 1, y + 1, ROLE_DIM, "freq ", -1);
	if (f && f->ncpus > 0 && !isnan(f->mhz_busy)) {
		double lo = INFINITY, hi = -INFINITY;
		for (int i = 0; i < f->ncpus; i++)
			if (!isnan(f->mhz[i])) {
				lo = f->mhz[i] < lo ? f->mhz[i] : lo;
				hi = f->mhz[i] > hi ? f->mhz[i] : hi;
			}
		if (f->busy && f->mhz_workers) /* the clock of the CPUs the workers are on, and its scale */
			snprintf(v, sizeof v, "%.0f MHz workers%s%s ", f->mhz_busy, f->mhz_of[0] ? ", " : "",
				 f->mhz_of);
		else if (hi - lo >= 1)
			snprintf(v, sizeof v, "%.0f-%.0f MHz ", lo, hi);
		else
			snprintf(v, sizeof v, "%.0f MHz ", f->mhz_busy);
		x += canvas_text(c, x, y + 1, ROLE_NORMAL, v, -1);
	} else if (sf && live_series_points(l, sf) > 0) {
		snprintf(v, sizeof v, "%.0f %s ", sf->v[live_series_points(l, sf) - 1], sf->unit);
		x += canvas_text(c, x, y + 1, ROLE_NORMAL, v, -1);
	} else {
		x += fmt_text_fit(c, x, y + 1, ROLE_DIM, f ? f->freq_source : why, w - x - 1) + 1;
	}
	spark(l, c, x, y + 1, (w - x - 1) < 60 ? w - x - 1 : 60, sf);
	/* temperature */
	y++;
	x = 1 + canvas_text(c, 1, y + 1, ROLE_DIM, "temp ", -1);
	if (f && !isnan(f->temp)) {
		bool hot = f->temp_limit > 0 && f->temp >= f->temp_limit - 5;
		snprintf(v, sizeof v, "%.0f°C ", f->temp);
		x += canvas_text(c, x, y + 1, hot ? ROLE_HOT : ROLE_NORMAL, v, -1);
	} else if (st && live_series_points(l, st) > 0) {
		snprintf(v, sizeof v, "%.0f %s ", st->v[live_series_points(l, st) - 1], st->unit);
		x += canvas_text(c, x, y + 1, ROLE_NORMAL, v, -1);
	} else {
		x += fmt_text_fit(c, x, y + 1, ROLE_DIM, f ? f->temp_source : why, w - x - 1) + 1;
	}
	spark(l, c, x, y + 1, (w - x - 1) < 60 ? w - x - 1 : 60, st);
	/* power and throttling: two fields, a blank column between them */
	x = 1 + canvas_text(c, 1, y + 2, ROLE_DIM, "power ", -1);
	const struct series *sp = find_series(l->run, "power", NULL);
	int np = sp ? live_series_points(l, sp) : 0;
	const char *power = f ? f->power_source : why;
	int role = ROLE_DIM;
	if (f && !isnan(f->watts))
		snprintf(v, sizeof v, "%.1f W (%.0f J)", f->watts, f->joules);
	else if (!f && np > 0 && !isnan(sp->v[np - 1]))
		snprintf(v, sizeof v, "%.1f W", sp->v[np - 1]);
	else
		v[0] = '\0';
	if (v[0]) {
		power = v;
		role = ROLE_NORMAL;
	}
	fmt_text_fit(c, x, y + 2, role, power, half - x - 1);
	x = half + canvas_text(c, half, y + 2, ROLE_DIM, "throttle ", -1);
	/* a replay has no frame: the recorded throttle counter moving is the evidence */
	const struct series *sth = find_series(l->run, "throttle.events", NULL);
	int nth = sth ? live_series_points(l, sth) : 0;
	if (!f && nth > 1 && sth->v[nth - 1] > sth->v[0]) {
		char w[120];
		snprintf(w, sizeof w, "%s THROTTLING: %.0f throttle events so far", c->utf8 ? "⚠" : "!",
			 sth->v[nth - 1] - sth->v[0]);
		fmt_text_fit(c, x, y + 2, ROLE_HOT, w, c->w - x - 1);
	} else if (!f && nth > 0) {
		canvas_text(c, x, y + 2, ROLE_NORMAL, "none seen", c->w - x - 1);
	} else if (f && f->throttled) {
		char w[200];
		snprintf(w, sizeof w, "%s THROTTLING: %s", c->utf8 ? "⚠" : "!", f->throttle_evidence);
		fmt_text_fit(c, x, y + 2, ROLE_HOT, w, c->w - x - 1);
	} else {
		/* "none seen" only where something could have seen it (counters or cooling devices). */
		bool blind = f && f->throttle_source && !strncmp(f->throttle_source, "n/a", 3);
		fmt_text_fit(c, x, y + 2, f && !blind ? ROLE_NORMAL : ROLE_DIM,
			     !f ? why : blind ? "n/a: nothing here can show it" : "none seen", c->w - x - 1);
	}
}

static void run_draw(struct app *a, struct canvas *c)
{
	const struct live *l = &a->live;
	char right[96], el[16], left[16];
	fmt_duration(el, sizeof el, live_now(l));
	fmt_duration(left, sizeof left, live_remaining(l));
	snprintf(right, sizeof right, "elapsed %s  left ~%s", el, left);
	char what[48] = "Run";
	if (a->calib_runs)
		snprintf(what, sizeof what, "Calibration run %d of %d", a->calib_run, a->calib_runs);
	app_draw_title(a, c, what, right);
	if (!l->run)
		return;
	const char *why = "";
	const struct telemetry_frame *f = live_telemetry(l, &why);
	int avail = c->h - 3;          /* title, message, key bar */
	int machine = 4;
	int copies = live_copies(l) > 0 ? live_copies(l) : l->ev.ncopies > 0 ? l->ev.ncopies : 1;
	int current = 3 + copies;
	int tests = avail - machine - current - 1;
	if (tests < 4) {
		/* many copies: the test list keeps four rows, the copies scroll off */
		current -= 4 - tests;
		tests = 4;
	}
	int total = 0;
	for (int b = 0; b < l->run->nblocks; b++)
		total += l->run->blocks[b].ntests;
	if (tests > total)
		tests = total; /* the panels follow the list; spare rows stay at the bottom */
	const struct runner_event *ev = &l->ev;
	if (l->running && ev->block >= 0 && ev->block < l->run->nblocks && ev->test >= 0 &&
	    ev->test < l->run->blocks[ev->block].ntests &&
	    shows_curve(&l->run->blocks[ev->block].tests[ev->test])) {
		/* a curve: the rows the copies' table would leave, and three of the list */
		tests = tests < 3 ? tests : 3;
		current = avail - machine - tests - 1;
	}
	draw_tests(l, c, 2, tests, a->params[0] ? a->params : NULL);
	draw_current(l, c, 2 + tests, current - 1, f, a->params[0] ? a->params : NULL);
	draw_machine(l, c, 2 + tests + current, f, why);
}

const struct screen_ops screen_run = {
	.name = "run",
	.draw = run_draw,
	.keys = &run_table,
};
