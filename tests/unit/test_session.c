/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One run's life as one engine call (src/session/session.c) ends in its comparison: the run, its save, the stored run to compare it with, and the comparison of the two, which a face takes and never makes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "request.h"
#include "run.h"
#include "session.h"
#include "tmpstore.h"

/* A short run of one test, one copy, stored, telemetry off: what the console asks for. */
static void short_request(struct run_request *rq, const char *name, bool pick)
{
	run_request_init(rq);
	assert_int_equal(run_request_add(rq, "syscall"), 0);
	rq->run.copies[rq->run.ncopies++] = 1;
	rq->run.samples = 2;
	rq->run.duration = 0.05;
	rq->run.pause = 0;
	rq->tele.off = true;
	rq->quiet = true;
	rq->name = name;
	rq->pick_baseline = pick;
}

static void run_once(struct run_request *rq, struct session_result *res)
{
	char err[400];
	bool usage;
	struct session_face f = { 0 };
	if (session_run(rq, &f, res, &usage, err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_non_null(res->run);
	assert_true(res->saved);
}

static void a_run_ends_in_its_comparison(void **state)
{
	struct run_request rq;
	struct session_result first, second, third;

	/* the store is empty: no base, and the comparison says why in the base's words */
	short_request(&rq, "first", true);
	run_once(&rq, &first);
	assert_null(first.base);
	assert_null(first.cmp);
	assert_true(first.base_why[0]);
	assert_string_equal(first.cmp_why, first.base_why);

	/* a stored run to compare with: the session compares, as kbench compare does */
	short_request(&rq, "second", true);
	run_once(&rq, &second);
	assert_non_null(second.base);
	assert_string_equal(second.base->meta.id, first.run->meta.id);
	assert_non_null(second.cmp);
	assert_true(second.cmp->nblocks >= 1);
	assert_non_null(strstr(second.cmp->a_title, first.run->meta.id));
	assert_true(second.cmp->basis[0]);

	/* a face that did not ask gets neither */
	short_request(&rq, "third", false);
	run_once(&rq, &third);
	assert_null(third.base);
	assert_null(third.cmp);

	run_free(first.run);
	run_free(second.run);
	run_free(second.base);
	compare_free(second.cmp);
	run_free(third.run);
}

static void compare_without_a_base_says_why(void **state)
{
	char why[300];
	struct run *r = run_new();
	assert_null(session_compare(r, NULL, "no comparison chosen", why, sizeof why));
	assert_string_equal(why, "no comparison chosen");
	assert_null(session_compare(r, NULL, "", why, sizeof why));
	assert_string_equal(why, "no stored run to compare with");
	assert_null(session_compare(NULL, r, NULL, why, sizeof why));
	assert_string_equal(why, "no stored run to compare with");
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_run_ends_in_its_comparison),
		cmocka_unit_test(compare_without_a_base_says_why),
	};
	return cmocka_run_group_tests(tests, tmpstore_setup, tmpstore_teardown);
}
