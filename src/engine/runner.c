/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The runner: a run's blocks and tests, their samples in order, quick stopping, events. */
#include "runner.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "quick.h"
#include "runner_int.h"
#include "score.h"
#include "scratch.h"
#include "tests.h"
#include "workload.h"

static bool needs_data(const struct test_def *t)
{
	return t->needs_data;
}

struct runner *runner_new(const struct runner_opts *opts, char *err, size_t errlen)
{
	if (opts->ncopies < 1 || opts->ncopies > RUNNER_MAX_BLOCKS) {
		snprintf(err, errlen, "between 1 and %d copy counts, please", RUNNER_MAX_BLOCKS);
		return NULL;
	}
	for (int i = 0; i < opts->ncopies; i++)
		if (opts->copies[i] < 1 || opts->copies[i] > RUNNER_MAX_COPIES) {
			snprintf(err, errlen, "copies must be between 1 and %d, not %d",
				 RUNNER_MAX_COPIES, opts->copies[i]);
			return NULL;
		}
	if (opts->ntests < 1 || opts->ntests > RUNNER_MAX_TESTS) {
		snprintf(err, errlen, "no tests to run");
		return NULL;
	}
	if (opts->timed_seconds > 0 && (opts->ntests != 1 || opts->ncopies != 1)) {
		snprintf(err, errlen, "%s runs one test with one copy count, not %d test%s "
			 "and %d copy count%s", run_mode_info(opts->mode)->label, opts->ntests, opts->ntests == 1 ? "" : "s", opts->ncopies,
			 opts->ncopies == 1 ? "" : "s");
		return NULL;
	}
	struct runner *r = calloc(1, sizeof *r);
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->o = *opts;
	r->shm_fd = -1;
	const char *root = opts->tmpdir;
	if (!root || !*root)
		root = getenv("TMPDIR");
	if (!root || !*root)
		root = "/tmp";
	snprintf(r->scratch_root, sizeof r->scratch_root, "%s", root);
	struct stat st;
	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "scratch directory %s: %s", root,
			 errno ? strerror(errno) : "not a directory");
		if (stat(root, &st) == 0)
			snprintf(err, errlen, "scratch directory %s: not a directory", root);
		free(r);
		return NULL;
	}
	if (access(root, W_OK | X_OK) != 0) {
		snprintf(err, errlen, "scratch directory %s is not writable: %s", root, strerror(errno));
		free(r);
		return NULL;
	}
	/* Out of inodes (or space for a directory), access() still says yes but
	 * the run's scratch directory cannot be made: refuse now, before a run
	 * of nothing is reported and stored. */
	char probe[PATH_MAX];
	snprintf(probe, sizeof probe, "%s/kbench-XXXXXX", root);
	if (!mkdtemp(probe)) {
		snprintf(err, errlen, "cannot make a directory in the scratch directory %s: %s", root,
			 strerror(errno));
		free(r);
		return NULL;
	}
	rmdir(probe);
	const struct test_def *want_data = NULL;
	for (int i = 0; i < opts->ntests && !want_data; i++)
		want_data = needs_data(opts->tests[i]) ? opts->tests[i] : NULL;
	const char *dd = runner_find_datadir(opts->datadir);
	if (want_data && !dd) {
		snprintf(err, errlen, "%s needs kbench's data files (data/ in the source tree: multi.sh, "
			 "large.txt, cctest.c, ...), which were not found; set KBENCH_DATADIR to the "
			 "directory holding them", want_data->id);
		free(r);
		return NULL;
	}
	snprintf(r->datadir, sizeof r->datadir, "%s", dd ? dd : "");
	if (runner_prepare_settings(r, err, errlen) < 0) {
		runner_free_settings(r);
		free(r);
		return NULL;
	}
	const char *helper = runner_find_helper();
	snprintf(r->helper, sizeof r->helper, "%s", helper ? helper : "");

	/* A memfd, not anonymous memory: execl's chain maps the slots again after exec. */
	r->shm_len = sizeof(struct worker_slot) * RUNNER_MAX_COPIES;
	r->shm_fd = memfd_create("kbench-slots", 0);
	if (r->shm_fd < 0 || ftruncate(r->shm_fd, (off_t)r->shm_len) != 0) {
		snprintf(err, errlen, "shared memory for the workers: %s", strerror(errno));
		if (r->shm_fd >= 0)
			close(r->shm_fd);
		runner_free_settings(r);
		free(r);
		return NULL;
	}
	r->slots = mmap(NULL, r->shm_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->shm_fd, 0);
	if (r->slots == MAP_FAILED) {
		snprintf(err, errlen, "shared memory for the workers: %s", strerror(errno));
		close(r->shm_fd);
		runner_free_settings(r);
		free(r);
		return NULL;
	}
	if (r->o.interval <= 0)
		r->o.interval = 0.5;
	return r;
}

