/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small hand-written SVG and HTML pieces for the HTML report: escaping, axis ticks, series decimation, charts. */
#include "svg.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ---- */

/* A character that continues a path component: "/home/ann" is not "/home/anna". */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || (unsigned char)c >= 0x80;
}

void html_text(FILE *f, const char *s, const char *home)
{
	size_t hl = home && strcmp(home, "/") ? strlen(home) : 0;
	while (hl > 1 && home[hl - 1] == '/')
		hl--;
	for (const char *start = s; s && *s; s++) {
		/* the home itself, not the end of a longer path: "/srv/root/x" keeps "/root" */
		if (hl && !strncmp(s, home, hl) && !name_char(s[hl]) && (s == start || !name_char(s[-1]))) {
			fputc('~', f);
			s += hl - 1;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' ? '?' : *s, f);
		}
	}
}

/* ---- axes ---- */

static double nice_step(double span, int want)
{
	double raw = span / (want > 1 ? want : 1);
	double p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

int svg_ticks(double *lo, double *hi, int want, double *out, int max)
{
	if (!isfinite(*lo) || !isfinite(*hi)) {
		*lo = 0;
		*hi = 1;
	}
	if (*hi < *lo) {
		double x = *lo;
		*lo = *hi;
		*hi = x;
	}
	if (*hi - *lo < 1e-9 * (fabs(*hi) + 1)) {
		double pad = fabs(*hi) > 0 ? fabs(*hi) * 0.05 : 1;
		*lo -= pad;
		*hi += pad;
	}
	double step = nice_step(*hi - *lo, want);
	*lo = floor(*lo / step + 1e-9) * step;
	*hi = ceil(*hi / step - 1e-9) * step;
	int n = 0;
	for (double v = *lo; v <= *hi + step * 1e-6 && n < max; v += step)
		out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

/* Steps a time axis reads well in: seconds, then minutes. */
static double time_step(double span)
{
	static const double steps[] = { 0.1, 0.2, 0.5, 1,   2,	 5,   10,   15,
					30,  60,  120, 300, 600, 900, 1800, 3600 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (span / steps[i] <= 8)
			return steps[i];
	return nice_step(span, 8);
}

void svg_fmt_time(char *buf, size_t size, double secs)
{
	if (fabs(secs) < 120)
		snprintf(buf, size, "%g s", round(secs * 10) / 10);
	else
		snprintf(buf, size, "%d:%02d", (int)(secs / 60), (int)fmod(round(secs), 60));
}

/* A tick label: at most 4 significant digits, with k, M or G, never an exponent. */
static void fmt_num(char *buf, size_t size, double v)
{
	static const struct {
		double at, div;
		const char *suffix;
	} si[] = {
		{ 1e9, 1e9, "G" },
		{ 1e6, 1e6, "M" },
		{ 1e4, 1e3, "k" },
	};
	for (size_t i = 0; i < sizeof si / sizeof si[0]; i++)
		if (fabs(v) >= si[i].at) {
			snprintf(buf, size, "%.4g%s", v / si[i].div, si[i].suffix);
			return;
		}
	snprintf(buf, size, "%.4g", fabs(v) < 1e-12 ? 0 : v);
}

/* ---- decimation ---- */

int svg_decimate(const double *t, const double *v, int n, double t0, double t1, int ncols,
		 struct svg_col *out)
{
	if (ncols <= 0 || !(t1 > t0))
		return 0;
	int used = 0, cur = -1;
	for (int i = 0; i < n; i++) {
		if (!isfinite(t[i]) || !isfinite(v[i]) || t[i] < t0 || t[i] > t1)
			continue;
		int col = (int)((t[i] - t0) / (t1 - t0) * ncols);
		if (col >= ncols)
			col = ncols - 1;
		if (used && col < cur)
			col = cur; /* time runs forward: a point back in time joins the open column */
		if (!used || col != cur) {
			out[used++] = (struct svg_col){ t[i], v[i], t[i], v[i], 0 };
			cur = col;
		}
		struct svg_col *c = &out[used - 1];
		if (v[i] < c->v_lo)
			c->v_lo = v[i], c->t_lo = t[i];
		if (v[i] > c->v_hi)
			c->v_hi = v[i], c->t_hi = t[i];
		c->n++;
	}
	return used;
}

/* ---- charts ---- */

/* The chart's frame in viewBox units: a 960 wide box scales to its column. */
#define CW 960
#define CH 150
#define PL 64
#define PR 948
#define PT 22
#define PB 126
#define NCOLS ((PR - PL) / 2)

static double x_of(const struct svg_chart *c, double t)
{
	return PL + (t - c->t0) / (c->t1 - c->t0) * (PR - PL);
}

/* Inside the frame with a little room, so a line at the top or bottom tick stays visible. */
static double y_of(double v, double lo, double hi)
{
	return (PB - 3) - (v - lo) / (hi - lo) * ((PB - 3) - (PT + 8));
}

static void time_axis(FILE *f, const struct svg_chart *c)
{
	double step = time_step(c->t1 - c->t0);
	for (double t = ceil(c->t0 / step) * step; t <= c->t1 + 1e-9; t += step) {
		char lab[32];
		svg_fmt_time(lab, sizeof lab, t);
		double x = x_of(c, t);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, PT, x,
			PB);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x,
			PB + 16, lab);
	}
}

/* Test boundaries, with their labels where the next one leaves room. */
static void marks(FILE *f, const struct svg_chart *c)
{
	for (int i = 0; i < c->nmarks; i++) {
		const struct svg_mark *m = &c->marks[i];
		if (m->t < c->t0 || m->t > c->t1)
			continue;
		double x = x_of(c, m->t);
		fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, PT - 4,
			x, PB);
		if (!m->label)
			continue;
		double room = (i + 1 < c->nmarks ? x_of(c, c->marks[i + 1].t) : PR) - x;
		if (room < 7.0 * (double)strlen(m->label) + 6)
			continue;
		fprintf(f, "<text class=\"mlab\" x=\"%.1f\" y=\"%d\">", x + 3, PT - 8);
		html_text(f, m->label, c->home);
		fputs("</text>", f);
	}
}

