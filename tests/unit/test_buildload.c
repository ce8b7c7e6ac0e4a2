/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of buildload: load lists, parameters, refusals (faked machine), the ratio, contest's row layout, collecting a sample into points, the live state, and the contest importer on the fixtures. */
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buildload.h"
#include "import.h"
#include "kbuild.h"
#include "run.h"
#include "settings.h"
#include "tests.h"
#include "workload.h"

/* A family's settings as the runner fills them for a run with params (not quick). */
/* The family's settings for params as a run on ncpus CPUs (quick or not) fills them. */
static int bl_fill(const char *params, int ncpus, bool quick, struct buildload_opts *o, char *err,
		   size_t errlen)
{
	struct settings_env env = { .quick = quick, .ncpus = ncpus };
	return settings_fill(&buildload_settings, params, &env, o, err, errlen);
}

static const void *filled(const struct settings *f, const char *params)
{
	static _Alignas(max_align_t) char s[SETTINGS_MAX_SIZE];
	char err[300];
	assert_int_equal(test_settings_fill(f, params, false, s, err, sizeof err), 0);
	return s;
}
static void test_parse_loads(void **state)
{
	int l[BL_NLOADS], n;
	char err[300];
	assert_int_equal(buildload_parse_loads("no_load,io_load,mem_load,io_load", l, &n, err, sizeof err), 0);
	assert_int_equal(n, 3); /* the duplicate dropped, the order kept */
	assert_int_equal(l[0], BL_NO_LOAD);
	assert_int_equal(l[1], BL_IO);
	assert_int_equal(l[2], BL_MEM);
	assert_int_equal(buildload_parse_loads("noload", l, &n, err, sizeof err), 0); /* contest 2002 */
	assert_int_equal(l[0], BL_NO_LOAD);
	const char *bad[] = { "no_load,bogus", "", ",", "no_load,", "NO_LOAD",
			      "a_very_long_name_that_is_no_load_at_all_of_any_kind" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		assert_int_equal(buildload_parse_loads(bad[i], l, &n, err, sizeof err), -1);
		assert_non_null(strstr(err, "want no_load, cacherun"));
		assert_null(strchr(err, '\n'));
	}
	buildload_parse_loads("no_load,bogus", l, &n, err, sizeof err);
	assert_non_null(strstr(err, "'bogus'"));
}

static void test_params(void **state)
{
	struct buildload_opts o;
	char err[300];
	assert_int_equal(bl_fill(NULL, 2, false, &o, err, sizeof err), 0);
	assert_int_equal(o.nloads, BL_NLOADS);
	assert_int_equal(o.units, KBUILD_UNITS_FULL);
	assert_int_equal(o.jobs, 4);
	assert_int_equal(o.hog_pct, 80);
	assert_int_equal(bl_fill("", 2, true, &o, err, sizeof err), 0);
	/* --quick: the build alone, the pipe ring, streaming write, memory hog */
	assert_int_equal(o.nloads, 4);
	int want[] = { BL_NO_LOAD, BL_PROCESS, BL_IO, BL_MEM };
	for (int i = 0; i < 4; i++)
		assert_int_equal(o.loads[i], want[i]);
	assert_int_equal(bl_fill("tree=tiny make-jobs=3,1 loads=mem_load hog=10 sizes=1:2", 2, true, &o,
				 err, sizeof err),
			 0);
	assert_int_equal(o.units, KBUILD_UNITS_TINY);
	assert_int_equal(o.jobs, 3);
	assert_int_equal(o.nloads, 1);
	assert_int_equal(o.hog_pct, 10);
	assert_int_equal(bl_fill("hog=0", 2, false, &o, err, sizeof err), -1);
	assert_int_equal(bl_fill("loads=x", 2, false, &o, err, sizeof err), -1);
	/* the estimate grows with the loads and counts the warm-up once */
	struct buildload_opts full_o, quick_o;
	assert_int_equal(
		test_settings_fill(&buildload_settings, "tree=tiny", false, &full_o, err, sizeof err), 0);
	assert_int_equal(
		test_settings_fill(&buildload_settings, "tree=tiny", true, &quick_o, err, sizeof err), 0);
	double all = buildload_sample_seconds(&full_o, false, 0);
	double quick = buildload_sample_seconds(&quick_o, false, 0);
	assert_true(all > quick && quick > 0);
	assert_true(buildload_sample_seconds(&quick_o, true, 0) > quick);
}