void runner_free(struct runner *r)
{
	if (!r)
		return;
	if (r->slots && r->slots != MAP_FAILED)
		munmap(r->slots, r->shm_len);
	if (r->shm_fd >= 0)
		close(r->shm_fd);
	runner_free_settings(r);
	free(r);
}

void runner_listen(struct runner *r, const struct runner_listener *l)
{
	if (r->nlisteners < MAX_LISTENERS)
		r->listeners[r->nlisteners++] = *l;
}

void runner_skip_test(struct runner *r)
{
	r->skip = 1;
}

void runner_abort(struct runner *r)
{
	if (r->abort < 2)
		r->abort++;
}

int runner_live_copies(const struct runner *r)
{
	return r->live_copies;
}

uint64_t runner_live_count(const struct runner *r, int copy)
{
	if (copy < 0 || copy >= r->live_copies)
		return 0;
	return atomic_load_explicit(&r->slots[copy].count, memory_order_relaxed);
}

uint64_t runner_live_aux(const struct runner *r, int copy)
{
	if (copy < 0 || copy >= r->live_copies)
		return 0;
	return atomic_load_explicit(&r->slots[copy].aux, memory_order_relaxed);
}

int runner_live_points(const struct runner *r, int copy, const struct wl_point **pts)
{
	if (copy < 0 || copy >= r->live_copies)
		return 0;
	*pts = r->slots[copy].points;
	int n = atomic_load_explicit(&r->slots[copy].npoints, memory_order_acquire);
	return n < WL_MAX_POINTS ? n : WL_MAX_POINTS;
}

int runner_live_hists(const struct runner *r, int copy, const struct lat_hist **h)
{
	if (copy < 0 || copy >= r->live_copies)
		return 0;
	*h = r->slots[copy].hists;
	int n = atomic_load_explicit(&r->slots[copy].nhists, memory_order_acquire);
	return n < WL_MAX_HISTS ? n : WL_MAX_HISTS;
}

double runner_live_elapsed(const struct runner *r)
{
	return r->live_copies ? wl_now() - r->sample_t0 : 0;
}

/* The unmeasured first sample of a quick run: it faults in the worker's
 * pages, warms the caches and branch predictors, and for the file tests
 * brings the files into the page cache, as the first of UnixBench's ten
 * samples does (and is then usually dropped as the worst third). */
/* A quick run's warm-up sample of a rate test: run and thrown away; a
 * failure fails the test. */
static void warm_up(struct runner *r, struct runner_event *ev, const struct test_def *t, int copies,
		    struct test_result *res)
{
	double c[RUNNER_MAX_COPIES], e[RUNNER_MAX_COPIES], sh[RUNNER_MAX_COPIES], sht[RUNNER_MAX_COPIES], ov;
	int cpu[RUNNER_MAX_COPIES], cpu_end[RUNNER_MAX_COPIES];
	struct sample warm = { .copies = copies, .count = c, .elapsed = e, .cpu = cpu, .cpu_end = cpu_end,
			       .shared = sh, .shared_time = sht };
	char reason[200] = "";
	ev->sample = 0;
	int rc = runner_run_sample(r, ev, t, copies, QUICK_WARMUP_SECONDS, &warm, &ov, reason, sizeof reason);
	ev->kind = EV_SAMPLE_END; /* listeners close what they opened at SAMPLE_READY */
	runner_emit(r, ev);
	ev->pids = NULL;
	if (rc != 0 && !r->skip && !r->abort) {
		snprintf(res->reason, sizeof res->reason, "warm-up: %s", reason);
		res->status = TEST_FAILED;
	}
}

/* A points test's sample into its result; what it could not measure as
 * asked (SCHED_FIFO refused, a load refused) is the run's note too. */