static void spans_of(FILE *f, const struct svg_chart *c)
{
	/* spans closer than a column apart are drawn as one: the rects stay few */
	for (int i = 0; i < c->nspans;) {
		double a = fmax(c->spans[i].t0, c->t0), b = fmin(c->spans[i].t1, c->t1);
		int j = i + 1;
		for (; j < c->nspans && x_of(c, c->spans[j].t0) <= x_of(c, b) + 2; j++)
			b = fmax(b, fmin(c->spans[j].t1, c->t1));
		i = j;
		if (b < a)
			continue;
		double x0 = x_of(c, a), w = fmax(x_of(c, b) - x0, 2);
		fprintf(f,
			"<rect class=\"thr\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
			"height=\"%d\"><title>throttled</title></rect>"
			"<rect class=\"thrtop\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"6\"/>",
			x0, PT, w, PB - PT, x0, PT - 6, w);
	}
}

/* The time between samples: the span over the distinct times (a merged series
 * holds each time once per CPU). */
static double sample_interval(const double *t, int n)
{
	int distinct = 0;
	for (int i = 1; i < n; i++)
		distinct += t[i] > t[i - 1];
	return distinct ? (t[n - 1] - t[0]) / distinct : 0;
}

/* The columns as filled bands from their lowest to their highest value, one
 * polygon per stretch without a gap: the top edge forward, the bottom back. */
static void band(FILE *f, const struct svg_chart *c, const struct svg_col *sc, int ncol, double gap,
		 double lo, double hi)
{
	for (int a = 0; a < ncol;) {
		int b = a + 1;
		while (b < ncol &&
		       fmin(sc[b].t_lo, sc[b].t_hi) - fmax(sc[b - 1].t_lo, sc[b - 1].t_hi) <= gap)
			b++;
		fputs("<polygon class=\"band\" points=\"", f);
		for (int k = a; k < b; k++)
			fprintf(f, "%s%.0f,%.1f", k > a ? " " : "", x_of(c, (sc[k].t_lo + sc[k].t_hi) / 2),
				y_of(sc[k].v_hi, lo, hi) - (b - a == 1 ? 1 : 0));
		for (int k = b - 1; k >= a; k--)
			fprintf(f, " %.0f,%.1f",
				x_of(c, (sc[k].t_lo + sc[k].t_hi) / 2) + (b - a == 1 ? 3 : 0),
				y_of(sc[k].v_lo, lo, hi) + (b - a == 1 ? 1 : 0));
		fputs("\"/>", f);
		a = b;
	}
}

