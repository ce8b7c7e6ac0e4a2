/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the plan record: design checks, schedules, the file's round trip, broken files, which boot is due and which side is running. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "plan.h"

static char home[64];

static int setup(void **state)
{
	snprintf(home, sizeof home, "/tmp/kbench-plan-XXXXXX");
	assert_non_null(mkdtemp(home));
	setenv("KBENCH_HOME", home, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", home);
	return system(cmd);
}

static char *const run_args[] = { "--quick", "-c", "1", "dhry2reg", "syscall" };

static void test_init_checks(void **state)
{
	struct plan p;
	char err[512];
	assert_int_equal(plan_init(&p, "Bad Name", "a", "b", 3, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "plan name 'Bad Name'"));
	assert_int_equal(plan_init(&p, "x", "6.1", "6.1", 3, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "two different kernels"));
	assert_int_equal(plan_init(&p, "x", "a", "b", 0, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), -1);
	assert_int_equal(plan_init(&p, "x", "a", "b", 3, PLAN_MAX_RUNS + 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), -1);
	assert_true(plan_name_valid("pf-vs-stock.2"));
	assert_false(plan_name_valid("-x"));
	assert_false(plan_name_valid(""));
	assert_false(plan_name_valid("a/b"));
}

/* Balanced: A B | B A | A B ...; random: each pair in a seeded random order,
 * so neighbours are always of opposite sides and the pairs can be paired. */
static void test_schedule(void **state)
{
	struct plan p;
	char err[512];
	assert_int_equal(plan_init(&p, "s", "a", "b", 4, 1, 0, PLAN_ORDER_BALANCED, 7, 0, NULL, err, sizeof err), 0);
	assert_string_equal(p.schedule, "ABBAABBA");
	plan_free(&p);
	char first[32] = "";
	int differs = 0;
	for (unsigned seed = 1; seed <= 8; seed++) {
		assert_int_equal(plan_init(&p, "s", "a", "b", 10, 1, 0, PLAN_ORDER_RANDOM, seed, 0, NULL, err, sizeof err), 0);
		assert_int_equal(strlen(p.schedule), 20);
		for (int i = 0; i < 20; i += 2)
			assert_true(p.schedule[i] != p.schedule[i + 1]);
		if (!first[0])
			strcpy(first, p.schedule);
		differs += strcmp(first, p.schedule) != 0;
		plan_free(&p);
	}
	assert_true(differs > 0);
	/* the same seed, the same order */
	struct plan q;
	assert_int_equal(plan_init(&p, "s", "a", "b", 10, 1, 0, PLAN_ORDER_RANDOM, 42, 0, NULL, err, sizeof err), 0);
	assert_int_equal(plan_init(&q, "s", "a", "b", 10, 1, 0, PLAN_ORDER_RANDOM, 42, 0, NULL, err, sizeof err), 0);
	assert_string_equal(p.schedule, q.schedule);
	plan_free(&p);
	plan_free(&q);
}

static void test_round_trip(void **state)
{
	struct plan p, q;
	char err[512];
	assert_int_equal(plan_init(&p, "pf", "6.1.0-13-amd64", "6.6.8-pf1", 3, 2, log(1.02), PLAN_ORDER_BALANCED, 1, 5,
				   run_args, err, sizeof err),
			 0);
	strcpy(p.entry[1], "gnulinux-advanced-x>gnulinux-6.6.8-pf1-advanced-x");
	p.promise = 0.031;
	p.minutes = 8.5;
	assert_float_equal(p.alpha, PLAN_DEFAULT_ALPHA, 1e-15);
	p.alpha = 0.001; /* --confidence 99.9 */
	struct plan_boot *b = plan_add_boot(&p, 0, 'A');
	strcpy(b->boot_id, "453de8cb-e5d9-47c0-b46c-fff27f8798d9");
	strcpy(b->release, "6.1.0-13-amd64");
	strcpy(b->cmdline, "BOOT_IMAGE=/boot/vmlinuz-6.1.0-13-amd64 root=/dev/vda1 ro \"quoted\"");
	strcpy(b->runs[b->nruns++], "3f2a91bc");
	strcpy(b->runs[b->nruns++], "77aa0011");
	b->state = PLAN_BOOT_DONE;
	assert_int_equal(plan_save(&p, err, sizeof err), 0);
	assert_int_equal(plan_load("pf", &q, err, sizeof err), 0);
	assert_string_equal(q.kernel[1], "6.6.8-pf1");
	assert_string_equal(q.entry[1], p.entry[1]);
	assert_string_equal(q.schedule, "ABBAAB");
	assert_int_equal(q.runs_per_boot, 2);
	assert_float_equal(q.until, log(1.02), 1e-12);
	assert_int_equal(q.nargs, 5);
	assert_string_equal(q.args[4], "syscall");
	assert_float_equal(q.promise, 0.031, 1e-12);
	assert_float_equal(q.alpha, 0.001, 1e-12);
	/* a plan stored before --confidence, or with a confidence out of range, answers at 95% */
	char *text = plan_dump(&q), *at = strstr(text, "\"confidence\": 0.999");
	assert_non_null(at);
	memcpy(at + 14, "0.2  ", 5);
	struct plan r;
	assert_int_equal(plan_parse(text, strlen(text), &r, err, sizeof err), 0);
	assert_float_equal(r.alpha, PLAN_DEFAULT_ALPHA, 1e-12);
	plan_free(&r);
	free(text);
	assert_int_equal(q.nboots, 1);
	assert_string_equal(q.boot[0].cmdline, b->cmdline);
	assert_int_equal(q.boot[0].state, PLAN_BOOT_DONE);
	assert_string_equal(q.boot[0].runs[1], "77aa0011");
	/* written whole: no temporary file beside it */
	char cmd[256];
	snprintf(cmd, sizeof cmd, "test \"$(ls -A %s/plans)\" = pf.json", home);
	assert_int_equal(system(cmd), 0);
	char **names;
	assert_int_equal(plan_list(&names, err, sizeof err), 1);
	assert_string_equal(names[0], "pf");
	free(names[0]);
	free(names);
	plan_free(&q);
	plan_free(&p);
	assert_int_equal(plan_remove("pf", err, sizeof err), 0);
	assert_int_equal(plan_load("pf", &q, err, sizeof err), -1);
	assert_non_null(strstr(err, "no plan 'pf'"));
}

static void test_broken(void **state)
{
	struct plan p;
	char err[512];
	static const char *const bad[] = {
		"", "{", "[]", "{\"kbench_plan\": 2}", "{\"kbench_plan\": 1, \"name\": \"x\"}",
		"{\"kbench_plan\": 1, \"name\": \"x\", \"A\": {\"as_given\": \"a\"}, \"B\": {\"as_given\": \"b\"},"
		" \"boots\": 2, \"runs_per_boot\": 1, \"schedule\": \"ABB\"}",
		"{\"kbench_plan\": 1, \"name\": \"x\", \"A\": {\"as_given\": \"a\"}, \"B\": {\"as_given\": \"b\"},"
		" \"boots\": 1, \"runs_per_boot\": 1, \"schedule\": \"AB\", \"boots_measured\": [{\"side\": \"C\", \"slot\": 0}]}",
		"{\"kbench_plan\": 1, \"name\": \"x\", \"A\": {\"as_given\": \"a\"}, \"B\": {\"as_given\": \"b\"},"
		" \"boots\": 1, \"runs_per_boot\": 1, \"schedule\": \"AB\", \"boots_measured\": [{\"side\": \"A\", \"slot\": 0, \"runs\": [\"../x\"]}]}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		assert_int_equal(plan_parse(bad[i], strlen(bad[i]), &p, err, sizeof err), -1);
		assert_true(err[0] != 0);
	}
	assert_int_equal(plan_parse("{\"kbench_plan\": 2}", 18, &p, err, sizeof err), -1);
	assert_string_equal(err, "plan format 2: this kbench reads format 1");
	/* a file named for another plan */
	char path[512];
	snprintf(path, sizeof path, "%s/plans", home);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/plans/y.json", home);
	FILE *f = fopen(path, "w");
	fputs("{\"kbench_plan\": 1, \"name\": \"x\", \"A\": {\"as_given\": \"a\"}, \"B\": {\"as_given\": \"b\"},"
	      " \"boots\": 1, \"runs_per_boot\": 1, \"schedule\": \"AB\"}", f);
	fclose(f);
	assert_int_equal(plan_load("y", &p, err, sizeof err), -1);
	assert_non_null(strstr(err, "holds the plan 'x', not 'y'"));
	assert_int_equal(plan_load("../etc", &p, err, sizeof err), -1);
}

/* The boot due is the first slot without a done boot: a boot abandoned
 * (the machine rebooted before its runs were done) leaves its slot due. */
static void test_due(void **state)
{
	struct plan p;
	char err[512];
	assert_int_equal(plan_init(&p, "d", "a", "b", 2, 2, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	assert_int_equal(plan_next_slot(&p), 0);
	struct plan_boot *b = plan_add_boot(&p, 0, 'A');
	strcpy(b->boot_id, "one");
	assert_int_equal(plan_next_slot(&p), 0);
	b->state = PLAN_BOOT_ABANDONED;
	assert_int_equal(plan_next_slot(&p), 0);
	b = plan_add_boot(&p, 0, 'A');
	strcpy(b->boot_id, "two");
	b->state = PLAN_BOOT_DONE;
	assert_int_equal(plan_next_slot(&p), 1);
	assert_int_equal(plan_slot_side(&p, 1), 'B');
	assert_int_equal(plan_done(&p, 'A'), 1);
	assert_ptr_equal(plan_find_boot(&p, "two"), &p.boot[1]);
	assert_null(plan_find_boot(&p, "three"));
	for (int s = 1; s < 4; s++)
		plan_add_boot(&p, s, plan_slot_side(&p, s))->state = PLAN_BOOT_DONE;
	assert_int_equal(plan_next_slot(&p), -1);
	assert_int_equal(plan_slot_side(&p, 4), 0);
	plan_free(&p);
}

/* The running side: by release; two builds of one release by the image the
 * boot loader started. */
static void test_side(void **state)
{
	struct plan p;
	char err[512];
	assert_int_equal(plan_init(&p, "s", "6.1.0-13-amd64", "6.6.8-pf1", 2, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	assert_int_equal(plan_side_of(&p, "6.1.0-13-amd64", ""), 'A');
	assert_int_equal(plan_side_of(&p, "6.6.8-pf1", ""), 'B');
	assert_int_equal(plan_side_of(&p, "6.7.0", ""), 0);
	plan_free(&p);
	assert_int_equal(plan_init(&p, "s", "stock", "tuned", 2, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	strcpy(p.release[0], "6.6.8");
	strcpy(p.release[1], "6.6.8");
	assert_int_equal(plan_side_of(&p, "6.6.8", "BOOT_IMAGE=/boot/vmlinuz-6.6.8 ro"), '?');
	strcpy(p.image[0], "/boot/vmlinuz-6.6.8");
	strcpy(p.image[1], "/boot/vmlinuz-6.6.8-tuned");
	assert_int_equal(plan_side_of(&p, "6.6.8", "BOOT_IMAGE=(hd0,gpt2)/boot/vmlinuz-6.6.8-tuned root=/dev/sda2"), 'B');
	assert_int_equal(plan_side_of(&p, "6.6.8", "BOOT_IMAGE=/boot/vmlinuz-6.6.8 quiet"), 'A');
	plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_checks),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_broken, setup, teardown),
		cmocka_unit_test(test_due),
		cmocka_unit_test(test_side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
