/* The thermal check's verdict: when the score fell, whether the sensors say heat did it, and the facts and table a user can paste. */
#include "thermal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "run.h"
#include "score.h"
#include "stats.h"

/* ---- the decision (pure) ---- */

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of the finite values; NAN when none. */
static double median(const double *v, int n)
{
	double *c = malloc(((size_t)n + 1) * sizeof *c);
	if (!c)
		abort();
	int k = 0;
	for (int i = 0; i < n; i++)
		if (isfinite(v[i]))
			c[k++] = v[i];
	double m = NAN;
	if (k) {
		qsort(c, (size_t)k, sizeof *c, by_value);
		m = k % 2 ? c[k / 2] : (c[k / 2 - 1] + c[k / 2]) / 2;
	}
	free(c);
	return m;
}

void thermal_fmt_time(char *buf, size_t size, double s)
{
	if (!isfinite(s) || s < 0)
		s = 0;
	long t = lround(s);
	if (t >= 3600)
		snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

/* The geometric mean of rates [from, to) and its 95% interval as a fraction. */
static double window(const struct thermal_point *p, int from, int to, double *pm)
{
	int n = to - from, k = 0;
	double *l = malloc(((size_t)n + 1) * sizeof *l);
	if (!l)
		abort();
	for (int i = from; i < to; i++)
		if (p[i].rate > 0 && isfinite(p[i].rate))
			l[k++] = log(p[i].rate);
	double m = k ? stats_mean(l, k) : NAN;
	*pm = NAN;
	if (k >= 2) {
		double se = stats_stddev(l, k) / sqrt(k);
		*pm = exp(stats_t_quantile(0.975, k - 1) * se) - 1;
	}
	free(l);
	return k ? exp(m) : NAN;
}

static bool missing(const char *why)
{
	return why && *why;
}

/* What the work of a sample is called, for "per joule". */
static const char *work_unit(const char *unit)
{
	if (!unit || !strcmp(unit, "lps") || !strcmp(unit, "lpm"))
		return "loops";
	if (!strcmp(unit, "MWIPS"))
		return "million Whetstone instructions";
	if (!strcmp(unit, "KBps"))
		return "KB";
	return unit;
}

static void append(char *buf, size_t size, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, const char *sep, const char *fmt, ...)
{
	size_t u = strlen(buf);
	if (u && u < size)
		u += (size_t)snprintf(buf + u, size - u, "%s", sep);
	if (u >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + u, size - u, fmt, ap);
	va_end(ap);
}

void thermal_decide(const struct thermal_inputs *in, struct thermal_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->first = v->last = v->first_pm = v->last_pm = v->sustained = NAN;
	v->level = v->noise = NAN;
	v->fall = v->event = -1;
	v->fall_t = v->fall_pct = v->fall_temp = v->fall_mhz = v->fall_others = v->event_t = NAN;
	v->throttle_events = v->throttle_ms = NAN;
	v->mhz_start = v->mhz_min = v->temp_start = v->temp_max = NAN;
	v->joules = v->watts = v->per_joule = NAN;
	int n = in->n > 0 && in->p ? in->n : 0;
	const struct thermal_point *p = in->p;
	const char *lim = in->limit_name && *in->limit_name ? in->limit_name : "limit";
	char a[48], b[48];

	/* What the sensors could show at all. */
	double temp_last = NAN;
	for (int k = 0; k < n; k++) {
		if (isfinite(p[k].temp)) {
			if (isnan(v->temp_start))
				v->temp_start = p[k].temp;
			temp_last = p[k].temp;
			v->temp_max = isnan(v->temp_max) || p[k].temp > v->temp_max ? p[k].temp : v->temp_max;
		}
		if (isfinite(p[k].mhz))
			v->mhz_min = isnan(v->mhz_min) || p[k].mhz < v->mhz_min ? p[k].mhz : v->mhz_min;
		if (isfinite(p[k].throttle))
			v->throttle_events = p[k].throttle;
	}
	if (isfinite(in->throttle_ms))
		v->throttle_ms = in->throttle_ms;
	bool clock = isfinite(v->mhz_min) && !in->clock_fixed;
	v->any_sensor = isfinite(v->temp_max) || clock || isfinite(v->throttle_events);
	if (missing(in->temp_why))
		append(v->missing, sizeof v->missing, "; ", "temperature (%s)", in->temp_why);
	if (missing(in->freq_why))
		append(v->missing, sizeof v->missing, "; ", "clock (%s)", in->freq_why);
	else if (in->clock_fixed)
		append(v->missing, sizeof v->missing, "; ",
		       "a moving clock (its reading never changed: a fixed value, as a VM's /proc/cpuinfo gives)");
	if (missing(in->throttle_why))
		append(v->missing, sizeof v->missing, "; ", "throttle counters (%s)", in->throttle_why);
	if (missing(in->power_why))
		append(v->missing, sizeof v->missing, "; ", "power (%s)", in->power_why);

	/* Energy: the work done per joule, where power is known. */
	double secs = n ? p[n - 1].t + p[n - 1].len : 0, work = 0;
	for (int k = 0; k < n; k++)
		if (p[k].rate > 0 && isfinite(p[k].rate))
			work += p[k].rate * p[k].len / (in->timebase > 0 ? in->timebase : 1);
	if (isfinite(in->joules) && in->joules > 0 && secs > 0) {
		v->joules = in->joules;
		v->watts = in->joules / secs;
		v->per_joule = work / in->joules;
		thermal_fmt_time(a, sizeof a, secs);
		snprintf(v->energy_line, sizeof v->energy_line,
			 "Energy: %.0f J over %s (mean %.1f W): %.4g %s per joule.", v->joules, a, v->watts,
			 v->per_joule, work_unit(in->unit));
	} else {
		snprintf(v->energy_line, sizeof v->energy_line, "Energy: n/a (%s).",
			 missing(in->power_why) ? in->power_why : "no energy reading over the samples");
	}

	/* A start that was not cold. */
	if (isfinite(in->idle_temp_start) && in->temp_limit > 0 &&
	    in->idle_temp_start >= in->temp_limit - THERMAL_WARM_MARGIN) {
		v->warm_start = true;
		snprintf(v->start_line, sizeof v->start_line,
			 "The CPU was already warm at the start (%.0f °C idle, %s %.0f): it had less headroom "
			 "than a cold start; let it cool (or run again) before comparing.",
			 in->idle_temp_start, lim, in->temp_limit);
	} else if (!in->idle_steady && isfinite(in->idle_temp_start) && isfinite(in->idle_temp_end) &&
		   in->idle_temp_start - in->idle_temp_end >= 3) {
		v->cooling_start = true;
		snprintf(v->start_line, sizeof v->start_line,
			 "The CPU was still cooling in the idle baseline (%.0f to %.0f °C): the load started warm.",
			 in->idle_temp_start, in->idle_temp_end);
	}

	if (in->on_battery)
		append(v->start_line, sizeof v->start_line, " ",
		       "On battery: the firmware's power limits and the governor differ from mains power; "
		       "compare checks made on the same power.");

	if (n < 3) {
		v->state = THERMAL_SHORT;
		snprintf(v->headline, sizeof v->headline, "too short to judge (%d sample%s)", n, n == 1 ? "" : "s");
		snprintf(v->thermal_line, sizeof v->thermal_line, "Too short to judge: %d sample%s (at least 3).",
			 n, n == 1 ? "" : "s");
		snprintf(v->score_line, sizeof v->score_line, "No score verdict without 3 samples.");
		return;
	}

	/* The first and last windows: a minute each, at most a third of the check, at least 3 samples. */
	int ref = 0;
	while (ref < n && p[ref].t < THERMAL_WINDOW_SECONDS - 1e-9)
		ref++;
	int cap = n / 3 > 3 ? n / 3 : 3;
	if (ref > cap)
		ref = cap;
	if (ref < 3)
		ref = 3;
	v->ref_n = ref;
	for (int k = 0; k < ref; k++)
		v->ref_seconds += p[k].len;
	v->first = window(p, 0, ref, &v->first_pm);
	v->last = window(p, n - ref, n, &v->last_pm);
	v->sustained = v->last / v->first;

	/* The start level and its noise: the median of the first samples (up to
	 * ten, so a throttle in the first minute is not averaged into the level)
	 * and their robust spread. */
	int base = ref < 10 ? ref : 10;
	double lr[16], dev[16];
	for (int k = 0; k < base; k++)
		lr[k] = p[k].rate > 0 ? log(p[k].rate) : NAN;
	double level = median(lr, base);
	for (int k = 0; k < base; k++)
		dev[k] = fabs(lr[k] - level);
	double sd = 1.4826 * median(dev, base);
	double thr = 1 - exp(-THERMAL_FALL_SDS * (isfinite(sd) ? sd : 0));
	if (thr < THERMAL_FALL_MIN)
		thr = THERMAL_FALL_MIN;
	v->level = exp(level);
	v->noise = thr;
	double cut = level + log(1 - thr);
	for (int k = 1; k < n && v->fall < 0; k++) {
		int need = n - k < THERMAL_FALL_RUN ? n - k : THERMAL_FALL_RUN;
		if (need < 2 && n > 2)
			break; /* one low sample at the very end is not a fall */
		bool below = true;
		for (int j = k; j < k + need && below; j++)
			below = p[j].rate > 0 && log(p[j].rate) < cut;
		if (below)
			v->fall = k;
	}
	if (v->fall >= 0) {
		/* Found where it cleared the noise; it began where the samples came
		 * nearer the fallen level than the start one. A noisy start widens the
		 * noise, so a fall found late (a second step down) is walked back over
		 * the low samples before it. */
		double fl = 0;
		int nf = 0;
		for (int k = v->fall; k < n; k++)
			if (p[k].rate > 0) {
				fl += log(p[k].rate);
				nf++;
			}
		double mid = nf ? (level + fl / nf) / 2 : level;
		while (v->fall > 1 && p[v->fall - 1].rate > 0 && log(p[v->fall - 1].rate) < mid)
			v->fall--;
	}
	if (v->fall >= 0) {
		int f = v->fall;
		double s = 0, o = 0;
		int ns = 0, no = 0;
		for (int k = f; k < n; k++) {
			if (p[k].rate > 0) {
				s += log(p[k].rate);
				ns++;
			}
			if (isfinite(p[k].others)) {
				o += p[k].others;
				no++;
			}
		}
		v->fall_t = p[f].t;
		v->fall_pct = ns ? (exp(s / ns - level) - 1) * 100 : NAN;
		v->fall_temp = p[f].temp;
		v->fall_mhz = p[f].mhz;
		v->fall_others = no ? o / no : NAN;
	}

	/* Thermal evidence: the throttle counters moved, or the clock fell below
	 * THERMAL_CLOCK_SHARE of its level at the start under the same load.
	 * Heat near the limit is named with them; alone it slowed nothing. */
	double mhz0[16];
	for (int k = 0; k < base; k++)
		mhz0[k] = p[k].mhz;
	v->mhz_start = in->clock_fixed ? NAN : median(mhz0, base);
	double hot = in->temp_limit > 0 ? in->temp_limit - THERMAL_HEAT_MARGIN : INFINITY;
	double mhz_after = NAN;
	for (int k = 0; k < n; k++) {
		bool c = isfinite(p[k].throttle) && p[k].throttle > 0.5;
		bool cl = isfinite(v->mhz_start) && isfinite(p[k].mhz) &&
			  p[k].mhz < v->mhz_start * THERMAL_CLOCK_SHARE;
		if (v->event < 0 && (c || cl)) {
			v->event = k;
			v->event_t = p[k].t;
		}
		if (v->event < 0)
			continue;
		v->counters |= c;
		v->clock |= cl;
		v->heat |= isfinite(p[k].temp) && p[k].temp >= hot;
		if (isfinite(p[k].mhz))
			mhz_after = isnan(mhz_after) || p[k].mhz < mhz_after ? p[k].mhz : mhz_after;
	}
	if (v->event >= 0) {
		if (v->counters) {
			append(v->cause, sizeof v->cause, "; ", "throttle counters moved (+%.0f", v->throttle_events);
			if (isfinite(v->throttle_ms) && v->throttle_ms > 0)
				append(v->cause, sizeof v->cause, ", ", "%.0f ms)", v->throttle_ms);
			else
				append(v->cause, sizeof v->cause, "", ")");
		}
		if (v->clock)
			append(v->cause, sizeof v->cause, "; ", "clock %.0f MHz (was %.0f)", mhz_after, v->mhz_start);
		if (v->heat)
			append(v->cause, sizeof v->cause, "; ", "%.0f °C near %s %.0f", v->temp_max, lim,
			       in->temp_limit);
		else if (isfinite(p[v->event].temp))
			append(v->cause, sizeof v->cause, "; ", "%.0f °C then", p[v->event].temp);
		if (!v->counters && !v->heat)
			append(v->cause, sizeof v->cause, "; ", "%s",
			       isfinite(v->throttle_events) ? "no throttle counter moved: a power or turbo limit"
							    : "a power, turbo or heat limit");
	}

	/* A turbo budget spent, not throttling: the clock fell once, to a level
	 * it then held, after at least one sample at the start level, while the
	 * temperature (known) stayed below the limit and no throttle counter
	 * moved. The firmware keeps to its sustained power limit after its time
	 * window; heat had no part. */
	bool turbo = v->event > 0 && v->clock && !v->counters && !v->heat && isfinite(v->temp_max);
	double plo = NAN, phi = NAN;
	for (int k = v->event; turbo && k < n; k++)
		if (isfinite(p[k].mhz)) {
			plo = fmin(plo, p[k].mhz);
			phi = fmax(phi, p[k].mhz);
		}
	turbo = turbo && isfinite(plo) && phi - plo <= THERMAL_TURBO_PLATEAU * phi;

	/* The state in words, and the two verdicts. */
	if (turbo) {
		v->state = THERMAL_TURBO;
		thermal_fmt_time(a, sizeof a, v->event_t);
		snprintf(v->headline, sizeof v->headline, "turbo budget spent at %s: %.0f MHz sustained", a, plo);
		int u = snprintf(v->thermal_line, sizeof v->thermal_line,
				 "No throttling: the turbo budget ran out at %s (sample %d): the clock fell from %.0f to "
				 "a steady %.0f MHz with the CPU at %.0f °C",
				 a, v->event + 1, v->mhz_start, plo, v->temp_max);
		if (in->temp_limit > 0)
			u += snprintf(v->thermal_line + u, sizeof v->thermal_line - (size_t)u, " (%s %.0f)", lim,
				      in->temp_limit);
		snprintf(v->thermal_line + u, sizeof v->thermal_line - (size_t)u,
			 "%s: the firmware's sustained power limit after its time window, not heat.",
			 isfinite(v->throttle_events) ? " and no throttle counter moved" : "");
	} else if (v->event >= 0) {
		v->state = THERMAL_THROTTLING;
		thermal_fmt_time(a, sizeof a, v->event_t);
		snprintf(v->headline, sizeof v->headline, "throttling since %s", a);
		snprintf(v->thermal_line, sizeof v->thermal_line, "Throttling from %s (sample %d): %s.", a,
			 v->event + 1, v->cause);
	} else {
		if (v->fall >= 0) {
			v->state = THERMAL_FALLEN;
			thermal_fmt_time(a, sizeof a, v->fall_t);
			snprintf(v->headline, sizeof v->headline, "score fell %.0f%% at %s, %s", -v->fall_pct, a,
				 v->any_sensor ? "not heat" : "no sensors");
		} else if (isfinite(temp_last) && temp_last - v->temp_start >= 3) {
			v->state = THERMAL_WARMING;
			snprintf(v->headline, sizeof v->headline, "warming: %.0f °C, +%.0f since the load began",
				 temp_last, temp_last - v->temp_start);
		} else {
			v->state = THERMAL_STEADY;
			snprintf(v->headline, sizeof v->headline, "steady");
		}
		char what[300] = "";
		if (isfinite(v->throttle_events))
			append(what, sizeof what, ", ", "no throttle counter moved");
		double hi = isfinite(v->mhz_start) && v->mhz_start > v->mhz_min ? v->mhz_start : v->mhz_min;
		if (clock && hi - v->mhz_min >= 1)
			append(what, sizeof what, ", ", "the clock held (%.0f-%.0f MHz)", v->mhz_min, hi);
		else if (clock)
			append(what, sizeof what, ", ", "the clock held at %.0f MHz", v->mhz_min);
		if (isfinite(v->temp_max)) {
			if (in->temp_limit > 0)
				append(what, sizeof what, ", ", "hottest %.0f °C (%s %.0f)", v->temp_max, lim,
				       in->temp_limit);
			else
				append(what, sizeof what, ", ", "hottest %.0f °C", v->temp_max);
		}
		if (v->any_sensor)
			snprintf(v->thermal_line, sizeof v->thermal_line, "No throttling: %s.", what);
		else
			snprintf(v->thermal_line, sizeof v->thermal_line,
				 "No throttling seen, but nothing here could show it: no temperature, clock or "
				 "throttle counters (see what is missing).");
	}

	snprintf(a, sizeof a, "%s", v->ref_seconds >= THERMAL_WINDOW_SECONDS - 1 ? "minute" : "");
	if (!a[0])
		snprintf(a, sizeof a, "%.0f s", v->ref_seconds);
	if (v->fall < 0 && isfinite(v->sustained) && v->sustained - 1 > v->noise) {
		/* no fall, but a rise beyond the noise: the start was held back, not the end */
		snprintf(v->score_line, sizeof v->score_line,
			 "Score rose beyond its noise (%.1f%%): the last %s scored %.1f%% of the first, so "
			 "something other than heat held the start back (other processes?).",
			 v->noise * 100, a, v->sustained * 100);
	} else if (v->fall < 0) {
		snprintf(v->score_line, sizeof v->score_line,
			 "Score held within its noise (%.1f%%): the last %s scored %.1f%% of the first.",
			 v->noise * 100, a, v->sustained * 100);
	} else {
		thermal_fmt_time(b, sizeof b, v->fall_t);
		int u = snprintf(v->score_line, sizeof v->score_line, "Score fell %.0f%% from %s (sample %d",
				 -v->fall_pct, b, v->fall + 1);
		if (in->clock_fixed)
			v->fall_mhz = NAN;
		if (isfinite(v->fall_temp) || isfinite(v->fall_mhz)) {
			u += snprintf(v->score_line + u, sizeof v->score_line - (size_t)u, ", at");
			if (isfinite(v->fall_temp))
				u += snprintf(v->score_line + u, sizeof v->score_line - (size_t)u, " %.0f °C",
					      v->fall_temp);
			if (isfinite(v->fall_mhz))
				u += snprintf(v->score_line + u, sizeof v->score_line - (size_t)u, " %.0f MHz",
					      v->fall_mhz);
		}
		u += snprintf(v->score_line + u, sizeof v->score_line - (size_t)u, ")");
		char why[200];
		if (turbo && v->event <= v->fall + 1)
			snprintf(why, sizeof why, " as the turbo budget ran out: its sustained power limit, not heat");
		else if (v->event >= 0 && v->event <= v->fall + 1)
			snprintf(why, sizeof why, " as the CPU slowed itself: heat or its power limit cost it");
		else if (v->event >= 0)
			snprintf(why, sizeof why, ", before any thermal evidence: the first fall was not heat");
		else if (v->any_sensor && isfinite(v->fall_others) && v->fall_others >= 0.25)
			snprintf(why, sizeof why,
				 " with no thermal evidence: background load (other processes used %.1f CPUs), not heat",
				 v->fall_others);
		else if (v->any_sensor)
			snprintf(why, sizeof why,
				 " with no thermal evidence (clock, temperature and throttle counters steady): "
				 "background load or another limit, not heat");
		else if (isfinite(v->fall_others) && v->fall_others >= 0.25)
			snprintf(why, sizeof why,
				 "; no sensor here can say whether heat played a part, but other processes used "
				 "%.1f CPUs from then on: background load", v->fall_others);
		else
			snprintf(why, sizeof why, "; no sensor here can say whether heat caused it");
		snprintf(v->score_line + u, sizeof v->score_line - (size_t)u, "%s. The last %s scored %.1f%% of the first.",
			 why, a, v->sustained * 100);
	}
}

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
	if (!r || r->meta.mode != RUN_MODE_THERMAL || r->nblocks < 1 || r->blocks[0].ntests < 1)
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