/* The refusals, on a machine faked small through the environment. */
static void test_check(void **state)
{
	struct buildload_opts o;
	char err[300], why[300];
	bl_fill("make-jobs=2", 2, false, &o, err, sizeof err);
	uint64_t size, need, have;
	setenv("KBENCH_MEM_AVAILABLE_KIB", "100000", 1);
	setenv("KBENCH_DISK_FREE_KIB", "100000", 1);
	assert_true(buildload_check_load(BL_NO_LOAD, &o, "/tmp", &size, &need, &have, why, sizeof why));
	assert_true(buildload_check_load(BL_PROCESS, &o, "/tmp", &size, &need, &have, why, sizeof why));
	assert_false(buildload_check_load(BL_MEM, &o, "/tmp", &size, &need, &have, why, sizeof why));
	assert_non_null(strstr(why, "mem_load refused"));
	assert_true(have == 100000 && need > size);
	assert_false(buildload_check_load(BL_IO, &o, "/tmp", &size, &need, &have, why, sizeof why));
	assert_non_null(strstr(why, "io_load refused: 98 MiB free in /tmp"));
	/* enough disk: io_load writes a quarter of it, read_load at most 1 GiB */
	setenv("KBENCH_DISK_FREE_KIB", "40000000", 1);
	assert_true(buildload_check_load(BL_IO, &o, "/tmp", &size, &need, &have, why, sizeof why));
	assert_true(size <= 10000000);
	assert_true(buildload_check_load(BL_READ, &o, "/tmp", &size, &need, &have, why, sizeof why));
	assert_true(size <= BUILDLOAD_READ_MAX_KIB);
	/* a hog of 1% fits in any memory the fake leaves */
	setenv("KBENCH_MEM_AVAILABLE_KIB", "1000000000", 1);
	assert_true(buildload_check_load(BL_MEM, &o, "/tmp", &size, &need, &have, why, sizeof why));
	unsetenv("KBENCH_MEM_AVAILABLE_KIB");
	unsetenv("KBENCH_DISK_FREE_KIB");
}

static void test_ratio_and_row(void **state)
{
	assert_true(fabs(buildload_ratio(150, 100) - 1.5) < 1e-12);
	assert_true(isnan(buildload_ratio(150, 0)));
	assert_true(isnan(buildload_ratio(NAN, 100)));
	char h[200], row[200];
	buildload_fmt_header(h, sizeof h, false);
	assert_string_equal(h, "Kernel         [runs]   Time    CPU%    Loads   LCPU%   Ratio");
	/* contest's own row, as posted: columns under their headers */
	buildload_fmt_row(row, sizeof row, "2.5.70", 1, 79, 94.9, 0, 0, 1, NULL, NULL);
	assert_string_equal(row, "2.5.70              1   79.0    94.9    0.0     0.0     1.00");
	assert_int_equal(strstr(row, "79.0") - row, strstr(h, "Time") - h);
	assert_int_equal(strstr(row, "94.9") - row, strstr(h, "CPU%") - h);
	assert_int_equal(strstr(row, "1.00") - row, strstr(h, "Ratio") - h);
	buildload_fmt_header(h, sizeof h, true);
	buildload_fmt_row(row, sizeof row, "a-rather-long-kernel-name", 3, 131.2, 56.5, 104.5, 41.2, 1.64,
			  "3.1%", "slower (99% sure)");
	assert_string_equal(row, "a-rather-long-k     3   131     56.5    104.5   41.2    1.64     3.1%    "
				 "slower (99% sure)");
	assert_int_equal(strstr(row, "3.1%") - row, strstr(h, "+-") - h);
	assert_int_equal(strstr(row, "slower") - row, strstr(h, "verdict") - h);
	buildload_fmt_row(row, sizeof row, "k", 1, NAN, NAN, NAN, NAN, NAN, NULL, NULL);
	assert_string_equal(row, "k                   1   -       -       -       -       -");
}

