/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the HTML report's pieces (escaping, $HOME, axis ticks, decimation, empty series) and of the whole file (size, no script, verdicts as the compare engine gives them). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "compare.h"
#include "fileio.h"
#include "report_html.h"
#include "run.h"
#include "score.h"
#include "svg.h"
#include "tests.h"
#include "thermal_int.h"

static char *escaped(const char *s, const char *home)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	html_text(f, s, home);
	fclose(f);
	return buf;
}

static void escapes_markup(void **state)
{
	char *e = escaped("<script>alert(1)</script>&\"'", NULL);
	assert_string_equal(e, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;");
	free(e);
	e = escaped("a\x01"
		    "b\x1b[31m\nc\td",
		    NULL);
	assert_string_equal(e, "a?b?[31m\nc\td");
	free(e);
	e = escaped("", NULL);
	assert_string_equal(e, "");
	free(e);
}

static void hides_home(void **state)
{
	static const struct {
		const char *in, *home, *want;
	} cases[] = {
		{ "/home/ann/src/kbench", "/home/ann", "~/src/kbench" },
		{ "/home/ann", "/home/ann", "~" },
		{ "/home/ann/", "/home/ann/", "~/" },
		{ "tmpdir=/home/ann: and /home/ann/x", "/home/ann", "tmpdir=~: and ~/x" },
		{ "/home/anna/x", "/home/ann", "/home/anna/x" }, /* another user's home */
		{ "/home/ann.old/x", "/home/ann", "/home/ann.old/x" },
		{ "/tmp/fake/root/proc/stat", "/root", "/tmp/fake/root/proc/stat" }, /* inside a path */
		{ "cd /root; ls /root/x", "/root", "cd ~; ls ~/x" },
		{ "/tmp/x", "/", "/tmp/x" }, /* a home of / hides nothing */
		{ "/home/ann/<b>", "/home/ann", "~/&lt;b&gt;" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *e = escaped(cases[i].in, cases[i].home);
		if (strcmp(e, cases[i].want))
			fail_msg("'%s' with home '%s': got '%s', wanted '%s'", cases[i].in, cases[i].home,
				 e, cases[i].want);
		free(e);
	}
}

static void ticks_cover_the_range(void **state)
{
	double t[32];
	double lo = 0.3, hi = 9.7;
	int n = svg_ticks(&lo, &hi, 5, t, 32);
	assert_true(n >= 3 && n <= 11);
	assert_true(lo <= 0.3 && hi >= 9.7);
	assert_true(t[0] == lo && fabs(t[n - 1] - hi) < 1e-9);
	double step = t[1] - t[0];
	for (int i = 1; i < n; i++)
		assert_true(fabs(t[i] - t[i - 1] - step) < 1e-9);
	/* the step is 1, 2 or 5 times a power of ten */
	double m = step / pow(10, floor(log10(step)));
	assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9);
	assert_true(t[0] == 0 && fabs(step - 2) < 1e-9);

	lo = 2400, hi = 2400; /* a flat series still gets an axis around its value */
	n = svg_ticks(&lo, &hi, 4, t, 32);
	assert_true(n >= 2 && lo < 2400 && hi > 2400);
	lo = -3, hi = 7;
	n = svg_ticks(&lo, &hi, 4, t, 32);
	int zero = 0;
	for (int i = 0; i < n; i++)
		zero += t[i] == 0;
	assert_int_equal(zero, 1);
	lo = NAN, hi = INFINITY;
	n = svg_ticks(&lo, &hi, 4, t, 32);
	assert_true(n >= 2 && isfinite(lo) && isfinite(hi));
}

static void decimation_keeps_extremes(void **state)
{
	enum { N = 7200, COLS = 100 };
	double *t = malloc(N * sizeof *t), *v = malloc(N * sizeof *v);
	for (int i = 0; i < N; i++) {
		t[i] = i * 0.5;
		v[i] = 2000 + 100 * sin(i / 50.0);
	}
	v[3333] = 9999; /* one spike among 72 points of its column */
	v[4444] = -5;
	v[10] = NAN;
	struct svg_col cols[COLS];
	int n = svg_decimate(t, v, N, 0, t[N - 1], COLS, cols);
	assert_int_equal(n, COLS);
	double hi = -1e9, lo = 1e9;
	int points = 0;
	for (int i = 0; i < n; i++) {
		hi = fmax(hi, cols[i].v_hi);
		lo = fmin(lo, cols[i].v_lo);
		points += cols[i].n;
		assert_true(cols[i].v_lo <= cols[i].v_hi);
		if (i)
			assert_true(cols[i].t_lo > cols[i - 1].t_hi || cols[i].t_hi > cols[i - 1].t_lo);
	}
	assert_true(hi == 9999 && lo == -5);
	assert_int_equal(points, N - 1); /* the NAN is left out, nothing else */
	/* a window: points outside it are left out */
	n = svg_decimate(t, v, N, 100, 200, 10, cols);
	assert_int_equal(n, 10);
	for (int i = 0; i < n; i++)
		assert_true(cols[i].t_lo >= 100 && cols[i].t_hi <= 200);
	/* nothing to draw */
	assert_int_equal(svg_decimate(t, v, 0, 0, 10, 10, cols), 0);
	assert_int_equal(svg_decimate(t, v, N, 5, 5, 10, cols), 0);
	free(t);
	free(v);
}

__attribute__((noinline)) static char *chart(const struct svg_chart *c, int *drawn)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*drawn = svg_line_chart(f, c);
	fclose(f);
	return buf;
}

