/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's charts: the points tests' curves and percentiles, and the telemetry through the run. */
#include "report_html_charts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare.h"
#include "family.h"
#include "fileio.h"
#include "html.h"
#include "report.h"
#include "run.h"
#include "tests.h"
#include "svg.h"

/* ---- points tests' curves ---- */

/* The line a curve point belongs to: its name without the digits that say
 * where it lies ("fwd 4096" and "rnd 4096": "fwd" and "rnd"; "-j2 user":
 * "-j user"), trimmed. */
static void line_key(char *buf, size_t size, const char *name)
{
	size_t n = 0;
	for (const char *p = name; *p && n + 1 < size; p++)
		if ((*p < '0' || *p > '9') && !(*p == ' ' && (n == 0 || buf[n - 1] == ' ')))
			buf[n++] = *p;
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

/* A chart needs a curve: a line over fewer sizes or counts than this is the table's business. */
#define CURVE_MIN_POINTS 4

/* One chart of a points test: its points of one unit, placed on their x
 * (positive). Curve points make the lines, one per line_key (two at most);
 * a unit with headline points alone (jobs/min per task count) is one line
 * named by its unit. */
static void curve_chart(struct html *h, const struct test_result *t, int copies, const char *unit,
			bool *titled)
{
	bool curve = false;
	for (int p = 0; p < t->npoints; p++)
		curve |= !t->points[p].summary && t->points[p].x > 0 && !strcmp(t->points[p].unit, unit);
	char names[2][32] = { "", "" };
	double *xs[2] = { NULL, NULL }, *ys[2] = { NULL, NULL };
	int n[2] = { 0, 0 }, nl = 0;
	const char *xunit = "";
	for (int p = 0; p < t->npoints; p++) {
		const struct point *pt = &t->points[p];
		double v = point_mean(pt);
		if (pt->summary == curve || !(pt->x > 0) || strcmp(pt->unit, unit) || !isfinite(v))
			continue;
		char key[32];
		if (curve)
			line_key(key, sizeof key, pt->name);
		else
			snprintf(key, sizeof key, "%s", unit);
		int l = 0;
		while (l < nl && strcmp(names[l], key))
			l++;
		if (l == nl) {
			if (nl == 2)
				continue; /* two lines at most */
			snprintf(names[l], sizeof names[l], "%s", key);
			xs[l] = calloc((size_t)t->npoints, sizeof *xs[l]);
			ys[l] = calloc((size_t)t->npoints, sizeof *ys[l]);
			if (!xs[l] || !ys[l])
				break;
			nl++;
		}
		xs[l][n[l]] = pt->x;
		ys[l][n[l]++] = v;
		xunit = pt->xunit;
	}
	if (nl && n[0] >= CURVE_MIN_POINTS) {
		if (!*titled)
			html_out(h, "<h2>Curves</h2>");
		*titled = true;
		double mx[8];
		char labs[8][24];
		const char *ml[8];
		int nm = 0;
		for (int k = 0; k < t->nsummary && nm < 8; k++) {
			if (t->summary[k].role != KV_MARK)
				continue;
			snprintf(labs[nm], sizeof labs[nm], "%s", t->summary[k].mark);
			ml[nm] = labs[nm];
			mx[nm++] = t->summary[k].value;
		}
		char ttl[160];
		snprintf(ttl, sizeof ttl, "%s, %d cop%s: %s against %s", t->label, copies, copies == 1 ? "y" : "ies",
			 unit, !strcmp(xunit, "B") ? "the working set" : xunit);
		html_out(h, "<h3>");
		html_esc(h, ttl);
		html_out(h, "</h3>");
		const char *nm2[2] = { names[0], names[1] };
		const double *cx[2] = { xs[0], xs[1] }, *cy[2] = { ys[0], ys[1] };
		svg_curve_chart(h->f, &(struct svg_curve){ .title = ttl, .xunit = xunit, .yunit = unit,
							   .home = h->home, .nlines = nl, .names = nm2, .x = cx,
							   .y = cy, .n = n, .nmarks = nm, .mark_x = mx,
							   .mark_label = ml });
	}
	for (int l = 0; l < 2; l++) {
		free(xs[l]);
		free(ys[l]);
	}
}

/* A test's distributions (a latency test's phases: the points its family
 * describes as their p50, p99, p99.9, max and mean) as one row each; false
 * when the test has none with a median. */
static bool percentile_chart(struct html *h, const struct test_result *t, int copies, bool *titled)
{
	struct svg_dist_row rows[24];
	char names[24][32];
	const char *unit = "";
	int n = 0;
	for (int p = 0; p < t->npoints; p++) {
		const struct point *pt = &t->points[p];
		double v = point_mean(pt);
		if (pt->stat == POINT_VALUE || !isfinite(v))
			continue;
		int r = 0;
		while (r < n && strcmp(names[r], pt->dist))
			r++;
		if (r == n) {
			if (n == 24)
				continue;
			snprintf(names[n], sizeof names[n], "%s", pt->dist);
			rows[n] = (struct svg_dist_row){ names[n], NAN, NAN, NAN, NAN, NAN };
			n++;
		}
		double *slot = pt->stat == POINT_P50    ? &rows[r].p50
			       : pt->stat == POINT_P99  ? &rows[r].p99
			       : pt->stat == POINT_P999 ? &rows[r].p999
			       : pt->stat == POINT_MAX  ? &rows[r].max
							: &rows[r].mean;
		*slot = v;
		if (pt->stat != POINT_MEAN)
			unit = pt->unit;
	}
	bool any = false;
	for (int r = 0; r < n; r++)
		any |= isfinite(rows[r].p50);
	if (!any)
		return false;
	if (!*titled)
		html_out(h, "<h2>Curves</h2>");
	*titled = true;
	char ttl[160];
	snprintf(ttl, sizeof ttl, "%s, %d cop%s: %s, bar p50 to p99, whisker to the maximum, tick p99.9, dot the mean",
		 t->label, copies, copies == 1 ? "y" : "ies", unit);
	html_out(h, "<h3>");
	html_esc(h, ttl);
	html_out(h, "</h3>");
	svg_dist_chart(h->f, ttl, unit, h->home, rows, n);
	return true;
}

/* Each points test's charts, per copy count: one per unit of its points
 * that lie on a curve (x > 0), headline units first, in the order measured;
 * percentiles as distributions. */
void html_curves(struct html *h, const struct run *r)
{
	bool title = false; /* the section's title comes with its first chart */
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			const struct family *fam = test_result_family(t);
			if (t->kind != RESULT_POINTS || fam->html_section)
				continue; /* drawn in its family's section (its x may be no place on a curve) */
			percentile_chart(h, t, bl->copies, &title);
			const char *units[8];
			int nu = 0;
			for (int pass = 0; pass < 2; pass++)
				for (int p = 0; p < t->npoints && nu < 8; p++) {
					const struct point *pt = &t->points[p];
					/* a distribution's statistic is no place on a curve: drawn above */
					if (pt->summary != !pass || !(pt->x > 0) || pt->stat != POINT_VALUE)
						continue;
					bool seen = false;
					for (int u = 0; u < nu && !seen; u++)
						seen = !strcmp(units[u], pt->unit);
					if (!seen)
						units[nu++] = pt->unit;
				}
			for (int u = 0; u < nu; u++)
				curve_chart(h, t, bl->copies, units[u], &title);
		}
	}
}

