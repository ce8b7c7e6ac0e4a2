/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal check of a run: its idle baseline, the inputs its decision (thermal_decide.c) reads from the run, and the facts and table a user can paste. */
#include "thermal_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "run.h"
#include "score.h"

/* ---- the idle baseline ---- */

bool thermal_idle_settled(const struct series *temp, double t0, double now, char *why, size_t whylen)
{
	if (now - t0 < THERMAL_IDLE_MIN)
		return false;
	int n = 0;
	for (int i = 0; temp && i < temp->n; i++)
		n += temp->t[i] >= t0 && temp->t[i] <= now;
	if (!n) {
		snprintf(why, whylen, "no temperature to wait for");
		return true;
	}
	double from = now - THERMAL_IDLE_STEADY_SECONDS, mid = now - THERMAL_IDLE_STEADY_SECONDS / 2;
	if (from < t0)
		return false;
	double lo = INFINITY, hi = -INFINITY, s1 = 0, s2 = 0;
	int n1 = 0, n2 = 0;
	for (int i = 0; i < temp->n; i++) {
		double t = temp->t[i], v = temp->v[i];
		if (t < from || t > now || !isfinite(v))
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		if (t < mid) {
			s1 += v;
			n1++;
		} else {
			s2 += v;
			n2++;
		}
	}
	if (n1 < 2 || n2 < 2 || hi - lo > THERMAL_IDLE_STEADY_C ||
	    fabs(s1 / n1 - s2 / n2) >= THERMAL_IDLE_STEADY_C / 2)
		return false;
	snprintf(why, whylen, "the temperature was steady (%.1f-%.1f °C over %.0f s)", lo, hi,
		 THERMAL_IDLE_STEADY_SECONDS);
	return true;
}

/* ---- the run's thermal check ---- */

const struct test_result *thermal_test(const struct run *r)
{
	if (!r || r->meta.mode != &thermal_mode || r->nblocks < 1 || r->blocks[0].ntests < 1)
		return NULL;
	return &r->blocks[0].tests[0];
}

bool thermal_is(const struct run *r)
{
	return thermal_test(r) != NULL;
}

/* The mean of s's points in [from, to] (up to tmax); if none there, the last point before to. */
static double mean_in(const struct series *s, double from, double to, double tmax)
{
	if (!s)
		return NAN;
	double sum = 0, last = NAN;
	int n = 0;
	for (int i = 0; i < s->n && s->t[i] <= to && s->t[i] <= tmax; i++) {
		if (s->t[i] >= from) {
			sum += s->v[i];
			n++;
		}
		last = s->v[i];
	}
	return n ? sum / n : last;
}

/* The last point at or before t (up to tmax); NAN when none. */
static double at(const struct series *s, double t, double tmax)
{
	double v = NAN;
	for (int i = 0; s && i < s->n && s->t[i] <= t + 1e-6 && s->t[i] <= tmax; i++)
		v = s->v[i];
	return v;
}

/* The first point after `from` and up to `to`: a per-sample series' value for that sample. */
static double first_after(const struct series *s, double from, double to, double tmax)
{
	for (int i = 0; s && i < s->n && s->t[i] <= tmax; i++)
		if (s->t[i] > from && s->t[i] <= to)
			return s->v[i];
	return NAN;
}

/* A source's "n/a: why" from the test's summary, or NULL when it had a value. */
static const char *why_of(const struct test_result *t, const char *key)
{
	const struct kv *kv = test_summary_get(t, key);
	if (!kv || kv->has_value)
		return NULL;
	const char *w = kv->text;
	return !strncmp(w, "n/a: ", 5) ? w + 5 : w;
}