/* One sample's published points into the test's points: the headline time
 * per load, CPU%, loads, LCPU% over the window, the ratio to no_load; a
 * refused load and a flush that failed in the summary. */
static void test_collect(void **state)
{
	static struct worker_slot slot;
	memset(&slot, 0, sizeof slot);
	struct workload_ctx ctx = { .slot = &slot };
	wl_publish_point(&ctx, BLS_START, 0, 3);
	wl_publish_point(&ctx, KB_UNITS, 0, KBUILD_UNITS_TINY);
	wl_publish_point(&ctx, BLS_FLUSH, BL_NO_LOAD, 13); /* EACCES */
	wl_publish_point(&ctx, KB_USER, BL_NO_LOAD, 15);
	wl_publish_point(&ctx, KB_SYS, BL_NO_LOAD, 3);
	wl_publish_point(&ctx, BLS_LOADS, BL_NO_LOAD, 0);
	wl_publish_point(&ctx, BLS_LCPU, BL_NO_LOAD, 0);
	wl_publish_point(&ctx, KB_ELAPSED, BL_NO_LOAD, 10);
	wl_publish_point(&ctx, BLS_LOAD_BEGIN, BL_PROCESS, 12);
	wl_publish_point(&ctx, KB_USER, BL_PROCESS, 15);
	wl_publish_point(&ctx, KB_SYS, BL_PROCESS, 3);
	wl_publish_point(&ctx, BLS_LOADS, BL_PROCESS, 5000);
	wl_publish_point(&ctx, BLS_LCPU, BL_PROCESS, 6);
	wl_publish_point(&ctx, KB_ELAPSED, BL_PROCESS, 15);
	wl_publish_point(&ctx, BLS_REFUSED, BL_MEM, 2048 * 1024);
	wl_publish_point(&ctx, BLS_HAVE, BL_MEM, 1024 * 1024);
	struct run *r = run_new();
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "buildload", "Build under load",
						   "s", 0, 0, "build");
	t->kind = RESULT_POINTS;
	t->status = TEST_DONE;
	test_add_sample(t, 1);
	buildload_collect(t, &slot, 1, filled(&buildload_settings, "loads=no_load,process_load,mem_load"));
	const struct point *p = test_find_point(t, "process_load");
	assert_non_null(p);
	assert_true(p->summary && p->lower_better && p->n == 1 && p->v[0] == 15);
	assert_true(fabs(test_find_point(t, "process_load cpu")->v[0] - 120) < 1e-9);
	assert_true(test_find_point(t, "process_load loads")->v[0] == 5000);
	assert_true(fabs(test_find_point(t, "process_load lcpu")->v[0] - 40) < 1e-9);
	assert_true(fabs(test_find_point(t, "process_load ratio")->v[0] - 1.5) < 1e-9);
	assert_true(test_find_point(t, "no_load ratio")->v[0] == 1);
	assert_null(test_find_point(t, "mem_load"));
	const struct kv *ref = test_summary_get(t, "refused mem_load");
	assert_non_null(ref);
	assert_string_equal(ref->text, "mem_load refused: needs 2.0 GiB of memory and swap, 1.0 GiB there");
	assert_non_null(strstr(test_summary_get(t, "note")->text, "not flushed"));
	assert_non_null(strstr(test_summary_get(t, "build tree")->text, "hash 69c4eb1801fd3944"));

	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	assert_true(buildload_print_test(f, t, "6.1.0"));
	fclose(f);
	assert_non_null(strstr(buf, "no_load:\nKernel         [runs]   Time    CPU%    Loads   LCPU%   Ratio\n"
				    "6.1.0               1   10.0    180.0   0.0     0.0     1.00\n"));
	assert_non_null(strstr(buf, "process_load:\n"));
	assert_non_null(strstr(buf, "6.1.0               1   15.0    120.0   5000    40.0    1.50\n"));
	assert_non_null(strstr(buf, "mem_load:\n"));
	assert_non_null(strstr(buf, "6.1.0            mem_load refused"));
	assert_null(strstr(buf, "block layer")); /* no disk load ran */
	free(buf);
	/* another test is not printed */
	struct test_result *k = run_block_add_test(&r->blocks[0], "kbuild", "Build", "s", 0, 0, "build");
	k->kind = RESULT_POINTS;
	assert_false(buildload_print_test(stdout, k, "x"));
	run_free(r);

	struct buildload_live bl;
	assert_true(buildload_live_state(slot.points, atomic_load(&slot.npoints), &bl));
	assert_int_equal(bl.units, KBUILD_UNITS_TINY);
	assert_int_equal(bl.done, 2);
	assert_int_equal(bl.load, BL_PROCESS);
	assert_true(bl.load_began == 12);
	/* a kbuild sample's points are not buildload's */
	struct wl_point kp[] = { { KB_UNITS, 0, 8 }, { KB_BEGIN, 2, 1 } };
	assert_false(buildload_live_state(kp, 2, &bl));
}

