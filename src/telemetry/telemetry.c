/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler: runs every registered telemetry source on the runner's events, and the per-worker counters beside them. */
#include "telemetry/telemetry.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "run.h"
#include "telemetry/source.h"
#include "telemetry/throttle.h"
#include "tests.h"

#define SUMMARY_MAX_COPIES 16 /* per-copy counter totals kept in a test summary */

/* The per-worker counters are not a telemetry_source: they attach to each
 * sample's worker pids (inherited by their children), are enabled and read
 * around the sample rather than per interval, keep one row per copy and per
 * event, are left off for tests they would slow (counters_disturb), and feed
 * the clock evidence (cycles per task-clock) to the throttle decision. The
 * sources' face has none of that; the counters' lives here instead. */
struct telemetry {
	struct telemetry_opts o;
	struct telemetry_slot slot[TELEMETRY_MAX_SOURCES];
	int nslots;

	struct counters ctr;
	bool have_ctr;
	char ctr_why[160];
	double *prev;             /* counter values at the previous tick, for deltas */
	struct counter_value *tot; /* the test's totals [copy * nevents + e], summed over samples */
	/* User-only counting cannot see the scheduler: the workers' context
	 * switches then come from getrusage (voluntary + involuntary, over the
	 * lives of the workers the runner reaped during each sample). */
	struct rusage ru0;  /* RUSAGE_CHILDREN at the sample's SAMPLE_READY */
	double rusage_csw;  /* the test's sum */
	double rusage_user; /* ... and of their user CPU time, seconds */
	int rusage_n;       /* samples whose workers were reaped (CPU time moved) */
	int tot_ncopies;

	double last_sample;
	bool busy;
	int copies;   /* copies of the sample in progress */
	pid_t *pids;  /* its workers, for the sources (the CPUs they run on); NULL between samples */
	int npids;
	bool in_test; /* between TEST_BEGIN and TEST_END */
	int nsamples; /* the test's samples so far, at most TELEMETRY_SAMPLE_MAX */
	int visit_samples; /* samples since TEST_BEGIN: a visit's, in a run in rounds */
	struct telemetry_frame frame;
};

static struct test_result *cur_test(const struct runner_event *ev)
{
	if (ev->block < 0 || ev->block >= ev->run->nblocks)
		return NULL;
	struct run_block *b = &ev->run->blocks[ev->block];
	if (ev->test < 0 || ev->test >= b->ntests)
		return NULL;
	return &b->tests[ev->test];
}

/* What the sources are told now. */
static struct telemetry_ctx ctx_of(struct telemetry *t, const struct runner_event *ev)
{
	const struct test_result *tr = ev ? cur_test(ev) : NULL;
	return (struct telemetry_ctx){
		.opts = &t->o,
		.run = ev ? ev->run : NULL,
		.now = ev ? ev->now : 0,
		.busy = t->busy,
		.copies = t->copies,
		.in_test = t->in_test,
		.sample = t->nsamples,
		.first_test = ev && ev->test <= 0 && ev->block <= 0,
		.test_id = tr ? tr->id : "?",
		.frame = &t->frame,
		.pids = t->pids,
		.npids = t->pids ? t->npids : 0,
	};
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
	struct telemetry_ctx c = ctx_of(t, NULL);
	for (int i = 0; telemetry_sources[i] && t->nslots < TELEMETRY_MAX_SOURCES; i++) {
		rc = telemetry_slot_open(&t->slot[t->nslots], telemetry_sources[i], &c, err, errlen);
		if (rc < 0) {
			*usage = rc != -ENOMEM; /* a --sensor naming nothing here */
			telemetry_free(t);
			return NULL;
		}
		t->nslots++;
	}
	t->last_sample = -1e9;
	t->frame.nsources = t->nslots;
	t->frame.sources = t->slot;
	t->frame.nevents = t->have_ctr ? t->ctr.nevents : 0;
	t->frame.events = t->ctr.ev;
	return t;
}

void telemetry_free(struct telemetry *t)
{
	if (!t)
		return;
	counters_free(&t->ctr);
	for (int i = 0; i < t->nslots; i++)
		telemetry_slot_close(&t->slot[i]);
	free(t->prev);
	free(t->tot);
	free(t->pids);
	free(t);
}

const struct telemetry_frame *telemetry_latest(const struct telemetry *t)
{
	return &t->frame;
}