static void empty_series_says_so(void **state)
{
	const double *t[1] = { NULL }, *v[1] = { NULL };
	int n[1] = { 0 }, drawn;
	struct svg_chart c = { .title = "temp <cpu>",
			       .unit = "°C",
			       .t0 = 0,
			       .t1 = 10,
			       .nseries = 1,
			       .t = t,
			       .v = v,
			       .n = n };
	char *s = chart(&c, &drawn);
	assert_int_equal(drawn, 0);
	assert_true(!strncmp(s, "<svg", 4));
	assert_non_null(strstr(s, "no samples"));
	assert_null(strstr(s, "<polyline"));
	assert_non_null(strstr(s, "temp &lt;cpu&gt;"));
	assert_true(strlen(s) > 6 && !strcmp(s + strlen(s) - 6, "</svg>"));
	free(s);
	/* one point draws a dot, not an invisible one-point line */
	double one_t = 3, one_v = 40;
	t[0] = &one_t, v[0] = &one_v, n[0] = 1;
	s = chart(&c, &drawn);
	assert_int_equal(drawn, 1);
	assert_non_null(strstr(s, "<circle"));
	free(s);
}

static void chart_is_bounded(void **state)
{
	enum { N = 20000 };
	double *t = malloc(N * sizeof *t), *v = malloc(N * sizeof *v);
	for (int i = 0; i < N; i++)
		t[i] = i * 0.5, v[i] = (i * 7919) % 1000;
	const double *tt[1] = { t }, *vv[1] = { v };
	int n[1] = { N }, drawn;
	struct svg_mark marks[2] = { { 0, "dhry2reg" }, { 5000, "<pipe>" } };
	struct svg_span span = { 100, 200 };
	struct svg_chart c = { .title = "x",
			       .unit = "u",
			       .t0 = 0,
			       .t1 = t[N - 1],
			       .nseries = 1,
			       .t = tt,
			       .v = vv,
			       .n = n,
			       .nmarks = 2,
			       .marks = marks,
			       .nspans = 1,
			       .spans = &span };
	char *s = chart(&c, &drawn);
	assert_true(drawn > 100 && drawn < 1000);
	const char *pts = strstr(s, "points=\"");
	assert_non_null(pts);
	int commas = 0;
	for (const char *p = pts + 8; *p && *p != '"'; p++)
		commas += *p == ',';
	assert_true(commas <= 2 * drawn); /* two points per column at most */
	assert_true(strlen(s) < 20000);
	assert_non_null(strstr(s, "class=\"thr\""));
	assert_non_null(strstr(s, "&lt;pipe&gt;"));
	free(s);
	free(t);
	free(v);
}

