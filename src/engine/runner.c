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
	double c[RUNNER_MAX_COPIES], e[RUNNER_MAX_COPIES], sh[RUNNER_MAX_COPIES], ov;
	int cpu[RUNNER_MAX_COPIES], cpu_end[RUNNER_MAX_COPIES];
	struct sample warm = { .copies = copies, .count = c, .elapsed = e, .cpu = cpu, .cpu_end = cpu_end,
			       .shared = sh };
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
	for (int s = 0; s < res->nsummary; s++) {
		const struct kv *note = &res->summary[s];
		if (strcmp(note->key, "note") && strncmp(note->key, "refused ", 8))
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
	test_summary_set(res, "quick_precision_asked", rule->precision, NULL);
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
				   .sample_length = length, .ncopies = b->copies };
	res->status = TEST_RUNNING;
	char key[64], text[KV_TEXT_MAX];
	if (t->workload->describe && t->workload->describe(t->arg, key, sizeof key, text, sizeof text) == 0)
		test_summary_set(res, key, 0, text);
	r->skip = 0;
	runner_emit(r, (ev.kind = EV_TEST_BEGIN, &ev));
	char what[80];
	snprintf(what, sizeof what, "test %s copies %d", t->id, b->copies);
	run_add_marker(run, wl_now() - r->run_t0, what);

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
		ev.sample = k;
		if (k == 0 && r->o.timed_seconds > 0 && r->o.idle > 0) {
			run_add_marker(run, wl_now() - r->run_t0, "idle baseline");
			runner_idle_baseline(r, &ev, r->o.idle);
		}
		runner_pause_before_sample(r, &ev);
		if (r->skip || r->abort) {
			snprintf(res->reason, sizeof res->reason, "%s after %d samples",
				 r->abort ? "aborted" : "skipped", k);
			res->status = TEST_SKIPPED;
			break;
		}
		snprintf(what, sizeof what, "sample %s %d", t->id, k + 1);
		run_add_marker(run, wl_now() - r->run_t0, what);
		double counts[RUNNER_MAX_COPIES] = { 0 }, times[RUNNER_MAX_COPIES] = { 0 }, shared[RUNNER_MAX_COPIES];
		int cpu[RUNNER_MAX_COPIES], cpu_end[RUNNER_MAX_COPIES];
		struct sample tmp = { .copies = b->copies, .count = counts, .elapsed = times, .cpu = cpu,
				      .cpu_end = cpu_end, .shared = shared };
		tmp.start = wl_now() - r->run_t0;
		char reason[200] = "";
		ev.sample_length = length;
		double overhead = 0;
		int rc = runner_run_sample(r, &ev, t, b->copies, length, &tmp, &overhead, reason, sizeof reason);
		if (rc == 0 && !test_summary_get(res, "layout"))
			test_summary_set(res, "layout", 0, r->slots[0].execed ? LAYOUT_EXEC : LAYOUT_OFFSETS);
		if (rc == 0) {
			overhead_sum += overhead;
			test_summary_set(res, "overhead_ms", overhead_sum / (res->nsamples + 1) * 1e3, NULL);
			struct sample *s = test_add_sample(res, b->copies);
			s->start = tmp.start;
			memcpy(s->count, counts, sizeof(double) * (size_t)b->copies);
			memcpy(s->elapsed, times, sizeof(double) * (size_t)b->copies);
			memcpy(s->cpu, cpu, sizeof(int) * (size_t)b->copies);
			memcpy(s->cpu_end, cpu_end, sizeof(int) * (size_t)b->copies);
			memcpy(s->shared, shared, sizeof(double) * (size_t)b->copies);
		}
		/* A sample cut short by a skip or an abort keeps its finished points. */
		if (points && (rc == 0 || r->skip || r->abort))
			collect_points(r, run, t, b->copies, res);
		/* After the sample is in the run, so listeners can read it. */
		ev.kind = EV_SAMPLE_END;
		runner_emit(r, &ev);
		ev.pids = NULL;
		clear_copies(r, b->copies);
		if (rc != 0) {
			if (r->skip || r->abort) {
				snprintf(res->reason, sizeof res->reason, "%s after %d samples",
					 r->abort ? "aborted" : "skipped", k);
				res->status = TEST_SKIPPED;
			} else {
				snprintf(res->reason, sizeof res->reason, "sample %d: %s", k + 1, reason);
				res->status = TEST_FAILED;
			}
			break;
		}
		if (quick && !points) {
			const struct sample *s = &res->samples[res->nsamples - 1];
			rates[k] = score_rate(sample_count(s), sample_time(s), t->timebase);
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

int runner_run(struct runner *r, struct run *run)
{
	r->abort = 0;
	r->skip = 0;
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
		for (int i = 0; i < r->o.ntests && !r->abort; i++)
			run_test(r, run, bi, i);
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
	ev = (struct runner_event){ .run = run, .block = first };
	runner_emit(r, (ev.kind = EV_RUN_END, &ev));
	/* After the listeners' last readings: the check's verdict goes into the run. */
	const struct run_mode_info *mode = run_mode_info(r->o.mode);
	if (r->o.timed_seconds > 0 && mode->finish)
		mode->finish(run);
	return r->abort ? -1 : 0;
}
