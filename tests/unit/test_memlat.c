/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of memory latency's result: sizes, plateau picking and steps on synthetic curves, collecting the copies' points, and point verdicts. */
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
#include "memlat.h"
#include "noise.h"
#include "run.h"
#include "settings.h"
#include "tests.h"
#include "score.h"
#include "workload.h"

/* A family's settings as the runner fills them for a run with params (not quick). */
static const void *filled(const struct settings *f, const char *params)
{
	static _Alignas(max_align_t) char s[SETTINGS_MAX_SIZE];
	char err[300];
	assert_int_equal(test_settings_fill(f, params, false, s, err, sizeof err), 0);
	return s;
}
static const struct memlat_caches CACHES = { 3, { 1, 2, 3 }, { 32768, 524288, 33554432 } };

/* The report's notes under a memlat result, as text in buf. */
static void notes_of(const struct test_result *t, char *buf, size_t size)
{
	memset(buf, 0, size);
	FILE *f = fmemopen(buf, size - 1, "w");
	assert_non_null(f);
	memlat_print_notes(f, t);
	fclose(f);
}

static void test_parse_sizes(void **state)
{
	struct memlat_sizes s = { .per_doubling = 8 };
	char err[200];
	assert_int_equal(memlat_parse_sizes("512:128M:8", &s, err, sizeof err), 0);
	assert_int_equal(s.min, 512);
	assert_int_equal(s.max, 128ULL << 20);
	assert_int_equal(s.per_doubling, 8);
	assert_int_equal(memlat_parse_sizes("4KiB:1m", &s, err, sizeof err), 0);
	assert_int_equal(s.min, 4096);
	assert_int_equal(s.max, 1 << 20);
	assert_int_equal(s.per_doubling, 8); /* kept */
	assert_int_equal(memlat_parse_sizes("1k:1G:4", &s, err, sizeof err), 0);
	assert_int_equal(s.per_doubling, 4);
	const char *bad[] = { "0:1M", "1M:512K", "1M:2M:0", "abc", "512:128M:99", "512",
			      "512:1M:8x", ":1M", "512:", "-1:4K", "100:4K", "512:128G", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		struct memlat_sizes keep = s;
		if (memlat_parse_sizes(bad[i], &s, err, sizeof err) != -1)
			fail_msg("'%s' accepted", bad[i]);
		assert_true(err[0] != '\0' && !strchr(err, '\n'));
		assert_memory_equal(&keep, &s, sizeof s); /* untouched on error */
	}
	/* too many points for the results area */
	assert_int_equal(memlat_parse_sizes("512:64G:32", &s, err, sizeof err), -1);
#if SIZE_MAX > 0xffffffffu
	assert_non_null(strstr(err, "points"));
	assert_int_equal(memlat_parse_sizes("512:2G:1", &s, err, sizeof err), 0);
#else
	/* a 32-bit build: 64G is past its address space, and so is 2G (its size_t
	 * would have wrapped at 4G) */
	assert_non_null(strstr(err, "1G (a 32-bit build's address space)"));
	assert_int_equal(memlat_parse_sizes("512:2G:1", &s, err, sizeof err), -1);
	assert_int_equal(memlat_parse_sizes("512:1G:1", &s, err, sizeof err), 0);
#endif
}

/* The sizes' defaults from known caches (not this machine's), then the words. */
static int fill_with(const struct memlat_caches *c, const char *params, struct memlat_sizes *s, char *err,
		     size_t errlen)
{
	memset(s, 0, sizeof *s);
	memlat_default_sizes(c, s);
	return settings_parse(&memlat_settings, params, s, err, errlen);
}

static void test_params_and_defaults(void **state)
{
	struct memlat_sizes s;
	char err[200];
	assert_int_equal(fill_with(&CACHES, NULL, &s, err, sizeof err), 0);
	assert_int_equal(s.min, 512);
	assert_int_equal(s.max, 128ULL << 20); /* 4 x 32 MiB */
	assert_int_equal(s.per_doubling, 8);
	assert_false(s.huge);
	assert_int_equal(fill_with(&CACHES, "other=1 sizes=1K:8K:2 huge", &s, err, sizeof err), 0);
	assert_int_equal(s.min, 1024);
	assert_int_equal(s.max, 8192);
	assert_true(s.huge);
	assert_int_equal(fill_with(&CACHES, "sizes=8K:1K", &s, err, sizeof err), -1);
	/* no caches known: at least 8 MiB */
	struct memlat_caches none = { 0 };
	memlat_default_sizes(&none, &s);
	assert_int_equal(s.max, 32ULL << 20);
	struct memlat_caches small = { 1, { 1 }, { 16384 } };
	memlat_default_sizes(&small, &s);
	assert_int_equal(s.max, 8ULL << 20);
}

