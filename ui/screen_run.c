/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run screen: every test's status and progress, the running test's copies, telemetry, time left. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "family_view.h"
#include "format.h"
#include "live.h"
#include "run.h"
#include "quick.h"
#include "score.h"
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
	return 0;
}

static unsigned abort_yes(struct app *a)
{
	live_stop(&a->live);
	return 0;
}

static unsigned act_abort(struct app *a)
{
	if (!a->live.running)
		return 0;
	app_ask(a, a->replay ? "Stop the replay and show the results? (y/n)"
			     : "Abort the run? Finished tests are kept. (y/n)",
		abort_yes);
	return 0;
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

/* A points test (run.h: a curve, a histogram, build times): how many points it has
 * is what to show in the tests table, not a count. */
static bool shows_curve(const struct test_result *tr)
{
	const struct test_def *d = test_find(tr->id);
	return d && d->collect;
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
 * take (tests.h sample_seconds: a build, a sweep of sizes; a sweep of
 * fixed work); for a sweep, once one has finished, that sweep's time
 * (the same sizes or steps take about the same again): its family's view
 * says which (family_view.h). *estimated says it is one. */
static double shown_length(const struct live *l, bool *estimated)
{
	const struct runner_event *ev = &l->ev;
	const struct run *r = l->run;
	*estimated = false;
	if (ev->block < 0 || ev->block >= r->nblocks || ev->test < 0 || ev->test >= r->blocks[ev->block].ntests)
		return ev->sample_length;
	const struct test_result *tr = &r->blocks[ev->block].tests[ev->test];
	const struct test_def *d = test_find(tr->id);
	const struct family_view *v = family_view_of(tr);
	enum family_view_length how = d && v ? v->length : VIEW_LENGTH_RUNNER;
	bool sweep = how == VIEW_LENGTH_FIXED_WORK;
	*estimated = d && (d->sample_seconds || sweep);
	if (how == VIEW_LENGTH_RUNNER || ev->sample_length <= 0)
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
	/* a family's own view: its part of the sample line, and its panel */
	const struct family_view *view = family_view_of(tr);
	if (view && view->begin)
		view->begin(l, tr, params);
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
		if (view && view->status && view->status(l, c, x + 1, y + 1, c->w - x - 2, tr, params)) {
			/* the family's own words */
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
	if (view && view->panel && view->panel(l, c, y + 2, rows - 2, tr, params))
		return;
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
		snprintf(what, sizeof what, "%s run %d of %d", a->seq_what[0] ? a->seq_what : "Calibration", a->calib_run,
			 a->calib_runs);
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
	/* the run's own settings, as its workers got them: a replayed run's, not the options' now */
	const char *params = l->run->meta.params[0] ? l->run->meta.params : NULL;
	draw_tests(l, c, 2, tests, params);
	draw_current(l, c, 2 + tests, current - 1, f, params);
	draw_machine(l, c, 2 + tests + current, f, why);
}

const struct screen_ops screen_run = {
	.name = "run",
	.draw = run_draw,
	.keys = &run_table,
};
