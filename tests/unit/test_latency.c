/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the latency histograms (bucket edges, percentiles with known answers), collecting phases into points, the run file's histograms, and the verdict rule on synthetic A/A and shifted latencies. */
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

#include "compare.h"
#include "gauss.h"
#include "latency.h"
#include "lathist.h"
#include "noise.h"
#include "run.h"
#include "runfile.h"
#include "settings.h"
#include "tests.h"
#include "workload.h"

/* A family's settings as the runner fills them for a run with params (not quick). */
static const void *filled(const struct settings *f, const char *params)
{
	static _Alignas(max_align_t) char s[SETTINGS_MAX_SIZE];
	char err[300];
	assert_int_equal(test_settings_fill(f, params, false, s, err, sizeof err), 0);
	return s;
}
/* Every bucket holds exactly [lo, hi), the buckets tile the line, and a
 * bucket is at most 1/8 of its value wide. */
static void test_bucket_edges(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 8; v++)
		assert_int_equal(lathist_bucket(v), (int)v);
	assert_int_equal(lathist_bucket(8), 8);
	assert_int_equal(lathist_bucket(15), 15);
	assert_int_equal(lathist_bucket(16), 16);
	assert_int_equal(lathist_bucket(17), 16); /* [16, 18) */
	assert_int_equal(lathist_bucket(18), 17);
	for (int b = 0; b < LATHIST_BUCKETS - 1; b++) {
		assert_true(lathist_lo(b) < lathist_hi(b));
		assert_int_equal(lathist_hi(b), lathist_lo(b + 1));
		assert_int_equal(lathist_bucket(lathist_lo(b)), b);
		assert_int_equal(lathist_bucket(lathist_hi(b) - 1), b);
		if (lathist_lo(b) >= 8)
			assert_true(lathist_hi(b) - lathist_lo(b) <= lathist_lo(b) / 8);
	}
	assert_int_equal(lathist_bucket(UINT64_MAX), LATHIST_BUCKETS - 1);
	assert_int_equal(lathist_bucket(1ULL << 40), LATHIST_BUCKETS - 1);
	assert_true(lathist_hi(LATHIST_BUCKETS - 1) == UINT64_MAX);
}

static void test_percentiles_known(void **state)
{
	(void)state;
	struct lat_hist h;
	lathist_init(&h);
	/* empty: no answer */
	assert_true(isnan(lathist_quantile(&h, 0.5)));
	assert_true(isnan(lathist_mean(&h)));
	assert_true(isnan(lathist_met_pct(&h)));
	/* one value: every percentile is it (clamped to the exact min and max) */
	lathist_add(&h, 12345);
	assert_float_equal(lathist_quantile(&h, 0.5), 12345, 0);
	assert_float_equal(lathist_quantile(&h, 0.999), 12345, 0);
	assert_float_equal(lathist_quantile(&h, 1), 12345, 0);
	assert_float_equal(lathist_mean(&h), 12345, 0);
	assert_int_equal(h.last, 12345);
	/* 1..100 ns once each: rank 50 is 50 in [48, 52), read as 51; rank 99
	 * is 99 in [96, 104), read as 103 and clamped to the max 100; small
	 * values have buckets of their own */
	lathist_init(&h);
	for (uint64_t v = 1; v <= 100; v++)
		lathist_add(&h, v);
	assert_float_equal(lathist_quantile(&h, 0.50), 51, 0);
	assert_float_equal(lathist_quantile(&h, 0.99), 100, 0);
	assert_float_equal(lathist_quantile(&h, 0.05), 5, 0);
	/* ranks are exact: 0.07 * 100 is just above 7 in double, 0.05 * 100
	 * just above 5 in x87's extended precision (i686) */
	assert_float_equal(lathist_quantile(&h, 0.07), 7, 0);
	assert_float_equal(lathist_quantile(&h, 0.14), 14, 0);
	assert_float_equal(lathist_quantile(&h, 1), 100, 0);
	assert_float_equal(lathist_mean(&h), 50.5, 1e-12);
	assert_int_equal(h.min, 1);
	/* at a bucket's edges: 960 and 1023 share [960, 1024), 1024 starts the next */
	lathist_init(&h);
	lathist_add(&h, 960), lathist_add(&h, 1023), lathist_add(&h, 1024), lathist_add(&h, 5000);
	assert_float_equal(lathist_quantile(&h, 0.25), 1023, 0);
	assert_float_equal(lathist_quantile(&h, 0.50), 1023, 0);
	assert_float_equal(lathist_quantile(&h, 0.75), 1024 + 128 - 1, 0); /* [1024, 1152) */
	/* all in the last bucket: the max */
	lathist_init(&h);
	lathist_add(&h, 1ULL << 40), lathist_add(&h, 1ULL << 40), lathist_add(&h, 3ULL << 40);
	assert_int_equal(h.count[LATHIST_BUCKETS - 1], 3);
	assert_float_equal(lathist_quantile(&h, 0.5), (double)(3ULL << 40), 0);
	assert_float_equal(lathist_quantile(&h, 0.01), (double)(3ULL << 40), 0);
	/* a percentile is never under the true value, and over it by at most 1/8 */
	lathist_init(&h);
	uint64_t vals[1000];
	for (int i = 0; i < 1000; i++) {
		vals[i] = (uint64_t)(20000 * exp(gauss()));
		lathist_add(&h, vals[i]);
	}
	for (int i = 1; i < 1000; i++)
		for (int j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
			uint64_t t = vals[j];
			vals[j] = vals[j - 1], vals[j - 1] = t;
		}
	const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	for (int k = 0; k < 4; k++) {
		double truth = (double)vals[(int)ceil(qs[k] * 1000) - 1], got = lathist_quantile(&h, qs[k]);
		assert_true(got >= truth);
		assert_true(got <= truth * 1.125);
	}
}

