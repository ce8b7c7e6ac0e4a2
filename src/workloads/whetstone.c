/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Double-precision Whetstone (Longbottom's eight-section C version, as UnixBench runs it), calibrated to the sample length. */
#include "workloads/workloads.h"

#include <math.h>

/*
 * The section results, summed as the original sums its check values: a
 * volatile store the compiler must make, so no section can be dropped.
 */
static volatile double whet_check;

/* Section 2's procedure: array elements passed as a parameter. */
static void whet_pa(double e[4], double t, double t2)
{
	long j;

	for (j = 0; j < 6; j++) {
		e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
		e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
		e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
		e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
	}
}

/* Section 6's procedure: scalars by reference. */
static void whet_p3(double *x, double *y, double *z, double t, double t1, double t2)
{
	*x = *y;
	*y = *z;
	*x = t * (*x + *y);
	*y = t1 * (*x + *y);
	*z = (*x + *y) / t2;
}

/* Section 7's procedure: array references by index. */
static void whet_po(double e1[4], long j, long k, long l)
{
	e1[j] = e1[k];
	e1[k] = e1[l];
	e1[l] = e1[j];
}

/* Where a pass is: its time so far, and the progress count it publishes. */
struct whet_pass {
	struct workload_ctx *ctx;
	double time_used; /* seconds, the sum of the section times */
	double t_section; /* when the current section started */
	uint64_t sections; /* completed, over calibration and the timed pass */
};

static void whet_begin(struct whet_pass *p)
{
	p->t_section = wl_now();
}

/* Ends a section: adds its time (divided by `div`, for section 1's extra
 * repeats) and its check value, and moves the published count. */
static void whet_end(struct whet_pass *p, double div, double check)
{
	p->time_used += (wl_now() - p->t_section) / div;
	whet_check = whet_check + check;
	wl_publish(p->ctx, ++p->sections);
}

/*
 * One Whetstone pass of `xtra` repetitions with loop counts scaled by x100.
 * Returns 0, or -1 when the runner said stop (the user skipped the test);
 * the stop flag is read once per repetition, outside the timed inner loops.
 */
static int whet_run_pass(struct whet_pass *p, long xtra, long x100)
{
	long n1 = 12 * x100, n2 = 14 * x100, n3 = 345 * x100, n4 = 210 * x100;
	long n5 = 32 * x100, n6 = 899 * x100, n7 = 616 * x100, n8 = 93 * x100;
	long n1mult = 10;
	long i, ix, j, k, l;
	double x, y, z;
	double e1[4];
	double t = 0.49999975, t0 = t, t1 = 0.50000025, t2 = 2.0;

	/* Section 1: array elements (ten times over; the time is divided by ten). */
	e1[0] = 1.0;
	e1[1] = -1.0;
	e1[2] = -1.0;
	e1[3] = -1.0;
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 0; i < n1 * n1mult; i++) {
			e1[0] = (e1[0] + e1[1] + e1[2] - e1[3]) * t;
			e1[1] = (e1[0] + e1[1] - e1[2] + e1[3]) * t;
			e1[2] = (e1[0] - e1[1] + e1[2] + e1[3]) * t;
			e1[3] = (-e1[0] + e1[1] + e1[2] + e1[3]) * t;
		}
		t = 1.0 - t;
	}
	t = t0;
	whet_end(p, (double)n1mult, e1[3]);

	/* Section 2: array as a parameter. */
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 0; i < n2; i++)
			whet_pa(e1, t, t2);
		t = 1.0 - t;
	}
	t = t0;
	whet_end(p, 1.0, e1[3]);

	/* Section 3: conditional jumps. */
	j = 1;
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 0; i < n3; i++) {
			if (j == 1)
				j = 2;
			else
				j = 3;
			if (j > 2)
				j = 0;
			else
				j = 1;
			if (j < 1)
				j = 1;
			else
				j = 0;
		}
	}
	whet_end(p, 1.0, (double)j);

	/* Section 4: integer arithmetic. */
	j = 1;
	k = 2;
	l = 3;
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 0; i < n4; i++) {
			j = j * (k - j) * (l - k);
			k = l * k - (l - j) * k;
			l = (l - k) * (k + j);
			e1[l - 2] = j + k + l;
			e1[k - 2] = j * k * l;
		}
	}
	x = e1[0] + e1[1];
	whet_end(p, 1.0, x);

	/* Section 5: trigonometric functions. */
	x = 0.5;
	y = 0.5;
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 1; i < n5; i++) {
			x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
			y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
		}
		t = 1.0 - t;
	}
	t = t0;
	whet_end(p, 1.0, y);

	/* Section 6: procedure calls. */
	x = 1.0;
	y = 1.0;
	z = 1.0;
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 0; i < n6; i++)
			whet_p3(&x, &y, &z, t, t1, t2);
	}
	whet_end(p, 1.0, z);

	/* Section 7: array references. */
	j = 0;
	k = 1;
	l = 2;
	e1[0] = 1.0;
	e1[1] = 2.0;
	e1[2] = 3.0;
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 0; i < n7; i++)
			whet_po(e1, j, k, l);
	}
	whet_end(p, 1.0, e1[2]);

	/* Section 8: standard functions. */
	x = 0.75;
	whet_begin(p);
	for (ix = 0; ix < xtra; ix++) {
		if (wl_stopped(p->ctx))
			return -1;
		for (i = 0; i < n8; i++)
			x = sqrt(exp(log(x) / t1));
	}
	whet_end(p, 1.0, x);
	return 0;
}

/*
 * UnixBench's calibration: one repetition, five times more while a pass
 * takes no more than half a second of its 10 s sample (ten rounds at most),
 * then enough repetitions for the target time (here the sample length).
 * Here a pass is long enough at a twentieth of the sample, UnixBench's
 * half second at 10 s: at 0.5 s a sample spent up to six times its own
 * length calibrating (passes to 0.5-2.5 s), and its clock reads a 25 ms
 * pass to a few microseconds. One repetition at x100 = 100 is 10 million
 * Whetstone instructions, hence MWIPS = xtra * x100 / (10 * seconds),
 * UnixBench's formula.
 */
static int whet_run(struct workload_ctx *ctx)
{
	struct whet_pass p = { .ctx = ctx };
	double target = ctx->duration > 0 ? ctx->duration : 10.0;
	long x100 = 100, xtra = 1;
	int rounds = 10;

	do {
		p.time_used = 0;
		if (whet_run_pass(&p, xtra, x100) < 0)
			return 0;
		rounds--;
		if (p.time_used > target / 20)
			rounds = 0;
		else
			xtra *= 5;
	} while (rounds > 0);

	if (p.time_used > 0)
		xtra = (long)(target * (double)xtra / p.time_used);
	if (xtra < 1)
		xtra = 1;

	p.time_used = 0;
	if (whet_run_pass(&p, xtra, x100) < 0)
		return 0;
	if (p.time_used <= 0)
		return wl_fail(ctx, "Whetstone's timed pass took no measurable time.");
	ctx->slot->rate = (double)xtra * (double)x100 / (10.0 * p.time_used);
	ctx->slot->time = p.time_used;
	return 0;
}

const struct workload wl_whetstone = { .name = "whetstone", .run = whet_run };
