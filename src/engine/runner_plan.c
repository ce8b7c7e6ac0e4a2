/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run will do before it starts: where its data files and helper
 * are, how many samples of what length each test runs, how long it takes. */
#include "runner.h"
#include "runner_int.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "family.h"
#include "quick.h"
#include "run.h"
#include "settings.h"
#include "sysinfo.h"
#include "tests.h"
#include "workload.h"

const char *runner_self_path(void)
{
	static char self[PATH_MAX];
	if (!self[0]) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			snprintf(self, sizeof self, "kbench");
		else
			self[n] = '\0';
	}
	return self;
}

static bool has_data(const char *dir)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/multi.sh", dir);
	return access(p, R_OK) == 0;
}

const char *runner_find_datadir(const char *hint)
{
	static char found[PATH_MAX];
	if (hint && *hint)
		return has_data(hint) ? hint : NULL;
	const char *env = getenv("KBENCH_DATADIR");
	if (env && *env)
		return has_data(env) ? env : NULL;
	char exe[PATH_MAX];
	snprintf(exe, sizeof exe, "%s", runner_self_path());
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		/* ./kbench in the tree, build/kbench, then an installed prefix. */
		const char *rel[] = { "/data", "/../data", "/../share/kbench" };
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(found, sizeof found, "%s%s", exe, rel[i]);
			if (has_data(found))
				return found;
		}
	}
	if (has_data(KBENCH_DATADIR))
		return KBENCH_DATADIR;
	return NULL;
}

const char *runner_find_helper(void)
{
	static char found[PATH_MAX];
	const char *env = getenv("KBENCH_HELPER");
	if (env && *env)
		return access(env, X_OK) == 0 ? env : NULL;
	char exe[PATH_MAX];
	snprintf(exe, sizeof exe, "%s", runner_self_path());
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		/* build/kbench beside build/kbench-exec, ./kbench in the tree, an installed prefix. */
		const char *rel[] = { "/kbench-exec", "/build/kbench-exec",
				      "/../libexec/kbench/kbench-exec" };
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(found, sizeof found, "%s%s", exe, rel[i]);
			if (access(found, X_OK) == 0)
				return found;
		}
	}
	snprintf(found, sizeof found, "%s/kbench-exec", KBENCH_LIBEXECDIR);
	return access(found, X_OK) == 0 ? found : NULL;
}

int runner_samples_for(const struct runner_opts *o, const struct test_def *t)
{
	/* A timed run (thermal's check): as many back-to-back samples as fill its minutes. */
	if (o->timed_seconds > 0) {
		double n = ceil(o->timed_seconds / runner_length_for(o, t) - 1e-9);
		return n < 1 ? 1 : n > 1e6 ? 1000000 : (int)n;
	}
	if (o->samples > 0)
		return o->samples;
	if (o->iterations > 0)
		return test_samples_for_iterations(t, o->iterations);
	return t->samples;
}

double runner_length_for(const struct runner_opts *o, const struct test_def *t)
{
	if (o->duration > 0)
		return o->duration;
	if (o->timed_seconds > 0)
		return run_mode_info(o->mode)->sample_seconds;
	if (o->quick)
		return test_quick_seconds(t);
	return t->seconds;
}

/* UnixBench's sync and 3 s before each pass; a quick run only syncs. */
double runner_pause_for(const struct runner_opts *o)
{
	if (o->timed_seconds > 0)
		return 0; /* a timed run's load must not rest */
	return o->pause >= 0 ? o->pause : o->quick ? 0 : 3.0;
}

/* 15 s a test keeps a quick index run of the twelve tests near 1/8 of a full
 * one (make bench-quick); most tests reach +-1-3% by then on a quiet machine. */
double runner_quick_limit(const struct runner_opts *o)
{
	return o->max_test_seconds > 0 ? o->max_test_seconds : QUICK_MAX_TEST_SECONDS;
}

/* A family's settings as the run with options o has them. */
static int fill_settings(const struct runner_opts *o, const struct settings *f, void *s, char *err,
			 size_t errlen)
{
	struct settings_env env = { .quick = o->quick, .ncpus = sysinfo_ncpus() };
	return settings_fill(f, o->params, &env, s, err, errlen);
}