static void test_merge_and_met(void **state)
{
	(void)state;
	struct lat_hist a, b;
	lathist_init(&a), lathist_init(&b);
	lathist_add(&a, 100), lathist_add(&a, 300);
	lathist_add(&b, 50);
	a.met = 3, a.missed = 1, b.met = 1;
	lathist_merge(&a, &b);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.min, 50);
	assert_int_equal(a.max, 300);
	assert_float_equal(lathist_mean(&a), 150, 1e-12);
	assert_float_equal(lathist_met_pct(&a), 80, 1e-12);
	/* merging an empty one changes nothing */
	lathist_init(&b);
	lathist_merge(&a, &b);
	assert_int_equal(a.min, 50);
	assert_int_equal(a.n, 3);
}

/* Two copies' phases merge into one sample's histogram and its points; a
 * phase no copy began has no points; a refused SCHED_FIFO is said. */
static void test_collect(void **state)
{
	(void)state;
	struct worker_slot *slots = calloc(2, sizeof *slots);
	for (int c = 0; c < 2; c++) {
		for (int p = 0; p < TL_PHASES; p++)
			lathist_init(&slots[c].hists[p]);
		atomic_store(&slots[c].nhists, 2);
		for (int i = 0; i < 100; i++)
			lathist_add(&slots[c].hists[TL_OTHER], c ? 3000 : 1000);
		lathist_add(&slots[c].hists[TL_OTHER_BURN], 7);
	}
	slots[0].points[0] = (struct wl_point){ .series = LAT_FIFO_DENIED, .v = 1 };
	atomic_store(&slots[0].npoints, 1);
	struct run *r = run_new();
	struct test_result *t = run_block_add_test(run_add_block(r, 2), "timerlat", "Timer", "us", 0, 0,
						   "latency");
	timerlat_collect(t, slots, 2, filled(&lat_settings, NULL));
	assert_int_equal(t->kind, RESULT_POINTS);
	assert_int_equal(t->nhists, 2);
	assert_int_equal(test_find_hist(t, "other")->h[0].n, 200);
	const struct point *p = test_find_point(t, "other p50");
	assert_non_null(p);
	assert_true(p->lower_better && p->summary);
	assert_float_equal(p->v[0], 1.023, 1e-9); /* [960, 1024) us: 1023 ns */
	assert_float_equal(test_find_point(t, "other max")->v[0], 3.0, 1e-9);
	assert_float_equal(test_find_point(t, "other mean")->v[0], 2.0, 1e-9);
	assert_float_equal(test_find_point(t, "other+burn p99.9")->v[0], 0.007, 1e-12);
	assert_null(test_find_point(t, "fifo p50"));
	assert_null(test_find_point(t, "other met")); /* no deadlines in a timer test */
	assert_non_null(strstr(test_summary_get(t, "note")->text, "SCHED_FIFO not permitted"));
	/* a second sample appends */
	timerlat_collect(t, slots, 2, filled(&lat_settings, NULL));
	assert_int_equal(test_find_point(t, "other p99")->n, 2);
	assert_int_equal(test_find_hist(t, "other")->n, 2);
	/* deadlines: the met share is a point, higher is better */
	struct test_result *ia = run_block_add_test(&r->blocks[0], "interactive", "I", "us", 0, 0, "latency");
	memset(slots, 0, 2 * sizeof *slots);
	/* the default phases, task by task: audio, audio+burn, audio+io, audio+burn4, video, video+burn, ... */
	int vb = 5;
	lathist_init(&slots[0].hists[vb]);
	atomic_store(&slots[0].nhists, 12);
	lathist_add(&slots[0].hists[vb], 5000);
	slots[0].hists[vb].met = 3;
	slots[0].hists[vb].missed = 1;
	interactive_collect(ia, slots, 1, filled(&lat_settings, NULL));
	assert_string_equal(test_summary_get(ia, "settings")->text, "tasks audio,video,desk; loads alone,burn,io,burn4");
	const struct point *met = test_find_point(ia, "video+burn met");
	assert_non_null(met);
	assert_false(met->lower_better);
	assert_float_equal(met->v[0], 75, 1e-9);
	assert_null(test_find_point(ia, "audio p50"));
	run_free(r);
	free(slots);
}

