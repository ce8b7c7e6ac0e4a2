/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal check's decision, pure: when the score fell, whether the sensors say heat did it, and the sentences that say so. */
#include "thermal_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

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

/* Every figure unknown until found. */
static void verdict_init(struct thermal_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->first = v->last = v->first_pm = v->last_pm = v->sustained = NAN;
	v->level = v->noise = NAN;
	v->fall = v->event = -1;
	v->fall_t = v->fall_pct = v->fall_temp = v->fall_mhz = v->fall_others = v->event_t = NAN;
	v->throttle_events = v->throttle_ms = NAN;
	v->mhz_start = v->mhz_min = v->temp_start = v->temp_max = NAN;
	v->joules = v->watts = v->per_joule = NAN;
}

/* What the sensors could show at all, and what is missing; true when the clock moves
 * (a clock that never changed shows nothing). temp_last: the last temperature read. */
static bool sensors_seen(const struct thermal_inputs *in, const struct thermal_point *p, int n,
			 struct thermal_verdict *v, double *temp_last)
{
	*temp_last = NAN;
	for (int k = 0; k < n; k++) {
		if (isfinite(p[k].temp)) {
			if (isnan(v->temp_start))
				v->temp_start = p[k].temp;
			*temp_last = p[k].temp;
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
	return clock;
}

static void energy(const struct thermal_inputs *in, const struct thermal_point *p, int n,
		   struct thermal_verdict *v)
{
	char a[48];
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

}

/* A start that was not cold, or on battery. */
static void start_state(const struct thermal_inputs *in, struct thermal_verdict *v, const char *lim)
{
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

}

/* The first and last windows, the start level and its noise, and where the score fell
 * below it (the fall); base: how many first samples set the level. */
static void windows_and_fall(const struct thermal_point *p, int n, struct thermal_verdict *v, int *base_out)
{
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
	*base_out = base;
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

}

static void evidence(const struct thermal_inputs *in, const struct thermal_point *p, int n, int base,
		     struct thermal_verdict *v, const char *lim)
{
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

}

/* true (with the plateau's clock in plo) when the turbo budget ran out. */
static bool turbo_spent(const struct thermal_point *p, int n, const struct thermal_verdict *v, double *plo_out)
{
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

	*plo_out = plo;
	return turbo;
}

/* The state in words: the headline and the thermal line. */
static void state_lines(const struct thermal_inputs *in, struct thermal_verdict *v, bool turbo, double plo,
			bool clock, double temp_last, const char *lim)
{
	char a[48];
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

}

/* The score's verdict: held, rose, or fell, and why. */
static void score_line(const struct thermal_inputs *in, struct thermal_verdict *v, bool turbo)
{
	char a[48], b[48];
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

void thermal_decide(const struct thermal_inputs *in, struct thermal_verdict *v)
{
	verdict_init(v);
	int n = in->n > 0 && in->p ? in->n : 0;
	const struct thermal_point *p = in->p;
	const char *lim = in->limit_name && *in->limit_name ? in->limit_name : "limit";
	double temp_last;
	bool clock = sensors_seen(in, p, n, v, &temp_last);
	energy(in, p, n, v);
	start_state(in, v, lim);
	if (n < 3) {
		v->state = THERMAL_SHORT;
		snprintf(v->headline, sizeof v->headline, "too short to judge (%d sample%s)", n, n == 1 ? "" : "s");
		snprintf(v->thermal_line, sizeof v->thermal_line, "Too short to judge: %d sample%s (at least 3).",
			 n, n == 1 ? "" : "s");
		snprintf(v->score_line, sizeof v->score_line, "No score verdict without 3 samples.");
		return;
	}

	int base;
	windows_and_fall(p, n, v, &base);
	evidence(in, p, n, base, v, lim);
	double plo;
	bool turbo = turbo_spent(p, n, v, &plo);
	state_lines(in, v, turbo, plo, clock, temp_last, lim);
	score_line(in, v, turbo);
}
