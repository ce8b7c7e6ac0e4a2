/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of a plan's answer: rows decided from the boots' means, the plan's words, the comparison and report formats built from it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "boottime.h"
#include "compare.h"
#include "plan.h"
#include "plan_report.h"
#include "run.h"
#include "score.h"
#include "store.h"

static uint64_t rng = 12345;
static double normal(void)
{
	double u[2];
	for (int i = 0; i < 2; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		u[i] = ((rng >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* A run of two index tests at 1 copy, its scores scaled by f (with noise),
 * and the index as UnixBench makes it (geometric mean of score / baseline * 10).
 * pace > 0: the pace telemetry source's readings around it, 0 none. */
static struct run *make_run_paced(double f, double noise, bool busy, double boot_s, double pace)
{
	struct run *r = run_new();
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "k");
	r->meta.mode = &run_mode_quick;
	struct run_block *b = run_add_block(r, 1);
	static const struct {
		const char *id, *label;
		double base, score;
	} tests[] = { { "dhry2reg", "Dhrystone 2 using register variables", 116700, 3e7 },
		      { "syscall", "System Call Overhead", 15000, 9e5 } };
	double lsum = 0;
	for (int i = 0; i < 2; i++) {
		struct test_result *t = run_block_add_test(b, tests[i].id, tests[i].label, "lps", 10, tests[i].base, "system");
		t->status = TEST_DONE;
		t->score = tests[i].score * f * exp(noise * normal());
		t->index = t->score / t->baseline * 10;
		lsum += log(t->index);
		if (busy)
			test_summary_set(t, "others.cpu", 1.5, NULL);
	}
	b->index_score = exp(lsum / 2);
	/* the pace source's readings: the run's median is its pace */
	for (int k = 0; pace > 0 && k < 2 * RUN_PACE_MIN; k++)
		series_push(run_series(r, "pace", "M/s"), k, pace * (1 + 0.001 * (k % 3 - 1)));
	b->index_tests = 2;
	if (boot_s > 0) {
		struct boot_time bt;
		memset(&bt, 0, sizeof bt);
		for (int i = 0; i < BOOT_NPHASES; i++)
			bt.s[i] = NAN;
		bt.s[BOOT_KERNEL] = boot_s * 0.2;
		bt.s[BOOT_USERSPACE] = boot_s * 0.8;
		bt.s[BOOT_TOTAL] = boot_s;
		bt.ok = true;
		boottime_add_result(b, &bt);
	}
	return r;
}

static struct run *make_run(double f, double noise, bool busy, double boot_s)
{
	return make_run_paced(f, noise, busy, boot_s, 0);
}

struct fixture {
	struct plan p;
	struct run *runs[64];
	int boot_of[64];
	int n;
};

/* 3 boots a kernel (A B B A A B), 2 runs a boot; B's scores times fb, its
 * boot time times tb; busy_boot: a boot whose runs were all busy (-1 none). */
static void build(struct fixture *fx, double fb, double tb, int busy_boot)
{
	char err[256];
	memset(fx, 0, sizeof *fx);
	assert_int_equal(plan_init(&fx->p, "t", "6.1.0-13-amd64", "6.6.8-pf1", 3, 2, 0, PLAN_ORDER_BALANCED, 1, 0, NULL,
				   err, sizeof err),
			 0);
	for (int s = 0; s < 6; s++) {
		char side = plan_slot_side(&fx->p, s);
		struct plan_boot *b = plan_add_boot(&fx->p, s, side);
		b->state = PLAN_BOOT_DONE;
		double boot = (side == 'B' ? 10 * tb : 10) * exp(0.01 * normal());
		for (int k = 0; k < 2; k++) {
			fx->runs[fx->n] = make_run(side == 'B' ? fb : 1, 0.004, s == busy_boot, k == 0 ? boot : 0);
			fx->boot_of[fx->n++] = s;
		}
	}
}

static void unbuild(struct fixture *fx)
{
	for (int i = 0; i < fx->n; i++)
		run_free(fx->runs[i]);
	plan_free(&fx->p);
}

static const struct plan_row *row(const struct plan_result *res, const char *id)
{
	for (int i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].id, id))
			return &res->rows[i];
	fail_msg("no row %s", id);
	return NULL;
}

static void test_slower(void **state)
{
	struct fixture fx;
	build(&fx, 0.95, 0.9, -1);
	struct plan_result res;
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	assert_int_equal(res.na, 3);
	assert_int_equal(res.nb, 3);
	assert_true(res.complete);
	assert_float_equal(res.conf, 0.95, 0);
	assert_false(res.calibrated);
	assert_string_equal(res.rows[0].id, "index");
	assert_true(res.rows[0].weighted);
	const struct plan_row *ix = row(&res, "index");
	assert_int_equal(ix->verdict, VERDICT_SLOWER);
	assert_float_equal(pstat_pct(ix->e.d), -5.0, 1.0);
	assert_int_equal(ix->e.na, 3);
	assert_float_equal(ix->e.runs, 2, 0);
	char w[160];
	plan_row_words(w, sizeof w, ix);
	assert_non_null(strstr(w, "B is "));
	assert_non_null(strstr(w, "% slower ("));
	/* boot time: lower is better, B 10% quicker: faster */
	const struct plan_row *bt = row(&res, "boot:total");
	assert_true(bt->lower_better);
	assert_false(bt->weighted);
	assert_int_equal(bt->e.na, 3);
	assert_float_equal(bt->e.runs, 1, 0); /* one boot time a boot */
	assert_int_equal(bt->verdict, VERDICT_FASTER);
	plan_row_words(w, sizeof w, bt);
	assert_non_null(strstr(w, "% faster ("));
	plan_result_free(&res);
	unbuild(&fx);
}

static void test_same_and_busy(void **state)
{
	struct fixture fx;
	build(&fx, 1.0, 1.0, 2);
	struct plan_result res;
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	const struct plan_row *d = row(&res, "dhry2reg");
	assert_int_equal(d->busy_boots, 1);
	assert_int_equal(d->e.nb, 2); /* the busy boot is left out */
	char w[160];
	const struct plan_row *ix = row(&res, "index");
	if (ix->verdict == VERDICT_SAME) {
		plan_row_words(w, sizeof w, ix);
		assert_non_null(strstr(w, "no change larger than "));
		assert_non_null(strstr(w, "% either way"));
	}
	plan_result_free(&res);
	unbuild(&fx);
	/* a boot not done (running, or abandoned) is no boot of the answer */
	build(&fx, 1.0, 1.0, -1);
	fx.p.boot[5].state = PLAN_BOOT_ABANDONED;
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	assert_int_equal(res.nb, 2);
	assert_false(res.complete);
	assert_int_equal(row(&res, "index")->e.nb, 2);
	plan_result_free(&res);
	unbuild(&fx);
}

/* --until: the interval is this look's, wider than 95%, and a large change settles every weighted row. */
static void test_until(void **state)
{
	struct fixture fx;
	build(&fx, 0.8, 1.0, -1);
	fx.p.until = pstat_log(2);
	struct plan_result res;
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	assert_int_equal(res.look, 3);
	assert_float_equal(res.conf, pstat_look_conf(3, 3, 0.05), 1e-12);
	assert_true(res.conf > 0.95);
	assert_true(res.settled);
	plan_result_free(&res);
	unbuild(&fx);
}

/* context1 added to run r: three samples whose pair spent a share of its time from t_lo to
 * t_hi on one CPU (170 k lps there) and the rest across at two (1% noise), as unpinned
 * context1 does on a 2-CPU VM (t 1, or 0: pinned to one CPU, or two); the index again. */
static void add_context1(struct run *r, double t_lo, double t_hi, double two)
{
	struct run_block *b = &r->blocks[0];
	struct test_result *t = run_block_add_test(b, "context1", "Pipe-based Context Switching", "lps", 1, 4000, "system");
	t->status = TEST_DONE;
	for (int s = 0; s < 3; s++) {
		struct sample *sm = test_add_sample(t, 1);
		double share = t_lo + (t_hi - t_lo) * s / 2, one = 170e3 * share;
		sm->elapsed[0] = 1;
		sm->count[0] = one + two * (1 - share) * (1 + 0.01 * normal());
		sm->shared[0] = one / sm->count[0];
		sm->shared_time[0] = share;
	}
	score_test(t);
	t->index = t->score / t->baseline * 10;
	double lsum = 0;
	for (int i = 0; i < b->ntests; i++)
		lsum += log(b->tests[i].index);
	b->index_tests = b->ntests;
	b->index_score = exp(lsum / b->ntests);
}

/* A plan judges context1 as compare does: the same kernel whose pairs shared a CPU for more
 * of B's time reads no different by each sample's time across CPUs (its raw rate 30% higher);
 * a 40% drop across is found; pairs pinned one way on A and the other on B are n/a, and the
 * index with them. */
static void test_context1_placement(void **state)
{
	(void)state;
	static const struct {
		double a_lo, a_hi, b_lo, b_hi, b_two;
		int verdict, place;
	} cases[] = {
		{ 0.02, 0.04, 0.06, 0.09, 19e3, VERDICT_SAME, PLACE_TWO },
		{ 0.02, 0.04, 0.02, 0.04, 19e3 * 0.6, VERDICT_SLOWER, PLACE_TWO },
		{ 1, 1, 0, 0, 19e3, VERDICT_NA, 0 },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct fixture fx;
		build(&fx, 1.0, 1.0, -1);
		for (int i = 0; i < fx.n; i++) {
			bool b = fx.p.boot[fx.boot_of[i]].side == 'B';
			add_context1(fx.runs[i], b ? cases[c].b_lo : cases[c].a_lo, b ? cases[c].b_hi : cases[c].a_hi,
				     b ? cases[c].b_two : 19e3);
		}
		struct plan_result res;
		plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
		const struct plan_row *cx = row(&res, "context1"), *ix = row(&res, "index");
		assert_int_equal(cx->verdict, cases[c].verdict);
		assert_int_equal(cx->place_only, cases[c].place);
		if (cases[c].verdict == VERDICT_NA) {
			assert_true(cx->place_differs);
			assert_string_equal(cx->na_why, "placement");
			assert_int_equal(ix->verdict, VERDICT_NA);
			assert_string_equal(ix->na_why, "placement");
		} else {
			assert_true(cx->place_by_time);
			assert_int_equal(ix->verdict, cases[c].verdict);
		}
		if (c == 1)
			assert_float_equal(pstat_pct(cx->e.d), -40, 3);
		plan_result_free(&res);
		unbuild(&fx);
	}
}

/* The report: the plan's words, its compare table, the JSON's rows. */
static void test_print(void **state)
{
	struct fixture fx;
	build(&fx, 0.95, 0.9, -1);
	struct plan_result res;
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	res.runs = fx.runs;
	res.boot_of = fx.boot_of;
	res.nruns = fx.n;
	char *buf;
	size_t len;
	char err[256];
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(plan_print(f, &fx.p, &res, "text", 100, err, sizeof err), 0);
	fclose(f);
	assert_non_null(strstr(buf, "Plan t: A 6.1.0-13-amd64, B 6.6.8-pf1"));
	assert_non_null(strstr(buf, "6 of 6 boots done (3+3), 2 runs a boot."));
	assert_non_null(strstr(buf, "System Benchmarks Index Score (1 copy): B is "));
	assert_non_null(strstr(buf, "Plan t, 3+3 boots x 2 runs: the index: B is "));
	assert_non_null(strstr(buf, "slower"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(plan_print(f, &fx.p, &res, "markdown", 100, err, sizeof err), 0);
	fclose(f);
	assert_non_null(strstr(buf, "**Plan t: A 6.1.0-13-amd64, B 6.6.8-pf1**"));
	assert_non_null(strstr(buf, "| Test |"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(plan_print(f, &fx.p, &res, "json", 100, err, sizeof err), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"kbench_plan\": 1"));
	assert_non_null(strstr(buf, "\"verdict\": \"slower\""));
	free(buf);
	assert_int_equal(plan_print(stdout, &fx.p, &res, "xml", 100, err, sizeof err), -1);
	assert_string_equal(err, "unknown format 'xml' (text, markdown, html or json)");
	res.runs = NULL;
	res.nruns = 0;
	res.boot_of = NULL;
	plan_result_free(&res);
	unbuild(&fx);
}

/* What earlier plans teach of the noise between boots: boots whose means differ
 * by a known sd (runs within a boot agreeing closely) give it back, and a plan of
 * those settings then says so. */
static void test_between(void **state)
{
	char home[] = "/tmp/kbench-between-XXXXXX";
	assert_non_null(mkdtemp(home));
	setenv("KBENCH_HOME", home, 1);
	char err[512];
	struct plan p;
	assert_int_equal(plan_init(&p, "old", "a", "b", 10, 2, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	for (int s = 0; s < 20; s++) {
		struct plan_boot *b = plan_add_boot(&p, s, plan_slot_side(&p, s));
		b->state = PLAN_BOOT_DONE;
		double boot = exp(0.03 * normal()); /* 3% between boots */
		for (int k = 0; k < 2; k++) {
			struct run *r = make_run(boot, 0.001, false, 0);
			assert_int_equal(store_save(r, err, sizeof err), 0);
			snprintf(b->runs[b->nruns++], sizeof b->runs[0], "%s", r->meta.id);
			run_free(r);
		}
	}
	assert_int_equal(plan_save(&p, err, sizeof err), 0);
	struct plan_between pb;
	assert_int_equal(plan_between_learn(&pb, NULL, err, sizeof err), 0);
	double df, sb = plan_between_get(&pb, "index", 1, "quick", &df);
	assert_true(df == 18);
	assert_true(sb > 0.015 && sb < 0.05);
	assert_true(plan_between_get(&pb, "index", 2, "quick", &df) < 0);
	plan_between_free(&pb);
	/* learned from every plan but the one named */
	assert_int_equal(plan_between_learn(&pb, "old", err, sizeof err), 0);
	assert_int_equal(pb.n, 0);
	plan_between_free(&pb);
	/* a second plan of these settings takes it as its prior between boots */
	struct plan q;
	assert_int_equal(plan_init(&q, "new", "a", "b", 1, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	for (int s = 0; s < 2; s++) {
		struct plan_boot *b = plan_add_boot(&q, s, plan_slot_side(&q, s));
		b->state = PLAN_BOOT_DONE;
		struct run *r = make_run(1, 0.001, false, 0);
		assert_int_equal(store_save(r, err, sizeof err), 0);
		snprintf(b->runs[b->nruns++], sizeof b->runs[0], "%s", r->meta.id);
		run_free(r);
	}
	struct plan_result res;
	assert_int_equal(plan_analyze(&q, &res, err, sizeof err), 0);
	assert_true(res.between_learned);
	assert_float_equal(row(&res, "index")->prior.between, sb, 1e-12);
	plan_result_free(&res);
	plan_free(&q);
	plan_free(&p);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", home);
	assert_int_equal(system(cmd), 0);
	setenv("KBENCH_HOME", "/nonexistent-kbench-test-store", 1);
}

/* 3 boots a kernel (A B B A A B), 2 runs a boot, each run at its own pace of
 * the machine (sd from run to run) that every score follows; B's scores
 * times fb beyond that, its pace times pb (a kernel that moves the clock). */
static void build_paced(struct fixture *fx, double sd, double fb, double pb)
{
	char err[256];
	memset(fx, 0, sizeof *fx);
	assert_int_equal(plan_init(&fx->p, "t", "a", "b", 3, 2, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	for (int s = 0; s < 6; s++) {
		char side = plan_slot_side(&fx->p, s);
		plan_add_boot(&fx->p, s, side)->state = PLAN_BOOT_DONE;
		for (int k = 0; k < 2; k++) {
			double pace = exp(sd * normal()) * (side == 'B' ? pb : 1);
			fx->runs[fx->n] = make_run_paced((side == 'B' ? fb : 1) * pace, 0.004, false, 0, 900 * pace);
			fx->boot_of[fx->n++] = s;
		}
	}
}

/* The plan's report in format (400 columns: no sentence wrapped), the
 * fixture's runs lent to res for it (the table reads them; the fixture frees them). */
static char *report_of(struct fixture *fx, struct plan_result *res, const char *format)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	res->runs = fx->runs;
	res->boot_of = fx->boot_of;
	res->nruns = fx->n;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(plan_print(f, &fx->p, res, format, 400, err, sizeof err), 0);
	fclose(f);
	res->runs = NULL;
	res->boot_of = NULL;
	res->nruns = 0;
	return buf;
}

/* The machine's pace moves every score 8% from run to run: the plain answer
 * cannot see a 3% slowdown through it, the one at the same pace does, with
 * the slope (1 here) learned from the runs and the pace's own difference none. */
static void test_same_pace(void **state)
{
	struct fixture fx;
	rng = 777;
	build_paced(&fx, 0.08, 0.97, 1);
	struct plan_result res;
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	const struct plan_row *ix = row(&res, "index");
	assert_true(ix->pace.ok);
	assert_float_equal(ix->pace.slope, 1.0, 0.1);
	assert_int_equal(ix->pace_verdict, VERDICT_SLOWER);
	assert_float_equal(pstat_pct(ix->pace.adj.d), -3.0, 0.5);
	assert_true(ix->pace.adj.lo < log(0.97) && ix->pace.adj.hi > log(0.97));
	/* at least three times narrower than the plain interval */
	assert_true(3 * (ix->pace.adj.hi - ix->pace.adj.lo) < ix->e.hi - ix->e.lo);
	assert_int_equal(ix->pace.pace.verdict, PSTAT_SAME);
	const struct plan_row *d = row(&res, "dhry2reg");
	assert_true(d->pace.ok);
	assert_int_equal(d->pace_verdict, VERDICT_SLOWER);
	char w[320];
	plan_row_pace_words(w, sizeof w, ix);
	assert_non_null(strstr(w, "% slower ("));
	assert_non_null(strstr(w, "; pace within "));
	/* the report: the line under the index, the footer's account of it, the JSON */
	char *buf = report_of(&fx, &res, "text");
	assert_non_null(strstr(buf, "    at the same pace: B is "));
	assert_non_null(strstr(buf, "learned within each kernel"));
	assert_null(strstr(buf, "pace differed between the kernels"));
	free(buf);
	buf = report_of(&fx, &res, "json");
	assert_non_null(strstr(buf, "\"same_pace\""));
	assert_non_null(strstr(buf, "\"slope\""));
	free(buf);
	plan_result_free(&res);
	unbuild(&fx);
}

/* A kernel that runs the machine 10% slower (a clock it sets): the plain
 * answer says slower, the one at the same pace says no change, and the
 * report says the pace itself differed, so the reader knows which to read. */
static void test_pace_moved_by_kernel(void **state)
{
	struct fixture fx;
	rng = 4242;
	build_paced(&fx, 0.03, 1, 0.9);
	struct plan_result res;
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	const struct plan_row *ix = row(&res, "index");
	assert_true(ix->pace.ok);
	assert_int_equal(ix->verdict, VERDICT_SLOWER);
	assert_int_equal(ix->pace.pace.verdict, PSTAT_LOWER);
	assert_float_equal(pstat_pct(ix->pace.pace.d), -10.0, 4.0);
	assert_int_equal(ix->pace_verdict, VERDICT_SAME);
	char w[320];
	plan_row_pace_words(w, sizeof w, ix);
	assert_non_null(strstr(w, "B's pace -"));
	char *buf = report_of(&fx, &res, "text");
	assert_non_null(strstr(buf, "pace differed between the kernels (B -"));
	free(buf);
	plan_result_free(&res);
	unbuild(&fx);
	/* runs that carry no pace: no answer at the same pace, and why */
	build(&fx, 0.95, 1, -1);
	plan_analyze_runs(&fx.p, fx.runs, fx.boot_of, fx.n, NULL, &res);
	ix = row(&res, "index");
	assert_false(ix->pace.ok);
	assert_int_equal(ix->pace_verdict, VERDICT_NA);
	assert_non_null(strstr(ix->pace.why, "without the pace"));
	plan_result_free(&res);
	unbuild(&fx);
}

int main(void)
{
	setenv("KBENCH_HOME", "/nonexistent-kbench-test-store", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slower),
		cmocka_unit_test(test_same_and_busy),
		cmocka_unit_test(test_until),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_between),
		cmocka_unit_test(test_context1_placement),
		cmocka_unit_test(test_same_pace),
		cmocka_unit_test(test_pace_moved_by_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