/* The settings: defaults, each knob, bad values refused with a sentence,
 * and interactive's phases in the order (and histogram index) they run. */
static void test_params(void **state)
{
	(void)state;
	struct lat_params p;
	char err[256];
	assert_int_equal(test_settings_fill(&lat_settings, NULL, false, &p, err, sizeof err), 0);
	assert_int_equal(p.period_us, 1000);
	assert_int_equal(p.fifo, LAT_FIFO_ON);
	assert_int_equal(p.messages, 1);
	assert_int_equal(p.workers, 0);
	assert_int_equal(p.work_us, 20);
	assert_int_equal(p.tasks, 7u);
	assert_int_equal(p.loads, LAT_DEFAULT_LOADS);
	assert_int_equal(test_settings_fill(&lat_settings,
					    "sizes=512:1M period-us=250 fifo=only messages=3 workers=5 "
					    "work-us=0 "
					    "ia-tasks=desk,audio ia-loads=mem,alone jobs=4",
					    false, &p, err, sizeof err),
			 0);
	assert_int_equal(p.period_us, 250);
	assert_int_equal(p.fifo, LAT_FIFO_ONLY);
	assert_int_equal(p.messages, 3);
	assert_int_equal(p.workers, 5);
	assert_int_equal(p.work_us, 0);
	assert_int_equal(p.tasks, (1u << IA_AUDIO) | (1u << IA_DESKTOP));
	assert_int_equal(p.loads, (1u << IA_ALONE) | (1u << IA_MEM));
	int task[WL_MAX_HISTS], load[WL_MAX_HISTS];
	assert_int_equal(ia_phase_list(&p, task, load, WL_MAX_HISTS), 4);
	assert_int_equal(task[0], IA_AUDIO);
	assert_int_equal(load[0], IA_ALONE);
	assert_int_equal(task[1], IA_AUDIO);
	assert_int_equal(load[1], IA_MEM);
	assert_int_equal(task[3], IA_DESKTOP);
	assert_int_equal(load[3], IA_MEM);
	const char *names[WL_MAX_HISTS];
	assert_int_equal(latency_phases(test_find("interactive"), "ia-loads=alone,mem ia-tasks=audio,desk", names,
					WL_MAX_HISTS), 4);
	assert_string_equal(names[1], "audio+mem");
	assert_string_equal(names[3], "desk+mem");
	assert_int_equal(latency_phases(test_find("interactive"), NULL, names, WL_MAX_HISTS), 12);
	assert_string_equal(names[11], "desk+burn4");
	assert_int_equal(
		test_settings_fill(&lat_settings, "ia-loads=all ia-tasks=all", false, &p, err, sizeof err),
		0);
	assert_int_equal(ia_phase_list(&p, task, load, WL_MAX_HISTS), IA_TASKS * IA_LOADS);
	assert_true(IA_TASKS * IA_LOADS <= WL_MAX_HISTS);
	/* a stored run's bad settings say what the command line says of the same value */
	static const struct {
		const char *params, *err;
	} bad[] = {
		{ "period-us=49", "--period-us wants microseconds from 50 to 100000, not '49'" },
		{ "period-us=1e3", "--period-us wants microseconds from 50 to 100000, not '1e3'" },
		{ "fifo=yes", "--fifo: 'yes' is not on, off or only" },
		{ "messages=17", "--messages wants a number of message threads from 1 to 16, not '17'" },
		{ "workers=0", "--workers wants a number of workers from 1 to 64, not '0'" },
		{ "ia-loads=burn,cpu", "--ia-loads: 'cpu' is not one of alone, burn, io, read, mem, burn4 or all" },
		{ "ia-loads=io,io", "--ia-loads: 'io' is named twice" },
		{ "ia-loads=io,", "--ia-loads: a list does not end with ','" },
		{ "ia-tasks=", "--ia-tasks: an empty list" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		assert_int_equal(
			test_settings_fill(&lat_settings, bad[i].params, false, &p, err, sizeof err), -1);
		assert_string_equal(err, bad[i].err);
	}
}

/* The percentile table fits 80 columns whatever the numbers: each is at
 * most 4 characters, and the longest phase name sets the first column. */
static void test_table_width(void **state)
{
	(void)state;
	char buf[16];
	static const double v[] = { 0, 1, 9999, 9999.4, 9999.5, 10000, 125318, 999499, 999500, 1.2e6,
				    9.94e6, 9.95e6, 123e6, 999.4e6, 5e9, 1e15 };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		latency_fmt4(buf, sizeof buf, v[i]);
		assert_true(strlen(buf) <= 4);
	}
	latency_fmt4(buf, sizeof buf, 13419);
	assert_string_equal(buf, "13k");
	latency_fmt4(buf, sizeof buf, 125318);
	assert_string_equal(buf, "125k");
	latency_fmt4(buf, sizeof buf, 1.2e6);
	assert_string_equal(buf, "1.2M");
	latency_fmt4(buf, sizeof buf, 2375);
	assert_string_equal(buf, "2375");
	/* the widest table: every phase of interactive, huge spreads, shares with wide intervals */
	struct run *r = run_new();
	struct test_result *t = run_block_add_test(run_add_block(r, 2), "interactive",
						   "Interactive tasks under load", "us", 0, 0, "latency");
	t->status = TEST_DONE;
	const char *names[WL_MAX_HISTS];
	int n = latency_phases(test_find("interactive"), "ia-loads=all", names, WL_MAX_HISTS);
	assert_int_equal(n, 18);
	for (int s = 0; s < 3; s++)
		for (int i = 0; i < n; i++) {
			struct lat_hist h;
			lathist_init(&h);
			lathist_add(&h, s ? 9999000 : 1000); /* 1 us and 9999 us: intervals in the thousands */
			lathist_add(&h, s == 2 ? 5e9 : 5e6); /* 5 s: the cyclictest line's columns hold 10 s */
			h.met = s ? 1 : 99, h.missed = s ? 99 : 1;
			char pn[48];
			hist_set_push(test_hist_set(t, names[i]), &h);
			static const char *const sfx[] = { "p50", "p99", "p99.9", "max", "mean" };
			for (int k = 0; k < 5; k++) {
				snprintf(pn, sizeof pn, "%s %s", names[i], sfx[k]);
				point_push(test_point(t, pn, 0, "", "us", true, true), lathist_quantile(&h, k == 4 ? 0.5 : 0.99) / 1e3 * (s + 1) * 7.77);
			}
			snprintf(pn, sizeof pn, "%s met", names[i]);
			point_push(test_point(t, pn, 0, "", "%", false, true), lathist_met_pct(&h));
		}
	test_summary_set(t, "settings", 0, "tasks audio,video,desk; loads alone,burn,io,read,mem,burn4");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	latency_print_tables(f, r);
	fclose(f);
	int lines = 0;
	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL, lines++) {
		nl = strchr(line, '\n');
		size_t w = nl ? (size_t)(nl - line) : strlen(line);
		if (w > 80)
			fail_msg("%zu columns: %.*s", w, (int)w, line);
	}
	assert_true(lines > 2 * n); /* the cyclictest lines and the table */
	assert_non_null(strstr(text, "  desk+burn4 "));
	free(text);
	run_free(r);
}