/* ---- telemetry ---- */

/* The charts in a reading order: the score per sample (a thermal check's),
 * clock, heat, power, then the rest as stored. */
static int family_rank(const char *name)
{
	static const char *const order[] = { "score",	  "freq.",   "temp.",	"power",
					     "energy",	  "throttle.", "others.", "counter." };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (!strncmp(name, order[i], strlen(order[i])))
			return (int)i;
	return (int)(sizeof order / sizeof order[0]);
}

/* "freq.cpu3" -> length of "freq.cpu" (a per-CPU member), else 0. */
static size_t per_cpu_prefix(const char *name)
{
	const char *p = strstr(name, ".cpu");
	if (!p || !p[4])
		return 0;
	for (const char *d = p + 4; *d; d++)
		if (*d < '0' || *d > '9')
			return 0;
	return (size_t)(p + 4 - name);
}

/* The temperature sources store "C"; a reader expects the degree sign. */
static const char *c_unit(const char *unit)
{
	return strcmp(unit, "C") ? unit : "\u00b0C";
}

static const char *series_title(const char *name)
{
	static const struct {
		const char *name, *title;
	} titles[] = {
		{ "score", "Score of each sample" },
		{ "freq.mean", "CPU clock, mean over the CPUs" },
		{ "freq.busy", "CPU clock of the busy CPUs" },
		{ "temp.cpu", "CPU temperature" },
		{ "power", "Power" },
		{ "energy", "Energy used since the start" },
		{ "throttle.events", "Thermal throttle events since the start" },
		{ "throttle.ms", "Time throttled since the start" },
		{ "others.cpu", "CPUs used by other processes" },
	};
	for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
		if (!strcmp(titles[i].name, name))
			return titles[i].title;
	return NULL;
}