static void collect_points(struct runner *r, struct run *run, const struct test_def *t, int copies,
			   struct test_result *res)
{
	t->collect(res, r->slots, copies, runner_settings_of(r, t));
	test_describe(res);
	for (int s = 0; s < res->nsummary; s++) {
		const struct kv *note = &res->summary[s];
		if (note->role != KV_NOTE && note->role != KV_REFUSED)
			continue;
		bool said = !note->text[0];
		for (int k = 0; !said && k < run->nnotes; k++)
			said = strstr(run->notes[k], note->text) != NULL;
		if (!said)
			run_add_note(run, "%s: %s", res->id, note->text);
	}
}

/* Nothing of one sample may leak into the next (file tests, shell temp
 * files), nor of a killed one into the next test. */
static void clear_copies(struct runner *r, int copies)
{
	char dir[PATH_MAX];
	for (int c = 0; c < copies; c++) {
		snprintf(dir, sizeof dir, "%s/copy%d", r->scratch, c);
		scratch_rm_tree(dir);
	}
}

/* What a quick run's rule decided for a test, in its summaries. */
static void quick_summary(struct test_result *res, const struct quick_rule *rule, double achieved,
			  enum quick_verdict verdict, double seconds)
{
	test_quick_asked(res, rule->precision);
	if (isfinite(achieved))
		test_summary_set(res, "quick_precision", achieved, NULL);
	test_summary_set(res, "quick_stop", 0,
			 verdict == QUICK_PRECISE	? "precise"
			 : verdict == QUICK_TIME_UP	? "time limit"
			 : verdict == QUICK_MAX_SAMPLES ? "sample limit"
							: "stopped");
	test_summary_set(res, "quick_seconds", seconds, NULL);
}

/* How each sample of a test got a layout of its own (runner_sample.c), in its summary. */
#define LAYOUT_EXEC "a new process each sample (exec)"
#define LAYOUT_OFFSETS "new stack and heap offsets each sample"

/* The run's note of which tests drew their layout anew how (their summaries say it per test). */
static void layout_note(struct run *run, int first)
{
	char exec[400] = "", offs[400] = "";
	for (int b = first; b < run->nblocks; b++)
		for (int i = 0; i < run->blocks[b].ntests; i++) {
			const struct test_result *t = &run->blocks[b].tests[i];
			const struct kv *kv = test_summary_get(t, "layout");
			char *list = !kv ? NULL : !strcmp(kv->text, LAYOUT_EXEC) ? exec : offs;
			if (!list || strstr(list, t->id))
				continue;
			size_t l = strlen(list);
			snprintf(list + l, sizeof exec - l, "%s%s", l ? ", " : "", t->id);
		}
	if (offs[0] || exec[0])
		run_add_note(run, "layout: as a new process's would, each sample's stack and heap offsets were drawn "
				  "anew (%s); in a new process each sample (%s)",
			     offs[0] ? offs : "none", exec[0] ? exec : "none");
}

/* A test's first event: running, its describe fact, EV_TEST_BEGIN, its marker. */
static void test_begin(struct runner *r, struct run *run, struct runner_event *ev, struct test_result *res,
		       const struct test_def *t)
{
	if (res->status != TEST_RUNNING && !res->nsamples) {
		char key[64], text[KV_TEXT_MAX];
		if (t->workload->describe && t->workload->describe(t->arg, key, sizeof key, text, sizeof text) == 0)
			test_summary_set(res, key, 0, text);
		char what[80];
		snprintf(what, sizeof what, "test %s copies %d", t->id, run->blocks[ev->block].copies);
		run_add_marker(run, wl_now() - r->run_t0, what);
	}
	res->status = TEST_RUNNING;
	r->skip = 0;
	runner_emit(r, (ev->kind = EV_TEST_BEGIN, ev));
}

/* Sample k of test t after its pause: into res (and its points), listeners told. 0, or -1
 * with res failed or skipped (a worker failed; the user skipped or aborted). */