/* ---- whole documents ---- */

static const char *const HOME = "/home/ann";

/* A full index run (1 and 2 copies, every index test, 10 samples) with
 * telemetry at 2 Hz for an hour: the size a real run's report must fit. */
static struct run *full_run(double speed, const char *name, int cpus)
{
	struct run *r = run_new();
	struct run_meta *m = &r->meta;
	snprintf(m->name, sizeof m->name, "%s", name);
	snprintf(m->id, sizeof m->id, "%s", speed > 1 ? "bbbbbbbb" : "aaaaaaaa");
	snprintf(m->kernel_release, sizeof m->kernel_release, "6.8.0-<pf>");
	snprintf(m->cpu_model, sizeof m->cpu_model, "Intel Atom N270 \"netbook\"");
	snprintf(m->scratch_dir, sizeof m->scratch_dir, "%s/scratch", HOME);
	snprintf(m->fs_type, sizeof m->fs_type, "ext4");
	m->mode = &run_mode_full;
	m->ncpus = 2;
	m->date = 1796032800;
	run_add_note(r, "preflight: scratch files go to %s/scratch", HOME);
	double t = 0;
	for (int copies = 1; copies <= 2; copies++) {
		struct run_block *b = run_add_block(r, copies);
		const struct test_group *g = test_group_find("index");
		for (int i = 0; g->ids[i]; i++) {
			const struct test_def *d = test_find(g->ids[i]);
			struct test_result *tr = run_block_add_test(b, d->id, d->label, d->unit,
								    d->timebase, d->baseline, d->category);
			tr->status = TEST_DONE;
			char what[80];
			snprintf(what, sizeof what, "test %s copies %d", d->id, copies);
			run_add_marker(r, t, what);
			for (int k = 0; k < 10; k++) {
				struct sample *s = test_add_sample(tr, copies);
				for (int c = 0; c < copies; c++) {
					s->count[c] =
						d->baseline * 10 * speed * (1 + 0.002 * ((k * 7 + c) % 5));
					s->elapsed[c] = 10;
				}
				s->start = t;
				t += 13;
			}
			test_summary_set(tr, "ipc", 1.25, NULL);
			test_summary_set(tr, "counter.cache-misses", 1e6, NULL);
			test_summary_set(tr, "counter.context-switches", 5000, NULL);
			test_summary_set(tr, "others.cpu", 0.01, NULL);
		}
	}
	/* the default sources and counters, every half second */
	static const char *const names[] = {
		"freq.mean",
		"freq.busy",
		"freq.cpu0",
		"freq.cpu1",
		"temp.cpu",
		"power",
		"energy",
		"throttle.events",
		"throttle.ms",
		"others.cpu",
		"counter.cycles",
		"counter.instructions",
		"counter.cache-misses",
		"counter.branch-misses",
		"counter.task-clock",
		"counter.context-switches",
		"counter.cpu-migrations",
		"counter.page-faults",
	};
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		struct series *se = run_series(r, names[k], "u");
		for (double x = 0; x < t; x += 0.5)
			series_push(se, x,
				    1000 + 500 * sin(x / 30 + (double)k) + (double)((int)(x * 13) % 17));
	}
	/* each CPU's clock beyond the two above (cpufreq stores up to 64) */
	for (int c = 2; c < cpus; c++) {
		char name[32];
		snprintf(name, sizeof name, "freq.cpu%d", c);
		struct series *se = run_series(r, name, "MHz");
		for (double x = 0; x < t; x += 0.5)
			series_push(se, x, 800 + 20 * c + (double)((int)(x * 7 + c) % 300));
	}
	run_rescore(r);
	return r;
}

