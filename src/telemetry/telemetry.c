/* The sampler: ties the telemetry sources to the runner's events and writes series and per-test summaries into the run. */
#include "telemetry/telemetry.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "telemetry/cpufreq.h"
#include "telemetry/others.h"
#include "telemetry/power.h"
#include "telemetry/sensors.h"
#include "telemetry/throttle.h"
#include "tests.h"

#define SERIES_MAX_CPUS 64      /* per-cpu frequency series beyond this would drown the file */
#define SUMMARY_MAX_COPIES 16   /* per-copy counter totals kept in a test summary */
#define SAMPLE_MAX 1000

/* What one test has seen so far. */
struct test_acc {
	bool active;
	int nbusy;
	double fsum, fmin, fmax;
	double tmax, tstart;
	uint64_t thr_events0, thr_ms0;
	double joules0, t0, busy_s;
	struct counter_value *tot; /* [copy * nevents + e], summed over samples */
	int ncopies;
	int nsamples;
	/* Other processes' CPU use while the samples ran: CPU-seconds and seconds. */
	double others_cpu_s, others_s, others_max;
	double s_fsum[SAMPLE_MAX];
	int s_fn[SAMPLE_MAX];
	double s_tmax[SAMPLE_MAX];
};

struct telemetry {
	struct telemetry_opts o;
	struct cpufreq cf;
	struct temp_sensors ts;
	struct throttle th;
	struct power pw;
	struct counters ctr;
	bool have_ctr;
	char ctr_why[160];

	double last_sample;
	double run_temp0; /* the CPU temperature when the run began */
	bool busy;
	int copies;       /* copies of the sample in progress */
	double *prev;     /* counter values at the previous tick, for deltas */
	struct others_snap others0; /* at the start of the sample in progress */
	struct test_acc acc;

	char freq_src[240], temp_src[240], power_src[280];
	struct telemetry_frame frame;
};

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct telemetry *telemetry_new(const struct telemetry_opts *o, bool *usage, char *err, size_t errlen)
{
	*usage = false;
	struct telemetry *t = calloc(1, sizeof *t);
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->o = *o;
	if (t->o.interval <= 0)
		t->o.interval = 0.5;
	if (t->o.cooldown_max <= 0)
		t->o.cooldown_max = 120;
	int rc = counters_init(&t->ctr, o->events, err, errlen);
	if (rc == -EINVAL) {
		*usage = true;
		free(t);
		return NULL;
	}
	t->have_ctr = rc == 0;
	if (!t->have_ctr)
		snprintf(t->ctr_why, sizeof t->ctr_why, "%s", err);
	if (sensors_open(&t->ts, o->sensor, err, errlen) < 0) {
		*usage = true;
		counters_free(&t->ctr);
		free(t);
		return NULL;
	}
	cpufreq_open(&t->cf);
	throttle_open(&t->th);
	power_open(&t->pw, mono());
	t->run_temp0 = t->ts.value;
	t->last_sample = -1e9;

	struct telemetry_frame *f = &t->frame;
	if (t->cf.available) {
		if (t->cf.source == CPUFREQ_SYSFS)
			snprintf(t->freq_src, sizeof t->freq_src, "%s", cpufreq_source_name(t->cf.source));
		else
			snprintf(t->freq_src, sizeof t->freq_src, "%s (%s)",
				 cpufreq_source_name(t->cf.source), t->cf.why);
	} else {
		snprintf(t->freq_src, sizeof t->freq_src, "n/a: %s", t->cf.why);
	}
	if (t->ts.has_pick)
		snprintf(t->temp_src, sizeof t->temp_src, "%s", t->ts.pick.source);
	else
		snprintf(t->temp_src, sizeof t->temp_src, "n/a: %s", t->ts.why);
	if (t->pw.available)
		snprintf(t->power_src, sizeof t->power_src, "%s", t->pw.source);
	else
		snprintf(t->power_src, sizeof t->power_src, "n/a: %s", t->pw.why);
	f->ncpus = t->cf.ncpus;
	f->cpu = t->cf.cpu;
	f->mhz = t->cf.cur_mhz;
	f->mhz_busy = NAN;
	f->freq_source = t->freq_src;
	f->temp = t->ts.value;
	f->temp_source = t->temp_src;
	f->temp_limit = t->ts.limit;
	f->watts = NAN;
	f->power_source = t->power_src;
	f->nevents = t->have_ctr ? t->ctr.nevents : 0;
	f->events = t->ctr.ev;
	return t;
}