int svg_line_chart(FILE *f, const struct svg_chart *c)
{
	fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CW, CH);
	html_text(f, c->title, c->home);
	fputs("\"><title>", f);
	html_text(f, c->title, c->home);
	fputs("</title>", f);
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", PL, PT, PR - PL,
		PB - PT);
	struct svg_col *cols = c->t1 > c->t0 ? calloc((size_t)c->nseries * NCOLS + 1, sizeof *cols) : NULL;
	int *ncol = calloc((size_t)c->nseries + 1, sizeof *ncol);
	double lo = INFINITY, hi = -INFINITY;
	int total = 0;
	for (int s = 0; cols && ncol && s < c->nseries; s++) {
		struct svg_col *sc = cols + (size_t)s * NCOLS;
		ncol[s] = svg_decimate(c->t[s], c->v[s], c->n[s], c->t0, c->t1, NCOLS, sc);
		for (int k = 0; k < ncol[s]; k++) {
			lo = fmin(lo, sc[k].v_lo);
			hi = fmax(hi, sc[k].v_hi);
		}
		total += ncol[s];
	}
	if (!total) {
		fprintf(f,
			"<text class=\"empty\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no samples in this "
			"run</text>",
			(PL + PR) / 2, (PT + PB) / 2 + 5);
		fputs("</svg>", f);
		free(cols);
		free(ncol);
		return 0;
	}
	double ticks[16];
	int nt = svg_ticks(&lo, &hi, 4, ticks, 16);
	for (int i = 0; i < nt; i++) {
		char lab[32];
		fmt_num(lab, sizeof lab, ticks[i]);
		double y = y_of(ticks[i], lo, hi);
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", PL, y, PR,
			y);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", PL - 6,
			y + 4, lab);
	}
	fprintf(f, "<text class=\"unit\" x=\"%d\" y=\"%d\">", 4, PT - 8);
	html_text(f, c->unit, c->home);
	fputs("</text>", f);
	if (c->shared_id && c->shared_defined) {
		fprintf(f, "<use href=\"#%s\"/>", c->shared_id);
	} else {
		if (c->shared_id)
			fprintf(f, "<g id=\"%s\">", c->shared_id);
		spans_of(f, c);
		time_axis(f, c);
		marks(f, c);
		if (c->shared_id)
			fputs("</g>", f);
	}
	for (int s = 0; s < c->nseries; s++) {
		const struct svg_col *sc = cols + (size_t)s * NCOLS;
		/* a gap of several sampling intervals (a source that pauses, counters left off
		 * for a test) is left open rather than bridged by a straight line */
		double gap = fmax(4 * sample_interval(c->t[s], c->n[s]), 3 * (c->t1 - c->t0) / NCOLS);
		if (c->band) {
			band(f, c, sc, ncol[s], gap, lo, hi);
			continue;
		}
		int seg = 0;	       /* points in the open polyline */
		double px = 0, py = 0; /* its last point */
		for (int k = 0; k < ncol[s]; k++) {
			if (k == 0 ||
			    fmin(sc[k].t_lo, sc[k].t_hi) - fmax(sc[k - 1].t_lo, sc[k - 1].t_hi) > gap) {
				if (seg == 1) /* a lone point: a short dash, or it would not show */
					fprintf(f, " %.0f,%.1f", px + 3, py);
				fprintf(f, "%s<polyline class=\"line%s\" points=\"", k ? "\"/>" : "",
					c->nseries > 1 ? " thin" : "");
				seg = 0;
			} else {
				fputc(' ', f);
			}
			/* the column's low and high in the order they happened */
			bool lo_first = sc[k].t_lo <= sc[k].t_hi;
			double v1 = lo_first ? sc[k].v_lo : sc[k].v_hi,
			       v2 = lo_first ? sc[k].v_hi : sc[k].v_lo;
			px = x_of(c, lo_first ? sc[k].t_lo : sc[k].t_hi);
			py = y_of(v1, lo, hi);
			fprintf(f, "%.0f,%.1f", px, py);
			seg++;
			if (v2 != v1) {
				py = y_of(v2, lo, hi);
				fprintf(f, " %.0f,%.1f", px, py);
				seg++;
			}
		}
		if (seg == 1)
			fprintf(f, " %.0f,%.1f", px + 3, py);
		if (ncol[s])
			fputs("\"/>", f);
		if (ncol[s] == 1) /* one point: a polyline of one point draws nothing */
			fprintf(f, "<circle class=\"dot\" cx=\"%.0f\" cy=\"%.1f\" r=\"3\"/>",
				x_of(c, sc[0].t_lo), y_of(sc[0].v_lo, lo, hi));
	}
	fputs("</svg>", f);
	free(cols);
	free(ncol);
	return total;
}

/* ---- bars ---- */

#define BW 300
#define BZ 150
#define BH 20

static double bar_x(double v, double range)
{
	double x = BZ + v / range * (BZ - 8);
	return x < 2 ? 2 : x > BW - 2 ? BW - 2 : x;
}

