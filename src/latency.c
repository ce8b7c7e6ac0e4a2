/* Wake-up latency results: each phase's histograms into points, and the cyclictest-shaped and percentile tables. */
#include "latency.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "run.h"
#include "stats.h"
#include "workload.h"

#define WL_MAX_HISTS_REPORT 16

const char *const timerlat_phase_names[TL_PHASES] = { "other", "other+burn", "fifo", "fifo+burn" };
/* at most 4 letters and "+burn": "desk+burn p99.9" fits the compare table's label */
const char *const ia_task_names[IA_TASKS] = { "audio", "video", "desk" };
const char *const ia_load_names[IA_LOADS] = { "", "+burn", "+io" };

/* The percentiles each phase reports, in order: x is the percentile. */
static const struct {
	const char *suffix;
	double q;
} pcts[] = { { "p50", 0.50 }, { "p99", 0.99 }, { "p99.9", 0.999 }, { "max", 1.0 } };

static void phase_points(struct test_result *t, const char *name, const struct lat_hist *h)
{
	char pn[32];
	hist_set_push(test_hist_set(t, name), h);
	for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
		snprintf(pn, sizeof pn, "%s %s", name, pcts[i].suffix);
		point_push(test_point(t, pn, pcts[i].q * 100, "%", "us", true, true),
			   lathist_quantile(h, pcts[i].q) / 1e3);
	}
	snprintf(pn, sizeof pn, "%s mean", name);
	point_push(test_point(t, pn, 0, "", "us", true, true), lathist_mean(h) / 1e3);
	if (h->met + h->missed) {
		snprintf(pn, sizeof pn, "%s met", name);
		point_push(test_point(t, pn, 0, "", "%", false, true), lathist_met_pct(h));
	}
}

/* Phase p of every copy that reached it, merged; false when none did. */
static bool merged(const struct worker_slot *slots, int copies, int p, struct lat_hist *out)
{
	bool any = false;
	lathist_init(out);
	for (int c = 0; c < copies; c++)
		if (atomic_load_explicit(&slots[c].nhists, memory_order_acquire) > p) {
			lathist_merge(out, &slots[c].hists[p]);
			any = true;
		}
	return any && out->n > 0;
}

static bool slot_value(const struct worker_slot *slots, int copies, int series, double *x, double *v)
{
	for (int c = 0; c < copies; c++) {
		int n = atomic_load_explicit(&slots[c].npoints, memory_order_acquire);
		for (int j = 0; j < n && j < WL_MAX_POINTS; j++)
			if (slots[c].points[j].series == series) {
				if (x)
					*x = slots[c].points[j].x;
				*v = slots[c].points[j].v;
				return true;
			}
	}
	return false;
}

void timerlat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		      const char *params)
{
	(void)params;
	struct lat_hist h;
	for (int p = 0; p < TL_PHASES; p++)
		if (merged(slots, copies, p, &h))
			phase_points(t, timerlat_phase_names[p], &h);
	double v;
	if (slot_value(slots, copies, LAT_FIFO_DENIED, NULL, &v)) {
		char text[96];
		snprintf(text, sizeof text, "SCHED_FIFO not permitted (%s): needs root or CAP_SYS_NICE",
			 strerror((int)v));
		test_summary_set(t, "note", 0, text);
	} else if (slot_value(slots, copies, LAT_CPU, NULL, &v)) {
		test_summary_set(t, "fifo", 0, "SCHED_FIFO priority 1 measured");
	}
	if (slot_value(slots, copies, LAT_CPU, NULL, &v))
		test_summary_set(t, "cpu", v, NULL);
	if (slot_value(slots, copies, LAT_DMA, NULL, &v)) {
		char text[160];
		if (v == 0)
			snprintf(text, sizeof text, "C-states held (cpu_dma_latency 0, as cyclictest), timer slack 1 ns");
		else
			snprintf(text, sizeof text, "C-states not held (cpu_dma_latency: %.24s): idle exits count", strerror((int)v));
		test_summary_set(t, "cstates", v, text);
	}
}

