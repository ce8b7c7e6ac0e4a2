/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the comparison: verdicts against known differences, n/a for imports, groups, rendering widths. */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "gauss.h"
#include "noise.h"
#include "run.h"
#include "score.h"
#include "store.h"
#include "telemetry/others.h"
#include "thermal.h"

static const struct {
	const char *id, *label, *unit;
	double baseline, rate;
} T[] = {
	{ "dhry2reg", "Dhrystone 2 using register variables", "lps", 116700, 3.8e7 },
	{ "pipe", "Pipe Throughput", "lps", 12440, 9.1e5 },
	{ "spawn", "Process Creation", "lps", 126, 3436 },
	{ "syscall", "System Call Overhead", "lps", 15000, 8.3e5 },
};

/* A run whose tests run at factor x their nominal rate, with sample noise sd and a per-run offset. */
static struct run *mk(const char *id, const char *kernel, double factor, double sd, double drift)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.name, sizeof r->meta.name, "%s", kernel);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "%s", kernel);
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "box");
	struct run_block *b = run_add_block(r, 1);
	for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
		struct test_result *t = run_block_add_test(b, T[i].id, T[i].label, T[i].unit, 1,
							   T[i].baseline, "system");
		t->status = TEST_DONE;
		for (int s = 0; s < 10; s++) {
			struct sample *sm = test_add_sample(t, 1);
			double f = factor * (1 + sd * gauss()) * (1 + drift * s / 9.0);
			sm->count[0] = T[i].rate * f * 10;
			sm->elapsed[0] = 10;
		}
	}
	run_rescore(r);
	return r;
}

static struct compare *cmp(struct run *a, struct run *b, const struct noise_table *nt)
{
	char err[256];
	const struct run *av[] = { a }, *bv[] = { b };
	struct compare_opts o = { .noise = nt };
	struct compare *c = compare_runs(av, 1, bv, 1, &o, err, sizeof err);
	if (!c)
		fail_msg("%s", err);
	return c;
}

static void test_same_kernel_no_change(void **state)
{
	struct run *a = mk("aaaa0001", "6.1", 1.0, 0.01, 0), *b = mk("bbbb0001", "6.1", 1.03, 0.01, 0);
	struct compare *c = cmp(a, b, NULL);
	assert_int_equal(c->nblocks, 1);
	const struct compare_block *bl = &c->blocks[0];
	assert_int_equal(bl->nrows, 4);
	for (int i = 0; i < bl->nrows; i++) {
		/* +3% with a 1% sample spread: Welch on samples would say faster; the floor says no. */
		assert_int_equal(bl->rows[i].verdict, VERDICT_SAME);
		assert_true(bl->rows[i].change_lo < 0 && bl->rows[i].change_hi > 0);
		assert_float_equal(bl->rows[i].change, 3.0, 1.5);
		assert_int_equal(bl->rows[i].method, METHOD_FLOOR);
	}
	assert_int_equal(bl->index.verdict, VERDICT_SAME);
	assert_int_equal(c->ndiffs, 0);
	compare_free(c);
	run_free(a);
	run_free(b);
}

static void test_slowdown_detected(void **state)
{
	struct run *a = mk("aaaa0002", "6.1", 1.0, 0.01, 0), *b = mk("bbbb0002", "6.8", 0.6, 0.01, 0);
	struct compare *c = cmp(a, b, NULL);
	const struct compare_block *bl = &c->blocks[0];
	for (int i = 0; i < bl->nrows; i++) {
		assert_int_equal(bl->rows[i].verdict, VERDICT_SLOWER);
		assert_true(bl->rows[i].change_hi < 0);
	}
	assert_int_equal(bl->index.verdict, VERDICT_SLOWER);
	assert_float_equal(bl->mean_change, -40, 2);
	assert_float_equal(bl->geomean_change, -40, 2);
	/* The environment strip names the kernel. */
	assert_int_equal(c->ndiffs, 1);
	assert_string_equal(c->diffs[0].what, "kernel");
	assert_string_equal(c->diffs[0].b, "6.8");
	compare_free(c);
	struct compare *d = cmp(b, a, NULL);
	assert_int_equal(d->blocks[0].rows[0].verdict, VERDICT_FASTER);
	compare_free(d);
	run_free(a);
	run_free(b);
}