struct thermal_point *thermal_inputs_of(const struct run *r, int nsamples, double tmax,
					struct thermal_inputs *in)
{
	memset(in, 0, sizeof *in);
	in->idle_temp_start = in->idle_temp_end = in->joules = in->throttle_ms = NAN;
	const struct test_result *t = thermal_test(r);
	if (!t || t->nsamples < 1)
		return NULL;
	int n = nsamples < 0 || nsamples > t->nsamples ? t->nsamples : nsamples;
	struct thermal_point *p = calloc((size_t)n + 1, sizeof *p);
	if (!p)
		abort();
	const struct series *temp = run_find_series(r, "temp.cpu"), *mhz = run_find_series(r, "freq.busy");
	const struct series *thr = run_find_series(r, "throttle.events"), *thr_ms = run_find_series(r, "throttle.ms");
	const struct series *watts = run_find_series(r, "power"), *energy = run_find_series(r, "energy");
	const struct series *others = run_find_series(r, "others.cpu");
	if (!mhz)
		mhz = run_find_series(r, "freq.mean");
	double t0 = n ? t->samples[0].start : 0;
	double thr0 = at(thr, t0, tmax), ms0 = at(thr_ms, t0, tmax), j0 = at(energy, t0, tmax);
	if (isnan(thr0) && thr && thr->n)
		thr0 = thr->v[0];
	double end = t0;
	for (int k = 0; k < n; k++) {
		const struct sample *s = &t->samples[k];
		double len = sample_time(s), from = s->start, to = s->start + len;
		/* the sample's work began after its workers were forked: a few ms */
		p[k].t = s->start - t0;
		p[k].len = len;
		p[k].rate = score_rate(sample_count(s), len, t->timebase);
		p[k].temp = mean_in(temp, from, to, tmax);
		p[k].mhz = mean_in(mhz, from, to, tmax);
		/* the counters read during the sample: a later reading belongs to the next one */
		double c = at(thr, to, tmax);
		p[k].throttle = isfinite(c) && isfinite(thr0) ? c - thr0 : NAN;
		p[k].watts = mean_in(watts, from, to, tmax);
		double next = k + 1 < t->nsamples ? t->samples[k + 1].start : to + 1;
		p[k].others = first_after(others, from, next + 0.3, tmax);
		end = to;
	}
	for (int m = 0; m < r->nmarkers; m++)
		if (!strcmp(r->markers[m].what, THERMAL_IDLE_STEADY_MARK) && r->markers[m].t <= tmax)
			in->idle_steady = true;
	for (int i = 0; temp && i < temp->n && temp->t[i] < t0 && temp->t[i] <= tmax; i++) {
		if (isnan(in->idle_temp_start))
			in->idle_temp_start = temp->v[i];
		in->idle_temp_end = temp->v[i];
	}
	double j1 = at(energy, end + 0.3, tmax), ms1 = at(thr_ms, end + 0.3, tmax);
	in->joules = isfinite(j0) && isfinite(j1) ? j1 - j0 : NAN;
	in->throttle_ms = isfinite(ms0) && isfinite(ms1) ? ms1 - ms0 : NAN;
	const struct series *fm = run_find_series(r, "freq.mean");
	if (fm && fm->n >= 2) {
		double lo = fm->v[0], hi = fm->v[0];
		for (int i = 1; i < fm->n; i++) {
			lo = fm->v[i] < lo ? fm->v[i] : lo;
			hi = fm->v[i] > hi ? fm->v[i] : hi;
		}
		in->clock_constant = hi - lo < 0.5;
	}
	for (int i = 0; i < r->nnotes; i++)
		if (strstr(r->notes[i], "running on battery"))
			in->on_battery = true;
	/* A VM's /proc/cpuinfo says one clock for ever; a cpufreq reading that held is evidence. */
	for (int i = 0; i < r->nnotes && in->clock_constant; i++)
		if (strstr(r->notes[i], "CPU frequency") && strstr(r->notes[i], "/proc/cpuinfo"))
			in->clock_fixed = true;
	in->n = n;
	in->p = p;
	in->unit = t->unit;
	in->timebase = t->timebase;
	const struct kv *lim = test_summary_get(t, "temp.limit");
	in->temp_limit = lim && lim->has_value ? lim->value : 0;
	in->limit_name = "limit";
	in->temp_why = why_of(t, "temp.max");
	in->freq_why = why_of(t, "freq.mean");
	in->throttle_why = why_of(t, "throttle.events");
	in->power_why = why_of(t, "energy.J");
	return p;
}