static int take_sample(struct runner *r, struct run *run, struct runner_event *ev, const struct test_def *t,
		       struct test_result *res, int k, double length, double *overhead_sum)
{
	int copies = run->blocks[ev->block].copies;
	ev->sample = k;
	runner_pause_before_sample(r, ev);
	/* settled: a quick sample, and a full-length test's first (runner_settle); not when
	 * --pause 0 asked for samples back to back (nor in a timed run, whose load never rests) */
	double settled = r->o.timed_seconds > 0 || r->o.pause == 0 ? 0
			 : r->o.quick			 ? runner_settle(r, SETTLE_CAP_QUICK)
			 : k == 0 || runner_in_rounds(&r->o, t) ? runner_settle(r, SETTLE_CAP_FULL) : 0;
	if (settled > 0) {
		const struct kv *was = test_summary_get(res, "settle_s");
		test_summary_set(res, "settle_s", (was ? was->value : 0) + settled, NULL);
	}
	if (r->skip || r->abort) {
		snprintf(res->reason, sizeof res->reason, "%s after %d samples", r->abort ? "aborted" : "skipped", k);
		res->status = TEST_SKIPPED;
		return -1;
	}
	char what[80];
	snprintf(what, sizeof what, "sample %s %d", t->id, k + 1);
	run_add_marker(run, wl_now() - r->run_t0, what);
	double counts[RUNNER_MAX_COPIES] = { 0 }, times[RUNNER_MAX_COPIES] = { 0 }, shared[RUNNER_MAX_COPIES],
	       shared_time[RUNNER_MAX_COPIES];
	int cpu[RUNNER_MAX_COPIES], cpu_end[RUNNER_MAX_COPIES];
	struct sample tmp = { .copies = copies, .count = counts, .elapsed = times, .cpu = cpu,
			      .cpu_end = cpu_end, .shared = shared, .shared_time = shared_time };
	tmp.start = wl_now() - r->run_t0;
	char reason[200] = "";
	ev->sample_length = length;
	double overhead = 0;
	int rc = runner_run_sample(r, ev, t, copies, length, &tmp, &overhead, reason, sizeof reason);
	if (rc == 0 && !test_summary_get(res, "layout"))
		test_summary_set(res, "layout", 0, r->slots[0].execed ? LAYOUT_EXEC : LAYOUT_OFFSETS);
	if (rc == 0) {
		*overhead_sum += overhead;
		test_summary_set(res, "overhead_ms", *overhead_sum / (res->nsamples + 1) * 1e3, NULL);
		struct sample *s = test_add_sample(res, copies);
		s->start = tmp.start;
		memcpy(s->count, counts, sizeof(double) * (size_t)copies);
		memcpy(s->elapsed, times, sizeof(double) * (size_t)copies);
		memcpy(s->cpu, cpu, sizeof(int) * (size_t)copies);
		memcpy(s->cpu_end, cpu_end, sizeof(int) * (size_t)copies);
		memcpy(s->shared, shared, sizeof(double) * (size_t)copies);
		memcpy(s->shared_time, shared_time, sizeof(double) * (size_t)copies);
	}
	/* A sample cut short by a skip or an abort keeps its finished points. */
	if (t->collect && (rc == 0 || r->skip || r->abort))
		collect_points(r, run, t, copies, res);
	/* After the sample is in the run, so listeners can read it. */
	ev->kind = EV_SAMPLE_END;
	runner_emit(r, ev);
	ev->pids = NULL;
	clear_copies(r, copies);
	if (rc == 0)
		return 0;
	if (r->skip || r->abort) {
		snprintf(res->reason, sizeof res->reason, "%s after %d samples", r->abort ? "aborted" : "skipped", k);
		res->status = TEST_SKIPPED;
	} else {
		snprintf(res->reason, sizeof res->reason, "sample %d: %s", k + 1, reason);
		res->status = TEST_FAILED;
	}
	return -1;
}

/* The rate of res's latest sample. */
static double last_rate(const struct test_result *res)
{
	const struct sample *s = &res->samples[res->nsamples - 1];
	return score_rate(sample_count(s), sample_time(s), res->timebase);
}

/* The run's note of how settling went (runner_settle), when it did not come every time. */
static void settle_note(const struct runner *r, struct run *run)
{
	const struct runner_settle *st = &r->settle;
	if (st->unread)
		run_add_note(run, "settle: /proc/stat could not be read: samples began without waiting for an idle machine");
	else if (st->missed)
		run_add_note(run, "settle: %d of %d samples began before the machine was idle (other processes used up "
				  "to %.2f CPU at the cap)%s",
			     st->missed, st->tries, st->busy_max,
			     st->gave_up ? "; after 5 in a row the rest did not wait: the load was the machine's" : "");
}