void svg_change_bar(FILE *f, double change, double lo, double hi, double range, const char *cls)
{
	if (!(range > 0))
		range = 1;
	fprintf(f,
		"<svg class=\"bar\" viewBox=\"0 0 %d %d\" preserveAspectRatio=\"none\" "
		"aria-hidden=\"true\">",
		BW, BH);
	if (isfinite(change)) {
		double x0 = bar_x(0, range), x1 = bar_x(change, range);
		double x = fmin(x0, x1), w = fmax(fabs(x1 - x0), 1.5);
		fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"4\" width=\"%.1f\" height=\"12\"/>", cls, x,
			w);
	}
	if (isfinite(lo) && isfinite(hi)) {
		double a = bar_x(lo, range), b = bar_x(hi, range);
		fprintf(f, "<path class=\"whisk\" d=\"M%.1f 10H%.1fM%.1f 5V15M%.1f 5V15\"/>", a, b, a, b);
	}
	fprintf(f, "<line class=\"zero\" x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\"/></svg>", BZ, BZ, BH);
}

void svg_value_bar(FILE *f, double v, double max)
{
	fprintf(f,
		"<svg class=\"bar\" viewBox=\"0 0 %d %d\" preserveAspectRatio=\"none\" "
		"aria-hidden=\"true\">",
		BW, BH);
	double w = isfinite(v) && max > 0 && v > 0 ? v / max * (BW - 4) : 0;
	fprintf(f, "<rect class=\"val\" x=\"2\" y=\"4\" width=\"%.1f\" height=\"12\"/>",
		w > BW - 4 ? BW - 4 : w);
	fputs("</svg>", f);
}

/* ---- a curve on log axes ---- */

/* "512", "4K", "2M", "1G": a power-of-two size in bytes. */
static void fmt_bytes(char *buf, size_t size, double v)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T" };
	int k = 0;
	while (v >= 1024 && k < 4) {
		v /= 1024;
		k++;
	}
	snprintf(buf, size, "%.4g%s", v, suffix[k]);
}

int svg_curve_chart(FILE *f, const struct svg_curve *c)
{
	enum { H = 260, B = 230, T = 28 }; /* its own height: a curve needs more than a time series */
	fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CW, H);
	html_text(f, c->title, c->home);
	fputs("\"><title>", f);
	html_text(f, c->title, c->home);
	fputs("</title>", f);
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", PL, T, PR - PL,
		B - T);
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	int total = 0;
	for (int l = 0; l < c->nlines && l < 2; l++)
		for (int i = 0; i < c->n[l]; i++) {
			double x = c->x[l][i], y = c->y[l][i];
			if (!(x > 0) || !(y > 0) || !isfinite(x) || !isfinite(y))
				continue;
			x0 = fmin(x0, log2(x));
			x1 = fmax(x1, log2(x));
			y0 = fmin(y0, log10(y));
			y1 = fmax(y1, log10(y));
			total++;
		}
	if (!total) {
		fprintf(f, "<text class=\"empty\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no points</text></svg>",
			(PL + PR) / 2, (T + B) / 2 + 5);
		return 0;
	}
	x0 = floor(x0);
	x1 = ceil(x1);
	if (x1 <= x0)
		x1 = x0 + 1;
	y0 = floor(y0);
	y1 = ceil(y1);
	if (y1 <= y0)
		y1 = y0 + 1;