/* The run file keeps each sample's histogram; one whose counts disagree
 * with n is refused with a sentence; a file without "hists" reads. */
static void test_runfile_hists(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "timerlat", "Timer", "us", 0, 0,
						   "latency");
	t->status = TEST_DONE;
	struct lat_hist h;
	lathist_init(&h);
	for (uint64_t v = 1; v < 100000; v = v * 3 + 1)
		lathist_add(&h, v);
	h.met = 4, h.missed = 2;
	hist_set_push(test_hist_set(t, "other"), &h);
	point_push(test_point(t, "other p50", 50, "%", "us", true, true), 1.5);
	char err[256];
	char *text = runfile_dump(r, err, sizeof err);
	assert_non_null(text);
	struct run *back = runfile_parse(text, strlen(text), "test", err, sizeof err);
	if (!back)
		fail_msg("%s", err);
	const struct hist_set *hs = test_find_hist(&back->blocks[0].tests[0], "other");
	assert_non_null(hs);
	assert_int_equal(hs->n, 1);
	assert_memory_equal(&hs->h[0], &h, sizeof h);
	run_free(back);
	/* counts that do not add up to n */
	char *bad = strdup(text), *at = strstr(bad, "\"n\": ");
	assert_non_null(at);
	at[5] = at[5] == '9' ? '8' : '9';
	back = runfile_parse(bad, strlen(bad), "test", err, sizeof err);
	assert_null(back);
	assert_non_null(strstr(err, "hists[0].samples[0]"));
	free(bad);
	/* without hists: the points still read (what an old 1.2 file has) */
	char *old = strdup(text);
	char *hk = strstr(old, "\"hists\"");
	assert_non_null(hk);
	memcpy(hk, "\"xists\"", 7);
	back = runfile_parse(old, strlen(old), "test", err, sizeof err);
	if (!back)
		fail_msg("%s", err);
	assert_int_equal(back->blocks[0].tests[0].nhists, 0);
	assert_non_null(test_find_point(&back->blocks[0].tests[0], "other p50"));
	run_free(back);
	free(old);
	free(text);
	run_free(r);
}