void telemetry_free(struct telemetry *t)
{
	if (!t)
		return;
	counters_free(&t->ctr);
	sensors_close(&t->ts);
	cpufreq_close(&t->cf);
	throttle_close(&t->th);
	power_close(&t->pw);
	free(t->prev);
	free(t->acc.tot);
	free(t);
}

const struct telemetry_frame *telemetry_latest(const struct telemetry *t)
{
	return &t->frame;
}

void telemetry_print_sources(FILE *f, const struct telemetry *t)
{
	if (!t->cf.available || t->cf.source != CPUFREQ_SYSFS)
		fprintf(f, "telemetry: CPU frequency: %s\n", t->freq_src);
	if (!t->ts.has_pick)
		fprintf(f, "telemetry: CPU temperature: %s\n", t->temp_src);
	if (!t->th.available)
		fprintf(f, "telemetry: throttle counters: n/a: %s\n", t->th.why);
	if (!t->pw.available)
		fprintf(f, "telemetry: energy: %s\n", t->power_src);
	if (!t->have_ctr) {
		fprintf(f, "telemetry: counters: n/a: %s\n", t->ctr_why);
		return;
	}
	struct counter_value probe[COUNTERS_MAX_EVENTS];
	counters_probe((struct counters *)&t->ctr, probe);
	char hint[200];
	counters_permission_hint(&t->ctr, hint, sizeof hint);
	for (int e = 0; e < t->ctr.nevents; e++) {
		if (probe[e].state == COUNTER_VALUE)
			continue;
		const char *why = t->ctr.ev[e].why[0] ? t->ctr.ev[e].why
				  : probe[e].state == COUNTER_NO_PERMISSION ? hint
				  : probe[e].err == ENOENT || probe[e].err == EOPNOTSUPP
					  ? "no hardware PMU here: a VM?"
					  : strerror(probe[e].err);
		fprintf(f, "telemetry: counter %s: %s (%s)\n", t->ctr.ev[e].label,
			counter_state_name(probe[e].state), why);
	}
}

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

static struct test_result *cur_test(const struct runner_event *ev)
{
	if (ev->block < 0 || ev->block >= ev->run->nblocks)
		return NULL;
	struct run_block *b = &ev->run->blocks[ev->block];
	if (ev->test < 0 || ev->test >= b->ntests)
		return NULL;
	return &b->tests[ev->test];
}

static void push(struct run *r, const char *name, const char *unit, double t, double v)
{
	if (!isnan(v))
		series_push(run_series(r, name, unit), t, v);
}

static void sample_sources(struct telemetry *t, const struct runner_event *ev)
{
	struct run *r = ev->run;
	double now = ev->now;
	struct telemetry_frame *f = &t->frame;
	f->t = now;
	f->busy = t->busy;
	char name[80];
	if (t->cf.available && cpufreq_sample(&t->cf) == 0) {
		f->mhz_busy = busy_mhz(&t->cf, t->busy ? t->copies : 0);
		push(r, "freq.mean", "MHz", now, cpufreq_mean(&t->cf));
		for (int i = 0; i < t->cf.ncpus && i < SERIES_MAX_CPUS; i++) {
			snprintf(name, sizeof name, "freq.cpu%d", t->cf.cpu[i]);
			push(r, name, "MHz", now, t->cf.cur_mhz[i]);
		}
		if (t->busy) {
			push(r, "freq.busy", "MHz", now, f->mhz_busy);
			struct test_acc *a = &t->acc;
			if (!isnan(f->mhz_busy) && a->active) {
				a->fsum += f->mhz_busy;
				if (!a->nbusy || f->mhz_busy < a->fmin)
					a->fmin = f->mhz_busy;
				if (!a->nbusy || f->mhz_busy > a->fmax)
					a->fmax = f->mhz_busy;
				a->nbusy++;
				if (a->nsamples > 0 && a->nsamples <= SAMPLE_MAX) {
					a->s_fsum[a->nsamples - 1] += f->mhz_busy;
					a->s_fn[a->nsamples - 1]++;
				}
			}
		}
	}
	if (t->ts.available && sensors_sample(&t->ts) == 0) {
		f->temp = t->ts.value;
		push(r, "temp.cpu", "C", now, t->ts.value);
		for (int i = 0; i < t->ts.n && i < 32; i++) {
			snprintf(name, sizeof name, "temp.%s.%s", t->ts.in[i].prefix, t->ts.in[i].label);
			push(r, name, "C", now, t->ts.in[i].value);
		}
		struct test_acc *a = &t->acc;
		if (a->active && !isnan(f->temp)) {
			if (isnan(a->tmax) || f->temp > a->tmax)
				a->tmax = f->temp;
			if (t->busy && a->nsamples > 0 && a->nsamples <= SAMPLE_MAX) {
				double *m = &a->s_tmax[a->nsamples - 1];
				if (isnan(*m) || f->temp > *m)
					*m = f->temp;
			}
		}
	}
	if (t->th.available && throttle_sample(&t->th) == 0) {
		f->throttle_events = throttle_events(&t->th.total);
		push(r, "throttle.events", "count", now, (double)f->throttle_events);
		push(r, "throttle.ms", "ms", now, (double)throttle_ms(&t->th.total));
		f->throttled = t->acc.active && (f->throttle_events > t->acc.thr_events0 ||
						 throttle_ms(&t->th.total) > t->acc.thr_ms0);
		snprintf(f->throttle_evidence, sizeof f->throttle_evidence,
			 f->throttled ? "throttled %llux this test" : "", /* no evidence: empty */
			 (unsigned long long)(f->throttle_events - t->acc.thr_events0));
	}
	if (t->pw.available && power_sample(&t->pw, mono()) == 0) {
		f->watts = t->pw.watts;
		f->joules = t->pw.joules;
		push(r, "power", "W", now, t->pw.watts);
		push(r, "energy", "J", now, t->pw.joules);
	}
}

