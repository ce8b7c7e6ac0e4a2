/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal check's screen: score, clock, temperature and power stacked on one time axis, the throttle counters, and the state in words, live, replayed and after. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "format.h"
#include "live.h"
#include "numfmt.h"
#include "run.h"
#include "telemetry/telemetry.h"
#include "thermal.h"

static unsigned abort_yes(struct app *a)
{
	live_stop(&a->live);
	return 0;
}

static unsigned act_abort(struct app *a)
{
	if (!a->live.running) {
		app_goto(a, &screen_setup);
		return 0;
	}
	app_ask(a, a->replay ? "Stop the replay? (y/n)"
			     : "Stop the check? The samples so far are kept, marked incomplete. (y/n)",
		abort_yes);
	return 0;
}

static unsigned act_history(struct app *a)
{
	if (a->live.running)
		return 0;
	app_goto(a, &screen_history);
	return 0;
}

static const struct key_def thermal_keys[] = {
	{ 'q', UK_ESC, "q", "stop / back to setup", act_abort, true },
	{ 'H', 0, NULL, "history", act_history, true },
};
static const struct key_table thermal_table = KEY_TABLE("Thermal check", thermal_keys);

/* A source's "n/a: why" as the frame has it, without the "n/a: "; NULL when it reads. */
static const char *why_na(const char *status)
{
	if (!status || strncmp(status, "n/a", 3))
		return NULL;
	return status[3] == ':' ? status + 5 : "n/a";
}

/* The check as far as the screen shows it now, and its verdict. */
struct view {
	struct thermal_inputs in;
	struct thermal_point *p;
	struct thermal_verdict v;
	double t0;     /* run time the load began; NAN before */
	double span;   /* the time axis: the planned load, or what ran */
	const struct telemetry_frame *f;
	const char *why;
};

static void view_make(const struct live *l, double thermal_minutes, struct view *w)
{
	memset(w, 0, sizeof *w);
	w->t0 = NAN;
	w->f = live_telemetry(l, &w->why);
	const struct test_result *t = thermal_test(l->run);
	int done = t ? live_samples_done(l, 0, 0) : 0;
	const struct telemetry_frame *f = w->f;
	struct thermal_live live = { 0 };
	if (f) {
		live.temp_limit = f->temp_limit;
		live.freq_cpuinfo = f->freq_source && strstr(f->freq_source, "cpuinfo");
		live.temp_why = why_na(f->temp_source);
		live.freq_why = why_na(f->freq_source);
		live.power_why = why_na(f->power_source);
		for (int i = 0; i < f->nsources; i++)
			if (!strcmp(f->sources[i].src->name, "throttle"))
				live.throttle_why = why_na(f->sources[i].status);
	}
	w->p = thermal_assess(l->run, done, l->running ? live_now(l) : INFINITY, f ? &live : NULL, &w->in,
			      &w->v);
	if (w->p)
		w->t0 = t->samples[0].start;
	/* the axis spans the planned load while it runs (a replay: what the run did) */
	double planned = l->running && thermal_minutes > 0 ? thermal_minutes * 60 : 0;
	double ran = 0;
	if (t && t->nsamples) /* every sample, so a replay's axis is the whole check from the start */
		ran = t->samples[t->nsamples - 1].start + sample_time(&t->samples[t->nsamples - 1]) -
		      t->samples[0].start;
	w->span = planned > ran ? planned : ran;
	if (w->span <= 0)
		w->span = 1;
}

/* One value per column of the time axis: the mean of the samples that cover it, NAN where none does. */
static void columns_of_points(const struct view *w, double (*get)(const struct thermal_point *), double *col,
			      int ncol)
{
	int *n = calloc((size_t)ncol, sizeof *n);
	if (!n)
		abort();
	for (int x = 0; x < ncol; x++)
		col[x] = 0;
	for (int k = 0; k < w->in.n; k++) {
		double v = get(&w->p[k]);
		if (!isfinite(v))
			continue;
		int from = (int)(w->p[k].t / w->span * ncol);
		int to = (int)((w->p[k].t + w->p[k].len) / w->span * ncol - 1e-9);
		for (int x = from < 0 ? 0 : from; x <= to && x < ncol; x++) {
			col[x] += v;
			n[x]++;
		}
	}
	for (int x = 0; x < ncol; x++)
		col[x] = n[x] ? col[x] / n[x] : NAN;
	free(n);
}

static double get_rate(const struct thermal_point *p) { return p->rate; }
static double get_mhz(const struct thermal_point *p) { return p->mhz; }
static double get_temp(const struct thermal_point *p) { return p->temp; }
static double get_watts(const struct thermal_point *p) { return p->watts; }