/* A timerlat run: per point a value per sample, each sample's noise as
 * such points move (a median little, a maximum much), a run offset. */
static struct run *mk(const char *id, double factor, double run_sd)
{
	static const char *const sfx[] = { "p50", "p99", "p99.9", "max", "mean" };
	static const double base[] = { 60, 400, 1500, 4000, 90 };
	static const double sd[] = { 0.05, 0.20, 0.40, 0.80, 0.10 };
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.1");
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "box");
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "timerlat", "Timer", "us", 0, 0,
						   "latency");
	t->status = TEST_DONE;
	for (int ph = 0; ph < 2; ph++)
		for (int i = 0; i < 5; i++) {
			char name[32];
			snprintf(name, sizeof name, "%s %s", timerlat_phase_names[ph], sfx[i]);
			struct point *p = test_point(t, name, 0, "%", "us", true, true);
			double off = exp(run_sd * (i + 1) * gauss());
			for (int s = 0; s < 3; s++)
				point_push(p, base[i] * factor * off * exp(sd[i] * gauss()));
		}
	return r;
}

static struct compare *cmp2(struct run *a, struct run *b)
{
	char err[200];
	const struct run *ra[1] = { a }, *rb[1] = { b };
	struct compare_opts o = { 0 };
	struct compare *c = compare_runs(ra, 1, rb, 1, &o, err, sizeof err);
	if (!c)
		fail_msg("%s", err);
	return c;
}