static void test_learned_floor(void **state)
{
	/* Ten quiet same-kernel runs teach a small floor; then 8% is a change. */
	struct run *runs[10];
	const struct run *cv[10];
	char id[16];
	for (int i = 0; i < 10; i++) {
		snprintf(id, sizeof id, "n%07d", i);
		runs[i] = mk(id, "6.1", 1 + 0.005 * gauss(), 0.005, 0);
		cv[i] = runs[i];
	}
	struct noise_table nt;
	noise_learn(&nt, cv, 10, NULL, 0);
	assert_int_equal(nt.groups, 1);
	assert_int_equal(nt.runs, 10);
	const struct noise_floor *f = noise_get(&nt, "dhry2reg", runs[0]);
	assert_int_equal(f->df, 9);
	assert_true(f->learned < 0.02);
	assert_true(f->sigma < f->fallback && f->sigma > f->learned);
	struct run *a = mk("aaaa0003", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0003", "6.8", 0.92, 0.005, 0);
	struct compare *with = cmp(a, b, &nt), *without = cmp(a, b, NULL);
	assert_int_equal(with->blocks[0].rows[0].verdict, VERDICT_SLOWER);
	assert_true(with->floors_learned);
	assert_int_equal(without->blocks[0].rows[0].verdict, VERDICT_SAME);
	assert_true(without->blocks[0].rows[0].more_runs > 0);
	compare_free(with);
	compare_free(without);
	/* Excluding runs leaves them out of the learning. */
	const char *ex[] = { "n0000000", "n0000001", "n0000002", "n0000003", "n0000004",
			     "n0000005", "n0000006", "n0000007", "n0000008" };
	noise_free(&nt);
	noise_learn(&nt, cv, 10, ex, 9);
	assert_int_equal(nt.groups, 0);
	noise_free(&nt);
	for (int i = 0; i < 10; i++)
		run_free(runs[i]);
	run_free(a);
	run_free(b);
}

static void test_imported_is_na(void **state)
{
	struct run *a = mk("aaaa0004", "6.1", 1.0, 0.01, 0), *b = mk("bbbb0004", "6.8", 0.5, 0.01, 0);
	/* B as a published result: scores without samples. */
	for (int i = 0; i < b->blocks[0].ntests; i++) {
		struct test_result *t = &b->blocks[0].tests[i];
		for (int s = 0; s < t->nsamples; s++) {
			free(t->samples[s].count);
			free(t->samples[s].elapsed);
		}
		free(t->samples);
		t->samples = NULL;
		t->nsamples = 0;
		t->status = TEST_IMPORTED;
	}
	b->meta.mode = &run_mode_imported;
	struct compare *c = cmp(a, b, NULL);
	const struct compare_block *bl = &c->blocks[0];
	for (int i = 0; i < bl->nrows; i++) {
		assert_int_equal(bl->rows[i].verdict, VERDICT_NA);
		assert_float_equal(bl->rows[i].change, -50, 2); /* the change is still shown */
	}
	assert_int_equal(bl->index.verdict, VERDICT_NA);
	compare_free(c);
	run_free(a);
	run_free(b);
}

static void test_groups_and_missing(void **state)
{
	struct run *a[3], *b[3];
	char id[16];
	for (int i = 0; i < 3; i++) {
		snprintf(id, sizeof id, "ga%06d", i);
		a[i] = mk(id, "6.1", 1 + 0.01 * gauss(), 0.01, 0);
		snprintf(id, sizeof id, "gb%06d", i);
		b[i] = mk(id, "6.8", 0.85 + 0.01 * gauss(), 0.01, 0);
	}
	/* A test only B has is listed, not dropped. */
	run_block_add_test(&b[0]->blocks[0], "execl", "Execl Throughput", "lps", 1, 43, "system")->status = TEST_DONE;
	struct test_result *t = &b[0]->blocks[0].tests[b[0]->blocks[0].ntests - 1];
	t->score = 1600;
	char err[256];
	struct compare_opts o = { 0 };
	struct compare *c = compare_runs((const struct run *const *)a, 3, (const struct run *const *)b, 3,
					 &o, err, sizeof err);
	assert_non_null(c);
	const struct compare_block *bl = &c->blocks[0];
	assert_int_equal(bl->nrows, 5);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(bl->rows[i].method, METHOD_BETWEEN);
		assert_int_equal(bl->rows[i].verdict, VERDICT_SLOWER);
	}
	assert_string_equal(bl->rows[4].id, "execl");
	assert_false(bl->rows[4].a.present);
	assert_true(bl->rows[4].b.present);
	assert_int_equal(bl->rows[4].verdict, VERDICT_NA);
	assert_string_equal(bl->rows[4].note, "only in B");
	assert_int_equal(c->na, 3);
	assert_non_null(strstr(c->a_title, "3 runs"));
	compare_free(c);
	for (int i = 0; i < 3; i++) {
		run_free(a[i]);
		run_free(b[i]);
	}
}

static void test_drift_flag(void **state)
{
	struct run *a = mk("aaaa0005", "6.1", 1.0, 0.005, -0.25), *b = mk("bbbb0005", "6.1", 1.0, 0.005, 0);
	struct compare *c = cmp(a, b, NULL);
	assert_true(c->blocks[0].rows[0].a.drift);
	assert_true(c->blocks[0].rows[0].a.drift_pct < -15);
	assert_false(c->blocks[0].rows[0].b.drift);
	compare_free(c);
	run_free(a);
	run_free(b);
}