/* One test after another: each test's samples in a row (UnixBench's order; a quick
 * run's precision rule; a points test's fixed count). */
static void run_test(struct runner *r, struct run *run, int bi, int ti)
{
	struct run_block *b = &run->blocks[bi];
	struct test_result *res = &b->tests[ti];
	const struct test_def *t = r->o.tests[ti];
	bool quick = r->o.quick;
	/* A points test has no rate to be precise about: a fixed count of
	 * samples (two in a quick run), no warm-up sample. */
	bool points = t->collect != NULL;
	int nsamples = quick ? (points ? (t->quick_samples ? t->quick_samples : 2) : 0)
			     : runner_samples_for(&r->o, t);
	double length = runner_length_for(&r->o, t);
	struct quick_rule rule = { .precision = quick_precision_asked(r->o.precision),
				   .min_samples = 3, .max_samples = 200,
				   .max_seconds = runner_quick_limit(&r->o) };
	double rates[200];
	double achieved = INFINITY;
	enum quick_verdict verdict = QUICK_MORE;
	struct runner_event ev = { .run = run, .block = bi, .test = ti, .nsamples = nsamples,
				   .sample_length = length, .ncopies = b->copies, .final = true };
	test_begin(r, run, &ev, res, t);

	double overhead_sum = 0;
	double test_t0 = wl_now();
	if (runner_skips_block(&r->o, t, b->copies)) {
		snprintf(res->reason, sizeof res->reason,
			 "runs its own tasks: measured once, in the 1-copy block");
		res->status = TEST_SKIPPED;
	}
	if (quick && !points && !r->abort && !r->skip) {
		warm_up(r, &ev, t, b->copies, res);
		test_t0 = wl_now();
	}
	for (int k = 0; res->status == TEST_RUNNING && ((quick && !points) || k < nsamples); k++) {
		if (k == 0 && r->o.timed_seconds > 0 && r->o.idle > 0) {
			ev.sample = k;
			run_add_marker(run, wl_now() - r->run_t0, "idle baseline");
			runner_idle_baseline(r, &ev, r->o.idle);
		}
		if (take_sample(r, run, &ev, t, res, k, length, &overhead_sum) < 0)
			break;
		if (quick && !points) {
			rates[k] = last_rate(res);
			verdict = quick_decide(&rule, rates, k + 1, wl_now() - test_t0, &achieved);
			if (verdict != QUICK_MORE)
				break;
		}
	}
	if (quick && !points && res->nsamples > 0)
		quick_summary(res, &rule, achieved, verdict, wl_now() - test_t0);
	if (res->status == TEST_RUNNING)
		res->status = TEST_DONE;
	score_test(res);
	runner_emit(r, (ev.kind = EV_TEST_END, &ev));
}

/* Most samples a test takes in rounds, and fewest (a spread, and UnixBench's short tests' 3). */
#define ROUNDS_MAX_SAMPLES 200

/* A test measured in rounds: where it is in the block, and what the allocation knows of it. */
struct round_test {
	int ti;
	struct quick_alloc a;
	double seconds;      /* wall time of its visits: pauses, start-ups, samples */
	double overhead_sum;
	double rates[ROUNDS_MAX_SAMPLES];
};

/* The sd of a test's log rates so far; NAN below two. */
static double log_sd(const double *rates, int n)
{
	if (n < 2)
		return NAN;
	double m = 0, v = 0;
	for (int i = 0; i < n; i++)
		m += log(rates[i]) / n;
	for (int i = 0; i < n; i++)
		v += (log(rates[i]) - m) * (log(rates[i]) - m);
	return sqrt(v / (n - 1));
}

/* A test done in rounds (its share taken, or cut short): its quick facts, the score, and
 * the EV_TEST_END that says so (after its last visit's own: no sample runs in between). */
static void rounds_close(struct runner *r, struct run *run, int bi, struct round_test *rt, double budget)
{
	struct test_result *res = &run->blocks[bi].tests[rt->ti];
	struct runner_event ev = { .run = run, .block = bi, .test = rt->ti, .ncopies = run->blocks[bi].copies,
				   .nsamples = res->nsamples, .visit = rt->a.n, .final = true };
	if (r->o.quick && res->nsamples > 0) {
		test_quick_alloc(res, budget);
		double p = quick_precision(rt->rates, rt->a.n);
		if (isfinite(p))
			test_summary_set(res, "quick_precision", p, NULL);
		test_summary_set(res, "quick_stop", 0, "allocated");
		test_summary_set(res, "quick_seconds", rt->seconds, NULL);
	}
	if (res->status == TEST_RUNNING || res->status == TEST_WAITING)
		res->status = TEST_DONE;
	score_test(res);
	rt->a.done = true;
	runner_emit(r, (ev.kind = EV_TEST_END, &ev));
}