static void sample_counters(struct telemetry *t, const struct runner_event *ev)
{
	if (!t->have_ctr || !t->ctr.ncopies || !t->prev)
		return;
	counters_read(&t->ctr);
	int ne = t->ctr.nevents;
	for (int e = 0; e < ne; e++) {
		double sum = 0;
		int n = 0;
		for (int k = 0; k < t->ctr.ncopies; k++) {
			const struct counter_value *v = &t->ctr.val[k * ne + e];
			if (v->state != COUNTER_VALUE)
				continue;
			sum += v->value - t->prev[k * ne + e];
			t->prev[k * ne + e] = v->value;
			n++;
		}
		if (n) {
			char name[80];
			snprintf(name, sizeof name, "counter.%s", t->ctr.ev[e].label);
			push(ev->run, name, "count", ev->now, sum);
		}
	}
	t->frame.ncopies = t->ctr.ncopies;
	t->frame.values = t->ctr.val;
}

static void marker(const struct runner_event *ev, const char *what)
{
	const struct test_result *tr = cur_test(ev);
	char buf[80];
	int copies = ev->run->blocks[ev->block].copies;
	/* The runner marks where a sample's pause starts; these mark the work itself. */
	snprintf(buf, sizeof buf, "%s %s %d cop%s sample %d", what, tr ? tr->id : "?", copies,
		 copies == 1 ? "y" : "ies", ev->sample + 1);
	run_add_marker(ev->run, ev->now, buf);
}

static void test_begin(struct telemetry *t, const struct runner_event *ev)
{
	struct test_acc *a = &t->acc;
	free(a->tot);
	memset(a, 0, sizeof *a);
	a->active = true;
	a->tmax = NAN;
	for (int i = 0; i < SAMPLE_MAX; i++)
		a->s_tmax[i] = NAN;
	if (t->ts.available)
		sensors_sample(&t->ts);
	a->tstart = t->ts.has_pick ? t->ts.value : NAN;
	if (t->th.available)
		throttle_sample(&t->th);
	a->thr_events0 = throttle_events(&t->th.total);
	a->thr_ms0 = throttle_ms(&t->th.total);
	if (t->pw.available)
		power_sample(&t->pw, mono());
	a->joules0 = t->pw.joules;
	a->t0 = ev->now;
}

