/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run request's tests, its defaults as kbench run fills them, and what does not go together. */
#include "request.h"

#include <stdio.h>
#include <string.h>

#include "family.h"
#include "settings.h"
#include "sysinfo.h"
#include "tests.h"

void run_request_init(struct run_request *rq)
{
	memset(rq, 0, sizeof *rq);
	rq->run.pause = -1;
	rq->run.idle = -1;
}

static int add_test(struct runner_opts *o, const struct test_def *t)
{
	for (int i = 0; i < o->ntests; i++)
		if (o->tests[i] == t)
			return 0;
	if (o->ntests >= RUNNER_MAX_TESTS)
		return -1;
	o->tests[o->ntests++] = t;
	return 0;
}

int run_request_add(struct run_request *rq, const char *name)
{
	const struct test_def *t = test_find(name);
	if (t)
		return add_test(&rq->run, t);
	const struct test_group *g = test_group_find(name);
	if (!g)
		return -1;
	if (!g->ids) {
		for (size_t i = 0; i < test_count; i++)
			add_test(&rq->run, &test_table[i]);
		return 0;
	}
	for (const char *const *id = g->ids; *id; id++)
		run_request_add(rq, *id);
	return 0;
}

bool run_request_has(const struct run_request *rq, const struct test_def *t)
{
	for (int i = 0; i < rq->run.ntests; i++)
		if (rq->run.tests[i] == t)
			return true;
	return false;
}

void run_request_set(struct run_request *rq, const struct test_def *t, bool on)
{
	struct runner_opts *o = &rq->run;
	int at = 0;
	while (at < o->ntests && o->tests[at] != t)
		at++;
	if (!on && at < o->ntests) {
		memmove(&o->tests[at], &o->tests[at + 1], sizeof o->tests[0] * (size_t)(o->ntests - at - 1));
		o->ntests--;
	} else if (on && at == o->ntests && o->ntests < RUNNER_MAX_TESTS) {
		/* before the first test that comes after it in the table */
		at = 0;
		while (at < o->ntests && o->tests[at] < t)
			at++;
		memmove(&o->tests[at + 1], &o->tests[at], sizeof o->tests[0] * (size_t)(o->ntests - at));
		o->tests[at] = t;
		o->ntests++;
	}
}

void run_request_only(struct run_request *rq, const char *group)
{
	rq->run.ntests = 0;
	const struct test_group *g = group ? test_group_find(group) : NULL;
	for (size_t i = 0; g && i < test_count; i++) {
		bool in = !g->ids;
		for (const char *const *id = g->ids; id && *id; id++)
			in |= !strcmp(*id, test_table[i].id);
		if (in)
			run_request_set(rq, &test_table[i], true);
	}
}

int run_request_conflicts(const struct run_request *rq, char *err, size_t errlen)
{
	for (const struct family *const *f = family_list; *f; f++)
		if ((*f)->settings && (*f)->settings->conflicts &&
		    (*f)->settings->conflicts(rq->params, err, errlen) < 0)
			return -1;
	return 0;
}

int run_request_complete(struct run_request *rq, const struct run_mode_info *mode, char *err, size_t errlen)
{
	struct runner_opts *o = &rq->run;
	if (mode) {
		mode->defaults(o, sysinfo_ncpus());
		if (o->ntests == 0) /* its --test landed in the tests */
			add_test(o, test_find(mode->test));
	}
	if (o->ntests == 0)
		run_request_add(rq, "index");
	if (!o->quick && (o->precision > 0 || o->max_test_seconds > 0)) {
		snprintf(err, errlen, "--precision and --max-test-seconds go with --quick");
		return -1;
	}
	/* each test until its precision: what --precision and --max-test-seconds are for
	 * (runner_allocation takes them so) */
	const char *no = (o->precision > 0 || o->max_test_seconds > 0) && o->allocation == ALLOC_INDEX
				 ? "--precision and --max-test-seconds go with --allocate precision, not index"
			 : o->allocation == ALLOC_PRECISION && !o->quick ? "--allocate precision goes with --quick"
			 : runner_allocation(o) == ALLOC_PRECISION && o->budget > 0
				 ? "--budget goes with --allocate index: a precision run stops each test by itself"
			 : o->allocation == ALLOC_INDEX && !o->quick && !(o->budget > 0)
				 ? "--allocate index needs --quick or --budget: the minutes it shares out"
			 : o->budget > 0 && o->samples > 0	 ? "--budget shares the minutes out itself: not with --samples"
			 : o->budget > 0 && o->iterations > 0 ? "--budget shares the minutes out itself: not with -i"
								 : NULL;
	if (no) {
		snprintf(err, errlen, "%s", no);
		return -1;
	}
	if (run_request_conflicts(rq, err, errlen) < 0)
		return -1;
	/* tests that run their own tasks only (scaling) or use the CPUs themselves
	 * (kbuild: make -j) need no block of more copies */
	bool own_tasks = true;
	for (int i = 0; i < o->ntests; i++)
		own_tasks = own_tasks && o->tests[i]->one_copy;
	if (o->ncopies == 0) {
		o->copies[o->ncopies++] = 1;
		if (sysinfo_ncpus() > 1 && !own_tasks)
			o->copies[o->ncopies++] = sysinfo_ncpus();
	}
	/* --budget is the whole run's; the runner's is each copy count's */
	if (o->budget > 0 && !rq->budget_split) {
		o->budget /= o->ncopies;
		rq->budget_split = true;
	}
	run_request_opts(rq);
	return 0;
}

const struct runner_opts *run_request_opts(struct run_request *rq)
{
	rq->run.params = rq->params[0] ? rq->params : NULL;
	return &rq->run;
}

void run_request_like(struct run_request *rq, const struct run *r)
{
	rq->run.ntests = 0;
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++) {
			const struct test_def *d = test_find(r->blocks[b].tests[t].id);
			if (d)
				run_request_set(rq, d, true);
		}
	/* One copy when the run had it: the floor is a test's, pooled over copy counts. */
	rq->run.ncopies = 1;
	rq->run.copies[0] = run_find_block(r, 1) || r->nblocks == 0 ? 1 : r->blocks[0].copies;
	rq->run.quick = r->meta.mode == &run_mode_quick;
	/* its allocation: a budget is each copy count's already */
	rq->run.allocation = !strcmp(r->meta.allocation, "precision") ? ALLOC_PRECISION
			     : !strcmp(r->meta.allocation, "index")  ? ALLOC_INDEX
								     : rq->run.quick ? ALLOC_PRECISION : ALLOC_OWN;
	rq->run.budget = r->meta.budget;
	rq->budget_split = true;
	rq->run.duration = r->meta.duration_override;
	rq->run.iterations = r->meta.iterations;
	rq->run.samples = 0;
}