/* Calls one optional hook of every source: sample, run_begin, test_begin, sample_begin or sample_end. */
#define EACH_SOURCE(t, ev, hook)                                                   \
	do {                                                                       \
		struct telemetry_ctx c_ = ctx_of((t), (ev));                       \
		for (int i_ = 0; i_ < (t)->nslots; i_++)                           \
			if ((t)->slot[i_].src->hook)                               \
				(t)->slot[i_].src->hook(&(t)->slot[i_], &c_);      \
	} while (0)

/* Every source's sample hook, on the interval and as the run begins and ends. */
static void sample_sources(struct telemetry *t, const struct runner_event *ev)
{
	t->frame.t = ev->now;
	t->frame.busy = t->busy;
	EACH_SOURCE(t, ev, sample);
}

static void push(struct run *r, const char *name, const char *unit, double t, double v)
{
	if (!isnan(v))
		series_push(run_series(r, name, unit), t, v);
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
	t->rusage_csw = t->rusage_user = 0;
	t->rusage_n = 0;
	free(t->tot);
	t->tot = NULL;
	t->tot_ncopies = 0;
	t->nsamples = 0;
	t->visit_samples = 0;
	t->in_test = true;
	EACH_SOURCE(t, ev, test_begin); /* the temperature may wait here (--cooldown) */
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
	if (t->nsamples < TELEMETRY_SAMPLE_MAX)
		t->nsamples = ev->sample + 1;
	getrusage(RUSAGE_CHILDREN, &t->ru0);
	free(t->pids);
	t->pids = NULL;
	t->npids = 0;
	if (ev->pids && ev->ncopies > 0 && (t->pids = malloc((size_t)ev->ncopies * sizeof *t->pids))) {
		memcpy(t->pids, ev->pids, (size_t)ev->ncopies * sizeof *t->pids);
		t->npids = ev->ncopies;
	}
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
	if (!t->tot || t->tot_ncopies != ev->ncopies) {
		free(t->tot);
		t->tot_ncopies = ev->ncopies;
		t->tot = calloc((size_t)(ev->ncopies * t->ctr.nevents) + 1, sizeof *t->tot);
		for (int i = 0; t->tot && i < ev->ncopies * t->ctr.nevents; i++)
			t->tot[i].state = COUNTER_UNOPENED;
	}
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void sample_end(struct telemetry *t, const struct runner_event *ev)
{
	t->visit_samples++;
	EACH_SOURCE(t, ev, sample_end);
	t->busy = false;
	t->frame.busy = false;
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	double user = seconds(ru.ru_utime) - seconds(t->ru0.ru_utime);
	double sys = seconds(ru.ru_stime) - seconds(t->ru0.ru_stime);
	if (user + sys > 0) { /* workers were reaped: their switches are in */
		t->rusage_csw += (double)(ru.ru_nvcsw - t->ru0.ru_nvcsw + ru.ru_nivcsw - t->ru0.ru_nivcsw);
		t->rusage_user += user;
		t->rusage_n++;
	}
	free(t->pids);
	t->pids = NULL;
	t->npids = 0;
	if (!t->have_ctr || !t->ctr.ncopies)
		return;
	counters_read(&t->ctr);
	counters_detach(&t->ctr);
	t->frame.ncopies = t->ctr.ncopies;
	t->frame.values = t->ctr.val;
	if (!t->tot || t->tot_ncopies != t->ctr.ncopies)
		return;
	for (int i = 0; i < t->tot_ncopies * t->ctr.nevents; i++)
		counter_add(&t->tot[i], &t->ctr.val[i]);
}

/* One event's totals over every copy. */
static void total_over_copies(const struct telemetry *t, int e, struct counter_value *out)
{
	int ne = t->ctr.nevents;
	memset(out, 0, sizeof *out);
	out->state = COUNTER_UNOPENED;
	for (int k = 0; k < t->tot_ncopies; k++)
		counter_add(out, &t->tot[k * ne + e]);
}

/* The workers' effective busy clock, turbostat's Bzy_MHz: cycles over
 * ref-cycles (APERF/MPERF's ratio; ref-cycles tick at the TSC's rate while the
 * core is not halted) times that rate. Both counted the same way, user-only
 * included, the ratio holds. freq.effective_from stores how; n/a says why not. */
static void effective_clock(const struct telemetry *t, struct test_result *tr, const struct counter_value *tot,
			    const struct throttle_inputs *in)
{
	int cy = counters_find(&t->ctr, ROLE_CYCLES), rc = counters_find(&t->ctr, ROLE_REF_CYCLES);
	char why[120];
	if (cy < 0 || rc < 0) {
		test_summary_set(tr, "freq.effective", 0,
				 "n/a: needs cycles and ref-cycles among the events (--events)");
		return;
	}
	const struct counter_value *C = &tot[cy], *R = &tot[rc];
	if (C->state != COUNTER_VALUE || R->state != COUNTER_VALUE || !(R->value > 0)) {
		const struct counter_value *bad = C->state != COUNTER_VALUE ? C : R;
		snprintf(why, sizeof why, "n/a: %s %s", bad == C ? "cycles" : "ref-cycles",
			 bad->state == COUNTER_VALUE ? "read 0" : counter_state_name(bad->state));
		test_summary_set(tr, "freq.effective", 0, why);
		return;
	}
	if (!(in->ref_mhz > 0)) {
		test_summary_set(tr, "freq.effective", 0, "n/a: no nominal clock, the rate ref-cycles tick at");
		return;
	}
	test_summary_set(tr, "freq.effective", C->value / R->value * in->ref_mhz, NULL);
	snprintf(why, sizeof why, "perf cycles / ref-cycles x %.0f MHz (%s)%s", in->ref_mhz, in->ref_from,
		 t->ctr.user_only ? ", user time only" : "");
	test_summary_set(tr, "freq.effective_from", 0, why);
}

/* The counters' summary keys: every requested event keeps its row. Returns
 * the workers' own clock in GHz (cycles per task-clock ns), NAN unknown. */
static double counters_test_end(struct telemetry *t, const struct runner_event *ev, struct test_result *tr,
				const struct throttle_inputs *thr)
{
	char buf[KV_TEXT_MAX];
	double ghz = NAN;
	if (t->have_ctr && counters_disturb(t, ev))
		test_summary_set(tr, "counters", 0, "off: counting slows fork/exec/switch tests (--events counts anyway)");
	if (!t->have_ctr || !t->tot)
		return ghz;
	int ne = t->ctr.nevents;
	struct counter_value tot[COUNTERS_MAX_EVENTS];
	char hint[200];
	counters_permission_hint(&t->ctr, hint, sizeof hint);
	char mode[200];
	counters_mode(&t->ctr, mode, sizeof mode);
	if (mode[0])
		test_summary_set(tr, "counters.mode", 0, mode);
	for (int e = 0; e < ne; e++) {
		char key[64];
		total_over_copies(t, e, &tot[e]);
		snprintf(key, sizeof key, "counter.%s", t->ctr.ev[e].label);
		if (tot[e].state == COUNTER_VALUE) {
			test_summary_set(tr, key, tot[e].value, NULL);
			if (tot[e].mux < 0.9995) {
				snprintf(key, sizeof key, "counter.%s.mux", t->ctr.ev[e].label);
				test_summary_set(tr, key, tot[e].mux * 100, NULL);
			}
			/* A hybrid CPU's share of each core type: not multiplexing. */
			for (int p = 0; p < tot[e].npmus && p < t->ctr.npmus; p++) {
				snprintf(key, sizeof key, "counter.%s.%s", t->ctr.ev[e].label, t->ctr.pmu[p].name);
				test_summary_set(tr, key, tot[e].share[p] * 100, NULL);
			}
		} else if (tot[e].state == COUNTER_NO_PERMISSION) {
			snprintf(buf, sizeof buf, "no permission (%.80s)", hint);
			test_summary_set(tr, key, 0, buf);
		} else if (tot[e].state == COUNTER_USER_ONLY && t->rusage_n && t->ctr.ev[e].encoded &&
			   t->ctr.ev[e].attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES) {
			test_summary_set(tr, key, t->rusage_csw, NULL);
			snprintf(key, sizeof key, "counter.%s.from", t->ctr.ev[e].label);
			test_summary_set(tr, key, 0, "getrusage: voluntary + involuntary, the workers' whole lives");
		} else if (tot[e].state == COUNTER_USER_ONLY) {
			snprintf(buf, sizeof buf, "n/a: user-only counting (perf_event_paranoid %d) cannot see it",
				 t->ctr.paranoid);
			test_summary_set(tr, key, 0, buf);
		} else {
			test_summary_set(tr, key, 0, counter_state_name(tot[e].state));
		}
		for (int k = 0; k < t->tot_ncopies && k < SUMMARY_MAX_COPIES && t->tot_ncopies > 1; k++) {
			const struct counter_value *v = &t->tot[k * ne + e];
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
	telemetry_set_or_na(tr, "ipc", counter_ratio(I, C), C && C->state == COUNTER_VALUE ? NULL : "no cycles counted");
	/* Effective GHz: cycles per nanosecond of task-clock, the workers' own
	 * clock. User-only cycles over all of task-clock understate it by the
	 * kernel's share, most on pipe, syscall and file tests: not that then,
	 * and no "clock fell" evidence for the throttle decision. */
	ghz = t->ctr.user_only ? NAN : counter_ratio(C, tc >= 0 ? &tot[tc] : NULL);
	/* User cycles over user CPU time is the clock too (the workers' whole
	 * lives, a tick's resolution): stored, said where from, never evidence. */
	double ughz = NAN;
	if (t->ctr.user_only && C && C->state == COUNTER_VALUE && t->rusage_n && t->rusage_user >= 0.1)
		ughz = C->value / (t->rusage_user * 1e9);
	telemetry_set_or_na(tr, "ghz", t->ctr.user_only ? ughz : ghz,
			    t->ctr.user_only ? "user-only cycles understate the clock" : "needs cycles and task-clock");
	if (!isnan(ughz))
		test_summary_set(tr, "ghz.from", 0, "user cycles / user CPU time (getrusage): not throttle evidence");
	double mpki = counter_ratio(cm >= 0 ? &tot[cm] : NULL, I);
	telemetry_set_or_na(tr, "cache_mpki", isnan(mpki) ? NAN : mpki * 1000, "needs cache-misses and instructions");
	mpki = counter_ratio(bm >= 0 ? &tot[bm] : NULL, I);
	telemetry_set_or_na(tr, "branch_mpki", isnan(mpki) ? NAN : mpki * 1000, "needs branch-misses and instructions");
	effective_clock(t, tr, tot, thr);
	return ghz;
}

/*
 * A run in rounds (runner.h) visits a test again and again between other tests'
 * samples, and the sources measure each visit from its TEST_BEGIN to its TEST_END
 * as they would a whole test. What a later visit measured joins what the test had
 * by what each summary is: a total adds up, a worst case keeps the worst, the
 * first reading stays first, and the rest (a mean: the others' CPU, the clock,
 * IPC) is weighed by the samples behind it. A number beats a "n/a" text (a short
 * visit may see no reading); of two texts the later one, unless it says "none".
 */
enum visit_merge { MERGE_MEAN, MERGE_SUM, MERGE_MAX, MERGE_MIN, MERGE_FIRST };

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && !strcmp(s + n - m, end);
}

static enum visit_merge merge_of(const char *key)
{
	if (!strcmp(key, "temp.start"))
		return MERGE_FIRST;
	if (ends_with(key, ".max") || ends_with(key, "_max") || !strcmp(key, "throttled") ||
	    !strcmp(key, "throttle.cooling"))
		return MERGE_MAX;
	if (ends_with(key, ".min"))
		return MERGE_MIN;
	if (!strcmp(key, "throttle.events") || !strcmp(key, "throttle.ms") || !strcmp(key, "throttle.power_limit") ||
	    !strcmp(key, "energy.J") || !strcmp(key, "pace.n"))
		return MERGE_SUM;
	/* a counter's total (counter.NAME) and each copy's (counter.NAME.copyN); not its
	 * multiplexing or core-type shares, which are percentages */
	const char *dot = !strncmp(key, "counter.", 8) ? strchr(key + 8, '.') : NULL;
	int copy;
	if (!strncmp(key, "counter.", 8) && (!dot || sscanf(dot, ".copy%d", &copy) == 1))
		return MERGE_SUM;
	return MERGE_MEAN;
}

static void merge_visit(struct test_result *tr, const struct test_result *visit, double w_old, double w_new)
{
	for (int i = 0; i < visit->nsummary; i++) {
		const struct kv *v = &visit->summary[i];
		const struct kv *o = test_summary_get(tr, v->key);
		if (!o || (!o->has_value && v->has_value)) {
			test_summary_set(tr, v->key, v->value, v->has_value ? NULL : v->text);
			continue;
		}
		if (!v->has_value) {
			if (!o->has_value && strncmp(v->text, "none", 4))
				test_summary_set(tr, v->key, 0, v->text);
			continue;
		}
		double x = o->value, y = v->value, m;
		switch (merge_of(v->key)) {
		case MERGE_FIRST: m = x; break;
		case MERGE_SUM: m = x + y; break;
		case MERGE_MAX: m = x > y ? x : y; break;
		case MERGE_MIN: m = x < y ? x : y; break;
		default: m = w_old + w_new > 0 ? (x * w_old + y * w_new) / (w_old + w_new) : y; break;
		}
		test_summary_set(tr, v->key, m, NULL);
	}
}

static void test_end(struct telemetry *t, const struct runner_event *ev)
{
	struct test_result *real = cur_test(ev);
	if (!real || !t->in_test)
		return;
	t->in_test = false;
	if (real->status == TEST_SKIPPED)
		return;
	/* a later visit: the sources write into a copy whose summary is this visit's alone */
	struct test_result visit, *tr = real;
	if (ev->visit > 0) {
		visit = *real;
		visit.summary = NULL;
		visit.nsummary = 0;
		tr = &visit;
	}
	struct throttle_inputs in = throttle_inputs_none();
	struct telemetry_ctx c = ctx_of(t, ev);
	for (int i = 0; i < t->nslots; i++)
		if (t->slot[i].src->test_end)
			t->slot[i].src->test_end(&t->slot[i], &c, tr, &in);
	in.ghz = counters_test_end(t, ev, tr, &in);
	/* Each sample's rate, for "scores falling as the CPU warms". */
	double rate[TELEMETRY_SAMPLE_MAX];
	int n = tr->nsamples < t->nsamples ? tr->nsamples : t->nsamples;
	for (int s = 0; s < n; s++) {
		double tm = sample_time(&tr->samples[s]);
		rate[s] = tm > 0 ? sample_count(&tr->samples[s]) / tm : NAN;
	}
	in.nsamples = n;
	in.rate = rate;
	struct throttle_verdict v;
	throttle_decide(&in, &v);
	char buf[KV_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", v.evidence[0] ? v.evidence : "none");
	test_summary_set(tr, "throttle.evidence", 0, buf);
	test_summary_set(tr, "throttled", v.throttled, NULL);
	if (tr == &visit) {
		merge_visit(real, &visit, real->nsamples - t->visit_samples, t->visit_samples);
		free(visit.summary);
	}
}

/* How each meter measures, into the run (run_meta.meters): each source's
 * status up to its explanation in parentheses, "n/a" when missing, and the
 * counters' mode and core-type PMUs. */
static void record_meters(const struct telemetry *t, struct run *r)
{
	char *buf = r->meta.meters;
	size_t size = sizeof r->meta.meters, l = 0;
	buf[0] = '\0';
	for (int i = 0; i < t->nslots && l < size; i++) {
		const struct telemetry_slot *s = &t->slot[i];
		char how[128];
		snprintf(how, sizeof how, "%s", s->available ? s->status : "n/a");
		char *paren = strstr(how, " (");
		if (paren)
			*paren = '\0';
		for (char *p = how; *p; p++)
			if (*p == ';')
				*p = ','; /* ';' separates the meters */
		l += (size_t)snprintf(buf + l, size - l, "%s%s: %s", l ? "; " : "", s->src->name, how);
	}
	if (l >= size)
		return;
	if (!t->have_ctr) {
		snprintf(buf + l, size - l, "%scounters: n/a", l ? "; " : "");
		return;
	}
	l += (size_t)snprintf(buf + l, size - l, "%scounters: %s", l ? "; " : "",
			      t->ctr.user_only ? "user-only" : "user and kernel");
	if (t->ctr.user_only && l < size)
		l += (size_t)snprintf(buf + l, size - l, " (perf_event_paranoid %d)", t->ctr.paranoid);
	for (int p = 0; p < t->ctr.npmus && l < size; p++)
		l += (size_t)snprintf(buf + l, size - l, "%s%s", p ? "+" : " on ", t->ctr.pmu[p].name);
}

static void on_event(void *ctx, const struct runner_event *ev)
{
	struct telemetry *t = ctx;
	switch (ev->kind) {
	case EV_RUN_BEGIN:
		record_meters(t, ev->run);
		EACH_SOURCE(t, ev, run_begin);
		sample_sources(t, ev);
		t->last_sample = ev->now;
		break;
	case EV_TEST_BEGIN:
		test_begin(t, ev); /* the runner marks test boundaries itself */
		break;
	case EV_SAMPLE_READY:
		sample_ready(t, ev);
		break;
	case EV_SAMPLE_BEGIN:
		if (t->have_ctr)
			counters_enable(&t->ctr);
		t->busy = true;
		EACH_SOURCE(t, ev, sample_begin);
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

static void print_line_event(void *ctx, const struct runner_event *ev)
{
	if (ev->kind != EV_TEST_END || !ev->final)
		return;
	const struct test_result *tr = cur_test(ev);
	if (tr && (tr->status == TEST_DONE || tr->status == TEST_FAILED))
		telemetry_print_test_line(ctx, tr);
}

struct runner_listener telemetry_verbose_listener(FILE *f)
{
	return (struct runner_listener){ .on_event = print_line_event, .ctx = f, .wake_fd = -1 };
}