int runner_prepare_settings(struct runner *r, char *err, size_t errlen)
{
	for (int i = 0; i < r->o.ntests; i++) {
		const struct settings *f = test_family(r->o.tests[i])->settings;
		if (!f || runner_settings_of(r, r->o.tests[i]))
			continue;
		if (r->nfams == RUNNER_MAX_FAMILIES) {
			snprintf(err, errlen, "more than %d families in one run", RUNNER_MAX_FAMILIES);
			return -1;
		}
		void *s = calloc(1, f->size ? f->size : 1);
		if (!s) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		r->fam[r->nfams] = f;
		r->fam_settings[r->nfams++] = s;
		if (fill_settings(&r->o, f, s, err, errlen) < 0)
			return -1;
	}
	for (int i = 0; i < r->o.ntests; i++) {
		const struct test_def *t = r->o.tests[i];
		if (t->preflight && t->preflight(runner_settings_of(r, t), err, errlen) < 0)
			return -1;
	}
	return 0;
}

const void *runner_settings_of(const struct runner *r, const struct test_def *t)
{
	const struct settings *f = test_family(t)->settings;
	for (int i = 0; f && i < r->nfams; i++)
		if (r->fam[i] == f)
			return r->fam_settings[i];
	return NULL;
}

void runner_free_settings(struct runner *r)
{
	for (int i = 0; i < r->nfams; i++)
		free(r->fam_settings[i]);
	r->nfams = 0;
}

/* The settings an estimate outside a run reads (the console's setup screen asks
 * every frame): each family's last fill, filled again only when the params or
 * quick change. NULL when t's family has none, or the params do not fill. */
static const void *estimate_settings(const struct runner_opts *o, const struct test_def *t)
{
	static struct {
		const struct settings *f;
		bool quick, ok;
		char *params;
		void *s;
	} memo[RUNNER_MAX_FAMILIES];
	const struct settings *f = test_family(t)->settings;
	if (!f)
		return NULL;
	const char *params = o->params ? o->params : "";
	int i = 0;
	while (i < RUNNER_MAX_FAMILIES && memo[i].f && memo[i].f != f)
		i++;
	if (i == RUNNER_MAX_FAMILIES)
		return NULL;
	if (memo[i].f && memo[i].quick == o->quick && !strcmp(memo[i].params, params))
		return memo[i].ok ? memo[i].s : NULL;
	char *key = strdup(params);
	void *s = memo[i].s ? memo[i].s : calloc(1, f->size ? f->size : 1);
	if (!key || !s) {
		free(key);
		if (!memo[i].s)
			free(s);
		return NULL;
	}
	free(memo[i].params);
	memo[i].f = f;
	memo[i].quick = o->quick;
	memo[i].params = key;
	memo[i].s = s;
	char err[400];
	memo[i].ok = fill_settings(o, f, s, err, sizeof err) == 0;
	return memo[i].ok ? s : NULL;
}

enum runner_alloc runner_allocation(const struct runner_opts *o)
{
	if (o->allocation != ALLOC_DEFAULT)
		return o->allocation;
	if (o->timed_seconds > 0)
		return ALLOC_OWN;
	/* a precision or a test's time limit is the precision rule's */
	if (o->quick && (o->precision > 0 || o->max_test_seconds > 0))
		return ALLOC_PRECISION;
	/* Rounds only when asked (--allocate index, or the minutes of --budget): they are not
	 * yet shown to narrow the index per minute (issue 37), so --quick keeps its rule. */
	return o->budget > 0 ? ALLOC_INDEX : o->quick ? ALLOC_PRECISION : ALLOC_OWN;
}

double runner_budget(const struct runner_opts *o)
{
	if (o->budget > 0)
		return o->budget;
	int n = 0;
	for (int i = 0; i < o->ntests; i++)
		n += runner_in_rounds(o, o->tests[i]);
	return (double)QUICK_BUDGET_SECONDS * (n ? n : 1) / QUICK_BUDGET_TESTS;
}

bool runner_in_rounds(const struct runner_opts *o, const struct test_def *t)
{
	return runner_allocation(o) == ALLOC_INDEX && !t->collect && !t->one_copy && !t->sample_seconds;
}

/* One sample's seconds, pause included. Self-timed tests do more than their nominal length
 * (the row's overrun): whetstone calibrates first, the file tests write and read before copying. */
static double sample_cost(const struct runner_opts *o, const struct test_def *t)
{
	return runner_length_for(o, t) * (t->self_timed ? t->overrun : 1.0) + runner_pause_for(o);
}

