/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU frequency source: the workers' CPUs' clock at each tick against their nominal, each test's busy clock and its method, and what `kbench sensors` shows of cpufreq (cpufreq.c reads it). */
#include "telemetry/cpufreq.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "telemetry/frame.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"
#include "telemetry/throttle.h"

/* ---- the source: series freq.mean, freq.cpuN, freq.busy; summaries freq.min/mean/max/nominal, sample.N.freq ---- */

#define SERIES_MAX_CPUS 64 /* per-cpu frequency series beyond this would drown the file */

struct freq_state {
	struct cpufreq cf;
	/* the test so far: the busy cores' clock while samples ran */
	int nbusy;
	double fsum, fmin, fmax;
	int nworkers;     /* busy ticks whose clock was the workers' CPUs' */
	int nnom;         /* ... of which the CPUs' nominal was known */
	double nomsum;    /* their CPUs' nominal, summed over those ticks */
	double s_fsum[TELEMETRY_SAMPLE_MAX];
	int s_fn[TELEMETRY_SAMPLE_MAX];
};

/* The busy cores' mean: the top `copies` frequencies, so an idle core's low
 * clock does not pass for a throttled worker. */
static double busy_mhz(const struct cpufreq *cf, int copies)
{
	double v[CPUFREQ_MAX_CPUS];
	int n = 0;
	for (int i = 0; i < cf->ncpus; i++)
		if (!isnan(cf->cur_mhz[i]))
			v[n++] = cf->cur_mhz[i];
	if (!n)
		return NAN;
	int k = copies < 1 ? n : copies < n ? copies : n;
	double sum = 0;
	for (int j = 0; j < k; j++) { /* partial selection: k is small */
		int best = j;
		for (int i = j + 1; i < n; i++)
			if (v[i] > v[best])
				best = i;
		double x = v[j];
		v[j] = v[best];
		v[best] = x;
		sum += v[j];
	}
	return sum / k;
}

/* What the workers' clock is to be read against: their CPUs' nominal, else
 * (AMD and ARM without a CPPC nominal, boost on) the boost ceiling, labelled
 * as such because a busy all-core load never holds it; "" when neither is
 * known. With no worker's CPU known, cpu0's. */
static void workers_scale(const struct cpufreq *cf, const int *cpus, int n, double nom, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!n) {
		nom = cf->nominal_ceiling ? 0 : cf->nominal_mhz;
		if (nom <= 0 && cf->nominal_ceiling)
			snprintf(buf, size, "boost ceiling %.0f", cf->nominal_mhz);
	}
	if (nom > 0) {
		snprintf(buf, size, "nominal %.0f", nom);
		return;
	}
	double ceil = 0;
	for (int j = 0; j < n; j++) {
		int i = cpufreq_index(cf, cpus[j]);
		if (i >= 0 && cf->nom_ceiling[i] && cf->nom_mhz[i] > ceil)
			ceil = cf->nom_mhz[i];
	}
	if (ceil > 0)
		snprintf(buf, size, "boost ceiling %.0f", ceil);
}

/* Which file the clock comes from, for the status line and the run's record. */
static void cpufreq_method(const struct cpufreq *cf, char *buf, size_t size)
{
	if (cf->source == CPUFREQ_SYSFS && cf->avg_freq)
		snprintf(buf, size, "cpufreq cpuinfo_avg_freq (APERF/MPERF)");
	else
		snprintf(buf, size, "%s", cpufreq_source_name(cf->source));
}

static int freq_open(struct telemetry_slot *s, const struct telemetry_ctx *c, char *err, size_t errlen)
{
	struct freq_state *st = s->priv;
	struct cpufreq *cf = &st->cf;
	cpufreq_open(cf);
	s->available = cf->available;
	s->fallback = cf->available && cf->source != CPUFREQ_SYSFS;
	if (!cf->available)
		snprintf(s->status, sizeof s->status, "n/a: %s", cf->why);
	else if (s->fallback)
		snprintf(s->status, sizeof s->status, "%s (%s)", cpufreq_source_name(cf->source), cf->why);
	else
		cpufreq_method(cf, s->status, sizeof s->status);
	struct telemetry_frame *f = c->frame;
	f->ncpus = cf->ncpus;
	f->cpu = cf->cpu;
	f->mhz = cf->cur_mhz;
	f->mhz_busy = NAN;
	f->mhz_of[0] = '\0';
	f->freq_source = s->status;
	return 0;
}