void wakelat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		     const char *params)
{
	(void)params;
	struct lat_hist h;
	if (merged(slots, copies, 0, &h))
		phase_points(t, "wake", &h);
	double sum = 0, x, v;
	int n = 0;
	for (int c = 0; c < copies; c++)
		if (slot_value(slots + c, 1, LAT_RPS, NULL, &v))
			sum += v, n++;
	if (n)
		point_push(test_point(t, "wake rps", 0, "", "req/s", false, true), sum);
	if (slot_value(slots, copies, LAT_WORKERS, &x, &v))
		test_summary_set(t, "workers", v, NULL);
}

void interactive_collect(struct test_result *t, const struct worker_slot *slots, int copies,
			 const char *params)
{
	(void)params;
	struct lat_hist h;
	char name[32];
	for (int task = 0; task < IA_TASKS; task++)
		for (int load = 0; load < IA_LOADS; load++)
			if (merged(slots, copies, task * IA_LOADS + load, &h)) {
				snprintf(name, sizeof name, "%s%s", ia_task_names[task], ia_load_names[load]);
				phase_points(t, name, &h);
			}
}

struct test_noise latency_noise(const struct test_def *t, const char *point)
{
	static const struct {
		const char *suffix;
		struct test_noise floor;
	} floors[] = {
		{ " p99.9", { 0.50, 0.80 } }, { " p99", { 0.25, 0.40 } }, { " max", { 1.00, 1.50 } },
		{ " mean", { 0.15, 0.25 } },  { " met", { 0.05, 0.10 } }, { "rps", { 0.05, 0.10 } },
	};
	size_t n = strlen(point);
	for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++) {
		size_t k = strlen(floors[i].suffix);
		if (n >= k && !strcmp(point + n - k, floors[i].suffix))
			return floors[i].floor;
	}
	return t->noise; /* p50 */
}

int latency_phases(const struct test_def *d, const char **names, int max)
{
	static const char *const wake[] = { "wake" };
	static const char *const ia[IA_TASKS * IA_LOADS] = { "audio", "audio+burn", "audio+io",
							     "video", "video+burn", "video+io",
							     "desk", "desk+burn", "desk+io" };
	const char *const *v = NULL;
	int n = 0;
	if (d && d->collect == timerlat_collect)
		v = timerlat_phase_names, n = TL_PHASES;
	else if (d && d->collect == wakelat_collect)
		v = wake, n = 1;
	else if (d && d->collect == interactive_collect)
		v = ia, n = IA_TASKS * IA_LOADS;
	for (int i = 0; i < n && i < max; i++)
		names[i] = v[i];
	return n < max ? n : max;
}

int latency_is(const struct test_result *t)
{
	return t->nhists > 0;
}

/* A point's mean over the samples and its 95% interval's half width (t
 * distribution over the samples); NAN half width below two samples. */
static double point_ci(const struct test_result *t, const char *name, double *half)
{
	const struct point *p = test_find_point(t, name);
	*half = NAN;
	if (!p)
		return NAN;
	double v[64];
	int k = 0;
	for (int i = 0; i < p->n && k < 64; i++)
		if (isfinite(p->v[i]))
			v[k++] = p->v[i];
	if (k >= 2)
		*half = stats_t_quantile(0.975, k - 1) * stats_stddev(v, k) / sqrt(k);
	return k ? stats_mean(v, k) : NAN;
}