/* A chart of rows rows: blocks in eighths (ASCII: '#', '+' and '.'), scaled to the values' range. */
static void chart(struct canvas *c, int x, int y, int w, int rows, const double *col, double lo, double hi)
{
	static const char *const eighths[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	for (int i = 0; i < w; i++) {
		if (!isfinite(col[i]))
			continue;
		double frac = hi > lo ? (col[i] - lo) / (hi - lo) : 0.5;
		frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
		int levels = (int)lround(frac * rows * 8);
		if (levels < 1)
			levels = 1; /* a value is never drawn as nothing */
		for (int r = 0; r < rows; r++) {
			int in = levels - r * 8;
			if (in <= 0)
				break;
			const char *g = c->utf8 ? eighths[in > 8 ? 8 : in] : in >= 8 ? "#" : in >= 4 ? "+" : ".";
			canvas_text(c, x + i, y + rows - 1 - r, ROLE_SPARK, g, 1);
		}
	}
}

/* One stacked chart: its rule (name, now, range) and rows of bars, or why it is missing. */
static void panel(struct canvas *c, int y, int rows, const char *name, const char *unit, const double *col,
		  int ncol, const char *why, const char *extra)
{
	double lo = INFINITY, hi = -INFINITY, now = NAN;
	for (int i = 0; i < ncol; i++)
		if (isfinite(col[i])) {
			lo = col[i] < lo ? col[i] : lo;
			hi = col[i] > hi ? col[i] : hi;
			now = col[i];
		}
	char title[160], a[16], b[16], n[16];
	if (isfinite(now)) {
		num_fit(n, sizeof n, now, 7);
		num_fit(a, sizeof a, lo, 7);
		num_fit(b, sizeof b, hi, 7);
		snprintf(title, sizeof title, "%s %s %s (%s-%s)%s", name, n, unit, a, b, extra ? extra : "");
	} else {
		snprintf(title, sizeof title, "%s%s", name, extra ? extra : "");
	}
	canvas_rule(c, 0, y, c->w, ROLE_BORDER, title, ROLE_HEADER);
	if (!isfinite(now)) {
		char msg[300];
		snprintf(msg, sizeof msg, "%s", why && *why ? why : "no reading yet");
		canvas_text(c, 2, y + 1 + (rows - 1) / 2, ROLE_DIM, msg, c->w - 3);
		return;
	}
	/* a flat line sits mid-height; else the range fills the rows, a floor of 1% of the value */
	double pad = (hi - lo) * 0.1;
	if (hi - lo < fabs(hi) * 0.01)
		pad = fabs(hi) * 0.01 + 1e-9;
	chart(c, 1, y + 1, ncol, rows, col, lo - pad, hi + pad);
}

/* The line that says where the check is, in words. */
static void state_line(const struct app *a, const struct view *w, struct canvas *c, int y)
{
	const struct live *l = &a->live;
	const struct run *r = l->run;
	const struct test_result *t = thermal_test(r);
	char buf[256], tm[16], of[16];
	int role = ROLE_RUNNING;
	int x = 1;
	if (t)
		x += canvas_printf(c, x, y, ROLE_HEADER, "%s %s%d ", t->id, c->utf8 ? "×" : "x", r->blocks[0].copies);
	if (l->running && w->in.n == 0 && l->ev.kind != EV_SAMPLE_BEGIN && l->ev.kind != EV_SAMPLE_READY &&
	    !(l->ev.kind == EV_TICK && live_copies(l) > 0)) {
		fmt_duration(tm, sizeof tm, l->ev.sample_elapsed);
		fmt_duration(of, sizeof of, l->ev.sample_length);
		snprintf(buf, sizeof buf, "idle baseline %s of %s: the sensors at rest", tm, of);
		role = ROLE_DIM;
	} else {
		const char *what = w->v.headline;
		switch (w->v.state) {
		case THERMAL_THROTTLING: role = ROLE_HOT; break;
		case THERMAL_FALLEN: role = ROLE_WARN; break;
		case THERMAL_TURBO: role = ROLE_WARN; break;
		case THERMAL_WARMING: role = ROLE_RUNNING; break;
		default: role = l->running ? ROLE_RUNNING : ROLE_DONE; break;
		}
		if (w->v.state == THERMAL_SHORT)
			what = "starting";
		int k = l->running ? l->ev.sample + 1 : w->in.n;
		if (l->running && l->ev.nsamples > 0)
			snprintf(buf, sizeof buf, "sample %d of %d %s %s", k, l->ev.nsamples, c->utf8 ? "·" : "-",
				 what);
		else
			snprintf(buf, sizeof buf, "%s%s %s %s", l->aborted || r->incomplete ? "stopped" : "done",
				 a->replay ? "" : "", c->utf8 ? "·" : "-", what);
	}
	canvas_text(c, x, y, role, buf, c->w - x - 1);
}

/* Per-CPU clocks now (live) or their last recorded values (replay, after). */
/* s without its parenthesised asides ("temperature (no hwmon ...); a moving
 * clock (...)" as "temperature; a moving clock"): the names alone, when the
 * reasons do not fit (the charts above say them). */
static void without_asides(char *out, size_t len, const char *s)
{
	size_t o = 0;
	int depth = 0;
	for (; *s && o + 1 < len; s++) {
		if (*s == '(')
			depth++;
		if (!depth && !(*s == ' ' && s[1] == '('))
			out[o++] = *s;
		if (*s == ')' && depth)
			depth--;
	}
	out[o] = '\0';
}

static void cpus_line(const struct live *l, const struct view *w, struct canvas *c, int y)
{
	char buf[512] = "";
	size_t u = 0;
	const struct telemetry_frame *f = w->f;
	if (f && f->ncpus > 0 && l->running) {
		double sum = 0;
		int n = 0;
		for (int i = 0; i < f->ncpus && u < sizeof buf; i++)
			if (isfinite(f->mhz[i])) {
				u += (size_t)snprintf(buf + u, sizeof buf - u, " cpu%d %.0f", f->cpu[i], f->mhz[i]);
				sum += f->mhz[i];
				n++;
			}
		if (n) { /* the mean first: with many CPUs the line is cut at the right */
			char all[512];
			snprintf(all, sizeof all, " mean %.0f ·%s", sum / n, buf);
			snprintf(buf, sizeof buf, "%s", all);
		}
	} else {
		for (int i = 0; i < 64 && u < sizeof buf; i++) {
			char name[32];
			snprintf(name, sizeof name, "freq.cpu%d", i);
			const struct series *s = run_find_series(l->run, name);
			int n = s ? live_series_points(l, s) : 0;
			if (n)
				u += (size_t)snprintf(buf + u, sizeof buf - u, " cpu%d %.0f", i, s->v[n - 1]);
		}
	}
	int x = 1 + canvas_text(c, 1, y, ROLE_DIM, "MHz per CPU", -1);
	if (buf[0])
		fmt_text_fit(c, x, y, ROLE_NORMAL, buf, c->w - x - 1);
	else
		canvas_printf(c, x + 1, y, ROLE_DIM, "%s", w->in.freq_why ? w->in.freq_why : "no reading yet");
}

static void throttle_line(const struct view *w, struct canvas *c, int y)
{
	int x = 1 + canvas_text(c, 1, y, ROLE_DIM, "throttle ", -1);
	char buf[200];
	if (isfinite(w->v.throttle_events)) {
		snprintf(buf, sizeof buf, "+%.0f events since the load began", w->v.throttle_events);
		if (isfinite(w->in.throttle_ms) && w->in.throttle_ms > 0)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", %.0f ms throttled", w->in.throttle_ms);
		canvas_text(c, x, y, w->v.throttle_events > 0 ? ROLE_HOT : ROLE_NORMAL, buf, c->w - x - 1);
	} else {
		snprintf(buf, sizeof buf, "n/a: %s", w->in.throttle_why ? w->in.throttle_why : "no reading yet");
		fmt_text_fit(c, x, y, ROLE_DIM, buf, c->w - x - 1);
	}
}