static void freq_sample(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct freq_state *st = s->priv;
	struct cpufreq *cf = &st->cf;
	struct telemetry_frame *f = c->frame;
	if (!cf->available || cpufreq_sample(cf) != 0)
		return;
	/* The CPUs the workers are on now (/proc/PID/stat's processor): an
	 * idle CPU's figure must not stand in for a throttled worker's. */
	int cpus[CPUFREQ_MAX_CPUS], n = 0;
	for (int k = 0; c->busy && k < c->npids && n < CPUFREQ_MAX_CPUS; k++) {
		int cpu = cpufreq_task_cpu(c->pids[k]);
		if (cpu >= 0)
			cpus[n++] = cpu;
	}
	double nom = 0;
	double on = n ? cpufreq_on(cf, cpus, n, &nom) : NAN;
	f->mhz_workers = !isnan(on);
	f->mhz_busy = f->mhz_workers ? on : busy_mhz(cf, c->busy ? c->copies : 0);
	workers_scale(cf, cpus, f->mhz_workers ? n : 0, nom, f->mhz_of, sizeof f->mhz_of);
	if (f->mhz_workers && c->in_test && c->busy) {
		st->nworkers++;
		if (nom > 0)
			st->nomsum += nom, st->nnom++;
	}
	telemetry_push(c, "freq.mean", "MHz", cpufreq_mean(cf));
	char name[80];
	for (int i = 0; i < cf->ncpus && i < SERIES_MAX_CPUS; i++) {
		snprintf(name, sizeof name, "freq.cpu%d", cf->cpu[i]);
		telemetry_push(c, name, "MHz", cf->cur_mhz[i]);
	}
	if (!isnan(f->mhz_busy))
		snprintf(s->reading, sizeof s->reading, "%.0f MHz", f->mhz_busy);
	if (!c->busy)
		return;
	telemetry_push(c, "freq.busy", "MHz", f->mhz_busy);
	if (isnan(f->mhz_busy) || !c->in_test)
		return;
	st->fsum += f->mhz_busy;
	if (!st->nbusy || f->mhz_busy < st->fmin)
		st->fmin = f->mhz_busy;
	if (!st->nbusy || f->mhz_busy > st->fmax)
		st->fmax = f->mhz_busy;
	st->nbusy++;
	if (c->sample > 0 && c->sample <= TELEMETRY_SAMPLE_MAX) {
		st->s_fsum[c->sample - 1] += f->mhz_busy;
		st->s_fn[c->sample - 1]++;
	}
}

static void freq_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct freq_state *st = s->priv;
	st->nbusy = 0;
	st->fsum = st->fmin = st->fmax = 0;
	st->nworkers = st->nnom = 0;
	st->nomsum = 0;
	memset(st->s_fsum, 0, sizeof st->s_fsum);
	memset(st->s_fn, 0, sizeof st->s_fn);
}

static void freq_test_end(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
			  struct throttle_inputs *in)
{
	struct freq_state *st = s->priv;
	const struct cpufreq *cf = &st->cf;
	if (st->nbusy) {
		test_summary_set(tr, "freq.min", st->fmin, NULL);
		test_summary_set(tr, "freq.mean", st->fsum / st->nbusy, NULL);
		test_summary_set(tr, "freq.max", st->fmax, NULL);
	} else {
		char buf[KV_TEXT_MAX];
		snprintf(buf, sizeof buf, "%s", s->status);
		test_summary_set(tr, "freq.mean", 0, cf->available ? "n/a: no sample while busy" : buf);
	}
	/* The nominal of the CPUs the workers ran on (a hybrid part's P- and
	 * E-cores differ), else cpu0's. */
	double nominal = st->nnom ? st->nomsum / st->nnom : cf->nominal_ceiling ? 0 : cf->nominal_mhz;
	if (nominal > 0)
		test_summary_set(tr, "freq.nominal", nominal, NULL);
	else if (cf->nominal_ceiling) /* kept, as what it is: no "clock fell" against it */
		test_summary_set(tr, "freq.ceiling", cf->nominal_mhz, NULL);
	if (cf->available) {
		char how[KV_TEXT_MAX];
		cpufreq_method(cf, how, sizeof how);
		if (st->nbusy)
			snprintf(how + strlen(how), sizeof how - strlen(how), "; %s",
				 st->nworkers ? "workers' CPUs" : "top CPUs");
		test_summary_set(tr, "freq.method", 0, how);
	}
	if (nominal > 0 || cf->nominal_ceiling)
		test_summary_set(tr, "freq.nominal_from", 0, cf->nominal_from);
	for (int k = 0; k < c->sample && k < TELEMETRY_SAMPLE_MAX; k++) {
		if (!st->s_fn[k])
			continue;
		char key[64];
		snprintf(key, sizeof key, "sample.%d.freq", k + 1);
		test_summary_set(tr, key, st->s_fsum[k] / st->s_fn[k], NULL);
	}
	in->nominal_mhz = nominal;
	in->ref_mhz = cf->nominal_ceiling ? 0 : cf->nominal_mhz;
	if (in->ref_mhz > 0)
		snprintf(in->ref_from, sizeof in->ref_from, "%s", cf->nominal_from);
	in->busy_min_mhz = st->nbusy ? st->fmin : NAN;
}