/* The floors grow from the median to the maximum. */
static void test_point_floors(void **state)
{
	(void)state;
	const struct test_def *d = test_find("timerlat");
	assert_non_null(d);
	double p50 = noise_default("timerlat:other p50"), p99 = noise_default("timerlat:other p99");
	double p999 = noise_default("timerlat:other+burn p99.9"), mx = noise_default("timerlat:fifo max");
	assert_true(p50 < p99 && p99 < p999 && p999 < mx);
	assert_float_equal(p50, d->noise.full, 0);
	assert_float_equal(noise_default("wakelat:wake rps"), 0.05, 0);
	assert_float_equal(noise_default("interactive:video met"), 0.05, 0);
}

/* A/A: at least 95% of rows "no significant change" over many pairs; a
 * latency 1.5x higher is slower where the floor is below that (median,
 * p99, mean), and within the noise at the maximum. */
static void test_verdicts(void **state)
{
	(void)state;
	int same = 0, rows = 0;
	for (int k = 0; k < 60; k++) {
		struct run *a = mk("a", 1, 0.03), *b = mk("b", 1, 0.03);
		struct compare *c = cmp2(a, b);
		const struct compare_block *cb = &c->blocks[0];
		assert_int_equal(cb->nrows, 10);
		for (int i = 0; i < cb->nrows; i++) {
			rows++;
			same += cb->rows[i].verdict == VERDICT_SAME;
		}
		compare_free(c);
		run_free(a);
		run_free(b);
	}
	if (same < rows * 95 / 100)
		fail_msg("A/A: %d of %d rows no significant change", same, rows);
	int slower_p50 = 0, slower_max = 0;
	for (int k = 0; k < 20; k++) {
		struct run *a = mk("a", 1, 0.01), *b = mk("b", 1.5, 0.01);
		struct compare *c = cmp2(a, b);
		for (int i = 0; i < c->blocks[0].nrows; i++) {
			const struct compare_row *row = &c->blocks[0].rows[i];
			assert_true(row->lower_better);
			if (strstr(row->id, " p50"))
				slower_p50 += row->verdict == VERDICT_SLOWER;
			if (strstr(row->id, " max"))
				slower_max += row->verdict == VERDICT_SLOWER;
			assert_int_not_equal(row->verdict, VERDICT_FASTER);
		}
		compare_free(c);
		c = cmp2(b, a);
		for (int i = 0; i < c->blocks[0].nrows; i++)
			if (strstr(c->blocks[0].rows[i].id, " p50"))
				assert_int_equal(c->blocks[0].rows[i].verdict, VERDICT_FASTER);
		compare_free(c);
		run_free(a);
		run_free(b);
	}
	assert_int_equal(slower_p50, 40);
	if (slower_max > 10)
		fail_msg("a 1.5x maximum is beyond its floor in %d of 40", slower_max);
}

/* A share of deadlines met that is 0 in every sample (video beside 4
 * burners per CPU) is a point both runs have: n/a with why, its 0 shown,
 * not "only in B". */
static void test_zero_point(void **state)
{
	(void)state;
	struct run *a = mk("a", 1, 0.01), *b = mk("b", 1, 0.01);
	for (int side = 0; side < 2; side++) {
		struct test_result *t = &(side ? b : a)->blocks[0].tests[0];
		struct point *p = test_point(t, "video+burn4 met", 0, "%", "%", false, true);
		for (int s = 0; s < 3; s++)
			point_push(p, side ? 0.5 : 0);
	}
	struct compare *c = cmp2(a, b);
	const struct compare_row *row = NULL;
	for (int i = 0; i < c->blocks[0].nrows; i++)
		if (strstr(c->blocks[0].rows[i].id, "burn4 met"))
			row = &c->blocks[0].rows[i];
	assert_non_null(row);
	assert_int_equal(row->verdict, VERDICT_NA);
	assert_string_equal(row->note, "0 in A");
	compare_free(c);
	c = cmp2(a, a);
	for (int i = 0; i < c->blocks[0].nrows; i++)
		if (strstr(c->blocks[0].rows[i].id, "burn4 met"))
			assert_string_equal(c->blocks[0].rows[i].note, "0 in both");
	compare_free(c);
	run_free(a);
	run_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_edges),  cmocka_unit_test(test_percentiles_known),
		cmocka_unit_test(test_merge_and_met), cmocka_unit_test(test_collect),
		cmocka_unit_test(test_runfile_hists), cmocka_unit_test(test_point_floors),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_zero_point),      cmocka_unit_test(test_params),
		cmocka_unit_test(test_table_width),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