static void print_test(FILE *f, const struct test_result *t, int copies)
{
	fprintf(f, "\n%s: latency in microseconds, %d cop%s, %d sample%s%s\n", t->label, copies,
		copies == 1 ? "y" : "ies", t->nsamples, t->nsamples == 1 ? "" : "s", t->status == TEST_DONE ? "" : " (cut short: finished samples kept)");
	/* cyclictest's line per thread: every sample's events together */
	for (int i = 0; i < t->nhists; i++) {
		const struct hist_set *hs = &t->hists[i];
		struct lat_hist all;
		lathist_init(&all);
		for (int k = 0; k < hs->n; k++)
			lathist_merge(&all, &hs->h[k]);
		if (!all.n)
			continue;
		const struct lat_hist *last = &hs->h[hs->n - 1];
		fprintf(f, "T:%2d %-13s C:%9llu Min:%7.0f Act:%7.0f Avg:%7.0f Max:%8.0f\n", i, hs->name,
			(unsigned long long)all.n, (double)all.min / 1e3, (double)last->last / 1e3,
			lathist_mean(&all) / 1e3, (double)all.max / 1e3);
	}
	/* the percentile table: cells first, so each column is as wide as its widest */
	enum { NCOL = 6 };
	static const char *const sfx[NCOL] = { "p50", "p99", "p99.9", "max", "mean", "met" };
	char cell[WL_MAX_HISTS_REPORT][NCOL][32];
	int w[NCOL], nrow = t->nhists < WL_MAX_HISTS_REPORT ? t->nhists : WL_MAX_HISTS_REPORT;
	bool any_met = false;
	for (int k = 0; k < NCOL; k++)
		w[k] = (int)strlen(sfx[k]);
	for (int i = 0; i < nrow; i++)
		for (int k = 0; k < NCOL; k++) {
			char pn[48];
			double half;
			snprintf(pn, sizeof pn, "%s %s", t->hists[i].name, sfx[k]);
			double m = point_ci(t, pn, &half);
			if (!isfinite(m))
				snprintf(cell[i][k], sizeof cell[i][k], "%s", "--");
			else if (isfinite(half))
				snprintf(cell[i][k], sizeof cell[i][k], k == 5 ? "%.1f+-%.1f" : "%.0f+-%.0f", m, half);
			else
				snprintf(cell[i][k], sizeof cell[i][k], k == 5 ? "%.1f" : "%.0f", m);
			any_met |= k == 5 && isfinite(m);
			if ((int)strlen(cell[i][k]) > w[k])
				w[k] = (int)strlen(cell[i][k]);
		}
	int ncol = any_met ? NCOL : NCOL - 1;
	fprintf(f, "  %-13s", "phase");
	for (int k = 0; k < ncol; k++)
		fprintf(f, " %*s", w[k], sfx[k]);
	fputc('\n', f);
	for (int i = 0; i < nrow; i++) {
		fprintf(f, "  %-13s", t->hists[i].name);
		for (int k = 0; k < ncol; k++)
			fprintf(f, " %*s", w[k], cell[i][k]);
		fputc('\n', f);
	}
	fprintf(f, "  (us%s; +- the 95%% interval over the samples)\n", any_met ? "; met: % of deadlines met" : "");
	const struct kv *n = test_summary_get(t, "note");
	if (n && n->text[0])
		fprintf(f, "  Note: %s.\n", n->text);
	const struct kv *cs = test_summary_get(t, "cstates");
	if (cs && cs->text[0])
		fprintf(f, "  Note: %s.\n", cs->text);
	const struct point *rps = test_find_point(t, "wake rps");
	if (rps) {
		double half, m = point_ci(t, "wake rps", &half);
		fprintf(f, "  Requests per second: %.0f", m);
		if (isfinite(half))
			fprintf(f, " +- %.0f", half);
		const struct kv *w = test_summary_get(t, "workers");
		if (w)
			fprintf(f, " (%.0f workers, 1 message thread)", w->value);
		fputc('\n', f);
	}
}

void latency_print_tables(FILE *f, const struct run *r)
{
	for (int b = 0; b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests; i++)
			if (latency_is(&r->blocks[b].tests[i]))
				print_test(f, &r->blocks[b].tests[i], r->blocks[b].copies);
}
