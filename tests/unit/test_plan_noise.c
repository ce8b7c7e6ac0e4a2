/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: a plan's runs never feed another side's (or another boot's) noise floor, whatever their kernel release says, in memory and through the store's index. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "noise.h"
#include "run.h"
#include "store.h"

/* A quick run of one test at 1 copy: score s; seq: a plan's boot ("" none). */
static struct run *make(double s, const char *seq, time_t date)
{
	struct run *r = run_new();
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "host");
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.6.8"); /* both sides: one release */
	r->meta.mode = &run_mode_quick;
	r->meta.date = date;
	if (seq[0]) {
		snprintf(r->meta.seq.id, sizeof r->meta.seq.id, "%s", seq);
		snprintf(r->meta.seq.purpose, sizeof r->meta.seq.purpose, RUN_SEQ_PLAN);
		r->meta.seq.runs = 2;
	}
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, "dhry2reg", "Dhrystone 2 using register variables", "lps", 10,
						   116700, "system");
	t->status = TEST_DONE;
	t->score = s;
	struct sample *sm = test_add_sample(t, 1);
	sm->count[0] = s * 10;
	sm->elapsed[0] = 10;
	return r;
}

/* Two boots of a plan on kernels of one release: A's two runs agree within
 * 0.1%, B's too, but B is 30% slower. Learned per boot, the floor is the
 * 0.1%; pooled as one kernel's four runs (what the release alone says) it
 * would be about 17%. */
static struct run *runs[4];

static void make_runs(void)
{
	runs[0] = make(1000.0, "plan-aaaa1111-1", 100);
	runs[1] = make(1001.0, "plan-aaaa1111-1", 200);
	runs[2] = make(700.0, "plan-aaaa1111-2", 300);
	runs[3] = make(700.7, "plan-aaaa1111-2", 400);
}

static void check(const struct noise_table *t)
{
	const struct noise_floor *f = noise_get(t, "dhry2reg", runs[0]);
	assert_true(f->df > 0);
	assert_int_equal(f->df, 2); /* a degree of freedom from each boot */
	assert_true(f->learned < 0.002);
}

static void test_in_memory(void **state)
{
	make_runs();
	struct noise_table t;
	noise_learn(&t, (const struct run *const *)runs, 4, NULL, 0);
	check(&t);
	noise_free(&t);
	/* runs of no plan, of one release and settings, are one set as before */
	for (int i = 0; i < 4; i++)
		runs[i]->meta.seq.id[0] = runs[i]->meta.seq.purpose[0] = 0;
	noise_learn(&t, (const struct run *const *)runs, 4, NULL, 0);
	assert_int_equal(noise_get(&t, "dhry2reg", runs[0])->df, 3);
	assert_true(noise_get(&t, "dhry2reg", runs[0])->learned > 0.1);
	noise_free(&t);
	for (int i = 0; i < 4; i++)
		run_free(runs[i]);
}

static void test_in_store(void **state)
{
	char home[] = "/tmp/kbench-plannoise-XXXXXX";
	assert_non_null(mkdtemp(home));
	setenv("KBENCH_HOME", home, 1);
	make_runs();
	char err[512];
	for (int i = 0; i < 4; i++)
		assert_int_equal(store_save(runs[i], err, sizeof err), 0);
	struct noise_table t;
	assert_int_equal(noise_learn_store(&t, NULL, 0, err, sizeof err), 0);
	check(&t);
	noise_free(&t);
	for (int i = 0; i < 4; i++)
		run_free(runs[i]);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", home);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_memory),
		cmocka_unit_test(test_in_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