static char *document(const struct run *r, const struct run *base, const struct compare *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	const struct run *b[1] = { base };
	assert_int_equal(report_html_write(f, r, b, base ? 1 : 0, c, HOME), 0);
	fclose(f);
	return buf;
}

static void full_report_is_small_and_safe(void **state)
{
	struct run *a = full_run(1, "base", 2);
	struct run *b = full_run(1.3, "<script>alert(1)</script>&\"'", 2);
	const struct run *ra[1] = { a }, *rb[1] = { b };
	struct compare_opts o = { 0 };
	char err[300];
	struct compare *c = compare_runs(ra, 1, rb, 1, &o, err, sizeof err);
	assert_non_null(c);
	size_t len;
	char *html = document(b, a, c, &len);
	if (len > 300 * 1024) {
		FILE *dump = fopen("/tmp/kbench-big-report.html", "w");
		if (dump)
			fputs(html, dump), fclose(dump);
		fail_msg("a full index run with 2 Hz telemetry: %zu bytes, over 300 KB (in "
			 "/tmp/kbench-big-report.html)",
			 len);
	}
	print_message("a full index run compared, 2 Hz telemetry for %.0f s: %zu bytes\n",
		      a->markers[a->nmarkers - 1].t, len);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "alert(1)</"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;"));
	assert_null(strstr(html, HOME));
	assert_non_null(strstr(html, "~/scratch"));
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "<img"));
	/* a chart per series (the CPUs' clocks share one), each drawn */
	int charts = 0;
	for (const char *p = html; (p = strstr(p, "<svg class=\"chart\"")); p++)
		charts++;
	assert_int_equal(charts, 17);
	/* every row's verdict is the compare engine's own text, with its colour class */
	for (int k = 0; k < c->nblocks; k++)
		for (int i = 0; i < c->blocks[k].nrows; i++) {
			const struct compare_row *row = &c->blocks[k].rows[i];
			if (row->verdict != VERDICT_FASTER)
				fail_msg("%s: verdict %d (%s)", row->id, row->verdict,
					 row->note ? row->note : "");
			char v[96];
			compare_verdict_text(v, sizeof v, row);
			char *e = escaped(v, NULL);
			assert_non_null(strstr(html, e));
			free(e);
		}
	assert_non_null(strstr(html, "class=\"v-faster\""));
	/* the counters of both runs, the compared one's under each test */
	assert_non_null(strstr(html, "<td class=\"dim\">compared</td><td class=\"n\">1.25</td>"));
	assert_non_null(strstr(html, "+30.0%"));
	free(html);

	/* the run alone: index table, series, counters */
	html = document(a, NULL, NULL, &len);
	assert_true(len < 300 * 1024);
	assert_non_null(strstr(html, "Counters per test"));
	assert_non_null(strstr(html, "1.25"));
	assert_null(strstr(html, "class=\"cmp\""));
	assert_null(strstr(html, HOME));
	free(html);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* A big machine's 64 per-CPU clocks are one band, not 64 lines: the file stays small. */