static int by_start(const void *x, const void *y)
{
	const struct svg_span *a = x, *b = y;
	return a->t0 < b->t0 ? -1 : a->t0 > b->t0;
}

/* Spans of time the run was throttled: where the throttle counters rose,
 * and the whole of each test the telemetry judged throttled. */
static int throttle_spans(const struct run *r, double t1, struct svg_span **out)
{
	int n = 0, cap = 16;
	struct svg_span *s = malloc((size_t)cap * sizeof *s);
	for (int i = 0; s && i < r->nseries; i++) {
		const struct series *se = &r->series[i];
		if (strcmp(se->name, "throttle.events") != 0)
			continue;
		for (int k = 1; k < se->n; k++) {
			if (!(se->v[k] > se->v[k - 1]))
				continue;
			if (n && s[n - 1].t1 >= se->t[k - 1]) {
				s[n - 1].t1 = se->t[k];
				continue;
			}
			if (n == cap) {
				struct svg_span *g = realloc(s, (size_t)(cap *= 2) * sizeof *s);
				if (!g)
					break;
				s = g;
			}
			s[n++] = (struct svg_span){ se->t[k - 1], se->t[k] };
		}
	}
	/* a test's markers: "test ID copies N" opens it, the next such marker closes it */
	for (int m = 0; s && m < r->nmarkers; m++) {
		char id[40];
		int copies;
		if (sscanf(r->markers[m].what, "test %39s copies %d", id, &copies) != 2)
			continue;
		const struct test_result *t = html_find_test(r, copies, id);
		const struct kv *kv = t ? test_summary_get(t, "throttled") : NULL;
		if (!kv || !kv->has_value || !kv->value)
			continue;
		double end = t1;
		for (int k = m + 1; k < r->nmarkers; k++)
			if (!strncmp(r->markers[k].what, "test ", 5)) {
				end = r->markers[k].t;
				break;
			}
		if (n == cap) {
			struct svg_span *g = realloc(s, (size_t)(cap *= 2) * sizeof *s);
			if (!g)
				break;
			s = g;
		}
		s[n++] = (struct svg_span){ r->markers[m].t, end };
	}
	if (s)
		qsort(s, (size_t)n, sizeof *s, by_start);
	*out = s;
	return s ? n : 0;
}

/* Per-CPU series drawn as lines up to this many; more are drawn as a band. */
#define PER_CPU_LINES 8

struct tv_point {
	double t, v;
};

static int by_time(const void *x, const void *y)
{
	const struct tv_point *a = x, *b = y;
	return a->t < b->t ? -1 : a->t > b->t;
}

/* The k series' points as one series in time order: times, then values, in
 * one malloc'd block; their count in ns[k]. NULL when out of memory. */
static double *merge_series(const double **ts, const double **vs, int *ns, int k)
{
	size_t n = 0;
	for (int i = 0; i < k; i++)
		n += (size_t)ns[i];
	struct tv_point *p = malloc((n + 1) * sizeof *p);
	double *out = malloc((2 * n + 1) * sizeof *out);
	if (!p || !out) {
		free(p);
		free(out);
		return NULL;
	}
	size_t m = 0;
	for (int i = 0; i < k; i++)
		for (int j = 0; j < ns[i]; j++)
			p[m++] = (struct tv_point){ ts[i][j], vs[i][j] };
	qsort(p, n, sizeof *p, by_time);
	for (size_t i = 0; i < n; i++) {
		out[i] = p[i].t;
		out[n + i] = p[i].v;
	}
	free(p);
	ns[k] = (int)n;
	return out;
}

/* A chart's title (into title) and its heading: series se, alone or the
 * first of k CPUs' series sharing the prefix of length pl (band: ncpus of
 * them drawn as one band). */
static void chart_heading(struct html *h, const struct series *se, size_t pl, int k, int ncpus, bool band,
			  char *title, size_t tlen)
{
	const char *nice = series_title(se->name);
	if (band)
		snprintf(title, tlen, "%.*s0..%d, lowest to highest of the CPUs", (int)pl, se->name, ncpus - 1);
	else if (pl && k > 1)
		snprintf(title, tlen, "%.*s0..%d, each CPU", (int)pl, se->name, k - 1);
	else if (!nice && !strncmp(se->name, "counter.", 8))
		snprintf(title, tlen, "%s counted per telemetry interval, all copies", se->name + 8);
	else
		snprintf(title, tlen, "%s", nice ? nice : se->name);
	html_out(h, "<h3>");
	html_esc(h, title);
	bool group = band || (pl && k > 1);
	if (nice || group || !strncmp(se->name, "counter.", 8)) {
		html_out(h, " <span class=\"dim\">(");
		html_esc(h, group ? c_unit(se->unit) : se->name);
		html_out(h, ")</span>");
	}
	html_out(h, "</h3>");
}