static void freq_test_line(const struct test_result *tr, char *buf, size_t size)
{
	const struct kv *fmin = test_summary_get(tr, "freq.min"), *fmax = test_summary_get(tr, "freq.max");
	if (fmin && fmax && fmin->has_value)
		snprintf(buf, size, "freq %.0f-%.0f MHz", fmin->value, fmax->value);
	else
		snprintf(buf, size, "freq n/a");
}

static void freq_show(struct telemetry_slot *s, FILE *f)
{
	struct freq_state *st = s->priv;
	struct cpufreq *cf = &st->cf;
	if (!cf->available) {
		fprintf(f, "  n/a: %s\n", cf->why);
		return;
	}
	char how[96];
	cpufreq_method(cf, how, sizeof how);
	fprintf(f, "  source: %s%s%s%s\n", how, cf->why[0] ? " (" : "", cf->why, cf->why[0] ? ")" : "");
	cpufreq_sample(cf);
	for (int i = 0; i < cf->ncpus; i++) {
		if (isnan(cf->cur_mhz[i]))
			fprintf(f, "  cpu%-3d n/a\n", cf->cpu[i]);
		else if (cf->nom_mhz[i] > 0 && cf->nom_mhz[i] != cf->nominal_mhz)
			fprintf(f, "  cpu%-3d %7.0f MHz  (nominal %.0f)\n", cf->cpu[i], cf->cur_mhz[i], cf->nom_mhz[i]);
		else
			fprintf(f, "  cpu%-3d %7.0f MHz\n", cf->cpu[i], cf->cur_mhz[i]);
	}
	if (cf->min_mhz > 0 || cf->max_mhz > 0)
		fprintf(f, "  range: %.0f-%.0f MHz\n", cf->min_mhz, cf->max_mhz);
	if (cf->nominal_ceiling)
		fprintf(f, "  nominal: n/a: %.0f MHz is %s\n", cf->nominal_mhz, cf->nominal_from);
	else if (cf->nominal_mhz > 0)
		fprintf(f, "  nominal: %.0f MHz (from %s)\n", cf->nominal_mhz, cf->nominal_from);
	else
		fprintf(f, "  nominal: n/a (no cpufreq limits and no clock in the model name)\n");
	fprintf(f, "  governor: %s\n", cf->governor[0] ? cf->governor : "n/a");
	fprintf(f, "  boost: %s\n", cf->boost[0] ? cf->boost : "n/a");
	if (cf->source == CPUFREQ_SYSFS && isnan(cf->read_ms))
		fprintf(f, "  read cost: not timed (a tree under KBENCH_SYSFS_ROOT, not this kernel's files)\n");
	else if (cf->source == CPUFREQ_SYSFS)
		fprintf(f, "  read cost: %.3f ms for all cores\n", cf->read_ms);
}

static void freq_preflight(struct telemetry_slot *s, struct run *run, FILE *out)
{
	struct freq_state *st = s->priv;
	const struct cpufreq *cf = &st->cf;
	if (cf->source == CPUFREQ_CPUINFO)
		telemetry_finding(run, out, "CPU frequency: from /proc/cpuinfo: %s", cf->why);
	if (cf->governor[0] && strcmp(cf->governor, "performance"))
		telemetry_finding(run, out, "governor is '%s', not 'performance': the clock ramps during the run "
				  "(fix: sudo cpupower frequency-set -g performance)", cf->governor);
	if (!strcmp(cf->boost, "on"))
		telemetry_finding(run, out, "turbo/boost is on: the clock depends on temperature and the score with it "
				  "(fix: %s)",
				  sysroot_exists("/sys/devices/system/cpu/intel_pstate/no_turbo")
					  ? "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"
					  : "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost");
}

static void freq_close(struct telemetry_slot *s)
{
	struct freq_state *st = s->priv;
	cpufreq_close(&st->cf);
}

const struct telemetry_source freq_source = {
	.name = "freq",
	.what = "CPU frequency",
	.title = "CPU frequency",
	.size = sizeof(struct freq_state),
	.open = freq_open,
	.sample = freq_sample,
	.close = freq_close,
	.test_begin = freq_test_begin,
	.test_end = freq_test_end,
	.test_line = freq_test_line,
	.show = freq_show,
	.preflight = freq_preflight,
};