static void many_cpus_band(void **state)
{
	struct run *a = full_run(1, "a", 64), *b = full_run(1.1, "b", 64);
	const struct run *ra[1] = { a }, *rb[1] = { b };
	struct compare_opts o = { 0 };
	char err[300];
	struct compare *c = compare_runs(ra, 1, rb, 1, &o, err, sizeof err);
	assert_non_null(c);
	size_t len;
	char *html = document(b, a, c, &len);
	print_message("64 CPUs' clocks, compared: %zu bytes\n", len);
	if (len > 300 * 1024)
		fail_msg("%zu bytes with 64 per-CPU clock series, over 300 KB", len);
	assert_non_null(strstr(html, "freq.cpu0..63, lowest to highest of the CPUs"));
	assert_non_null(strstr(html, "<polygon class=\"band\""));
	int charts = 0;
	for (const char *p = html; (p = strstr(p, "<svg class=\"chart\"")); p++)
		charts++;
	assert_int_equal(charts, 17);
	free(html);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* Counters that could not be counted say so, as perf does, instead of a blank. */
static void counters_not_supported(void **state)
{
	struct run *r = full_run(1, "r", 2);
	struct test_result *t = &r->blocks[0].tests[0];
	t->nsummary = 0;
	test_summary_set(t, "counter.cycles", 0, "not supported");
	test_summary_set(t, "ipc", 0, "n/a: no cycles counted");
	test_summary_set(t, "counter.cache-misses", 0, "not supported");
	test_summary_set(t, "counter.context-switches", 2600, NULL);
	size_t len;
	char *html = document(r, NULL, NULL, &len);
	const char *row = strstr(html, "Counters per test");
	assert_non_null(row);
	row = strstr(row, t->label);
	assert_non_null(row);
	const char *end = strstr(row, "</tr>");
	char line[1024];
	snprintf(line, sizeof line, "%.*s", (int)(end - row), row);
	assert_non_null(strstr(line, ">not supported<"));
	/* 2600 switches over 10 samples of 10 s: 26 per second */
	assert_non_null(strstr(line, ">26<"));
	free(html);
	run_free(r);
}

static int write_text(FILE *f, void *arg)
{
	return fputs(arg, f) < 0 ? -1 : 0;
}

static int write_fails(FILE *f, void *arg)
{
	fputs("half", f);
	errno = ENOSPC;
	return -1;
}

static void atomic_write(void **state)
{
	char dir[] = "/tmp/kbench-test-html.XXXXXX", path[128], err[300];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/r.html", dir);
	assert_int_equal(file_write_atomic(path, write_text, "one", err, sizeof err), 0);
	assert_int_equal(file_write_atomic(path, write_text, "two", err, sizeof err), 0);
	/* a writer that fails leaves the old file whole and no temporary behind */
	assert_true(file_write_atomic(path, write_fails, NULL, err, sizeof err) < 0);
	assert_non_null(strstr(err, "No space left"));
	char *buf;
	size_t len;
	assert_int_equal(file_read_all(path, "r", 100, &buf, &len, err, sizeof err), 0);
	assert_string_equal(buf, "two");
	free(buf);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) = 1", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/no/such/dir.html", dir);
	assert_true(file_write_atomic(path, write_text, "x", err, sizeof err) < 0);
	assert_non_null(strstr(err, "cannot write"));
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A thermal check's report: its verdict and per-minute table as `kbench show`
 * prints them, and the score per sample charted first, above the clock. */
static void thermal_check_section(void **state)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "cccc0001");
	snprintf(r->meta.name, sizeof r->meta.name, "fan");
	r->meta.mode = &thermal_mode;
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, "dhry2reg", "Dhrystone 2 using register variables",
						   "lps", 1, 116700, "system");
	t->status = TEST_DONE;
	for (int k = 0; k < 40; k++) {
		struct sample *sm = test_add_sample(t, 1);
		sm->start = k * 2;
		sm->count[0] = (k < 20 ? 2e7 : 1.4e7) * 2;
		sm->elapsed[0] = 2;
		series_push(run_series(r, "freq.mean", "MHz"), sm->start + 1, k < 20 ? 2400 : 1200);
	}
	run_rescore(r);
	thermal_finish(r);
	size_t len;
	char *doc = document(r, NULL, NULL, &len);
	const char *sec = strstr(doc, "<h2>Thermal check</h2><pre>");
	assert_non_null(sec);
	assert_non_null(strstr(sec, "Thermal check: dhry2reg"));
	const char *score = strstr(doc, "Score of each sample"), *clock = strstr(doc, "CPU clock, mean");
	assert_non_null(score);
	assert_non_null(clock);
	assert_true(score < clock);
	/* a run that is no thermal check has neither */
	r->meta.mode = &run_mode_full;
	char *plain = document(r, NULL, NULL, &len);
	assert_null(strstr(plain, "Thermal check"));
	free(plain);
	free(doc);
	run_free(r);
}