/* The run screen's status line through a later sample, in the order
 * buildload_run publishes: never "warm-up build" once the tree is built;
 * "cleaning" from each make clean until its load starts. */
static void test_live_text(void **state)
{
	(void)state;
	const struct wl_point pts[] = {
		{ BLS_START, 0, 2 }, { KB_UNITS, 0, 8 },
		{ KB_CLEAN, BL_NO_LOAD + 1, 0.1 }, { BLS_FLUSH, BL_NO_LOAD, 0 },
		{ BLS_LOAD_BEGIN, BL_NO_LOAD, 0.5 }, { KB_BEGIN, BL_NO_LOAD + 1, 0.8 },
		{ KB_ELAPSED, BL_NO_LOAD, 5 },
		{ KB_CLEAN, BL_PROCESS + 1, 6 }, { BLS_FLUSH, BL_PROCESS, 0 },
		{ BLS_LOAD_BEGIN, BL_PROCESS, 6.5 }, { KB_BEGIN, BL_PROCESS + 1, 9.5 },
		{ KB_ELAPSED, BL_PROCESS, 15 },
	};
	const char *want[] = { NULL, "preparing", "cleaning for build 1 of 2", "cleaning for build 1 of 2",
			       "no_load: build 1 of 2", "no_load: build 1 of 2", "no_load: build 2 of 2",
			       "cleaning for build 2 of 2", "cleaning for build 2 of 2",
			       "process_load: build 2 of 2", "process_load: build 2 of 2", "2 builds done" };
	struct buildload_live bl;
	for (int n = 1; n <= (int)(sizeof pts / sizeof pts[0]); n++) {
		char t[64];
		if (!want[n - 1]) {
			assert_false(buildload_live_state(pts, n, &bl)); /* no tree yet */
			continue;
		}
		assert_true(buildload_live_state(pts, n, &bl));
		buildload_live_text(&bl, 2, t, sizeof t);
		assert_string_equal(t, want[n - 1]);
	}
	/* a load refused (mem_load: too little memory) makes no build: of 2, not of 3,
	 * and done once the builds there are are done */
	const struct wl_point ref[] = {
		{ BLS_START, 0, 2 }, { KB_UNITS, 0, 8 },
		{ KB_CLEAN, BL_NO_LOAD + 1, 0.1 }, { BLS_LOAD_BEGIN, BL_NO_LOAD, 0.5 },
		{ KB_BEGIN, BL_NO_LOAD + 1, 0.8 }, { KB_ELAPSED, BL_NO_LOAD, 5 },
		{ KB_CLEAN, BL_MEM + 1, 6 }, { BLS_REFUSED, BL_MEM, 2048 * 1024 },
		{ KB_CLEAN, BL_IO + 1, 6.5 }, { BLS_LOAD_BEGIN, BL_IO, 7 },
		{ KB_BEGIN, BL_IO + 1, 10 }, { KB_ELAPSED, BL_IO, 15 },
	};
	const char *rwant[] = { "cleaning for build 2 of 3", "cleaning for build 2 of 2",
				"io_load: build 2 of 2", "2 builds done" };
	const int at[] = { 7, 9, 11, 12 };
	for (int i = 0; i < 4; i++) {
		char rt[64];
		assert_true(buildload_live_state(ref, at[i], &bl));
		buildload_live_text(&bl, 3, rt, sizeof rt);
		assert_string_equal(rt, rwant[i]);
	}
	/* the first sample's warm-up: KB_BEGIN at x = 0 */
	const struct wl_point first[] = { { BLS_START, 0, 1 }, { KB_UNITS, 0, 8 }, { KB_BEGIN, 0, 0.2 } };
	char t[64];
	assert_true(buildload_live_state(first, 3, &bl));
	buildload_live_text(&bl, 1, t, sizeof t);
	assert_string_equal(t, "warm-up build");
}