static void test_size_list(void **state)
{
	struct memlat_sizes s = { 512, 128ULL << 20, 8, false };
	uint64_t v[MEMLAT_MAX_SIZES];
	int n = memlat_size_list(&s, v, MEMLAT_MAX_SIZES);
	/* 18 doublings at 8 each, less a size or two that rounds onto its
	 * neighbour in whole lines below 1 KiB */
	assert_in_range(n, 18 * 8 - 2, 18 * 8 + 1);
	assert_int_equal(v[0], 512);
	assert_int_equal(v[n - 1], 128ULL << 20);
	bool l1 = false;
	for (int i = 0; i < n; i++)
		l1 |= v[i] == 32768; /* the L1 size is a point */
	assert_true(l1);
	for (int i = 1; i < n; i++) {
		assert_true(v[i] > v[i - 1]);
		assert_int_equal(v[i] % MEMLAT_LINE, 0);
	}
	/* a max between two points is the last point */
	struct memlat_sizes t = { 512, 3000, 1, false };
	n = memlat_size_list(&t, v, MEMLAT_MAX_SIZES);
	assert_int_equal(n, 4);
	assert_int_equal(v[3], 2944);
	/* the array's size is respected */
	assert_int_equal(memlat_size_list(&s, v, 10), 10);
}

static void test_plateau_sizes(void **state)
{
	const char *names[5];
	double at[5];
	int n = memlat_plateau_sizes(&CACHES, 256.0 * (1 << 20), names, at);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "L1");
	assert_float_equal(at[0], 16384, 0);
	assert_string_equal(names[1], "L2");
	assert_float_equal(at[1], 131072, 1e-6);
	assert_string_equal(names[2], "L3");
	assert_float_equal(at[2], 4194304, 1e-6);
	assert_string_equal(names[3], "mem");
	assert_float_equal(at[3], 134217728, 0);
	/* main memory is read at the largest size when the range stops short of 4x */
	n = memlat_plateau_sizes(&CACHES, 64.0 * (1 << 20), names, at);
	assert_float_equal(at[3], 64.0 * (1 << 20), 0);
}

/* A cache hierarchy's curve: levels at 1.3, 4, 12 and 90 ns, each cache
 * filling up over the point past its size (the way a random chain sees
 * it), with 2% noise. */
static int synthetic(double *x, double *v, double noise)
{
	struct memlat_sizes s = { 512, 128ULL << 20, 8, false };
	uint64_t sz[MEMLAT_MAX_SIZES];
	int n = memlat_size_list(&s, sz, MEMLAT_MAX_SIZES);
	const double level[] = { 1.3, 4, 12, 90 };
	for (int i = 0; i < n; i++) {
		x[i] = (double)sz[i];
		int k = 0;
		while (k < 3 && x[i] > (double)CACHES.size[k])
			k++;
		v[i] = level[k] * (1 + noise * gauss());
	}
	return n;
}

/* Which of the curve's intervals (x[k] to x[k + 1]) holds bytes: a step is the middle of the
 * two sizes the curve rose between, a cache size lies between two sizes, and a step "one
 * point off" is one interval away. */
static int interval_of(const double *x, int n, double bytes)
{
	int k = 0;
	while (k + 2 < n && x[k + 1] <= bytes)
		k++;
	return k;
}

/* How many intervals the step lies from the cache's size. */
static int step_off(const double *x, int n, double step, double size)
{
	return interval_of(x, n, step) - interval_of(x, n, size);
}

static int index_of(const double *x, int n, double bytes)
{
	int best = 0;
	for (int i = 1; i < n; i++)
		if (fabs(log2(x[i] / bytes)) < fabs(log2(x[best] / bytes)))
			best = i;
	return best;
}

