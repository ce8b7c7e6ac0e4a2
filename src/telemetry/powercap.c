/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RAPL's power limits (powercap constraints: PL1 long_term, PL2 short_term, peak_power) and the evidence that a package ran at one of them. */
#include "telemetry/powercap.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/sysroot.h"

static int cmp_limit(const void *a, const void *b)
{
	const struct powercap_limit *x = a, *y = b;
	int c = strcmp(x->zone, y->zone);
	return c ? c : x->idx - y->idx;
}

struct limits {
	struct powercap_limit *out;
	int n, max;
};

/* One zone's limits: 1 once out is full (the walk stops). */
static int zone_limits(const char *zone, void *arg)
{
	struct limits *ls = arg;
	if (ls->n >= ls->max)
		return 1;
	/* Top-level zones (packages, psys): a subzone's (core, uncore) limits are rarely set. */
	if (strncmp(zone, "intel-rapl:", 11) || strchr(zone + 11, ':') || strlen(zone) >= 32)
		return 0;
	char zone_name[32] = "", p[160];
	snprintf(p, sizeof p, "/sys/class/powercap/%s/name", zone);
	sysroot_read_line(p, zone_name, sizeof zone_name);
	/* Documentation/power/powercap/powercap.rst: constraint_0, _1, ... as the driver has them. */
	for (int k = 0; k < 8 && ls->n < ls->max; k++) {
		struct powercap_limit l = { .idx = k };
		snprintf(p, sizeof p, "/sys/class/powercap/%s/constraint_%d_name", zone, k);
		if (sysroot_read_line(p, l.name, sizeof l.name) < 0)
			break;
		uint64_t uw, us;
		snprintf(p, sizeof p, "/sys/class/powercap/%s/constraint_%d_power_limit_uw", zone, k);
		if (sysroot_read_u64(p, &uw) < 0 || uw == 0)
			continue; /* unreadable, or no limit set */
		snprintf(p, sizeof p, "/sys/class/powercap/%s/constraint_%d_time_window_us", zone, k);
		l.window_s = sysroot_read_u64(p, &us) == 0 ? us / 1e6 : 0;
		l.watts = uw / 1e6;
		snprintf(l.zone, sizeof l.zone, "%s", zone);
		snprintf(l.zone_name, sizeof l.zone_name, "%s", zone_name);
		ls->out[ls->n++] = l;
	}
	return 0;
}

int powercap_limits(struct powercap_limit *out, int max)
{
	struct limits ls = { out, 0, max };
	sysroot_dir_each("/sys/class/powercap", zone_limits, &ls);
	qsort(out, (size_t)ls.n, sizeof out[0], cmp_limit);
	return ls.n;
}

const char *powercap_limit_label(const struct powercap_limit *l)
{
	if (!strcmp(l->name, "long_term"))
		return "PL1";
	if (!strcmp(l->name, "short_term"))
		return "PL2";
	if (!strcmp(l->name, "peak_power"))
		return "PL4";
	return l->name;
}

bool powercap_reached(const struct powercap_limit *l, const double *t, const double *j, int n, double *watts,
		      double *span)
{
	/* peak_power has no window: it caps current, not an average a tick can see. */
	if (n < 2 || !(l->watts > 0) || !(l->window_s > 0))
		return false;
	int k = -1;
	if (l->window_s <= t[n - 1] - t[n - 2])
		k = n - 2; /* one tick holds the whole window: its average is at least the window's somewhere */
	else
		for (int i = n - 2; i >= 0; i--)
			if (t[n - 1] - t[i] >= l->window_s) {
				k = i;
				break;
			}
	if (k < 0 || isnan(j[n - 1]) || isnan(j[k]))
		return false;
	double dt = t[n - 1] - t[k];
	if (!(dt > 0))
		return false;
	*watts = (j[n - 1] - j[k]) / dt;
	*span = dt;
	return *watts >= POWERCAP_NEAR * l->watts;
}

void powercap_watch_open(struct powercap_watch *w)
{
	memset(w, 0, sizeof *w);
	w->nlim = powercap_limits(w->lim, POWERCAP_MAX_LIMITS);
}

void powercap_watch_tick(struct powercap_watch *w, double now, double (*zone_joules)(const char *zone, void *ctx),
			 void *ctx)
{
	if (!w->nlim)
		return;
	w->t[w->head] = now;
	for (int k = 0; k < w->nlim; k++)
		w->j[k][w->head] = zone_joules(w->lim[k].zone, ctx);
	w->head = (w->head + 1) % POWERCAP_HIST;
	if (w->n < POWERCAP_HIST)
		w->n++;
	if (w->n < 2)
		return;
	/* For the pure rule, only the ring's tail the window needs, oldest first:
	 * the newest point a window back (PL1: 57 of 256 at 0.5 s), or the last
	 * interval when the window is shorter. */
	int first = (w->head - w->n + POWERCAP_HIST) % POWERCAP_HIST;
#define AT(i) (((first) + (i)) % POWERCAP_HIST)
	double tn = w->t[AT(w->n - 1)];
	for (int k = 0; k < w->nlim; k++) {
		double win = w->lim[k].window_s;
		int m = w->n - 2;
		if (!(win > 0))
			continue;
		while (m >= 0 && tn - w->t[AT(m)] < win)
			m--;
		if (m < 0)
			continue; /* the history is shorter than the window: nothing decided */
		if (win <= tn - w->t[AT(w->n - 2)])
			m = w->n - 2;
		double t[POWERCAP_HIST], j[POWERCAP_HIST];
		int len = w->n - m;
		for (int i = 0; i < len; i++) {
			t[i] = w->t[AT(m + i)];
			j[i] = w->j[k][AT(m + i)];
		}
		double watts, span;
		if (powercap_reached(&w->lim[k], t, j, len, &watts, &span) && (!w->hit[k] || watts > w->hit_w[k])) {
			w->hit[k] = true;
			w->hit_w[k] = watts;
			w->hit_span[k] = span;
		}
	}
#undef AT
}

void powercap_watch_test_begin(struct powercap_watch *w)
{
	memset(w->hit, 0, sizeof w->hit);
}

static void fmt_window(char *buf, size_t size, double s)
{
	if (s >= 1)
		snprintf(buf, size, "%.1f s", s);
	else
		snprintf(buf, size, "%.2f ms", s * 1e3);
}

void powercap_watch_evidence(const struct powercap_watch *w, char *buf, size_t size)
{
	size_t l = 0;
	buf[0] = '\0';
	for (int k = 0; k < w->nlim && l < size; k++) {
		if (!w->hit[k])
			continue;
		char span[24];
		fmt_window(span, sizeof span, w->hit_span[k]);
		l += (size_t)snprintf(buf + l, size - l, "%s%s %s %.1f W: %.1f W over %s", l ? "; " : "",
				      w->lim[k].zone_name, powercap_limit_label(&w->lim[k]), w->lim[k].watts,
				      w->hit_w[k], span);
	}
}

void powercap_show(const struct powercap_watch *w, FILE *f)
{
	if (!w->nlim) {
		fprintf(f, "  power limits: none exposed (no constraint in the intel-rapl zones)\n");
		return;
	}
	for (int k = 0; k < w->nlim; k++) {
		const struct powercap_limit *l = &w->lim[k];
		char win[32] = ", no window";
		if (l->window_s > 0) {
			snprintf(win, sizeof win, " over ");
			fmt_window(win + 6, sizeof win - 6, l->window_s);
		}
		fprintf(f, "  %-14s %-12s limit %s %.1f W%s (%s)\n", l->zone, l->zone_name, powercap_limit_label(l),
			l->watts, win, l->name);
	}
}