void html_telemetry(struct html *h, const struct run *r)
{
	html_out(h, "<h2>The machine through the run</h2>");
	if (!r->nseries) {
		html_out(h, "<p class=\"dim\">No telemetry in this run (imported, or run with "
		       "--no-telemetry).</p>");
		return;
	}
	double t1 = 0;
	for (int i = 0; i < r->nseries; i++)
		if (r->series[i].n && r->series[i].t[r->series[i].n - 1] > t1)
			t1 = r->series[i].t[r->series[i].n - 1];
	for (int m = 0; m < r->nmarkers; m++)
		if (r->markers[m].t > t1)
			t1 = r->markers[m].t;
	if (t1 <= 0)
		t1 = 1;
	/* test boundaries, labelled with the test's id (and copies beyond 1) */
	struct svg_mark *marks = calloc((size_t)r->nmarkers + 1, sizeof *marks);
	char(*labels)[48] = calloc((size_t)r->nmarkers + 1, sizeof *labels);
	int nmarks = 0;
	for (int m = 0; marks && labels && m < r->nmarkers; m++) {
		char id[40];
		int copies;
		if (sscanf(r->markers[m].what, "test %39s copies %d", id, &copies) != 2)
			continue;
		if (copies > 1)
			snprintf(labels[nmarks], sizeof labels[0], "%s x%d", id, copies);
		else
			snprintf(labels[nmarks], sizeof labels[0], "%s", id);
		marks[nmarks] = (struct svg_mark){ r->markers[m].t, labels[nmarks] };
		nmarks++;
	}
	struct svg_span *spans = NULL;
	int nspans = throttle_spans(r, t1, &spans);
	html_out(h,
	    "<p class=\"foot\">One chart per series on one time axis (seconds from the start). Dashed "
	    "lines: "
	    "where each test began. Hatched: throttled%s. Drawn at most two points per pixel column "
	    "(each column's lowest and highest); every sample is in the run file.</p>",
	    nspans ? "" : " (nothing was, as far as the telemetry saw)");
	bool *done = calloc((size_t)r->nseries + 1, sizeof *done);
	const double **ts = calloc((size_t)r->nseries + 1, sizeof *ts);
	const double **vs = calloc((size_t)r->nseries + 1, sizeof *vs);
	int *ns = calloc((size_t)r->nseries + 1, sizeof *ns);
	bool shared = false;
	for (int rank = 0; done && ts && vs && ns && rank <= family_rank(""); rank++) {
		for (int i = 0; i < r->nseries; i++) {
			const struct series *se = &r->series[i];
			if (done[i] || family_rank(se->name) != rank)
				continue;
			/* the CPUs' own series of one kind share a chart */
			size_t pl = per_cpu_prefix(se->name);
			int k = 0;
			for (int j = i; j < r->nseries; j++) {
				const struct series *o = &r->series[j];
				if (done[j] || (j != i && (!pl || per_cpu_prefix(o->name) != pl ||
							   strncmp(o->name, se->name, pl))))
					continue;
				done[j] = true;
				ts[k] = o->t;
				vs[k] = o->v;
				ns[k] = o->n;
				k++;
			}
			/* many CPUs: one band from the lowest to the highest of them per column,
			 * not a line each (64 lines would not fit the file, nor the eye) */
			double *band = k > PER_CPU_LINES ? merge_series(ts, vs, ns, k) : NULL;
			int ncpus = k;
			if (band) {
				ts[0] = band;
				vs[0] = band + ns[k];
				ns[0] = ns[k];
				k = 1;
			}
			char title[160];
			chart_heading(h, se, pl, k, ncpus, band != NULL, title, sizeof title);
			struct svg_chart c = { .title = title,
					       .unit = c_unit(se->unit),
					       .home = h->home,
					       .t0 = 0,
					       .t1 = t1,
					       .nseries = k,
					       .t = ts,
					       .v = vs,
					       .n = ns,
					       .nmarks = nmarks,
					       .marks = marks,
					       .nspans = nspans,
					       .spans = spans,
					       .shared_id = "taxis",
					       .shared_defined = shared,
					       .band = band != NULL };
			svg_line_chart(h->f, &c);
			shared = true;
			free(band);
		}
	}
	free(done);
	free(ts);
	free(vs);
	free(ns);
	free(spans);
	free(marks);
	free(labels);
}