static void test_plateaus_and_steps(void **state)
{
	double x[MEMLAT_MAX_SIZES], v[MEMLAT_MAX_SIZES];
	int n = synthetic(x, v, 0.02);
	const char *names[5];
	double at[5], val[5];
	int np = memlat_plateau_sizes(&CACHES, x[n - 1], names, at);
	const double level[] = { 1.3, 4, 12, 90 };
	for (int i = 0; i < np; i++) {
		val[i] = memlat_plateau_value(x, v, n, at[i]);
		assert_float_equal(val[i], level[i], level[i] * 0.05);
	}
	/* one wild point (a preempted walk) beside a plateau does not move it */
	int k = index_of(x, n, at[1]);
	double keep = v[k];
	v[k] = 400;
	assert_float_equal(memlat_plateau_value(x, v, n, at[1]), 4, 0.2);
	v[k] = keep;
	/* the steps: within one point of the sizes sysfs gives */
	for (int i = 0; i + 1 < np; i++) {
		double s = memlat_find_step(x, v, n, at[i], val[i], at[i + 1], val[i + 1]);
		assert_true(isfinite(s));
		int d = step_off(x, n, s, (double)CACHES.size[i]);
		if (d < -1 || d > 1)
			fail_msg("step %d at %.0f, cache %llu: %d points off", i, s,
				 (unsigned long long)CACHES.size[i], d);
	}
	/* two disturbed points inside a plateau are no step; the real one is found after them */
	int spike = index_of(x, n, 200000);
	v[spike] = 11;
	v[spike + 1] = 11;
	double s = memlat_find_step(x, v, n, at[1], val[1], at[2], val[2]);
	assert_in_range(step_off(x, n, s, 524288) + 1, 0, 2);
	/* a gradual bend before the cache is full: the steepest point is the step */
	v[spike] = v[spike + 1] = 4;
	int c2 = index_of(x, n, 524288);
	for (int i = c2 - 4; i <= c2; i++)
		v[i] = 4 * (1 + 0.04 * (i - (c2 - 5)));
	s = memlat_find_step(x, v, n, at[1], val[1], at[2], val[2]);
	assert_in_range(step_off(x, n, s, 524288) + 1, 0, 2);
	/* a flat curve has none; nor does a plateau pair that does not rise */
	for (int i = 0; i < n; i++)
		v[i] = 2;
	assert_true(isnan(memlat_find_step(x, v, n, at[0], 2, at[1], 4)));
	assert_true(isnan(memlat_find_step(x, v, n, at[0], 4, at[1], 4)));
	/* nothing near: no plateau */
	assert_true(isnan(memlat_plateau_value(x, v, 3, 1e9)));
	assert_true(isnan(memlat_plateau_value(x, v, 0, 4096)));
}

/* A sharp rise is placed between the two sizes the curve rose between, not at either: a 48 KiB
 * L1 that overflowed between 45.3 and 49.4 KiB read at one or the other as noise fell, and one
 * that overflowed a size early (a fresh clone's three tries on 2026-12-07: 41.5 KiB low, 45.3
 * KiB up) read 41.5 KiB, two points off, where the rise is one interval before its size. */
static void test_step_between_sizes(void **state)
{
	static const struct memlat_caches l1 = { 2, { 1, 2 }, { 48 << 10, 1 << 20 } };
	struct memlat_sizes sizes = { 512, 4 << 20, 8, false };
	uint64_t sz[MEMLAT_MAX_SIZES];
	double x[MEMLAT_MAX_SIZES], v[MEMLAT_MAX_SIZES], step[4];
	bool early[4];
	int n = memlat_size_list(&sizes, sz, MEMLAT_MAX_SIZES);
	for (int i = 0; i < n; i++)
		x[i] = (double)sz[i];
	int at48 = interval_of(x, n, 48 << 10);
	for (int early_by = 0; early_by <= 1; early_by++) {
		int up = at48 + 1 - early_by; /* the first size whose walk missed L1 */
		for (int seed = 0; seed < 40; seed++) {
			for (int i = 0; i < n; i++)
				v[i] = (i < up ? 1.15 : x[i] <= 1 << 20 ? 2.3 : 40) * (1 + 0.01 * gauss());
			memlat_find_steps(&l1, x, v, n, step, early);
			double want = sqrt(x[up - 1] * x[up]);
			if (!(fabs(step[0] / want - 1) < 1e-9) || step_off(x, n, step[0], 48 << 10) != -early_by)
				fail_msg("L1 rising between %.0f and %.0f: step at %.0f, not %.0f", x[up - 1], x[up],
					 step[0], want);
		}
	}
}

/* A curve as a random chain over 4 KiB pages draws it: each cache's plateau bends up from
 * three points before its size (physically indexed sets fill unevenly), jumps past it and
 * reaches the next level's latency 3/4 of a doubling past it (a 2026-12-06 sweep of a Zen 5
 * VM rose 2.6 to 5 ns from 0.84 to 1.7 MiB, 7 to 97 ns from 12.6 to 23 MiB), on a log axis;
 * with noise (sd relative). ends[] are where the levels end in the curve, lat[] the
 * latencies of nends + 1 levels. 512 B to max, 8 points per doubling. */
static int curve(double *x, double *v, const double *ends, const double *lat, int nends, double max,
		 double noise)
{
	struct memlat_sizes s = { 512, (uint64_t)max, 8, false };
	uint64_t sz[MEMLAT_MAX_SIZES];
	int n = memlat_size_list(&s, sz, MEMLAT_MAX_SIZES);
	for (int i = 0; i < n; i++) {
		x[i] = (double)sz[i];
		double lv = log(lat[0]);
		for (int k = 0; k < nends; k++) {
			/* the share of the rise (log latency) by doublings past the end: 0.3 at it,
			 * 0.55 one point past, all of it 3/4 of a doubling past (that sweep's shape) */
			static const double u[] = { -0.375, 0, 0.125, 0.75 }, share[] = { 0, 0.3, 0.55, 1 };
			double d = log2(x[i] / ends[k]), t = d < u[0] ? 0 : 1;
			for (int j = 0; j < 3; j++)
				if (d >= u[j] && d < u[j + 1])
					t = share[j] + (share[j + 1] - share[j]) * (d - u[j]) / (u[j + 1] - u[j]);
			lv += t * (log(lat[k + 1]) - log(lat[k]));
		}
		v[i] = exp(lv) * (1 + noise * gauss());
	}
	return n;
}