/* A points run (memlat-like): headline points and a curve of two chains, 3 samples. */
static struct run *points_run(const char *id, double factor)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.name, sizeof r->meta.name, "lat");
	r->meta.mode = &run_mode_full;
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, "memlat", "Memory latency", "ns", 0, 0, "memory");
	t->kind = RESULT_POINTS;
	t->status = TEST_DONE;
	test_summary_set(t, "cache.L1", 32768, NULL);
	for (int s = 0; s < 3; s++) {
		point_push(test_point(t, "rnd L1", 16384, "B", "ns", true, true), 1.287 * factor);
		for (int k = 9; k <= 24; k++) {
			char name[32];
			double x = ldexp(1, k);
			snprintf(name, sizeof name, "fwd %.0f", x);
			point_push(test_point(t, name, x, "B", "ns", true, false), 1.2 * factor);
			snprintf(name, sizeof name, "rnd %.0f", x);
			point_push(test_point(t, name, x, "B", "ns", true, false), (k < 15 ? 1.3 : 5 + k) * factor);
		}
	}
	test_describe(t); /* as collect and a run file's reader leave it: the cache is a mark */
	return r;
}

/* A points run: its headline points as rows (4 digits of a latency), no
 * index (neither big nor in the table), the curve drawn with both chains and
 * the cache marked; compared, its curve points are counted, not listed. */
static void points_report(void **state)
{
	struct run *a = points_run("aaaa0002", 1), *b = points_run("bbbb0002", 1.01);
	size_t len;
	char *doc = document(a, NULL, NULL, &len);
	assert_non_null(strstr(doc, "memlat rnd L1</td><td class=\"n\">1.287</td>"));
	assert_null(strstr(doc, "Index score"));
	assert_non_null(strstr(doc, "No index:"));
	const char *curve = strstr(doc, "<h2>Curves</h2>");
	assert_non_null(curve);
	assert_non_null(strstr(curve, "<polyline class=\"line\" points=\""));
	assert_non_null(strstr(curve, "<polyline class=\"line second\" points=\""));
	assert_non_null(strstr(curve, ">L1</text>"));
	assert_non_null(strstr(curve, ">8M</text>"));
	const struct run *ra[1] = { a }, *rb[1] = { b };
	char err[200];
	struct compare *c = compare_runs(rb, 1, ra, 1, &(struct compare_opts){ 0 }, err, sizeof err);
	assert_non_null(c);
	char *cmp = document(a, b, c, &len);
	assert_non_null(strstr(cmp, "memlat rnd L1"));
	assert_null(strstr(cmp, "memlat rnd 4096"));
	assert_null(strstr(cmp, "Index score"));
	assert_non_null(strstr(cmp, "Curve points (in the run file, not listed): 32,"));
	free(cmp);
	free(doc);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* Headline points alone on a curve (jobs/min per task count) make one line
 * named by their unit; a point at x 0 (the peak) stays off the chart. */
static void headline_curve(void **state)
{
	struct run *r = run_new();
	r->meta.mode = &run_mode_full;
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "scaling", "Throughput", "jobs/min", 0, 0,
						   "scaling");
	t->kind = RESULT_POINTS;
	t->status = TEST_DONE;
	static const char *const names[] = { "1 task", "2 tasks", "4 tasks", "8 tasks" };
	for (int s = 0; s < 3; s++) {
		for (int k = 0; k < 4; k++)
			point_push(test_point(t, names[k], 1 << k, "tasks", "jobs/min", false, true), 1000 * (k + 1));
		point_push(test_point(t, "peak", 0, "tasks", "jobs/min", false, true), 4000);
	}
	size_t len;
	char *doc = document(r, NULL, NULL, &len);
	const char *curve = strstr(doc, "<h2>Curves</h2>");
	assert_non_null(curve);
	assert_non_null(strstr(curve, "1 copy: jobs/min against tasks</h3>"));
	assert_non_null(strstr(curve, ">jobs/min</text></svg>"));
	assert_null(strstr(curve, "line second"));
	/* four points: the polyline has four pairs */
	const char *pl = strstr(curve, "<polyline class=\"line\" points=\"");
	assert_non_null(pl);
	int pairs = 0;
	for (const char *q = pl + strlen("<polyline class=\"line\" points=\""); *q != '"'; q++)
		pairs += *q == ',';
	assert_int_equal(pairs, 4);
	free(doc);
	run_free(r);

	/* builds at -j1 and -j2 (user and sys as curve points): two sizes are no curve, no chart */
	r = run_new();
	t = run_block_add_test(run_add_block(r, 1), "kbuild", "Build time", "s", 0, 0, "build");
	t->kind = RESULT_POINTS;
	t->status = TEST_DONE;
	for (int s = 0; s < 3; s++)
		for (int j = 1; j <= 2; j++) {
			char name[32];
			snprintf(name, sizeof name, "-j%d", j);
			point_push(test_point(t, name, j, "jobs", "s", true, true), 60.0 / j);
			snprintf(name, sizeof name, "-j%d user", j);
			point_push(test_point(t, name, j, "jobs", "s", true, false), 100);
			snprintf(name, sizeof name, "-j%d sys", j);
			point_push(test_point(t, name, j, "jobs", "s", true, false), 10);
		}
	doc = document(r, NULL, NULL, &len);
	assert_null(strstr(doc, "<h2>Curves</h2>"));
	assert_null(strstr(doc, "kbuild -j2 user")); /* curve points are not table rows */
	free(doc);
	run_free(r);
}