static const char *fixture(const char *name)
{
	static char p[512];
	const char *top = getenv("KBENCH_TOP");
	snprintf(p, sizeof p, "%s/tests/fixtures/%s", top ? top : ".", name);
	return p;
}

static const struct test_result *bl_of(const struct run *r)
{
	return run_block_find_test(run_find_block(r, 1), "buildload");
}

/* contest's tables: one imported run per kernel, a point per load with
 * Time as the headline and the other columns beside it. */
/* A build's time and CPU% take the row's floor; Loads, LCPU% and Ratio, each
 * made of two figures that move, take sqrt(2) of it. */
static void test_noise(void **state)
{
	(void)state;
	const struct test_def *d = test_find("buildload");
	assert_non_null(d);
	assert_ptr_equal(d->point_noise, buildload_noise);
	struct test_noise f = buildload_noise(d, "process_load");
	assert_true(f.full == d->noise.full && f.quick == d->noise.quick);
	f = buildload_noise(d, "io_load cpu");
	assert_true(f.full == d->noise.full);
	static const char *const compound[] = { "process_load loads", "mem_load lcpu", "io_load ratio" };
	for (int i = 0; i < 3; i++) {
		f = buildload_noise(d, compound[i]);
		assert_true(fabs(f.full - d->noise.full * sqrt(2)) < 1e-12);
		assert_true(fabs(f.quick - d->noise.quick * sqrt(2)) < 1e-12);
	}
}