/* Real machines' layouts, sysfs right about each cache: every step within two points of its
 * size (the L1 one within one), none said to end early. */
static void test_steps_of_layouts(void **state)
{
	static const struct {
		const char *what;
		struct memlat_caches c;
		double lat[4];
	} rows[] = {
		{ "netbook", { 2, { 1, 2 }, { 24 << 10, 512 << 10 } }, { 1.8, 6, 110 } },
		{ "laptop", { 3, { 1, 2, 3 }, { 48 << 10, 1280 << 10, 12 << 20 } }, { 1.1, 3.5, 14, 95 } },
		{ "desktop", { 3, { 1, 2, 3 }, { 32 << 10, 512 << 10, 32 << 20 } }, { 1.0, 3.1, 11, 80 } },
		{ "server", { 3, { 1, 2, 3 }, { 48 << 10, 2 << 20, 105 << 20 } }, { 1.2, 4.5, 33, 120 } },
	};
	double x[MEMLAT_MAX_SIZES], v[MEMLAT_MAX_SIZES], step[4];
	bool early[4];
	for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		const struct memlat_caches *c = &rows[r].c;
		double ends[4] = { 0 };
		for (int i = 0; i < c->n; i++)
			ends[i] = (double)c->size[i];
		int n = curve(x, v, ends, rows[r].lat, c->n, 4.0 * ends[c->n - 1], 0.02);
		memlat_find_steps(c, x, v, n, step, early);
		for (int i = 0; i < c->n; i++) {
			int d = isfinite(step[i]) ? step_off(x, n, step[i], ends[i]) : 99;
			if (d < (i ? -2 : -1) || d > (i ? 2 : 1) || early[i])
				fail_msg("%s: L%d step at %.0f, cache %.0f: %d points off%s", rows[r].what, i + 1,
					 step[i], ends[i], d, early[i] ? ", said to end early" : "");
		}
	}
}

/* A VM whose sysfs gives its host's L3 (508 MiB) where the curve's L3 ends at 14 MiB (its
 * share of it; 4 MiB while other guests are busy): the L2 step is the rise near 1 MiB, not
 * the L3's (kbench said "L2 at 13.5 MiB (sysfs 1 MiB)"), and the L3 is said to end where
 * the curve says, smaller than sysfs says; the sweep past it reaches main memory. */
static void test_steps_vm_l3_smaller(void **state)
{
	static const double l3_ends[] = { 14 << 20, 4 << 20 }, lat[] = { 1.16, 2.3, 5, 100 };
	for (int e = 0; e < 2; e++) {
		const double ends[] = { 48 << 10, 1 << 20, l3_ends[e] };
		double x[MEMLAT_MAX_SIZES], v[MEMLAT_MAX_SIZES];
		int n = curve(x, v, ends, lat, 3, 256 << 20, 0.02);
		struct worker_slot *slots = calloc(1, sizeof *slots);
		assert_non_null(slots);
		struct workload_ctx c0 = { .slot = &slots[0] };
		wl_publish_point(&c0, MEMLAT_CLOCK, 0, 3600);
		for (int i = 0; i < n; i++) {
			wl_publish_point(&c0, MEMLAT_FWD, x[i], 1.1);
			wl_publish_point(&c0, MEMLAT_RND, x[i], v[i]);
		}
		struct run *r = run_new();
		struct test_result *t = run_block_add_test(run_add_block(r, 1), "memlat", "Memory latency",
							   "ns", 0, 0, "memory");
		test_summary_set(t, "cache.L1", 48 << 10, NULL);
		test_summary_set(t, "cache.L2", 1 << 20, NULL);
		test_summary_set(t, "cache.L3", 508.0 * 1048576, NULL);
		memlat_collect(t, slots, 1, filled(&memlat_settings, "sizes=512:256M:8"));
		for (int i = 0; i < 3; i++) {
			char key[16];
			snprintf(key, sizeof key, "step.L%d", i + 1);
			const struct kv *s = test_summary_get(t, key);
			assert_non_null(s);
			int d = step_off(x, n, s->value, ends[i]);
			if (d < -2 || d > 2)
				fail_msg("L3 ending at %.0f: %s at %.0f, %d points from %.0f where the curve steps",
					 l3_ends[e], key, s->value, d, ends[i]);
			snprintf(key, sizeof key, "smaller.L%d", i + 1);
			s = test_summary_get(t, key);
			if (i < 2)
				assert_true(!s || !(s->value > 0));
			else
				assert_true(s && s->value > 0);
		}
		char buf[2048];
		notes_of(t, buf, sizeof buf);
		assert_non_null(strstr(buf, "(sysfs 508 MiB: smaller in effect"));
		/* the note's lines unwrapped */
		for (char *o = buf, *i = buf;; i++) {
			if (*i == '\n' && i[1] == ' ')
				for (*o++ = ' '; i[1] == ' '; i++)
					;
			else if (!(*o++ = *i))
				break;
		}
		assert_non_null(strstr(buf, "(sysfs 1 MiB); L3 at "));
		assert_non_null(strstr(buf, "partitioned one; its plateau, read at 22.5 MiB, is past that)"));
		assert_null(strstr(strstr(buf, "smaller in effect") + 1, "smaller in effect")); /* L3's alone */
		assert_null(strstr(buf, "not past the last cache"));
		run_free(r);
		free(slots);
	}
}