struct thermal_point *thermal_assess(const struct run *r, int nsamples, double tmax,
				     const struct thermal_live *live, struct thermal_inputs *in,
				     struct thermal_verdict *v)
{
	struct thermal_point *p = thermal_inputs_of(r, nsamples, tmax, in);
	if (live) {
		/* the sampler knows the limit and why a source is missing before the test ends */
		if (live->temp_limit > 0)
			in->temp_limit = live->temp_limit;
		if (in->clock_constant && live->freq_cpuinfo)
			in->clock_fixed = true;
		in->temp_why = live->temp_why;
		in->freq_why = live->freq_why;
		in->power_why = live->power_why;
		in->throttle_why = live->throttle_why;
	}
	thermal_decide(in, v);
	return p;
}

void thermal_finish(struct run *r)
{
	const struct test_result *ct = thermal_test(r);
	if (!ct || ct->nsamples < 1)
		return;
	struct test_result *t = &r->blocks[0].tests[0];
	struct thermal_inputs in;
	struct thermal_point *p = thermal_inputs_of(r, -1, INFINITY, &in);
	struct thermal_verdict v;
	thermal_decide(&in, &v);
	struct series *s = run_series(r, "score", t->unit);
	s->n = 0; /* made again from the samples */
	for (int k = 0; k < in.n; k++)
		series_push(s, t->samples[k].start + p[k].len, p[k].rate);
	free(p);
	static const char *const state[] = { "short", "steady", "warming", "throttling", "fallen", "turbo" };
	test_summary_set(t, "thermal.state", v.state, state[v.state]);
	test_summary_set(t, "thermal.verdict", 0, v.headline);
	struct {
		const char *key;
		double v;
	} facts[] = {
		{ "thermal.first", v.first },	      { "thermal.first_pm", v.first_pm },
		{ "thermal.last", v.last },	      { "thermal.last_pm", v.last_pm },
		{ "thermal.sustained", v.sustained }, { "thermal.window_s", v.ref_seconds },
		{ "thermal.noise", v.noise },	      { "thermal.fall_t", v.fall_t },
		{ "thermal.fall_pct", v.fall_pct },   { "thermal.fall_temp", v.fall_temp },
		{ "thermal.fall_mhz", v.fall_mhz },   { "thermal.event_t", v.event_t },
		{ "thermal.throttle_events", v.throttle_events },
		{ "thermal.throttle_ms", v.throttle_ms },
		{ "thermal.temp_max", v.temp_max },   { "thermal.mhz_start", v.mhz_start },
		{ "thermal.mhz_min", v.mhz_min },     { "thermal.energy_J", v.joules },
		{ "thermal.power_W", v.watts },	      { "thermal.per_joule", v.per_joule },
	};
	for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
		if (isfinite(facts[i].v))
			test_summary_set(t, facts[i].key, facts[i].v, NULL);
	if (v.cause[0])
		test_summary_set(t, "thermal.cause", 0, v.cause);
}