double runner_estimate_test(const struct runner_opts *o, const struct test_def *t)
{
	/* in rounds, the tests share the budget: each about its part of it, and never less
	 * than its three samples take (a budget below them is spent on them, not ended) */
	if (runner_in_rounds(o, t)) {
		int n = 0;
		for (int i = 0; i < o->ntests; i++)
			n += runner_in_rounds(o, o->tests[i]);
		double share = runner_budget(o) / (n ? n : 1);
		double least = (o->quick ? QUICK_WARMUP_SECONDS : 0) + ROUNDS_MIN_SAMPLES * sample_cost(o, t);
		return share > least ? share : least;
	}
	double len = runner_length_for(o, t);
	if (t->sample_seconds) {
		int n = o->quick ? (t->quick_samples ? t->quick_samples : 2) : runner_samples_for(o, t);
		const void *s = estimate_settings(o, t);
		return t->sample_seconds(s, true, len) + (n - 1) * t->sample_seconds(s, false, len) +
		       n * runner_pause_for(o);
	}
	if (o->quick && t->collect) /* a points test: two samples (or its own), no warm-up */
		return (t->quick_samples ? t->quick_samples : 2) * (runner_pause_for(o) + len * t->overrun);
	if (o->quick) {
		/* Most tests are precise after 3 to 5 samples; the noisy ones hit the limit. */
		double est = QUICK_WARMUP_SECONDS + 5 * (len + 0.1);
		if (t->self_timed)
			est *= 1.3;
		return est < runner_quick_limit(o) ? est : runner_quick_limit(o);
	}
	return runner_samples_for(o, t) * sample_cost(o, t) + (o->timed_seconds > 0 ? o->idle : 0);
}

bool runner_skips_block(const struct runner_opts *o, const struct test_def *t, int copies)
{
	if (!t->one_copy || copies == 1)
		return false;
	for (int c = 0; c < o->ncopies; c++)
		if (o->copies[c] == 1)
			return true;
	return false;
}

int runner_blocks_for(const struct runner_opts *o, const struct test_def *t)
{
	int n = 0;
	for (int c = 0; c < o->ncopies; c++)
		n += !runner_skips_block(o, t, o->copies[c]);
	return n;
}

double runner_estimate(const struct runner_opts *o)
{
	double total = 0;
	for (int i = 0; i < o->ntests; i++)
		total += runner_blocks_for(o, o->tests[i]) * runner_estimate_test(o, o->tests[i]);
	return total;
}

void runner_plan_text(const struct runner_opts *o, char *line1, size_t len1, char *line2, size_t len2)
{
	/* the tests measured in every block, and those measured once (a
	 * one_copy test beside a 1-copy block) */
	int every = 0, once = 0;
	for (int i = 0; i < o->ntests; i++) {
		if (runner_blocks_for(o, o->tests[i]) == o->ncopies)
			every++;
		else
			once++;
	}
	line2[0] = '\0';
	if (every && once)
		snprintf(line2, len2, "+ %d test%s x 1 copy count", once, once == 1 ? "" : "s");
	int n = every ? every : once, blocks = once && !every ? 1 : o->ncopies;
	snprintf(line1, len1, "%d test%s x %d copy count%s", n, n == 1 ? "" : "s", blocks,
		 blocks == 1 ? "" : "s");
}

struct run *runner_new_run(const struct runner_opts *o)
{
	struct run *run = run_new();
	sysinfo_fill(&run->meta);
	sysinfo_fill_storage(&run->meta, o->tmpdir);
	run->meta.duration_override = o->duration;
	run->meta.iterations = o->iterations;
	snprintf(run->meta.params, sizeof run->meta.params, "%s", o->params ? o->params : "");
	if (o->quick)
		run->meta.mode = &run_mode_quick;
	if (o->timed_seconds > 0)
		run->meta.mode = o->mode;
	enum runner_alloc a = runner_allocation(o);
	if (a == ALLOC_INDEX) {
		snprintf(run->meta.allocation, sizeof run->meta.allocation, "index");
		run->meta.budget = runner_budget(o);
	} else if (a == ALLOC_PRECISION) {
		snprintf(run->meta.allocation, sizeof run->meta.allocation, "precision");
	}
	return run;
}
