/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small hand-written SVG and HTML pieces for the HTML report: escaping, axis ticks, series decimation, charts. */
#ifndef KBENCH_SVG_H
#define KBENCH_SVG_H

#include <stdbool.h>
#include <stdio.h>

/* Writes s as HTML text (also safe inside a quoted attribute): & < > " ' as
 * entities, control characters as '?'. When home is a directory other than
 * "/" (normally $HOME), each occurrence of it that ends at '/' or at the end
 * of a word is written as "~", so no path of the user's home reaches the file. */
void html_text(FILE *f, const char *s, const char *home);

/* Nice axis ticks (1, 2 or 5 times a power of ten) covering [lo, hi]: widens
 * *lo and *hi to whole steps and writes at most max ticks to out. Returns how
 * many; a flat or non-finite range is widened around its value first. */
int svg_ticks(double *lo, double *hi, int want, double *out, int max);

/* One pixel column of a series: the first, lowest and highest points in it. */
struct svg_col {
	double t_lo, v_lo; /* the lowest value and when */
	double t_hi, v_hi; /* the highest */
	int n;
};

/* Splits [t0, t1] into ncols columns and keeps, for each column that has
 * points, the lowest and the highest value (min/max decimation: a spike
 * survives however many points share its column). Points outside [t0, t1]
 * and non-finite ones are left out. Returns the columns filled, in time
 * order, written to out (room for ncols). */
int svg_decimate(const double *t, const double *v, int n, double t0, double t1, int ncols,
		 struct svg_col *out);

/* A vertical line across a chart (a test boundary) and a marked stretch of time. */
struct svg_mark {
	double t;
	const char *label; /* drawn above the plot where it fits; NULL none */
};
struct svg_span {
	double t0, t1;
};

/* One line chart on a shared time axis. */
struct svg_chart {
	const char *title; /* machine text: escaped */
	const char *unit;
	const char *home; /* for html_text */
	double t0, t1;	  /* the shared time axis, seconds */
	int nseries;	  /* lines drawn in one chart (per-CPU clocks); 1 usually */
	const double *const *t, *const *v;
	const int *n;
	int nmarks;
	const struct svg_mark *marks;
	int nspans;
	const struct svg_span *spans; /* throttled stretches, in time order */
	/* Charts of one time axis draw their time grid, marks and spans once:
	 * the first (shared_defined false) as <g id=shared_id>, the rest <use> it. */
	const char *shared_id;
	bool shared_defined;
	/* Draw the one series as a band from each column's lowest to its highest
	 * value (many CPUs' clocks merged into one series), not as a line. */
	bool band;
};

/* Writes the chart as one <svg> element. A chart with no point says so
 * inside the frame instead of drawing an empty plot. Returns the points drawn. */
int svg_line_chart(FILE *f, const struct svg_chart *c);

/* A curve against a size or count on log axes (memory latency against the
 * working set): x by powers of two, y by 1-2-5 steps of each decade. Up to
 * two lines, told apart by dash as well as colour; vertical marks at given x
 * (the cache sizes). x in bytes ("B") is labelled 512, 4K, 2M. */
struct svg_curve {
	const char *title; /* machine text: escaped */
	const char *xunit, *yunit;
	const char *home;
	int nlines;			    /* 1 or 2 */
	const char *const *names;	    /* each line's legend */
	const double *const *x, *const *y;  /* positive values; others are left out */
	const int *n;
	int nmarks;
	const double *mark_x;
	const char *const *mark_label;
};
/* Writes the chart as one <svg>. Returns the points drawn (0: says so inside the frame). */
int svg_curve_chart(FILE *f, const struct svg_curve *c);

/* Latency distributions, one row per phase on one log axis: a thick bar
 * from p50 to p99, a thin whisker on to the maximum, a tick at p99.9 and a
 * dot at the mean (NAN values are left out). */
struct svg_dist_row {
	const char *name; /* machine text: escaped */
	double p50, p99, p999, max, mean;
};
int svg_dist_chart(FILE *f, const char *title, const char *unit, const char *home,
		   const struct svg_dist_row *rows, int n);

/* The per-test change: a horizontal bar from 0 to change (percent) with the
 * interval [lo, hi] as a whisker, on a scale of -range..+range. cls names
 * the verdict's CSS class (its colour and fill pattern). NAN values draw
 * what they can: no bar, no whisker. */
void svg_change_bar(FILE *f, double change, double lo, double hi, double range, const char *cls);

/* A bar of v on 0..max (one run's index per test). */
void svg_value_bar(FILE *f, double v, double max);

/* "1:05" for 65 s, "45 s" under two minutes; for the time axis. */
void svg_fmt_time(char *buf, size_t size, double secs);

#endif