/* Real curves (tests/fixtures/memlat): a Zen 5 VM's, sysfs giving its host's 508 MiB L3, whose
 * L3 ended at 5 to 15 MiB as others' load went. L1 within a point, L2 within two, the L3 said
 * to be smaller, past the L2 step and short of 32 MiB. */
static void test_steps_of_real_curves(void **state)
{
	static const struct memlat_caches vm = { 3, { 1, 2, 3 }, { 48 << 10, 1 << 20, 508u << 20 } };
	const char *top = getenv("KBENCH_TOP");
	for (int k = 1; k <= 4; k++) {
		char path[512], line[256];
		snprintf(path, sizeof path, "%s/tests/fixtures/memlat/zen5-vm-%d.txt", top ? top : ".", k);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		double x[MEMLAT_MAX_SIZES], v[MEMLAT_MAX_SIZES], step[4];
		bool early[4];
		int n = 0;
		while (n < MEMLAT_MAX_SIZES && fgets(line, sizeof line, f))
			if (line[0] != '#' && sscanf(line, "%lf %lf", &x[n], &v[n]) == 2)
				n++;
		fclose(f);
		assert_true(n > 100);
		memlat_find_steps(&vm, x, v, n, step, early);
		int d1 = step_off(x, n, step[0], 48 << 10);
		int d2 = step_off(x, n, step[1], 1 << 20);
		if (!isfinite(step[0]) || !isfinite(step[1]) || d1 < -1 || d1 > 1 || d2 < -2 || d2 > 2 ||
		    early[0] || early[1])
			fail_msg("%s: L1 step at %.0f (%d points off), L2 at %.0f (%d points off)", path, step[0], d1,
				 step[1], d2);
		if (!early[2] || !(step[2] > step[1]) || !(step[2] < 32 << 20))
			fail_msg("%s: L3 step at %.0f, %s", path, step[2], early[2] ? "said smaller" : "not said smaller");
	}
}

/* Two copies publish their points; collect makes one point per size, the
 * mean over the copies, and the plateaus of that sample. */
static void test_collect(void **state)
{
	struct worker_slot *slots = calloc(2, sizeof *slots);
	assert_non_null(slots);
	struct workload_ctx c0 = { .slot = &slots[0] }, c1 = { .slot = &slots[1] };
	wl_publish_point(&c0, MEMLAT_CLOCK, 0, 3000);
	wl_publish_point(&c1, MEMLAT_CLOCK, 0, 3200);
	double sizes[] = { 8192, 16384, 32768, 65536, 131072 };
	for (int i = 0; i < 5; i++) {
		wl_publish_point(&c0, MEMLAT_FWD, sizes[i], 1.0 + i);
		wl_publish_point(&c0, MEMLAT_RND, sizes[i], 2.0 + i);
		wl_publish_point(&c1, MEMLAT_FWD, sizes[i], 3.0 + i);
		if (i < 4) /* copy 1 was cut short before its last size */
			wl_publish_point(&c1, MEMLAT_RND, sizes[i], 4.0 + i);
	}
	struct run *r = run_new();
	struct test_result *t = run_block_add_test(run_add_block(r, 2), "memlat", "Memory latency",
						   "ns", 0, 0, "memory");
	test_summary_set(t, "cache.L1", 32768, NULL);
	test_summary_set(t, "cache.L2", 524288, NULL);
	memlat_collect(t, slots, 2, filled(&memlat_settings, "sizes=8K:128K:1"));
	assert_int_equal(t->kind, RESULT_POINTS);
	const struct point *p = test_find_point(t, "clock");
	assert_non_null(p);
	assert_float_equal(p->v[0], 3100, 1e-9);
	assert_true(p->summary);
	assert_false(p->lower_better);
	p = test_find_point(t, "fwd 32768");
	assert_non_null(p);
	assert_float_equal(p->v[0], (3.0 + 5.0) / 2, 1e-9);
	assert_true(p->lower_better);
	assert_false(p->summary);
	assert_string_equal(p->unit, "ns");
	assert_string_equal(p->xunit, "B");
	assert_float_equal(test_find_point(t, "rnd 131072")->v[0], 6.0, 1e-9); /* copy 0 alone */
	/* L1 read at 16 KiB: the median of 8, 16, 32 KiB on the random chain */
	p = test_find_point(t, "rnd L1");
	assert_non_null(p);
	assert_true(p->summary);
	assert_float_equal(p->x, 16384, 0);
	assert_float_equal(p->v[0], 4.0, 1e-9);
	/* main memory at 4x L2 = 2 MiB is past the range: read at the largest size */
	assert_float_equal(test_find_point(t, "rnd mem")->x, 131072, 0);
	/* a second sample adds a value to each point */
	memlat_collect(t, slots, 2, filled(&memlat_settings, "sizes=8K:128K:1"));
	assert_int_equal(test_find_point(t, "fwd 8192")->n, 2);
	assert_int_equal(test_find_point(t, "rnd L1")->n, 2);
	score_test(t);
	assert_float_equal(t->score, 0, 0); /* no rate, no index */
	run_free(r);
	free(slots);
}