#define CX(lx) (PL + ((lx) - x0) / (x1 - x0) * (PR - PL))
#define CY(ly) (B - ((ly) - y0) / (y1 - y0) * (B - T))
	/* x: every power of two, labelled each (every second or fourth over a wide range) */
	int every = x1 - x0 > 24 ? 4 : x1 - x0 > 8 ? 2 : 1;
	for (int e = (int)x0; e <= (int)x1; e++) {
		double px = CX(e);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", px, T, px, B);
		if ((e - (int)x0) % every)
			continue;
		char lab[16];
		if (c->xunit && !strcmp(c->xunit, "B"))
			fmt_bytes(lab, sizeof lab, ldexp(1, e));
		else
			fmt_num(lab, sizeof lab, ldexp(1, e));
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", px,
			B + 18, lab);
	}
	/* y: 1, 2 and 5 of each decade */
	for (int d = (int)y0; d <= (int)y1; d++)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double ly = d + log10(m);
			if (ly > y1 + 1e-9)
				break;
			double py = CY(ly);
			char lab[16];
			fmt_num(lab, sizeof lab, m * pow(10, d));
			fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", PL, py, PR,
				py);
			fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
				PL - 6, py + 4, lab);
		}
	fprintf(f, "<text class=\"unit\" x=\"%d\" y=\"%d\">", 4, T - 10);
	html_text(f, c->yunit ? c->yunit : "", c->home);
	fputs("</text>", f);
	for (int k = 0; k < c->nmarks; k++) {
		if (!(c->mark_x[k] > 0))
			continue;
		double lx = log2(c->mark_x[k]);
		if (lx < x0 || lx > x1)
			continue;
		double px = CX(lx);
		fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", px, T, px, B);
		if (c->mark_label && c->mark_label[k]) {
			fprintf(f, "<text class=\"mlab\" x=\"%.1f\" y=\"%d\">", px + 3, T + 14);
			html_text(f, c->mark_label[k], c->home);
			fputs("</text>", f);
		}
	}
	for (int l = 0; l < c->nlines && l < 2; l++) {
		fprintf(f, "<polyline class=\"line%s\" points=\"", l ? " second" : "");
		bool first = true;
		for (int i = 0; i < c->n[l]; i++) {
			double x = c->x[l][i], y = c->y[l][i];
			if (!(x > 0) || !(y > 0) || !isfinite(x) || !isfinite(y))
				continue;
			fprintf(f, "%s%.1f,%.1f", first ? "" : " ", CX(log2(x)), CY(log10(y)));
			first = false;
		}
		fputs("\"/>", f);
		/* the legend: a short stroke of the line's own style, then its name */
		double lx = PR - 170 + l * 85;
		fprintf(f, "<line class=\"line%s\" x1=\"%.0f\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\"/>", l ? " second" : "",
			lx, T - 14, lx + 22, T - 14);
		fprintf(f, "<text class=\"tick\" x=\"%.0f\" y=\"%d\">", lx + 26, T - 10);
		html_text(f, c->names && c->names[l] ? c->names[l] : "", c->home);
		fputs("</text>", f);
	}
#undef CX
#undef CY
	fputs("</svg>", f);
	return total;
}

/* ---- latency distributions ---- */

int svg_dist_chart(FILE *f, const char *title, const char *unit, const char *home,
		   const struct svg_dist_row *rows, int n)
{
	enum { T = 26, ROW = 22, LEFT = 150 };
	int b = T + n * ROW, h = b + 30;
	fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CW, h);
	html_text(f, title, home);
	fputs("\"><title>", f);
	html_text(f, title, home);
	fputs("</title>", f);
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < n; i++) {
		const double v[5] = { rows[i].p50, rows[i].p99, rows[i].p999, rows[i].max, rows[i].mean };
		for (int k = 0; k < 5; k++)
			if (v[k] > 0 && isfinite(v[k])) {
				lo = fmin(lo, log10(v[k]));
				hi = fmax(hi, log10(v[k]));
			}
	}
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", LEFT, T, PR - LEFT,
		b - T);
	if (!(hi >= lo)) {
		fprintf(f, "<text class=\"empty\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no latencies</text></svg>",
			(LEFT + PR) / 2, (T + b) / 2 + 5);
		return 0;
	}
	lo = floor(lo);
	hi = ceil(hi);
	if (hi <= lo)
		hi = lo + 1;
#define DX(v) (LEFT + (log10(v) - lo) / (hi - lo) * (PR - LEFT))
	for (int d = (int)lo; d <= (int)hi; d++)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double v = m * pow(10, d);
			if (log10(v) > hi + 1e-9)
				break;
			char lab[16];
			fmt_num(lab, sizeof lab, v);
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", DX(v), T, DX(v), b);
			fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", DX(v),
				b + 18, lab);
		}
	fprintf(f, "<text class=\"unit\" x=\"%d\" y=\"%d\">", PR - 40, b + 18);
	html_text(f, unit, home);
	fputs("</text>", f);
	int drawn = 0;
	for (int i = 0; i < n; i++) {
		const struct svg_dist_row *r = &rows[i];
		double y = T + i * ROW + ROW / 2.0;
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 8, y + 4);
		html_text(f, r->name, home);
		fputs("</text>", f);
		if (r->p50 > 0 && r->p99 >= r->p50)
			fprintf(f, "<rect class=\"dist\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\"/>", DX(r->p50),
				y - 4, fmax(DX(r->p99) - DX(r->p50), 1.5));
		if (r->p99 > 0 && r->max >= r->p99)
			fprintf(f, "<line class=\"whisk\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", DX(r->p99), y,
				DX(r->max), y);
		if (r->p999 > 0)
			fprintf(f, "<line class=\"whisk\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", DX(r->p999),
				y - 6, DX(r->p999), y + 6);
		if (r->mean > 0)
			fprintf(f, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", DX(r->mean), y);
		drawn += r->p50 > 0;
	}
#undef DX
	fputs("</svg>", f);
	return drawn;
}
