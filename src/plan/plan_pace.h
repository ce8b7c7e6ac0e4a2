/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's pace taken out of a plan's runs: a covariate (the pace telemetry source), its slope learned within each kernel, the answer beside the plain one. */
#ifndef KBENCH_PLAN_PACE_H
#define KBENCH_PLAN_PACE_H

/*
 * Between runs of one kernel a score moves with the machine's own pace (on
 * a VM the host's load, on a laptop its clock and heat): make bench-host-pace
 * found the index's run-to-run spread 0.53-0.71 of itself once the pace is
 * taken out. Each run stores the pace telemetry source's readings (a fixed
 * chain timed in the observer's CPU time), and a run's median is its pace.
 * This is the analysis of covariance on a row's log values:
 *
 *   y = mu_side + slope * x + boot + run,   x = the run's log pace,
 *
 * the slope pooled within each kernel's runs (so a kernel's own effect on
 * the scores does not teach it), then the plan's boots' means of
 * y - slope * x decided as pstat_effect decides the plain ones, on the
 * boots alone (a floor learned for plain scores says nothing of adjusted
 * ones), one degree of freedom fewer, and the slope's own uncertainty
 * added for the pace difference between the kernels. (CUPED, Deng et al.
 * 2013, is the same idea with the slope learned before the experiment.)
 *
 * It answers "faster at the same pace of the machine": right when the
 * machine changed its pace, wrong when the kernel did (a governor, an idle
 * driver, a clock setting changes the chain's speed too). So the pace's
 * own difference between the kernels is decided and shown beside it, and a
 * report never puts the adjusted answer in the plain one's place.
 */

#include <stdbool.h>

#include "plan_stats.h"

/* One run's values of a row, in the order of the plan's boots. */
struct plan_obs {
	double y;          /* log of the row's value */
	double x;          /* log of its run's pace (run_pace, run.h); NAN: the run has none */
	int boot;          /* the boot it ran in (runs of one boot are neighbours) */
	enum pstat_side side;
};

struct plan_pace {
	bool ok;                  /* the adjusted answer and the pace's own were made */
	const char *why;          /* when not: why, for a report ("runs without the pace") */
	double slope;             /* log value per log pace, within kernels */
	struct pstat_effect adj;  /* B against A at the same pace */
	struct pstat_effect pace; /* the pace itself, B against A */
};

/* The boots' means of v (NULL: each run's y) and their sums of squares,
 * from n runs whose boots are neighbours in o, as pstat_effect takes them
 * (out holds n). Returns the boots. */
int plan_obs_boots(const struct plan_obs *o, int n, const double *v, struct pstat_boot *out);

/* The row's answer with the pace taken out, from its runs (n of them, in
 * boot order) at confidence conf. Needs every run's pace and two boots a
 * kernel; otherwise ok is false and why says which. */
void plan_pace_row(struct plan_pace *pp, const struct plan_obs *o, int n, double conf);

#endif