/* A run with one memlat test: plateaus at given ns (x factor), each of
 * `ns` samples with sample noise sd, and a run offset of run_sd. */
static struct run *mk(const char *id, double factor, double sd, double run_sd)
{
	static const char *const names[] = { "rnd L1", "rnd L2", "rnd L3", "rnd mem", "rnd 4096" };
	static const double base[] = { 1.3, 4, 12, 90, 1.3 };
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.1");
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "box");
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "memlat", "Memory latency",
						   "ns", 0, 0, "memory");
	t->status = TEST_DONE;
	double off = 1 + run_sd * gauss();
	for (int i = 0; i < 5; i++) {
		struct point *p = test_point(t, names[i], 1, "B", "ns", true, i < 4);
		for (int s = 0; s < 3; s++)
			point_push(p, base[i] * factor * off * (1 + sd * gauss()));
	}
	struct point *p = test_point(t, "clock", 0, "", "MHz", false, true);
	for (int s = 0; s < 3; s++)
		point_push(p, 3000 / factor * off * (1 + sd * gauss()));
	for (int s = 0; s < 3; s++) {
		struct sample *sm = test_add_sample(t, 1);
		sm->count[0] = 1e6;
		sm->elapsed[0] = 10;
	}
	score_test(t);
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

/* The point verdict rule: identical machines say "no significant change"
 * (at least 95% of rows over many pairs); a slower memory says slower on
 * every latency row, a faster one faster; direction follows the point. */