/* At most cooldown_max seconds, until the CPU is within 2 °C of the run's start. */
static void cooldown(struct telemetry *t, const struct runner_event *ev)
{
	if (!t->o.cooldown || !t->ts.has_pick || isnan(t->run_temp0))
		return;
	sensors_sample(&t->ts);
	double target = t->run_temp0 + 2, start = mono();
	if (isnan(t->ts.value) || t->ts.value <= target)
		return;
	if (t->o.log)
		fprintf(t->o.log, "cooldown: CPU at %.1f °C, waiting for %.1f °C (at most %.0f s)\n",
			t->ts.value, target, t->o.cooldown_max);
	while (mono() - start < t->o.cooldown_max) {
		struct timespec ts = { 0, 500 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		sensors_sample(&t->ts);
		if (!isnan(t->ts.value) && t->ts.value <= target)
			break;
	}
	const struct test_result *tr = cur_test(ev);
	run_add_note(ev->run, "cooldown before %s: waited %.0f s, CPU at %.1f °C (start of run %.1f °C)",
		     tr ? tr->id : "?", mono() - start, t->ts.value, t->run_temp0);
}

/* Per-worker counters are not free: with inherit, every fork copies the
 * events and every exit folds them back, and every context switch of a
 * counted task saves and restores them. Measured here (make bench), they
 * cost spawn, execl, the shell tests and context1 several percent up to a
 * fifth of their score. By default the tests the table marks `uncounted`
 * run without them; naming events with --events counts them anyway. */
static bool counters_disturb(const struct telemetry *t, const struct runner_event *ev)
{
	if (t->o.events)
		return false;
	const struct test_result *tr = cur_test(ev);
	const struct test_def *d = tr ? test_find(tr->id) : NULL;
	return d && d->uncounted;
}

static void sample_ready(struct telemetry *t, const struct runner_event *ev)
{
	t->copies = ev->ncopies;
	struct test_acc *a = &t->acc;
	if (a->nsamples < SAMPLE_MAX)
		a->nsamples = ev->sample + 1;
	if (!t->have_ctr)
		return;
	if (counters_disturb(t, ev)) {
		t->ctr.ncopies = 0;
		t->frame.ncopies = 0;
		return;
	}
	counters_attach(&t->ctr, ev->pids, ev->ncopies);
	t->frame.ncopies = t->ctr.ncopies;
	t->frame.values = t->ctr.val;
	free(t->prev);
	t->prev = calloc((size_t)(ev->ncopies * t->ctr.nevents) + 1, sizeof *t->prev);
	if (!a->tot || a->ncopies != ev->ncopies) {
		free(a->tot);
		a->ncopies = ev->ncopies;
		a->tot = calloc((size_t)(ev->ncopies * t->ctr.nevents) + 1, sizeof *a->tot);
		for (int i = 0; a->tot && i < ev->ncopies * t->ctr.nevents; i++)
			a->tot[i].state = COUNTER_UNOPENED;
	}
}

/* What the rest of the machine used while the sample ran. The runner has
 * reaped the workers before SAMPLE_END, so their CPU time (and that of
 * everything they started) is already ours in getrusage. */
static void others_end(struct telemetry *t, const struct runner_event *ev)
{
	if (!t->others0.ok)
		return;
	struct others_snap now;
	others_snap(&now);
	double cpu = others_cpu(&t->others0, &now), dt = now.t - t->others0.t;
	t->others0.ok = false;
	if (isnan(cpu))
		return;
	push(ev->run, "others.cpu", "CPUs", ev->now, cpu);
	struct test_acc *a = &t->acc;
	if (!a->active)
		return;
	a->others_cpu_s += cpu * dt;
	a->others_s += dt;
	if (cpu > a->others_max)
		a->others_max = cpu;
}

static void sample_end(struct telemetry *t, const struct runner_event *ev)
{
	others_end(t, ev);
	t->busy = false;
	t->frame.busy = false;
	if (!t->have_ctr || !t->ctr.ncopies)
		return;
	counters_read(&t->ctr);
	counters_detach(&t->ctr);
	t->frame.ncopies = t->ctr.ncopies;
	t->frame.values = t->ctr.val;
	struct test_acc *a = &t->acc;
	if (!a->tot || a->ncopies != t->ctr.ncopies)
		return;
	for (int i = 0; i < a->ncopies * t->ctr.nevents; i++) {
		const struct counter_value *v = &t->ctr.val[i];
		struct counter_value *s = &a->tot[i];
		if (v->state == COUNTER_VALUE) {
			if (s->state != COUNTER_VALUE)
				memset(s, 0, sizeof *s);
			s->state = COUNTER_VALUE;
			s->value += v->value;
			s->raw += v->raw;
			s->enabled += v->enabled;
			s->running += v->running;
			s->mux = s->enabled ? (double)s->running / (double)s->enabled : 1;
		} else if (s->state != COUNTER_VALUE) {
			s->state = v->state;
			s->err = v->err;
		}
	}
}

/* A copy's totals over all events merged into one row per event (summed over copies). */
static void total_over_copies(const struct test_acc *a, int ne, int e, struct counter_value *out)
{
	memset(out, 0, sizeof *out);
	out->state = COUNTER_UNOPENED;
	for (int k = 0; k < a->ncopies; k++) {
		const struct counter_value *v = &a->tot[k * ne + e];
		if (v->state == COUNTER_VALUE) {
			if (out->state != COUNTER_VALUE)
				memset(out, 0, sizeof *out);
			out->state = COUNTER_VALUE;
			out->value += v->value;
			out->enabled += v->enabled;
			out->running += v->running;
		} else if (out->state != COUNTER_VALUE) {
			out->state = v->state;
			out->err = v->err;
		}
	}
	if (out->state == COUNTER_VALUE)
		out->mux = out->enabled ? (double)out->running / (double)out->enabled : 1;
}

static void set_value_or_na(struct test_result *tr, const char *key, double v, const char *why)
{
	if (isnan(v) || isinf(v)) {
		char buf[96];
		snprintf(buf, sizeof buf, "n/a%s%s", why ? ": " : "", why ? why : "");
		test_summary_set(tr, key, 0, buf);
	} else {
		test_summary_set(tr, key, v, NULL);
	}
}

static void test_end(struct telemetry *t, const struct runner_event *ev)
{
	struct test_result *tr = cur_test(ev);
	struct test_acc *a = &t->acc;
	if (!tr || !a->active)
		return;
	a->active = false;
	if (tr->status == TEST_SKIPPED)
		return;
	char buf[96];
	/* Frequency while busy. */
	if (a->nbusy) {
		test_summary_set(tr, "freq.min", a->fmin, NULL);
		test_summary_set(tr, "freq.mean", a->fsum / a->nbusy, NULL);
		test_summary_set(tr, "freq.max", a->fmax, NULL);
	} else {
		snprintf(buf, sizeof buf, "%.95s", t->freq_src);
		test_summary_set(tr, "freq.mean", 0, t->cf.available ? "n/a: no sample while busy" : buf);
	}
	if (t->cf.nominal_mhz > 0)
		test_summary_set(tr, "freq.nominal", t->cf.nominal_mhz, NULL);
	/* Temperature. */
	if (t->ts.has_pick) {
		set_value_or_na(tr, "temp.max", a->tmax, "no valid reading");
		set_value_or_na(tr, "temp.start", a->tstart, "no valid reading");
		if (t->ts.limit > 0)
			test_summary_set(tr, "temp.limit", t->ts.limit, NULL);
		snprintf(buf, sizeof buf, "%.95s", t->ts.pick.source);
		test_summary_set(tr, "temp.source", 0, buf);
	} else {
		snprintf(buf, sizeof buf, "%.95s", t->temp_src);
		test_summary_set(tr, "temp.max", 0, buf);
	}
	/* Throttle counters. */
	uint64_t dev = 0, dms = 0;
	if (t->th.available) {
		throttle_sample(&t->th);
		dev = throttle_events(&t->th.total) - a->thr_events0;
		dms = throttle_ms(&t->th.total) - a->thr_ms0;
		test_summary_set(tr, "throttle.events", (double)dev, NULL);
		test_summary_set(tr, "throttle.ms", (double)dms, NULL);
	} else {
		snprintf(buf, sizeof buf, "n/a: %.90s", t->th.why);
		test_summary_set(tr, "throttle.events", 0, buf);
	}
	/* Energy. */
	if (t->pw.available) {
		power_sample(&t->pw, mono());
		double j = t->pw.joules - a->joules0, dt = ev->now - a->t0;
		test_summary_set(tr, "energy.J", j, NULL);
		if (dt > 0 && j > 0) {
			test_summary_set(tr, "power.W", j / dt, NULL);
			if (tr->status == TEST_DONE && tr->score > 0)
				test_summary_set(tr, "score_per_W", tr->score / (j / dt), NULL);
		}
	} else {
		snprintf(buf, sizeof buf, "%.95s", t->power_src);
		test_summary_set(tr, "energy.J", 0, buf);
	}
	/* Other processes: a test that shared the machine measured their load too (compare withholds it). */
	/* /proc/stat counts in ticks (10 ms): under half a second sampled, one
	 * tick more or less would read as a busy machine. */
	if (a->others_s >= 0.5) {
		test_summary_set(tr, "others.cpu", a->others_cpu_s / a->others_s, NULL);
		test_summary_set(tr, "others.cpu_max", a->others_max, NULL);
	}
	/* Per-sample frequency and temperature. */
	int ns = a->nsamples < SAMPLE_MAX ? a->nsamples : SAMPLE_MAX;
	for (int s = 0; s < ns; s++) {
		char key[64];
		if (a->s_fn[s]) {
			snprintf(key, sizeof key, "sample.%d.freq", s + 1);
			test_summary_set(tr, key, a->s_fsum[s] / a->s_fn[s], NULL);
		}
		if (!isnan(a->s_tmax[s])) {
			snprintf(key, sizeof key, "sample.%d.temp", s + 1);
			test_summary_set(tr, key, a->s_tmax[s], NULL);
		}
	}
	/* Counters: every requested event keeps its row. */
	double ghz = NAN;
	if (t->have_ctr && counters_disturb(t, ev))
		test_summary_set(tr, "counters", 0, "off: counting slows fork/exec/switch tests (--events counts anyway)");
	if (t->have_ctr && a->tot) {
		int ne = t->ctr.nevents;
		struct counter_value tot[COUNTERS_MAX_EVENTS];
		char hint[200];
		counters_permission_hint(&t->ctr, hint, sizeof hint);
		for (int e = 0; e < ne; e++) {
			char key[64];
			total_over_copies(a, ne, e, &tot[e]);
			snprintf(key, sizeof key, "counter.%s", t->ctr.ev[e].label);
			if (tot[e].state == COUNTER_VALUE) {
				test_summary_set(tr, key, tot[e].value, NULL);
				if (tot[e].mux < 0.9995) {
					snprintf(key, sizeof key, "counter.%s.mux", t->ctr.ev[e].label);
					test_summary_set(tr, key, tot[e].mux * 100, NULL);
				}
			} else if (tot[e].state == COUNTER_NO_PERMISSION) {
				snprintf(buf, sizeof buf, "no permission (%.80s)", hint);
				test_summary_set(tr, key, 0, buf);
			} else {
				test_summary_set(tr, key, 0, counter_state_name(tot[e].state));
			}
			for (int k = 0; k < a->ncopies && k < SUMMARY_MAX_COPIES && a->ncopies > 1; k++) {
				const struct counter_value *v = &a->tot[k * ne + e];
				snprintf(key, sizeof key, "counter.%s.copy%d", t->ctr.ev[e].label, k + 1);
				if (v->state == COUNTER_VALUE)
					test_summary_set(tr, key, v->value, NULL);
				else
					test_summary_set(tr, key, 0, counter_state_name(v->state));
			}
		}
		int cy = counters_find(&t->ctr, ROLE_CYCLES), in = counters_find(&t->ctr, ROLE_INSTRUCTIONS);
		int cm = counters_find(&t->ctr, ROLE_CACHE_MISSES), bm = counters_find(&t->ctr, ROLE_BRANCH_MISSES);
		int tc = counters_find(&t->ctr, ROLE_TASK_CLOCK);
		const struct counter_value *C = cy >= 0 ? &tot[cy] : NULL, *I = in >= 0 ? &tot[in] : NULL;
		set_value_or_na(tr, "ipc", counter_ratio(I, C), C && C->state == COUNTER_VALUE ? NULL : "no cycles counted");
		/* Effective GHz: cycles per nanosecond of task-clock, the workers' own clock. */
		ghz = counter_ratio(C, tc >= 0 ? &tot[tc] : NULL);
		set_value_or_na(tr, "ghz", ghz, isnan(ghz) ? "needs cycles and task-clock" : NULL);
		double mpki = counter_ratio(cm >= 0 ? &tot[cm] : NULL, I);
		set_value_or_na(tr, "cache_mpki", isnan(mpki) ? NAN : mpki * 1000, "needs cache-misses and instructions");
		mpki = counter_ratio(bm >= 0 ? &tot[bm] : NULL, I);
		set_value_or_na(tr, "branch_mpki", isnan(mpki) ? NAN : mpki * 1000, "needs branch-misses and instructions");
	}
	/* The evidence the sources saw; throttle_decide weighs it. */
	struct throttle_inputs in = throttle_inputs_none();
	in.events = dev;
	in.ms = dms;
	in.nominal_mhz = t->cf.nominal_mhz;
	in.ghz = ghz;
	in.busy_min_mhz = a->nbusy ? a->fmin : NAN;
	in.temp_max = a->tmax;
	in.temp_limit = t->ts.has_pick ? t->ts.limit : 0;
	in.limit_name = t->ts.limit_name;
	double rate[SAMPLE_MAX];
	int n = tr->nsamples < ns ? tr->nsamples : ns;
	for (int s = 0; s < n; s++) {
		double tm = sample_time(&tr->samples[s]);
		rate[s] = tm > 0 ? sample_count(&tr->samples[s]) / tm : NAN;
	}
	in.nsamples = n;
	in.rate = rate;
	in.sample_temp = a->s_tmax;
	struct throttle_verdict v;
	throttle_decide(&in, &v);
	snprintf(buf, sizeof buf, "%.95s", v.evidence[0] ? v.evidence : "none");
	test_summary_set(tr, "throttle.evidence", 0, buf);
	test_summary_set(tr, "throttled", v.throttled, NULL);
}

static void on_event(void *ctx, const struct runner_event *ev)
{
	struct telemetry *t = ctx;
	switch (ev->kind) {
	case EV_RUN_BEGIN:
		t->run_temp0 = t->ts.has_pick ? t->ts.value : NAN;
		if (t->pw.available)
			power_sample(&t->pw, mono());
		t->pw.joules = 0;
		sample_sources(t, ev);
		t->last_sample = ev->now;
		break;
	case EV_TEST_BEGIN:
		if (ev->test > 0 || ev->block > 0)
			cooldown(t, ev);
		test_begin(t, ev); /* the runner marks test boundaries itself */
		break;
	case EV_SAMPLE_READY:
		sample_ready(t, ev);
		break;
	case EV_SAMPLE_BEGIN:
		if (t->have_ctr)
			counters_enable(&t->ctr);
		t->busy = true;
		others_snap(&t->others0);
		marker(ev, "begin");
		break;
	case EV_TICK:
		if (ev->now - t->last_sample < t->o.interval * 0.9)
			break;
		t->last_sample = ev->now;
		sample_sources(t, ev);
		if (t->busy)
			sample_counters(t, ev);
		break;
	case EV_SAMPLE_END:
		sample_end(t, ev);
		marker(ev, "end");
		break;
	case EV_TEST_END:
		test_end(t, ev);
		break;
	case EV_RUN_END:
		sample_sources(t, ev);
		counters_detach(&t->ctr);
		break;
	default:
		break;
	}
}

struct runner_listener telemetry_listener(struct telemetry *t)
{
	return (struct runner_listener){ .on_event = on_event, .ctx = t, .wake_fd = -1 };
}

/* Named now, so a misspelled event stops the run before anything starts. */
int telemetry_check_events(const char *opt, const char *arg, char *err, size_t errlen)
{
	struct counters c;
	int rc = counters_init(&c, arg, err, errlen);
	counters_free(&c);
	return rc == -EINVAL ? -1 : 0;
}

/* The range (0 to 3600) is the option row's; this is the gap below it. */
int telemetry_check_interval(const char *opt, const char *arg, char *err, size_t errlen)
{
	double v = strtod(arg, NULL);
	if (v > 0 && v < 0.05) {
		snprintf(err, errlen, "%s %s is too short: at least 0.05 s (or 0 for none)", opt, arg);
		return -1;
	}
	return 0;
}

int telemetry_check_sensor(const char *opt, const char *arg, char *err, size_t errlen)
{
	struct temp_sensors ts;
	if (sensors_open(&ts, arg, err, errlen) < 0)
		return -1;
	sensors_close(&ts);
	return 0;
}

static void print_line_event(void *ctx, const struct runner_event *ev)
{
	if (ev->kind != EV_TEST_END)
		return;
	const struct test_result *tr = cur_test(ev);
	if (tr && (tr->status == TEST_DONE || tr->status == TEST_FAILED))
		telemetry_print_test_line(ctx, tr);
}

struct runner_listener telemetry_verbose_listener(FILE *f)
{
	return (struct runner_listener){ .on_event = print_line_event, .ctx = f, .wake_fd = -1 };
}