static void test_render(void **state)
{
	struct run *a = mk("aaaa0006", "6.1.0-13-amd64", 1.0, 0.01, 0), *b = mk("bbbb0006", "6.8.0-pf3", 0.7, 0.01, 0);
	snprintf(b->meta.cmdline, sizeof b->meta.cmdline, "mitigations=off");
	struct compare *c = cmp(a, b, NULL);
	c->blocks[0].rows[0].change_pm = 1234.5; /* the widest interval still fits */
	c->blocks[0].rows[1].change = -100;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_print_text(f, c, 80);
	fclose(f);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (strlen(line) > 80)
			fail_msg("line longer than 80: '%s'", line);
	free(buf);
	f = open_memstream(&buf, &len);
	compare_print_text(f, c, 160);
	fclose(f);
	assert_non_null(strstr(buf, "Dhrystone 2 using register variables"));
	assert_non_null(strstr(buf, "slower"));
	assert_non_null(strstr(buf, "cmdline"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(compare_print_json(f, c), 0);
	fclose(f);
	json_error_t je;
	json_t *j = json_loads(buf, 0, &je);
	assert_non_null(j);
	json_t *row = json_array_get(json_object_get(json_array_get(json_object_get(j, "blocks"), 0), "tests"), 0);
	assert_string_equal(json_string_value(json_object_get(row, "verdict")), "slower");
	json_decref(j);
	free(buf);
	f = open_memstream(&buf, &len);
	compare_print_csv(f, c);
	fclose(f);
	assert_true(strncmp(buf, "copies,test,label,a_score", 25) == 0);
	int lines = 0;
	for (char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 1 + 4 + 1);
	free(buf);
	char s[16];
	compare_fmt_score(s, sizeof s, 38040918.7, 6);
	assert_string_equal(s, "38.04M");
	compare_fmt_score(s, sizeof s, 7219.3, 6);
	assert_string_equal(s, "7219.3");
	compare_fmt_score(s, sizeof s, 911212.4, 6);
	assert_string_equal(s, "911212");
	compare_fmt_score(s, sizeof s, 1087437.6, 6);
	assert_string_equal(s, "1.087M");
	compare_free(c);
	run_free(a);
	run_free(b);
}

static void storage_facts(struct run_meta *m, const char *fs, const char *opts, const char *sched,
			  const char *thp, const char *cs, unsigned long long swap_kib, unsigned long long used)
{
	snprintf(m->scratch_dir, sizeof m->scratch_dir, "/tmp");
	snprintf(m->fs_type, sizeof m->fs_type, "%s", fs);
	snprintf(m->fs_options, sizeof m->fs_options, "%s", opts);
	snprintf(m->fs_source, sizeof m->fs_source, "/dev/vda1");
	snprintf(m->io_scheduler, sizeof m->io_scheduler, "%s", sched);
	snprintf(m->thp_enabled, sizeof m->thp_enabled, "%s", thp);
	snprintf(m->thp_defrag, sizeof m->thp_defrag, "madvise");
	snprintf(m->clocksource, sizeof m->clocksource, "%s", cs);
	m->swap_known = true;
	m->swap_total_kib = swap_kib;
	m->swap_used_kib = used;
}

/* The strip names a different filesystem, mount options, scheduler, THP,
 * clocksource or swap; swap used, and facts one side does not know, are not differences. */
static void test_storage_in_strip(void **state)
{
	struct run *a = mk("aaaa0007", "6.1", 1.0, 0.01, 0), *b = mk("bbbb0007", "6.1", 1.0, 0.01, 0);
	storage_facts(&a->meta, "ext4", "rw,relatime", "mq-deadline", "madvise", "tsc", 0, 0);
	storage_facts(&b->meta, "ext4", "rw,relatime", "mq-deadline", "madvise", "tsc", 0, 0);
	struct compare *c = cmp(a, b, NULL);
	assert_int_equal(c->ndiffs, 0);
	compare_free(c);

	storage_facts(&b->meta, "tmpfs", "rw,nosuid,nodev", "none", "always", "hpet", 2097148, 4096);
	c = cmp(a, b, NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_print_text(f, c, 80);
	fclose(f);
	/* The strip wraps at 80 columns: read it as one line. */
	char *w = buf;
	for (char *r = buf; *r; r++) {
		if (*r == '\n' && r[1] == ' ') {
			*w++ = ' ';
			while (r[1] == ' ')
				r++;
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
	const char *want[] = { "filesystem ext4 -> tmpfs", "mount options rw,relatime -> rw,nosuid,nodev",
			       "scheduler mq-deadline -> none", "THP madvise (defrag madvise) -> always (defrag madvise)",
			       "clocksource tsc -> hpet", "swap none -> 2048 MiB" };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(buf, want[i]))
			fail_msg("the strip lacks '%s':\n%s", want[i], buf);
	assert_int_equal(c->ndiffs, 6);
	free(buf);
	compare_free(c);

	/* Only the swap in use differs: the same environment. A 1.0 file (facts
	 * empty) or a fact that could not be read is no difference either. */
	storage_facts(&a->meta, "tmpfs", "rw,nosuid,nodev", "none", "always", "hpet", 2097152, 0);
	c = cmp(a, b, NULL);
	assert_int_equal(c->ndiffs, 0);
	compare_free(c);
	memset(a->meta.fs_type, 0, sizeof a->meta.fs_type);
	snprintf(a->meta.clocksource, sizeof a->meta.clocksource, "unknown");
	a->meta.swap_known = false;
	snprintf(b->meta.io_scheduler, sizeof b->meta.io_scheduler, "bfq");
	c = cmp(a, b, NULL);
	assert_int_equal(c->ndiffs, 1);
	assert_string_equal(c->diffs[0].what, "scheduler");
	assert_string_equal(c->diffs[0].a, "none");
	assert_string_equal(c->diffs[0].b, "bfq");
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* Every test of run r gets a summary key. */
static void summary_all(struct run *r, const char *key, double v)
{
	for (int i = 0; i < r->blocks[0].ntests; i++)
		test_summary_set(&r->blocks[0].tests[i], key, v, NULL);
}

static const struct compare_row *row_of(const struct compare *c, const char *id)
{
	for (int i = 0; i < c->blocks[0].nrows; i++)
		if (!strcmp(c->blocks[0].rows[i].id, id))
			return &c->blocks[0].rows[i];
	fail_msg("no row %s", id);
	return NULL;
}

static bool footer_has(const struct compare *c, const char *what)
{
	for (int i = 0; i < c->nfooter; i++)
		if (strstr(c->footer[i], what))
			return true;
	return false;
}

static void test_busy_run_is_withheld(void **state)
{
	/* B ran beside a CPU hog: half as fast, and its telemetry says others used half a CPU. */
	struct run *a = mk("aaaa0010", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0010", "6.1", 0.5, 0.005, 0);
	summary_all(a, "others.cpu", 0.02);
	summary_all(b, "others.cpu", 0.5);
	struct compare *c = cmp(a, b, NULL);
	for (int i = 0; i < c->blocks[0].nrows; i++) {
		const struct compare_row *r = &c->blocks[0].rows[i];
		assert_int_equal(r->verdict, VERDICT_NA);
		assert_string_equal(r->note, "busy");
		assert_float_equal(r->change, -50, 2); /* shown, not judged */
		assert_true(r->b.busy && !r->a.busy);
		assert_float_equal(r->b.others_cpu, 0.5, 1e-9);
	}
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_NA); /* made of busy tests */
	assert_int_equal(c->nbusy_rows, c->blocks[0].nrows);
	assert_true(footer_has(c, "Busy machine: B run bbbb0010"));
	assert_false(footer_has(c, "A run aaaa0010"));
	char v[64];
	compare_verdict_text(v, sizeof v, &c->blocks[0].rows[0]);
	assert_string_equal(v, "n/a (busy)");
	compare_free(c);
	/* Below the threshold the machine was not busy: the slowdown is judged. */
	summary_all(b, "others.cpu", OTHERS_BUSY_CPU / 2);
	c = cmp(a, b, NULL);
	assert_int_equal(c->blocks[0].rows[0].verdict, VERDICT_SLOWER);
	assert_false(footer_has(c, "Busy machine"));
	compare_free(c);
	/* A throttled test is withheld the same way, and says so; a warm start is named. */
	summary_all(b, "throttled", 1);
	run_add_note(b, "preflight: CPU is at 81.0 °C, still warm (from a previous run?): ...");
	c = cmp(a, b, NULL);
	assert_true(footer_has(c, "B run bbbb0010 started with the CPU still warm"));
	assert_int_equal(c->blocks[0].rows[0].verdict, VERDICT_NA);
	assert_string_equal(c->blocks[0].rows[0].note, "throttled");
	assert_true(footer_has(c, "Throttled: B run bbbb0010"));
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* n readings of the pace source at v (a run's pace is their median). */
static void pace_readings(struct run *r, int n, double v)
{
	for (int k = 0; k < n; k++)
		series_push(run_series(r, "pace", "M/s"), k, v);
}

/* The machine's pace beside the tests: said as a number when the sides ran
 * it alike, with what it may mean when they did not, nothing without it. */
static void test_pace_is_said(void **state)
{
	struct run *a = mk("aaaa0011", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0011", "6.1", 0.95, 0.005, 0);
	struct compare *c = cmp(a, b, NULL);
	assert_false(footer_has(c, "The machine's pace"));
	compare_free(c);
	pace_readings(a, RUN_PACE_MIN, 900);
	pace_readings(b, RUN_PACE_MIN - 1, 905);
	c = cmp(a, b, NULL);
	assert_false(footer_has(c, "The machine's pace")); /* one side only: B has too few readings */
	compare_free(c);
	pace_readings(b, 1, 905);
	c = cmp(a, b, NULL);
	/* a small difference is no proof of a small effect while the slope is not learned */
	assert_true(footer_has(c, "B's runs +0.6% against A's; how far the scores follow it here is not learned yet"));
	assert_false(footer_has(c, "Either the machine"));
	compare_free(c);
	pace_readings(b, 2 * RUN_PACE_MIN + 1, 855);
	c = cmp(a, b, NULL);
	assert_true(footer_has(c, "B's runs -5.0% against A's. Either the machine ran slower"));
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* A against a B of that factor and pace, on nt's floors: the footer has each of says
 * (a leading '!': has it not). */
static void pace_footer_says(struct run *a, double factor, double pace, const struct noise_table *nt,
			     const char *const *says)
{
	struct run *b = mk("bbbb0012", "6.8", factor, 0.002, 0);
	pace_readings(b, RUN_PACE_MIN, pace);
	struct compare *c = cmp(a, b, nt);
	for (int i = 0; says[i]; i++)
		if (says[i][0] == '!')
			assert_false(footer_has(c, says[i] + 1));
		else if (!footer_has(c, says[i]))
			fail_msg("the footer does not say \"%s\"", says[i]);
	compare_free(c);
	run_free(b);
}

/* A/A runs whose index follows their pace three to one teach that slope (the
 * index's floor keeps it), and the footer says what B's pace alone would do. */
static void test_pace_slope_learned(void **state)
{
	struct run *runs[10];
	const struct run *cv[10];
	char id[16];
	for (int i = 0; i < 10; i++) {
		double p = 900 * (1 + 0.01 * (i - 4.5) + 0.002 * gauss());
		snprintf(id, sizeof id, "p%07d", i);
		runs[i] = mk(id, "6.1", pow(p / 900, 3) * (1 + 0.003 * gauss()), 0.002, 0);
		pace_readings(runs[i], RUN_PACE_MIN, p);
		cv[i] = runs[i];
	}
	struct noise_table nt;
	noise_learn(&nt, cv, 10, NULL, 0);
	double slope, r;
	const struct noise_floor *f = noise_get(&nt, NOISE_INDEX_ID, runs[0]);
	assert_int_equal(f->pace_df, 9);
	assert_true(noise_pace_slope(f, &slope, &r));
	assert_true(slope > 2.5 && slope < 3.5);
	assert_true(r > 0.9);
	/* B's pace 2% above A's: the index 6% up from the pace alone, and said so */
	struct run *a = mk("aaaa0012", "6.1", 1.0, 0.002, 0);
	pace_readings(a, RUN_PACE_MIN, 900);
	const char *says2[] = { "B's runs +2.0% against A's. Between A/A runs here the index moved",
				"times the pace (r 1.00, 9 df): this alone would move it +6.", "against the index's +6.",
				"Either the machine ran faster", NULL };
	pace_footer_says(a, 1.061, 918, &nt, says2);
	/* 0.1%: the slope says it moves the index 0.3%, not a cause */
	const char *says01[] = { "B's runs +0.1% against A's. Between A/A runs here", "!Either the machine", NULL };
	pace_footer_says(a, 1.0, 900.9, &nt, says01);
	/* A/A runs whose pace did not move the index (the paces dealt out of the index's
	 * order, (3 i + 7) mod 10: r -0.03 with it): the slope predicts nothing, and says so */
	noise_free(&nt);
	for (int i = 0; i < 10; i++)
		for (int k = 0; k < RUN_PACE_MIN; k++)
			runs[i]->series[0].v[k] = 900 * (1 + 0.01 * ((3 * i + 7) % 10 - 4.5));
	noise_learn(&nt, cv, 10, NULL, 0);
	f = noise_get(&nt, NOISE_INDEX_ID, runs[0]);
	assert_true(noise_pace_slope(f, &slope, &r));
	assert_true(fabs(r) < 0.3);
	const char *says4[] = { "B's runs +4.0% against A's. Between A/A runs here the index hardly followed",
				"!Either the machine", NULL };
	pace_footer_says(a, 1.0, 936, &nt, says4);
	noise_free(&nt);
	for (int i = 0; i < 10; i++)
		run_free(runs[i]);
	run_free(a);
}

static void test_drift_widens(void **state)
{
	/* Same scores, but B's samples fall by a quarter over the run: its interval is wider. */
	gauss_rng = 12345;
	struct run *a = mk("aaaa0011", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0011", "6.1", 1.0, 0.005, 0);
	struct compare *flat = cmp(a, b, NULL);
	gauss_rng = 12345;
	struct run *d = mk("cccc0011", "6.1", 1.0, 0.005, -0.25);
	struct compare *drift = cmp(a, d, NULL);
	const struct compare_row *r0 = &flat->blocks[0].rows[0], *r1 = &drift->blocks[0].rows[0];
	assert_false(r0->widened);
	assert_true(r1->widened && r1->b.drift);
	/* Half the 25% drift, added in quadrature to a floor of 3.5%: about twice as wide. */
	assert_true(r1->change_pm > 1.5 * r0->change_pm);
	compare_free(flat);
	compare_free(drift);
	run_free(a);
	run_free(b);
	run_free(d);
}

static void test_settings_have_their_floors(void **state)
{
	struct run *a = mk("aaaa0012", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0012", "6.1", 1.0, 0.005, 0);
	struct compare *c = cmp(a, b, NULL);
	assert_float_equal(row_of(c, "dhry2reg")->floor_pct, noise_default("dhry2reg") * 100, 1e-9);
	assert_non_null(strstr(c->basis, "default noise floors"));
	assert_non_null(strstr(c->basis, "(full-length)"));
	assert_string_equal(c->calibrate_cmd, "kbench calibrate --full dhry2reg pipe spawn syscall");
	assert_true(footer_has(c, "kbench calibrate --full"));
	compare_free(c);
	/* Quick runs: their own, wider defaults, and the hint says --quick. */
	a->meta.mode = &run_mode_quick;
	b->meta.mode = &run_mode_quick;
	c = cmp(a, b, NULL);
	assert_float_equal(row_of(c, "dhry2reg")->floor_pct, noise_default_for("dhry2reg", a) * 100, 1e-9);
	assert_true(noise_default_for("dhry2reg", a) > noise_default("dhry2reg"));
	assert_non_null(strstr(c->basis, "(quick)"));
	assert_string_equal(c->calibrate_cmd, "kbench calibrate --quick dhry2reg pipe spawn syscall");
	compare_free(c);
	/* The workload settings the run was given, as options the shell reads back:
	 * a flag, values, a --source path with a blank (escaped in params) and a quote. */
	snprintf(b->meta.params, sizeof b->meta.params,
		 "tasks=1,2,4 huge period-us=500 source=/src/my%%20linux's");
	c = cmp(a, b, NULL);
	assert_string_equal(c->calibrate_cmd, "kbench calibrate --quick --tasks 1,2,4 --huge --period-us 500 "
					      "--source '/src/my linux'\\''s' dhry2reg pipe spawn syscall");
	assert_true(footer_has(c, "--tasks 1,2,4 --huge --period-us 500"));
	compare_free(c);
	/* a hostile file's option names do not reach the command: only [a-z0-9-] */
	snprintf(b->meta.params, sizeof b->meta.params, "x;rm=1 $(id) Huge=1 jobs=3");
	c = cmp(a, b, NULL);
	assert_string_equal(c->calibrate_cmd, "kbench calibrate --quick --jobs 3 dhry2reg pipe spawn syscall");
	compare_free(c);
	b->meta.params[0] = '\0';
	/* Short samples: the full default widened by sqrt(nominal / actual), at most 3x. */
	a->meta.mode = &run_mode_full;
	a->meta.duration_override = 2.5;
	a->meta.iterations = 3;
	assert_float_equal(noise_default_for("dhry2reg", a), noise_default("dhry2reg") * 2, 1e-9);
	assert_float_equal(noise_default_for("shell1", a), noise_default("shell1") * 3, 1e-9);
	char set[64];
	noise_setting(a, set, sizeof set);
	assert_string_equal(set, "2.5 s samples, -i 3");
	run_free(a);
	run_free(b);
}

static void test_learned_per_setting(void **state)
{
	/* Five quiet quick runs teach the quick floor only. */
	struct run *runs[5];
	const struct run *cv[5];
	char id[16];
	for (int i = 0; i < 5; i++) {
		snprintf(id, sizeof id, "q%07d", i);
		runs[i] = mk(id, "6.1", 1 + 0.01 * gauss(), 0.005, 0);
		runs[i]->meta.mode = &run_mode_quick;
		cv[i] = runs[i];
	}
	/* A busy run among them teaches nothing about this machine's own noise. */
	summary_all(runs[4], "others.cpu", 0.9);
	runs[4]->blocks[0].tests[0].score *= 0.5;
	struct noise_table nt;
	noise_learn(&nt, cv, 5, NULL, 0);
	const struct noise_floor *q = noise_get(&nt, "dhry2reg", runs[0]);
	assert_int_equal(q->df, 3); /* 4 runs: the busy one left out */
	assert_true(q->learned < 0.03);
	assert_true(q->sigma < q->fallback);
	assert_true(isfinite(noise_dof(q)) && noise_dof(q) == 3 + NOISE_PRIOR_DF);
	struct run *full = mk("ffff0012", "6.1", 1.0, 0.005, 0);
	const struct noise_floor *f = noise_get(&nt, "dhry2reg", full);
	assert_int_equal(f->df, 0);
	assert_true(isinf(noise_dof(f)));
	/* A quick comparison says its verdicts rest on the learned floors. */
	struct run *a = mk("aaaa0013", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0013", "6.1", 1.0, 0.005, 0);
	a->meta.mode = &run_mode_quick;
	b->meta.mode = &run_mode_quick;
	struct compare *c = cmp(a, b, &nt);
	assert_true(c->floors_learned);
	assert_int_equal(c->rows_default, 0);
	assert_non_null(strstr(c->basis, "learned from 4 runs"));
	assert_false(footer_has(c, "kbench calibrate"));
	compare_free(c);
	/* ... and a full-length one does not. */
	c = cmp(full, full, &nt);
	assert_false(c->floors_learned);
	assert_non_null(strstr(c->basis, "not calibrated"));
	compare_free(c);
	noise_free(&nt);
	for (int i = 0; i < 5; i++)
		run_free(runs[i]);
	run_free(full);
	run_free(a);
	run_free(b);
}

static void test_sureness(void **state)
{
	struct run *a = mk("aaaa0014", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0014", "6.8", 0.80, 0.005, 0);
	struct compare *c = cmp(a, b, NULL);
	const struct compare_row *r = row_of(c, "dhry2reg");
	assert_int_equal(r->verdict, VERDICT_SLOWER);
	assert_true(r->sure >= 0.95 && r->sure < 1);
	char v[64];
	compare_verdict_text(v, sizeof v, r);
	assert_non_null(strstr(v, "slower ("));
	assert_non_null(strstr(v, "% sure)"));
	assert_true(strlen(v) <= 21); /* the 80-column verdict column */
	assert_true(footer_has(c, "how sure"));
	double sure = r->sure;
	compare_free(c);
	/* A much larger change is surer; no change has no sureness. */
	struct run *d = mk("dddd0014", "6.8", 0.5, 0.005, 0);
	c = cmp(a, d, NULL);
	assert_true(c->blocks[0].rows[0].sure > sure || c->blocks[0].rows[0].sure > 0.999);
	compare_free(c);
	c = cmp(a, a, NULL);
	assert_true(isnan(c->blocks[0].rows[0].sure));
	assert_false(footer_has(c, "how sure"));
	compare_free(c);
	run_free(a);
	run_free(b);
	run_free(d);
}

static void test_compare_stored_learns_from_the_store(void **state)
{
	char dir[] = "/tmp/kbench-unit-store.XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("KBENCH_HOME", dir, 1);
	char err[256];
	struct run *runs[6];
	for (int i = 0; i < 6; i++) {
		runs[i] = mk("", "6.1", 1 + 0.005 * gauss(), 0.005, 0);
		assert_int_equal(store_save(runs[i], err, sizeof err), 0);
	}
	const struct run *a[] = { runs[0] }, *b[] = { runs[1] };
	struct compare_opts o = { 0 };
	struct compare *c = compare_stored(a, 1, b, 1, &o, err, sizeof err);
	assert_non_null(c);
	/* Learned from the four others: the two compared are left out. */
	assert_true(c->floors_learned);
	assert_int_equal(c->calib_runs, 4);
	assert_non_null(strstr(c->basis, "learned from 4 runs"));
	compare_free(c);
	o.default_noise = true;
	c = compare_stored(a, 1, b, 1, &o, err, sizeof err);
	assert_false(c->floors_learned);
	compare_free(c);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	unsetenv("KBENCH_HOME");
	for (int i = 0; i < 6; i++)
		run_free(runs[i]);
}

/* A thermal check (src/families/thermal.h): 60 samples of 2 s at 1e7 lps (+-0.5%), falling to `fall` of
 * that from sample `at` (none when at < 0); a "temp.cpu" series that rises with it. */
static struct run *mk_thermal(const char *id, double fall, int at)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.name, sizeof r->meta.name, "fan-%s", id);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.1");
	r->meta.mode = &thermal_mode;
	struct run_block *b = run_add_block(r, 2);
	struct test_result *t = run_block_add_test(b, "dhry2reg", "Dhrystone 2 using register variables",
						   "lps", 1, 116700, "system");
	t->status = TEST_DONE;
	for (int s = 0; s < 60; s++) {
		struct sample *sm = test_add_sample(t, 2);
		double f = (1 + 0.005 * gauss()) * (at >= 0 && s >= at ? fall : 1);
		sm->start = 30 + s * 2;
		for (int c = 0; c < 2; c++) {
			sm->count[c] = 0.5e7 * f * 2;
			sm->elapsed[c] = 2;
		}
		series_push(run_series(r, "temp.cpu", "C"), sm->start + 1, at >= 0 && s >= at ? 95 : 60);
	}
	run_rescore(r);
	return r;
}

/* Two thermal checks: the one whose score fell is slower on the last minute and the sustained
 * share, not on the first; the footer says which held its score longer, and when the other fell. */
static void test_thermal_rows(void **state)
{
	struct run *a = mk_thermal("aaaa0010", 0.7, 30), *b = mk_thermal("bbbb0010", 1, -1);
	struct compare *c = cmp(a, b, NULL);
	const struct compare_row *first = row_of(c, "thermal.first"), *last = row_of(c, "thermal.last"),
				 *sus = row_of(c, "thermal.sustained");
	assert_non_null(first);
	assert_non_null(last);
	assert_non_null(sus);
	assert_string_equal(first->label, "first 40 s"); /* a third of a 2-minute check */
	assert_string_equal(sus->unit, "%");
	assert_int_equal(first->verdict, VERDICT_SAME);
	assert_int_equal(last->verdict, VERDICT_FASTER); /* B's last window: 1/0.7 of A's */
	assert_int_equal(sus->verdict, VERDICT_FASTER);
	assert_true(fabs(sus->a.score - 70) < 1.5 && fabs(sus->b.score - 100) < 1.5);
	assert_true(fabs(sus->change - (100 / 70.0 - 1) * 100) < 3);
	/* the share's interval is the windows' spread alone: narrow */
	assert_true(sus->change_pm < 2);
	assert_true(isnan(sus->floor_pct));
	assert_true(footer_has(c, "Thermal: B held its score longer"));
	assert_true(footer_has(c, "A's score first fell at 1:00 (-30%, no thermal evidence)"));
	compare_free(c);
	/* The other way round, A held longer. */
	c = cmp(b, a, NULL);
	assert_int_equal(row_of(c, "thermal.sustained")->verdict, VERDICT_SLOWER);
	assert_true(footer_has(c, "Thermal: A held its score longer"));
	compare_free(c);
	/* Two flat checks: neither. */
	struct run *a2 = mk_thermal("aaaa0011", 1, -1);
	c = cmp(a2, b, NULL);
	assert_int_equal(row_of(c, "thermal.sustained")->verdict, VERDICT_SAME);
	assert_true(footer_has(c, "Thermal: neither held its score longer"));
	compare_free(c);
	/* A thermal check beside an ordinary run: no thermal rows. */
	struct run *plain = mk("cccc0010", "6.1", 1.0, 0.01, 0);
	plain->blocks[0].copies = 2;
	c = cmp(plain, b, NULL);
	for (int i = 0; i < c->blocks[0].nrows; i++)
		assert_null(strstr(c->blocks[0].rows[i].id, "thermal."));
	compare_free(c);
	run_free(a);
	run_free(a2);
	run_free(b);
	run_free(plain);
}

static bool has_diff(const struct compare *c, const char *what, const char *a, const char *b)
{
	for (int i = 0; i < c->ndiffs; i++)
		if (!strcmp(c->diffs[i].what, what) && !strcmp(c->diffs[i].a, a) && !strcmp(c->diffs[i].b, b))
			return true;
	return false;
}

/* Every test of r read its clock this way at this figure. */
static void clock_all(struct run *r, double mhz, const char *method)
{
	summary_all(r, "freq.mean", mhz);
	for (int i = 0; i < r->blocks[0].ntests; i++)
		test_summary_set(&r->blocks[0].tests[i], "freq.method", 0, method);
}

/* Two runs whose meters measured differently: compare names each such meter
 * and says what it means, and judges the scores as it would with one meter:
 * a clock read two ways does not widen the interval the way a clock that
 * moved does. */
static void test_differing_meters_are_said_not_widened(void **state)
{
	struct run *a = mk("aaaa0031", "6.1", 1.0, 0.005, 0), *b = mk("bbbb0031", "6.8", 0.7, 0.005, 0);
	snprintf(a->meta.meters, sizeof a->meta.meters,
		 "freq: cpufreq scaling_cur_freq; temp: coretemp Package id 0; counters: user and kernel");
	snprintf(b->meta.meters, sizeof b->meta.meters,
		 "freq: cpufreq cpuinfo_avg_freq; temp: coretemp Package id 0; counters: user-only (perf_event_paranoid 2)");
	/* One meter, a clock that moved by a fifth: the interval takes it in. */
	clock_all(a, 3000, "cpufreq scaling_cur_freq; workers' CPUs");
	clock_all(b, 2100, "cpufreq scaling_cur_freq; workers' CPUs");
	struct compare *c = cmp(a, b, NULL);
	assert_true(row_of(c, "dhry2reg")->widened);
	compare_free(c);
	/* The same figures from two meters: not widened, judged on the scores. */
	clock_all(b, 2100, "cpufreq cpuinfo_avg_freq (APERF/MPERF); workers' CPUs");
	c = cmp(a, b, NULL);
	struct compare *plain;
	summary_all(a, "freq.mean", NAN);
	summary_all(b, "freq.mean", NAN);
	plain = cmp(a, b, NULL);
	for (int i = 0; i < c->blocks[0].nrows; i++) {
		const struct compare_row *r = &c->blocks[0].rows[i], *p = &plain->blocks[0].rows[i];
		assert_false(r->widened);
		assert_int_equal(r->verdict, p->verdict);
		assert_int_equal(r->verdict, VERDICT_SLOWER);
		assert_null(r->note);
		assert_float_equal(r->change_lo, p->change_lo, 1e-9);
	}
	assert_true(has_diff(c, "freq meter", "cpufreq scaling_cur_freq", "cpufreq cpuinfo_avg_freq"));
	assert_true(has_diff(c, "counters meter", "user and kernel", "user-only (perf_event_paranoid 2)"));
	for (int i = 0; i < c->ndiffs; i++)
		assert_string_not_equal(c->diffs[i].what, "temp meter");
	assert_true(footer_has(c, "Meters measured differently in the two runs (freq, counters;"));
	compare_free(c);
	compare_free(plain);
	/* A run that recorded no meters (an older file): nothing said. */
	a->meta.meters[0] = '\0';
	c = cmp(a, b, NULL);
	assert_false(footer_has(c, "Meters measured differently"));
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* A run of Dhrystone and context1, whose context1 samples ran n_one with the pair on
 * one CPU at rate one and n_two across CPUs at rate two (1% noise each). */
static struct run *mk_pairs(const char *id, int n_one, double one, int n_two, double two)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.1");
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "box");
	struct run_block *b = run_add_block(r, 1);
	run_block_add_test(b, "dhry2reg", "Dhrystone 2", "lps", 1, 116700, "system");
	run_block_add_test(b, "context1", "Pipe-based Context Switching", "lps", 1, 4000, "system");
	struct test_result *d = &b->tests[0], *t = &b->tests[1]; /* after the adds: they grow the array */
	d->status = t->status = TEST_DONE;
	for (int s = 0; s < n_one + n_two; s++) {
		struct sample *sd = test_add_sample(d, 1), *sm = test_add_sample(t, 1);
		sd->count[0] = 3.8e8 * (1 + 0.01 * gauss());
		sd->elapsed[0] = sm->elapsed[0] = 10;
		bool shared = s < n_one;
		sm->count[0] = (shared ? one : two) * 10 * (1 + 0.01 * gauss());
		sm->shared[0] = shared ? 0.99 : 0.01;
	}
	run_rescore(r);
	return r;
}

/* context1's two processes on one CPU read 170 k lps here and across two 19 k: where
 * the scheduler put them is no kernel's difference, so the row never calls it one
 * (issue 37). Before placement was recorded this was "slower" by 89%. */
static void test_placement_is_not_a_kernel_difference(void **state)
{
	(void)state;
	/* every sample of A on one CPU, every one of B on two: nothing to compare */
	struct run *a = mk_pairs("aaaa0101", 10, 170e3, 0, 19e3), *b = mk_pairs("bbbb0101", 0, 170e3, 10, 19e3);
	struct compare *c = cmp(a, b, NULL);
	const struct compare_row *row = &c->blocks[0].rows[1];
	assert_string_equal(row->id, "context1");
	assert_int_equal(row->verdict, VERDICT_NA);
	assert_string_equal(row->note, "placement");
	assert_int_equal(row->a.place_one, 10);
	assert_int_equal(row->b.place_two, 10);
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_NA);
	assert_true(footer_has(c, "context1 placed its pairs of processes differently"));
	assert_int_equal(c->blocks[0].rows[0].verdict, VERDICT_SAME); /* Dhrystone is judged as ever */
	compare_free(c);
	run_free(b);

	/* alike: compared as ever, and a real 40% drop is still found */
	b = mk_pairs("bbbb0102", 10, 170e3 * 0.6, 0, 19e3);
	c = cmp(a, b, NULL);
	row = &c->blocks[0].rows[1];
	assert_int_equal(row->place_only, 0);
	assert_int_equal(row->verdict, VERDICT_SLOWER);
	assert_false(footer_has(c, "placed its pairs"));
	compare_free(c);
	run_free(a);
	run_free(b);

	/* both placements on both sides, in other proportions: the samples of the one
	 * placement they share, so the same kernel reads the same; the index follows */
	a = mk_pairs("aaaa0103", 7, 170e3, 3, 19e3);
	b = mk_pairs("bbbb0103", 3, 170e3, 7, 19e3);
	c = cmp(a, b, NULL);
	row = &c->blocks[0].rows[1];
	assert_int_equal(row->place_only, PLACE_ONE);
	assert_int_equal(row->verdict, VERDICT_SAME);
	assert_float_equal(row->change, 0, 3);
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_SAME);
	assert_float_equal(c->blocks[0].index.change, 0, 3);
	assert_true(footer_has(c, "context1 compared on its samples with each pair on one CPU alone"));
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* Short runs many a side, as a plan makes them: three samples a run seldom hold one
 * placement on every run, and requiring it left context1 and the index n/a whatever the
 * kernels did. Now each side's runs that have the shared placement are compared. */
static struct compare *cmp_many(struct run **a, int na, struct run **b, int nb)
{
	char err[256];
	struct compare_opts o = { 0 };
	struct compare *c = compare_runs((const struct run *const *)a, na, (const struct run *const *)b, nb, &o, err,
					 sizeof err);
	if (!c)
		fail_msg("%s", err);
	return c;
}

/* Six runs of three context1 samples: run all_one_at all on one CPU, the others one or none on
 * one CPU (by the parity of i + odd) and the rest across two CPUs at rate two. */
static void mk_short_runs(struct run **v, const char *tag, int all_one_at, int odd, double two)
{
	char id[16];
	for (int i = 0; i < 6; i++) {
		int one = i == all_one_at ? 3 : (i + odd) % 2;
		snprintf(id, sizeof id, "%s%02d", tag, i);
		v[i] = mk_pairs(id, one, 170e3, 3 - one, two);
	}
}

static void test_placement_in_the_runs_that_have_it(void **state)
{
	(void)state;
	struct run *a[6], *b[6];
	char id[16];
	/* most runs with some samples on two CPUs, one a side all on one */
	mk_short_runs(a, "aaaa02", 0, 0, 19e3);
	mk_short_runs(b, "bbbb02", 5, 1, 19e3);
	struct compare *c = cmp_many(a, 6, b, 6);
	const struct compare_row *row = &c->blocks[0].rows[1];
	assert_string_equal(row->id, "context1");
	assert_int_equal(row->place_only, PLACE_TWO);
	assert_int_equal(row->verdict, VERDICT_SAME);
	assert_int_equal(row->a.nruns, 5);
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_SAME);
	assert_int_equal(c->blocks[0].index.a.nruns, 5);
	assert_true(footer_has(c, "in the runs that have them (A: 5 of 6 runs, B: 5 of 6)"));
	compare_free(c);
	/* B's context1 40% slower across CPUs: found, and in the index */
	for (int i = 0; i < 6; i++)
		run_free(b[i]);
	mk_short_runs(b, "bbbb03", 5, 1, 19e3 * 0.6);
	c = cmp_many(a, 6, b, 6);
	assert_int_equal(c->blocks[0].rows[1].verdict, VERDICT_SLOWER);
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_SLOWER);
	compare_free(c);
	/* A's runs all on one CPU, one of B's: fewer than half a side's runs, n/a as ever */
	for (int i = 0; i < 6; i++) {
		run_free(a[i]);
		run_free(b[i]);
		snprintf(id, sizeof id, "aaaa04%02d", i);
		a[i] = mk_pairs(id, 3, 170e3, 0, 19e3);
		snprintf(id, sizeof id, "bbbb04%02d", i);
		b[i] = i == 0 ? mk_pairs(id, 3, 170e3, 0, 19e3) : mk_pairs(id, 0, 170e3, 3, 19e3);
	}
	c = cmp_many(a, 6, b, 6);
	assert_int_equal(c->blocks[0].rows[1].verdict, VERDICT_NA);
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_NA);
	compare_free(c);
	for (int i = 0; i < 6; i++) {
		run_free(a[i]);
		run_free(b[i]);
	}
}

/* A run of Dhrystone and ten context1 samples whose pair spent a share of its time on one
 * CPU from t_lo to t_hi (at 170 k lps) and the rest across (at two), as unpinned context1
 * does on a 2-CPU VM: every sample "mixed", its rate 10-60% above its rate across. timed:
 * whether the samples know their share of time (an older run does not). */
static struct run *mk_mixed(const char *id, double t_lo, double t_hi, double two, bool timed)
{
	struct run *r = mk_pairs(id, 0, 170e3, 10, two);
	struct test_result *t = &r->blocks[0].tests[1];
	for (int s = 0; s < t->nsamples; s++) {
		struct sample *sm = &t->samples[s];
		double share = t_lo + (t_hi - t_lo) * s / (t->nsamples - 1), one = 170e3 * share * 10;
		double across = sm->count[0] * (1 - share); /* its noisy rate across, for the time across */
		sm->count[0] = one + across;
		sm->shared[0] = one / sm->count[0];
		sm->shared_time[0] = timed ? share : NAN;
	}
	run_rescore(r);
	return r;
}

/* Every sample mixed, A's pairs on one CPU 2-4% of their time, B's 6-9%: B reads 30% higher
 * for it. Compared by each sample's time across CPUs, the same kernel reads the same and a
 * 40% drop across is found; without the shares of time, n/a as before. */
static void test_placement_by_time(void **state)
{
	(void)state;
	struct run *a = mk_mixed("aaaa0501", 0.02, 0.04, 19e3, true), *b = mk_mixed("bbbb0501", 0.06, 0.09, 19e3, true);
	const struct test_result *ta = &a->blocks[0].tests[1], *tb = &b->blocks[0].tests[1];
	assert_int_equal(sample_placement(&ta->samples[0]), PLACE_MIXED);
	assert_true(tb->score > ta->score * 1.2); /* the raw rates differ by the placement */
	struct compare *c = cmp(a, b, NULL);
	const struct compare_row *row = &c->blocks[0].rows[1];
	assert_string_equal(row->id, "context1");
	assert_int_equal(row->place_only, PLACE_TWO);
	assert_true(row->place_by_time);
	assert_int_equal(row->verdict, VERDICT_SAME);
	assert_float_equal(row->change, 0, 3);
	assert_float_equal(row->a.score, 19e3, 19e3 * 0.03); /* the rate across, not the mixture */
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_SAME);
	assert_true(footer_has(c, "context1 compared on its samples by each pair's time on two CPUs"));
	compare_free(c);
	run_free(b);

	b = mk_mixed("bbbb0502", 0.02, 0.04, 19e3 * 0.6, true);
	c = cmp(a, b, NULL);
	assert_int_equal(c->blocks[0].rows[1].verdict, VERDICT_SLOWER);
	assert_float_equal(c->blocks[0].rows[1].change, -40, 3);
	assert_int_equal(c->blocks[0].index.verdict, VERDICT_SLOWER);
	compare_free(c);
	run_free(b);

	/* a side without the shares of time (an older run): mixed is no placement, n/a */
	b = mk_mixed("bbbb0503", 0.06, 0.09, 19e3, false);
	c = cmp(a, b, NULL);
	assert_int_equal(c->blocks[0].rows[1].verdict, VERDICT_NA);
	assert_false(c->blocks[0].rows[1].place_by_time);
	compare_free(c);
	run_free(a);
	run_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_kernel_no_change), cmocka_unit_test(test_slowdown_detected),
		cmocka_unit_test(test_thermal_rows),
		cmocka_unit_test(test_learned_floor),	      cmocka_unit_test(test_imported_is_na),
		cmocka_unit_test(test_groups_and_missing),    cmocka_unit_test(test_drift_flag),
		cmocka_unit_test(test_render),		      cmocka_unit_test(test_storage_in_strip),
		cmocka_unit_test(test_busy_run_is_withheld),
		cmocka_unit_test(test_pace_is_said),
		cmocka_unit_test(test_pace_slope_learned),
		cmocka_unit_test(test_drift_widens),
		cmocka_unit_test(test_differing_meters_are_said_not_widened),
		cmocka_unit_test(test_settings_have_their_floors), cmocka_unit_test(test_learned_per_setting),
		cmocka_unit_test(test_sureness),	      cmocka_unit_test(test_compare_stored_learns_from_the_store),
		cmocka_unit_test(test_placement_is_not_a_kernel_difference),
		cmocka_unit_test(test_placement_in_the_runs_that_have_it),
		cmocka_unit_test(test_placement_by_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
