/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's pace taken out of a plan's runs: the slope within kernels, the adjusted boots' means, the pace's own difference. */
#include "plan_pace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int plan_obs_boots(const struct plan_obs *o, int n, const double *v, struct pstat_boot *out)
{
	int nb = 0;
	for (int i = 0; i < n;) {
		int j = i;
		double sum = 0, sq = 0;
		for (; j < n && o[j].boot == o[i].boot; j++) {
			double y = v ? v[j] : o[j].y;
			sum += y;
			sq += y * y;
		}
		int k = j - i;
		double m = sum / k;
		out[nb++] = (struct pstat_boot){ o[i].side, k, m, fmax(0, sq - k * m * m) };
		i = j;
	}
	return nb;
}

void plan_pace_row(struct plan_pace *pp, const struct plan_obs *o, int n, double conf)
{
	memset(pp, 0, sizeof *pp);
	pp->slope = NAN;
	double sx[2] = { 0, 0 }, sy[2] = { 0, 0 };
	int cnt[2] = { 0, 0 }, boots[2] = { 0, 0 };
	for (int i = 0; i < n; i++) {
		if (!isfinite(o[i].x)) {
			pp->why = "runs without the pace (made before kbench measured it, or with --no-telemetry)";
			return;
		}
		int s = o[i].side == PSTAT_B;
		sx[s] += o[i].x;
		sy[s] += o[i].y;
		cnt[s]++;
		boots[s] += i == 0 || o[i].boot != o[i - 1].boot;
	}
	if (boots[0] < 2 || boots[1] < 2) {
		pp->why = "under two boots a kernel";
		return;
	}
	/* the slope, pooled within each kernel: deviations from the kernel's own means */
	double sxx = 0, sxy = 0;
	for (int i = 0; i < n; i++) {
		int s = o[i].side == PSTAT_B;
		double dx = o[i].x - sx[s] / cnt[s], dy = o[i].y - sy[s] / cnt[s];
		sxx += dx * dx;
		sxy += dx * dy;
	}
	if (!(sxx > 0)) {
		pp->why = "the pace did not move between runs";
		return;
	}
	pp->slope = sxy / sxx;
	double *adj = malloc((size_t)n * sizeof *adj), *xs = malloc((size_t)n * sizeof *xs), res = 0;
	struct pstat_boot *bv = malloc((size_t)n * sizeof *bv);
	if (!adj || !xs || !bv)
		abort();
	for (int i = 0; i < n; i++) {
		int s = o[i].side == PSTAT_B;
		double r = (o[i].y - sy[s] / cnt[s]) - pp->slope * (o[i].x - sx[s] / cnt[s]);
		res += r * r;
		adj[i] = o[i].y - pp->slope * o[i].x;
		xs[i] = o[i].x;
	}
	/* the boots alone: a prior learned for plain scores is not one for adjusted ones */
	struct pstat_prior none = { .within = 0, .between = 0, .df = INFINITY, .calibrated = false };
	int nb = plan_obs_boots(o, n, xs, bv);
	pp->pace = pstat_effect(bv, nb, &none, conf);
	nb = plan_obs_boots(o, n, adj, bv);
	pp->adj = pstat_effect(bv, nb, &none, conf);
	/* the slope's own error, carried by the pace difference between the kernels */
	double s2 = n > 3 ? res / (n - 3) : NAN;
	pstat_widen(&pp->adj, isfinite(s2) ? pp->pace.d * pp->pace.d * s2 / sxx : 0, 1);
	free(adj);
	free(xs);
	free(bv);
	pp->ok = pp->adj.verdict != PSTAT_NA && pp->pace.verdict != PSTAT_NA;
	if (!pp->ok)
		pp->why = "too few runs to learn the slope and still decide";
}