/* One visit of a test in rounds: its warm-up first in a quick run's first visit, then one
 * sample. -1 when the test failed or was skipped: it takes no more. */
static int rounds_visit(struct runner *r, struct run *run, int bi, struct round_test *rt)
{
	struct run_block *b = &run->blocks[bi];
	struct test_result *res = &b->tests[rt->ti];
	const struct test_def *t = r->o.tests[rt->ti];
	double length = runner_length_for(&r->o, t), t0 = wl_now();
	struct runner_event ev = { .run = run, .block = bi, .test = rt->ti, .nsamples = rt->a.target,
				   .sample_length = length, .ncopies = b->copies, .visit = rt->a.n };
	test_begin(r, run, &ev, res, t);
	if (r->o.quick && rt->a.n == 0 && !r->abort && !r->skip)
		warm_up(r, &ev, t, b->copies, res);
	int rc = res->status == TEST_RUNNING ? take_sample(r, run, &ev, t, res, rt->a.n, length, &rt->overhead_sum) : -1;
	rt->seconds += wl_now() - t0;
	if (rc == 0) {
		double rate = last_rate(res);
		rt->rates[rt->a.n++] = rate > 0 ? rate : 1e-300;
		rt->a.sd = log_sd(rt->rates, rt->a.n);
		rt->a.cost = rt->seconds / rt->a.n;
		res->status = TEST_WAITING; /* until its next visit, or until it is done */
	}
	runner_emit(r, (ev.kind = EV_TEST_END, &ev));
	return rc;
}

/*
 * An index allocation (quick.h): the block's rate tests in rounds, a sample each per
 * round, so a slow change of the machine (the host's load, its heat) falls on every
 * test alike instead of on whichever ran then; every other round in reverse, so no
 * test always follows the same one. From the third round on, the budget left is
 * shared out again before each round (quick_allocate), from what the samples so far
 * say of each test's noise and cost; a test that has its share is done and scored.
 */
static void run_rounds(struct runner *r, struct run *run, int bi)
{
	struct run_block *b = &run->blocks[bi];
	struct round_test *rt = calloc((size_t)r->o.ntests, sizeof *rt);
	if (!rt)
		abort();
	int n = 0, nindex = 0;
	for (int i = 0; i < r->o.ntests; i++) {
		if (!runner_in_rounds(&r->o, r->o.tests[i]) || b->tests[i].status != TEST_WAITING)
			continue;
		nindex += r->o.tests[i]->baseline > 0 && !strcmp(r->o.tests[i]->category, "system");
		rt[n++] = (struct round_test){ .ti = i, .a = { .sd = NAN, .cost = runner_length_for(&r->o, r->o.tests[i]) } };
	}
	for (int k = 0; k < n; k++)
		rt[k].a.weight = 1.0 / (nindex ? nindex : n);
	double budget = runner_budget(&r->o), t0 = wl_now();
	for (int round = 0; !r->abort; round++) {
		/* two samples each say enough of a test's noise and cost to share the rest out */
		if (round >= 2) {
			struct quick_alloc a[RUNNER_MAX_TESTS];
			for (int k = 0; k < n; k++)
				a[k] = rt[k].a;
			quick_allocate(a, n, budget - (wl_now() - t0), ROUNDS_MIN_SAMPLES, ROUNDS_MAX_SAMPLES);
			for (int k = 0; k < n; k++) {
				rt[k].a.target = a[k].target;
				if (!rt[k].a.done && rt[k].a.n >= rt[k].a.target)
					rounds_close(r, run, bi, &rt[k], budget);
			}
		}
		bool any = false;
		for (int j = 0; j < n && !r->abort; j++) {
			struct round_test *x = &rt[round % 2 ? n - 1 - j : j];
			if (x->a.done)
				continue;
			any = true;
			if (rounds_visit(r, run, bi, x) < 0 && !r->abort)
				rounds_close(r, run, bi, x, budget); /* failed or skipped: no more of it */
		}
		if (!any)
			break;
	}
	/* aborted: every test still open closes with what it has */
	for (int k = 0; k < n; k++) {
		if (rt[k].a.done)
			continue;
		struct test_result *res = &b->tests[rt[k].ti];
		if (res->status == TEST_WAITING || res->status == TEST_RUNNING) {
			snprintf(res->reason, sizeof res->reason, "aborted after %d samples", res->nsamples);
			res->status = TEST_SKIPPED;
		}
		rounds_close(r, run, bi, &rt[k], budget);
	}
	free(rt);
}