static void test_point_verdicts(void **state)
{
	int same = 0, rows = 0;
	for (int k = 0; k < 60; k++) {
		struct run *a = mk("a", 1, 0.02, 0.02), *b = mk("b", 1, 0.02, 0.02);
		struct compare *c = cmp2(a, b);
		const struct compare_block *cb = &c->blocks[0];
		assert_int_equal(cb->nrows, 6);
		for (int i = 0; i < cb->nrows; i++) {
			const struct compare_row *row = &cb->rows[i];
			assert_true(row->point);
			assert_int_equal(row->verdict != VERDICT_NA, 1);
			rows++;
			same += row->verdict == VERDICT_SAME;
		}
		/* the curve point is counted apart from the table's rows */
		assert_int_equal(cb->ndetail, 1);
		assert_int_equal(cb->nfaster + cb->nslower + cb->nsame + cb->nna, 5);
		assert_int_equal(cb->ncompared, 0); /* no rate in the mean change */
		compare_free(c);
		run_free(a);
		run_free(b);
	}
	if (same < rows * 95 / 100)
		fail_msg("A/A: %d of %d rows no significant change", same, rows);
	/* latencies 20% higher: slower on each latency row, and the clock 1/1.2 lower: slower */
	struct run *a = mk("a", 1, 0.02, 0.01), *b = mk("b", 1.2, 0.02, 0.01);
	struct compare *c = cmp2(a, b);
	for (int i = 0; i < c->blocks[0].nrows; i++) {
		const struct compare_row *row = &c->blocks[0].rows[i];
		if (row->verdict != VERDICT_SLOWER)
			fail_msg("%s: %s at %+.1f%%", row->id, compare_verdict_name(row->verdict), row->change);
		if (row->lower_better)
			assert_true(row->change > 10);
		else
			assert_true(row->change < -10);
	}
	assert_string_equal(c->blocks[0].rows[0].id, "memlat:rnd L1");
	compare_free(c);
	/* and the other way round */
	c = cmp2(b, a);
	for (int i = 0; i < c->blocks[0].nrows; i++)
		assert_int_equal(c->blocks[0].rows[i].verdict, VERDICT_FASTER);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* A point one side lacks (a cut-short run) is n/a, not an error. */
static void test_point_one_side(void **state)
{
	struct run *a = mk("a", 1, 0.02, 0.01), *b = mk("b", 1, 0.02, 0.01);
	struct test_result *t = &b->blocks[0].tests[0];
	test_point(t, "rnd 9999", 9999, "B", "ns", true, false);
	point_push(&t->points[t->npoints - 1], 3);
	struct compare *c = cmp2(a, b);
	const struct compare_block *cb = &c->blocks[0];
	assert_int_equal(cb->nrows, 7);
	assert_int_equal(cb->dna, 1);
	assert_string_equal(cb->rows[6].note, "only in B");
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* A plateau read at another size (a run with other --sizes) is n/a, not a change. */
static void test_point_at_another_size(void **state)
{
	struct run *a = mk("a", 1, 0.02, 0.01), *b = mk("b", 1, 0.02, 0.01);
	struct test_result *t = &b->blocks[0].tests[0];
	for (int i = 0; i < t->npoints; i++)
		if (!strcmp(t->points[i].name, "rnd mem"))
			t->points[i].x = 2;
	struct compare *c = cmp2(a, b);
	const struct compare_block *cb = &c->blocks[0];
	for (int i = 0; i < cb->nrows; i++) {
		const struct compare_row *row = &cb->rows[i];
		if (!strcmp(row->id, "memlat:rnd mem")) {
			assert_int_equal(row->verdict, VERDICT_NA);
			assert_string_equal(row->note, "at another size");
		} else {
			assert_int_not_equal(row->verdict, VERDICT_NA);
		}
	}
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* Stored A/A runs teach each headline point its own floor, as they teach a rate test's. */
static void test_point_floors_learned(void **state)
{
	struct run *runs[4];
	for (int i = 0; i < 4; i++) {
		char id[8];
		snprintf(id, sizeof id, "r%d", i);
		runs[i] = mk(id, 1, 0.01, 0.10); /* runs 10% apart, samples 1% */
	}
	struct noise_table nt;
	noise_learn(&nt, (const struct run *const *)runs, 4, NULL, 0);
	const struct noise_floor *f = noise_get(&nt, "memlat:rnd L1", runs[0]);
	assert_int_equal(f->df, 3);
	assert_true(f->learned > 0.04 && f->learned < 0.25);
	assert_true(noise_sigma(f) > f->fallback); /* blended up from the 4% default */
	assert_float_equal(f->fallback, 0.04, 1e-9);
	/* a curve point is not a headline: no floor of its own */
	assert_int_equal(noise_get(&nt, "memlat:rnd 4096", runs[0])->df, 0);
	noise_free(&nt);
	for (int i = 0; i < 4; i++)
		run_free(runs[i]);
}

/* A sweep's time: its budget, plus what the budget leaves out past the
 * last cache (the chains built and walked untimed, three timed walks at
 * least), which is why "6 s" showed as 0:09 and more on the console. */
static void test_sweep_estimate(void **state)
{
	struct memlat_sizes sz;
	memlat_default_sizes(&CACHES, &sz); /* 512 B to 128 MiB: 4x a 32 MiB L3 */
	double six = memlat_sweep_seconds(&sz, &CACHES, 6), one = memlat_sweep_seconds(&sz, &CACHES, 1);
	assert_true(six > 6 * 1.5 && six < 6 * 5); /* most of it is past the budget */
	assert_true(one > 6 && one < six);         /* that part stays with a small budget */
	double last = 0;
	for (double b = 0; b <= 20; b += 2.5) { /* a larger budget never takes less */
		double e = memlat_sweep_seconds(&sz, &CACHES, b);
		assert_true(e >= last);
		last = e;
	}
	/* inside the caches the budget is about all of it */
	struct memlat_sizes in = { 512, 4 << 20, 8, false };
	double e = memlat_sweep_seconds(&in, &CACHES, 6);
	assert_true(e > 6 * 0.9 && e < 6 * 1.2);
	/* a few small sizes cannot spend a large budget: 200 timed walks of 1 ms a point at most */
	struct memlat_sizes few = { 512, 4096, 1, false };
	e = memlat_sweep_seconds(&few, &CACHES, 60);
	assert_true(e < 4 * 2 * 200 * 0.001 + 1);
	/* no caches in sysfs: the default sizes' 8 MiB last level, still past the budget */
	struct memlat_caches none = { 0 };
	memlat_default_sizes(&none, &sz);
	e = memlat_sweep_seconds(&sz, &none, 6);
	assert_true(e > 6 && e < 30);
}

/* A memlat result in r with its clock (MHz) and random L1 plateau (ns), for the notes' tests. */
static struct test_result *notes_test(struct run *r, double mhz, double l1)
{
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "memlat", "Memory latency",
						   "ns", 0, 0, "memory");
	point_push(test_point(t, "clock", 0, "", "MHz", false, true), mhz);
	point_push(test_point(t, "rnd L1", 4096, "B", "ns", true, true), l1);
	return t;
}

/* The report's notes on a machine whose sysfs names no caches (qemu's arm64 virt board):
 * the clock and the pages asked still show, only the cache steps have nothing to say. On
 * arm64 the notes were all dropped, and with them "huge pages asked" (options_cli). */
static void test_notes_without_caches(void **state)
{
	struct run *r = run_new();
	struct test_result *t = notes_test(r, 2000, 2);
	test_summary_set(t, "pages", 0, "huge pages asked (MADV_HUGEPAGE)");
	char buf[2048];
	notes_of(t, buf, sizeof buf);
	assert_non_null(strstr(buf, "CPU clock 2000 MHz (a chain of dependent adds): an L1 load takes 4.0 cycles"));
	assert_non_null(strstr(buf, "Pages: huge pages asked (MADV_HUGEPAGE)"));
	assert_null(strstr(buf, "Steps of the random chain"));
	/* with caches the steps are noted too */
	test_summary_set(t, "cache.L1", 32768, NULL);
	notes_of(t, buf, sizeof buf);
	assert_non_null(strstr(buf, "Steps of the random chain: L1 at none seen (sysfs 32 KiB)"));
	assert_non_null(strstr(buf, "Pages: huge pages asked"));
	run_free(r);
}

/* The default range is bounded by time: a 508 MiB L3 (a server's, or a VM's view of its host's)
 * made 2 GiB, ten minutes a run; a laptop's 12 MiB keeps its 4x. */
static void test_default_bounded_by_time(void **state)
{
	const struct memlat_caches big = { 3, { 1, 2, 3 }, { 48 << 10, 1 << 20, 508ULL << 20 } };
	const struct memlat_caches laptop = { 3, { 1, 2, 3 }, { 48 << 10, 1280 << 10, 12 << 20 } };
	const struct memlat_caches netbook = { 2, { 1, 2 }, { 24 << 10, 512 << 10 } };
	struct memlat_sizes s;
	memlat_default_sizes(&big, &s);
	assert_true(s.max < 1ULL << 30);
	assert_true(s.max >= 8ULL << 20);
	assert_true(memlat_sweep_seconds(&s, &big, MEMLAT_SWEEP_BUDGET) <= MEMLAT_SWEEP_MAX_SECONDS);
	memlat_default_sizes(&laptop, &s);
	assert_int_equal(s.max, 64ULL << 20); /* 4 x 12 MiB, up to a power of two */
	memlat_default_sizes(&netbook, &s);
	assert_int_equal(s.max, 8ULL << 20);
}

/* The report says the range used, and when it stops short of the last cache that its "mem" is
 * that cache; a clock above cpufreq's ceiling is no clock (a core that folds the adds). */
static void test_notes_range_and_ceiling(void **state)
{
	struct run *r = run_new();
	struct test_result *t = notes_test(r, 20579, 1.4);
	test_summary_set(t, "cache.L1", 49152, NULL);
	test_summary_set(t, "cache.L3", 508.0 * 1048576, NULL);
	test_summary_set(t, "sizes.min", 512, NULL);
	test_summary_set(t, "sizes.max", 256.0 * 1048576, NULL);
	test_summary_set(t, "clock.ceiling", 3800, NULL);
	char buf[2048];
	notes_of(t, buf, sizeof buf);
	assert_non_null(strstr(buf, "Sizes: 512 B to 256 MiB, not past the last cache (508 MiB)"));
	assert_non_null(strstr(buf, "CPU clock: n/a: the chain of dependent adds read 20579 MHz, above"));
	assert_null(strstr(buf, "cycles\n"));
	assert_true(isnan(memlat_clock(t)));
	test_summary_set(t, "clock.ceiling", 30000, NULL);
	assert_true(memlat_clock(t) == 20579);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_bounded_by_time),
		cmocka_unit_test(test_notes_range_and_ceiling),
		cmocka_unit_test(test_parse_sizes),	   cmocka_unit_test(test_params_and_defaults),
		cmocka_unit_test(test_size_list),	   cmocka_unit_test(test_plateau_sizes),
		cmocka_unit_test(test_plateaus_and_steps), cmocka_unit_test(test_step_between_sizes),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_steps_of_layouts),   cmocka_unit_test(test_steps_vm_l3_smaller),
		cmocka_unit_test(test_steps_of_real_curves),
		cmocka_unit_test(test_point_verdicts),	   cmocka_unit_test(test_point_one_side),
		cmocka_unit_test(test_point_at_another_size),
		cmocka_unit_test(test_point_floors_learned),
		cmocka_unit_test(test_sweep_estimate),
		cmocka_unit_test(test_notes_without_caches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