static void test_import_contest(void **state)
{
	struct import_result res;
	char err[300];
	assert_int_equal(import_file(fixture("contest-2.6.txt"), NULL, &res, err, sizeof err), 0);
	assert_int_equal(res.nruns, 2);
	assert_string_equal(res.runs[1]->meta.kernel_release, "2.6.0-test9");
	assert_string_equal(res.runs[1]->meta.name, "2.6.0-test9");
	assert_ptr_equal(res.runs[1]->meta.mode, &run_mode_imported);
	const struct test_result *t = bl_of(res.runs[1]);
	assert_non_null(t);
	assert_int_equal(t->status, TEST_IMPORTED);
	assert_int_equal(t->nsamples, 0);
	const struct point *p = test_find_point(t, "process_load");
	assert_true(p && p->summary && p->lower_better && p->n == 1 && p->v[0] == 127);
	assert_true(fabs(test_find_point(t, "process_load cpu")->v[0] - 58.3) < 1e-9);
	assert_true(fabs(test_find_point(t, "process_load loads")->v[0] - 95.5) < 1e-9);
	assert_true(fabs(test_find_point(t, "process_load lcpu")->v[0] - 39.0) < 1e-9);
	assert_true(fabs(test_find_point(t, "process_load ratio")->v[0] - 1.59) < 1e-9);
	assert_true(test_summary_get(t, "runs process_load")->value == 2);
	for (int l = 0; l < BL_NLOADS; l++)
		assert_non_null(test_find_point(t, buildload_loads[l].id));
	assert_int_equal(res.nwarnings, 1); /* dbench_load: no such load here */
	assert_non_null(strstr(res.warnings[0], "dbench_load"));
	import_result_free(&res);

	assert_int_equal(import_file(fixture("contest-old.txt"), "old", &res, err, sizeof err), 0);
	assert_int_equal(res.nruns, 2);
	assert_string_equal(res.runs[0]->meta.name, "old 2.5.43");
	t = bl_of(res.runs[1]);
	assert_true(fabs(test_find_point(t, "no_load")->v[0] - 74.6) < 1e-9);
	assert_true(test_summary_get(t, "runs no_load")->value == 3);
	assert_true(fabs(test_find_point(t, "mem_load ratio")->v[0] - 1.40) < 1e-9);
	import_result_free(&res);

	assert_int_equal(import_file(fixture("contest-quoted.txt"), "q", &res, err, sizeof err), 0);
	assert_int_equal(res.nruns, 1);
	assert_string_equal(res.runs[0]->meta.name, "q");
	t = bl_of(res.runs[0]);
	assert_true(test_find_point(t, "io_load")->v[0] == 214); /* the row pasted again is not kept */
	assert_null(test_find_point(t, "mem_load"));            /* "x" is no time */
	assert_int_equal(res.nwarnings, 2);
	import_result_free(&res);

	/* a header without a row is no result */
	const char *bad = "no_load:\nKernel [runs] Time CPU% Loads LCPU% Ratio\n\n";
	assert_int_not_equal(import_text(bad, strlen(bad), "bad.txt", NULL, &res, err, sizeof err), 0);
}

/* The set of loads is the quick one in a quick run only: a full run with a
 * short sample length (--duration 100, under the old 450 s guess) keeps every
 * load, and a quick run's is the quick set whatever its length. The run stops
 * at the scratch it cannot make, after saying how many loads it will run. */
static void test_quick_is_a_flag(void **state)
{
	(void)state;
	struct buildload_opts all, quick;
	char err[200];
	assert_int_equal(bl_fill(NULL, 2, false, &all, err, sizeof err), 0);
	assert_int_equal(bl_fill(NULL, 2, true, &quick, err, sizeof err), 0);
	assert_true(quick.nloads < all.nloads);
	/* the workload looks for make and cc before it says its loads (a board without them) */
	if (system("command -v make >/dev/null && command -v cc >/dev/null") != 0) {
		print_message("no make or cc here: it builds\n");
		skip();
	}
	static struct worker_slot slot;
	const struct { bool quick; double duration; int want; } cases[] = {
		{ false, 100, all.nloads }, { false, 600, all.nloads },
		{ true, 100, quick.nloads }, { true, 600, quick.nloads },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&slot, 0, sizeof slot);
		/* the runner's fill follows the run's quick flag, and the workload what it got */
		struct workload_ctx ctx = { .slot = &slot,
					    .copies = 1,
					    .duration = cases[i].duration,
					    .quick = cases[i].quick,
					    .tmpdir = "/nonexistent-kbench/scratch",
					    .settings = cases[i].quick ? &quick : &all };
		assert_int_not_equal(wl_buildload.run(&ctx), 0);
		assert_true(slot.npoints >= 1);
		assert_int_equal(slot.points[0].series, BLS_START);
		assert_int_equal((int)slot.points[0].v, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_loads),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_ratio_and_row),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_live_text),
		cmocka_unit_test(test_import_contest),
		cmocka_unit_test(test_quick_is_a_flag),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