/* A sentence wrapped at 78 columns, two spaces in, four on its continuation lines. */
static void wrap(FILE *f, const char *text)
{
	int col = 2;
	bool line_start = true;
	fputs("  ", f);
	for (const char *p = text; *p;) {
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		int len = (int)(e - p);
		if (!len)
			break;
		if (!line_start && col + 1 + len > 78) {
			fputs("\n    ", f);
			col = 4;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		line_start = false;
		p = e;
	}
	fputc('\n', f);
}

static void cell(char *buf, size_t size, double v, const char *fmt)
{
	if (isfinite(v))
		snprintf(buf, size, fmt, v);
	else
		snprintf(buf, size, "n/a");
}

void thermal_print(FILE *f, const struct run *r)
{
	const struct test_result *t = thermal_test(r);
	if (!t)
		return;
	struct thermal_inputs in;
	struct thermal_point *p = thermal_inputs_of(r, -1, INFINITY, &in);
	struct thermal_verdict v;
	thermal_decide(&in, &v);
	char a[32], b[32];
	double secs = in.n ? p[in.n - 1].t + p[in.n - 1].len : 0;
	thermal_fmt_time(a, sizeof a, secs);
	char stop[240] = "";
	if (t->status == TEST_FAILED || t->status == TEST_SKIPPED)
		snprintf(stop, sizeof stop, " (stopped early: %s)", t->reason);
	else if (r->incomplete)
		snprintf(stop, sizeof stop, " (stopped early)");
	fprintf(f, "\nThermal check: %s, %d cop%s, %s of load in %d samples%s\n", t->id, r->blocks[0].copies,
		r->blocks[0].copies == 1 ? "y" : "ies", a, in.n, stop);
	wrap(f, v.thermal_line);
	wrap(f, v.score_line);
	if (isfinite(v.first)) {
		num_fit(a, sizeof a, v.first, 10);
		num_fit(b, sizeof b, v.last, 10);
		char w[24];
		if (v.ref_seconds >= THERMAL_WINDOW_SECONDS - 1)
			snprintf(w, sizeof w, "minute");
		else
			snprintf(w, sizeof w, "%.0f s", v.ref_seconds);
		char line[200];
		snprintf(line, sizeof line, "First %s %s %s +-%.1f%%, last %s %s %s +-%.1f%%, sustained %.1f%%.", w,
			 a, t->unit, v.first_pm * 100, w, b, t->unit, v.last_pm * 100, v.sustained * 100);
		wrap(f, line);
	}
	wrap(f, v.energy_line);
	if (v.start_line[0])
		wrap(f, v.start_line);
	if (v.missing[0]) {
		char m[sizeof v.missing + 32];
		snprintf(m, sizeof m, "Missing here: %s.", v.missing);
		wrap(f, m);
	}
	if (!in.n) {
		free(p);
		return;
	}
	/* A minute a row; a short check in about six rows of whole 5 s steps. */
	double step = 60;
	if (secs < 180)
		step = ceil(secs / 6 / 5) * 5;
	if (step < 5)
		step = 5;
	if (step >= 60)
		fprintf(f, "\nPer minute:\n");
	else
		fprintf(f, "\nPer %.0f s:\n", step);
	/* "°C" is two bytes in one column */
	fprintf(f, "  %7s %10s %6s %6s %7s %6s %8s\n", "time", "score", "vs 1st", "MHz", "°C", "W", "throttle");
	double prev_thr = 0;
	for (int k = 0, row = 0; k < in.n; row++) {
		double from = row * step, sum = 0, mhz = 0, tc = 0, w = 0, thr = NAN;
		int ns = 0, nm = 0, nt = 0, nw = 0;
		bool fall = false, event = false;
		for (; k < in.n && p[k].t < from + step - 1e-9; k++) {
			if (p[k].rate > 0) {
				sum += log(p[k].rate);
				ns++;
			}
			if (isfinite(p[k].mhz))
				mhz += p[k].mhz, nm++;
			if (isfinite(p[k].temp))
				tc += p[k].temp, nt++;
			if (isfinite(p[k].watts))
				w += p[k].watts, nw++;
			if (isfinite(p[k].throttle))
				thr = p[k].throttle;
			fall |= k == v.fall;
			event |= k == v.event;
		}
		if (!ns && !nm)
			continue;
		char tm[16], sc[16], vs[16], mh[16], te[16], wa[16], th[16];
		thermal_fmt_time(tm, sizeof tm, from);
		double score = ns ? exp(sum / ns) : NAN;
		if (isfinite(score))
			num_fit(sc, sizeof sc, score, 10);
		else
			snprintf(sc, sizeof sc, "n/a");
		cell(vs, sizeof vs, isfinite(v.first) ? score / v.first * 100 : NAN, "%.1f%%");
		cell(mh, sizeof mh, nm ? mhz / nm : NAN, "%.0f");
		cell(te, sizeof te, nt ? tc / nt : NAN, "%.1f");
		cell(wa, sizeof wa, nw ? w / nw : NAN, "%.1f");
		if (isfinite(thr)) {
			snprintf(th, sizeof th, "+%.0f", thr - prev_thr);
			prev_thr = thr;
		} else {
			snprintf(th, sizeof th, "n/a");
		}
		fprintf(f, "  %7s %10s %6s %6s %6s %6s %8s%s%s\n", tm, sc, vs, mh, te, wa, th,
			event ? (v.state == THERMAL_TURBO ? "  <- turbo budget spent" : "  <- throttling") : "",
			fall ? "  <- score fell" : "");
	}
	free(p);
}