/* The verdict, wrapped over rows (the whole text is in kbench show). */
static void verdict_lines(const struct view *w, struct canvas *c, int y, int rows)
{
	char text[1200];
	snprintf(text, sizeof text, "%s %s%s%s", w->v.thermal_line, w->v.score_line,
		 w->v.start_line[0] ? " " : "", w->v.start_line);
	const char *s = text;
	int width = c->w - 2;
	for (int r = 0; r < rows && *s; r++) {
		int len = (int)strlen(s), cut = len;
		/* columns, not bytes: count code points */
		int cols = 0, i = 0, last_space = -1;
		for (i = 0; s[i] && cols < width; i++) {
			if (((unsigned char)s[i] & 0xc0) != 0x80)
				cols++;
			if (s[i] == ' ')
				last_space = i;
		}
		if (s[i] && last_space > 0)
			cut = last_space;
		else if (s[i])
			cut = i;
		char line[512];
		snprintf(line, sizeof line, "%.*s", cut, s);
		canvas_text(c, 1, y + r, r == 0 && w->v.state == THERMAL_THROTTLING ? ROLE_HOT : ROLE_NORMAL, line,
			    width);
		s += cut;
		while (*s == ' ')
			s++;
		(void)len;
	}
}

static void thermal_draw(struct app *a, struct canvas *c)
{
	const struct live *l = &a->live;
	char right[96], el[16], left[16];
	fmt_duration(el, sizeof el, live_now(l));
	fmt_duration(left, sizeof left, live_remaining(l));
	if (l->running)
		snprintf(right, sizeof right, "elapsed %s  left ~%s", el, left);
	else
		snprintf(right, sizeof right, "%s%s", a->run && a->run->meta.id[0] ? "saved as " : "not saved",
			 a->run ? a->run->meta.id : "");
	app_draw_title(a, c, "Thermal check", right);
	if (!l->run)
		return;
	struct view w;
	view_make(l, a->replay ? 0 : a->req.run.timed_seconds / 60, &w);
	state_line(a, &w, c, 1);
	/* four charts on one axis; three text lines under them; the rest for the verdict */
	int text = l->running ? 3 : 4;
	int rows = (c->h - 3 - 1 - 1 - text) / 4 - 1; /* title, message, key bar; state; axis */
	if (rows < 1)
		rows = 1;
	int ncol = c->w - 2;
	double *col = calloc((size_t)ncol, sizeof *col);
	if (!col)
		abort();
	const struct test_result *t = thermal_test(l->run);
	int y = 2;
	char extra[64] = "";
	if (isfinite(w.v.first) && isfinite(w.v.sustained) && w.in.n >= 3) {
		char f[16];
		num_fit(f, sizeof f, w.v.first, 7);
		snprintf(extra, sizeof extra, " first %s, last %.0f%%", f, w.v.sustained * 100);
	}
	columns_of_points(&w, get_rate, col, ncol);
	panel(c, y, rows, "score", t ? t->unit : "", col, ncol, "waiting for the first sample", extra);
	y += rows + 1;
	columns_of_points(&w, get_mhz, col, ncol);
	panel(c, y, rows, "clock", "MHz", col, ncol, w.in.freq_why, w.in.clock_fixed ? " never moves" : NULL);
	y += rows + 1;
	columns_of_points(&w, get_temp, col, ncol);
	char lim[32] = "";
	if (w.in.temp_limit > 0)
		snprintf(lim, sizeof lim, " limit %.0f", w.in.temp_limit);
	panel(c, y, rows, "temp", "°C", col, ncol, w.in.temp_why, lim[0] ? lim : NULL);
	y += rows + 1;
	columns_of_points(&w, get_watts, col, ncol);
	panel(c, y, rows, "power", "W", col, ncol, w.in.power_why, NULL);
	y += rows + 1;
	free(col);
	/* the time axis, with the moments the verdict names: a mark keeps its
	 * column, a label gives way so that it stays whole */
	char lab[3][16];
	int marks[2], nm = 0, want[3], lw[3], at[3];
	fmt_duration(lab[0], sizeof lab[0], 0);
	fmt_duration(lab[1], sizeof lab[1], w.span);
	fmt_duration(lab[2], sizeof lab[2], w.span / 2);
	for (int i = 0; i < 3; i++)
		lw[i] = canvas_strwidth(lab[i]);
	want[0] = 0, want[1] = ncol - lw[1], want[2] = ncol / 2 - lw[2] / 2;
	int fall = -1, event = -1;
	if (w.v.fall >= 0) {
		int x = (int)(w.v.fall_t / w.span * ncol);
		marks[nm++] = fall = x < ncol ? x : ncol - 1;
	}
	if (w.v.event >= 0) {
		int x = (int)(w.v.event_t / w.span * ncol);
		marks[nm++] = event = x < ncol ? x : ncol - 1;
	}
	fmt_axis_place(ncol, marks, nm, want, lw, 3, at);
	for (int i = 0; i < 3; i++)
		if (at[i] >= 0)
			canvas_text(c, 1 + at[i], y, ROLE_DIM, lab[i], -1);
	if (fall >= 0)
		canvas_text(c, 1 + fall, y, ROLE_WARN, c->utf8 ? "▼" : "v", 1);
	if (event >= 0)
		canvas_text(c, 1 + event, y, ROLE_HOT, c->utf8 ? "▲" : "^", 1);
	y++;
	if (l->running) {
		cpus_line(l, &w, c, y++);
		throttle_line(&w, c, y++);
		int x = 1 + canvas_text(c, 1, y, ROLE_DIM, "missing ", -1);
		char names[sizeof w.v.missing];
		const char *miss = w.v.missing[0] ? w.v.missing : "nothing: every source reads";
		if (canvas_strwidth(miss) > c->w - x - 1) { /* the names, without their reasons */
			without_asides(names, sizeof names, miss);
			miss = names;
		}
		fmt_text_fit(c, x, y, ROLE_DIM, miss, c->w - x - 1);
	} else {
		throttle_line(&w, c, y++);
		verdict_lines(&w, c, y, c->h - 2 - y);
	}
	free(w.p);
}

const struct screen_ops screen_thermal = {
	.name = "thermal",
	.draw = thermal_draw,
	.keys = &thermal_table,
};