/* Percentiles (x in "%") are drawn as one distribution row per phase, never as a curve. */
static void percentile_rows(void **state)
{
	struct run *r = run_new();
	r->meta.mode = &run_mode_full;
	struct test_result *t = run_block_add_test(run_add_block(r, 1), "timerlat", "Timer latency", "us", 0, 0,
						   "latency");
	t->kind = RESULT_POINTS;
	t->status = TEST_DONE;
	static const char *const phase[] = { "other", "other+burn" };
	static const char *const q[] = { "p50", "p99", "p99.9", "max" };
	static const double qx[] = { 50, 99, 99.9, 100 };
	for (int s = 0; s < 2; s++)
		for (int ph = 0; ph < 2; ph++) {
			char name[32];
			for (int k = 0; k < 4; k++) {
				snprintf(name, sizeof name, "%s %s", phase[ph], q[k]);
				point_push(test_point(t, name, qx[k], "%", "us", true, true), (ph ? 900 : 90) * (k + 1));
			}
			snprintf(name, sizeof name, "%s mean", phase[ph]);
			point_push(test_point(t, name, 0, "", "us", true, true), ph ? 1000 : 100);
		}
	test_describe(t); /* its family says which points are a phase's statistics */
	size_t len;
	char *doc = document(r, NULL, NULL, &len);
	const char *curve = strstr(doc, "<h2>Curves</h2>");
	assert_non_null(curve);
	assert_null(strstr(curve, "against %"));
	assert_non_null(strstr(curve, "bar p50 to p99"));
	assert_non_null(strstr(curve, ">other+burn</text><rect class=\"dist\""));
	int bars = 0;
	for (const char *q2 = curve; (q2 = strstr(q2, "<rect class=\"dist\"")); q2++)
		bars++;
	assert_int_equal(bars, 2);
	assert_int_equal(strstr(curve, "<circle class=\"dot\"") != NULL, 1);
	free(doc);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes_markup),
		cmocka_unit_test(hides_home),
		cmocka_unit_test(ticks_cover_the_range),
		cmocka_unit_test(decimation_keeps_extremes),
		cmocka_unit_test(empty_series_says_so),
		cmocka_unit_test(chart_is_bounded),
		cmocka_unit_test(full_report_is_small_and_safe),
		cmocka_unit_test(many_cpus_band),
		cmocka_unit_test(counters_not_supported),
		cmocka_unit_test(atomic_write),
		cmocka_unit_test(thermal_check_section),
		cmocka_unit_test(points_report),
		cmocka_unit_test(headline_curve),
		cmocka_unit_test(percentile_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