int runner_run(struct runner *r, struct run *run)
{
	r->abort = 0;
	r->skip = 0;
	memset(&r->settle, 0, sizeof r->settle);
	r->run_t0 = wl_now();
	/* A kbench killed outright (SIGKILL, a crash) could not remove its
	 * directory: remove those whose owner is gone, then make this run's. */
	scratch_sweep(r->scratch_root);
	int rc = scratch_make(r->scratch_root, r->scratch, sizeof r->scratch);
	if (rc < 0) {
		run_add_note(run, "could not create a scratch directory in %s: %s", r->scratch_root,
			     strerror(-rc));
		r->scratch[0] = '\0';
		return -1;
	}
	/* Every block and row exists before the first sample, so a front end
	 * can show the whole plan and pointers into the run stay valid. */
	int first = run->nblocks;
	for (int c = 0; c < r->o.ncopies; c++) {
		struct run_block *b = run_add_block(run, r->o.copies[c]);
		for (int i = 0; i < r->o.ntests; i++) {
			const struct test_def *t = r->o.tests[i];
			char label[64];
			run_block_add_test(b, t->id, test_label(t, r->o.params, label, sizeof label), t->unit,
					   t->timebase, t->baseline, t->category);
		}
	}
	struct runner_event ev = { .run = run, .block = first };
	runner_emit(r, (ev.kind = EV_RUN_BEGIN, &ev));
	for (int c = 0; c < r->o.ncopies && !r->abort; c++) {
		int bi = first + c;
		run->blocks[bi].start = time(NULL);
		ev = (struct runner_event){ .run = run, .block = bi, .ncopies = run->blocks[bi].copies };
		runner_emit(r, (ev.kind = EV_BLOCK_BEGIN, &ev));
		/* the tests measured one after another, then those measured in rounds */
		for (int i = 0; i < r->o.ntests && !r->abort; i++)
			if (!runner_in_rounds(&r->o, r->o.tests[i]))
				run_test(r, run, bi, i);
		if (!r->abort)
			run_rounds(r, run, bi);
		for (int i = 0; i < r->o.ntests; i++)
			if (run->blocks[bi].tests[i].status == TEST_WAITING) {
				run->blocks[bi].tests[i].status = TEST_SKIPPED;
				snprintf(run->blocks[bi].tests[i].reason,
					 sizeof run->blocks[bi].tests[i].reason, "run aborted");
			}
		run->blocks[bi].end = time(NULL);
		score_block(&run->blocks[bi]);
		ev = (struct runner_event){ .run = run, .block = bi, .ncopies = run->blocks[bi].copies };
		runner_emit(r, (ev.kind = EV_BLOCK_END, &ev));
	}
	if (r->abort) {
		run->incomplete = true;
		for (int c = 0; c < r->o.ncopies; c++) {
			struct run_block *b = &run->blocks[first + c];
			for (int i = 0; i < b->ntests; i++)
				if (b->tests[i].status == TEST_WAITING) {
					b->tests[i].status = TEST_SKIPPED;
					snprintf(b->tests[i].reason, sizeof b->tests[i].reason, "run aborted");
				}
			if (!b->end)
				b->end = time(NULL);
			score_block(b);
		}
	}
	scratch_rm_tree(r->scratch);
	r->scratch[0] = '\0';
	layout_note(run, first);
	settle_note(r, run);
	ev = (struct runner_event){ .run = run, .block = first };
	runner_emit(r, (ev.kind = EV_RUN_END, &ev));
	/* After the listeners' last readings: the check's verdict goes into the run. */
	const struct run_mode_info *mode = run_mode_info(r->o.mode);
	if (r->o.timed_seconds > 0 && mode->finish)
		mode->finish(run);
	return r->abort ? -1 : 0;
}
