/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the pasted tables and the LAVA lines: escaping, widths, the verdict words, result kinds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "lava.h"
#include "paste.h"
#include "run.h"
#include "score.h"

/* A run of two tests with ten samples each at rate x factor (a little noise from i). */
static struct run *mk(const char *id, const char *name, double factor)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.name, sizeof r->meta.name, "%s", name);
	snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "6.1.0");
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "box");
	r->meta.mode = &run_mode_full;
	struct run_block *b = run_add_block(r, 1);
	static const struct { const char *id, *label; double baseline, rate; } T[] = {
		{ "dhry2reg", "Dhrystone 2 using register variables", 116700, 3.8e7 },
		{ "syscall", "System Call Overhead", 15000, 8.3e5 },
	};
	for (int i = 0; i < 2; i++) {
		struct test_result *t = run_block_add_test(b, T[i].id, T[i].label, "lps", 1, T[i].baseline, "system");
		t->status = TEST_DONE;
		for (int s = 0; s < 10; s++) {
			struct sample *sm = test_add_sample(t, 1);
			sm->count[0] = T[i].rate * factor * (1 + 0.002 * ((s * 7 + i) % 5 - 2)) * 10;
			sm->elapsed[0] = 10;
		}
	}
	run_rescore(r);
	return r;
}

/* What fn wrote, as one malloc'd string in *out. */
static void capture(char **out, void (*fn)(FILE *, const void *, const void *), const void *x, const void *y)
{
	size_t len = 0;
	*out = NULL;
	FILE *f = open_memstream(out, &len);
	fn(f, x, y);
	fclose(f);
}

static void w_compare(FILE *f, const void *c, const void *fmt) { paste_compare(f, c, fmt); }
static void w_run(FILE *f, const void *r, const void *fmt) { paste_run(f, r, fmt); }
static void w_lava(FILE *f, const void *r, const void *unused) { lava_print(f, r); }

static struct compare *cmp(struct run *a, struct run *b)
{
	char err[256];
	const struct run *av[] = { a }, *bv[] = { b };
	struct compare_opts o = { 0 };
	struct compare *c = compare_runs(av, 1, bv, 1, &o, err, sizeof err);
	if (!c)
		fail_msg("%s", err);
	return c;
}

/* Every verdict cell is compare_verdict_text's words; markup in a name is escaped. */
static void test_markdown(void **state)
{
	struct run *a = mk("aaaa0001", "base", 1), *b = mk("bbbb0002", "x|y_*z* <i>", 0.7);
	struct compare *c = cmp(a, b);
	char *md;
	capture(&md, w_compare, c, &paste_markdown);
	char want[64];
	compare_verdict_text(want, sizeof want, &c->blocks[0].rows[0]);
	assert_non_null(strstr(want, "slower"));
	char cell[80];
	snprintf(cell, sizeof cell, "| %s |\n", want);
	assert_non_null(strstr(md, cell));
	assert_non_null(strstr(md, "B: x\\|y\\_\\*z\\* &lt;i> (bbbb0002)"));
	assert_non_null(strstr(md, "| Test | A score | A index | B score | B index | Change | ± | Verdict |\n"));
	assert_non_null(strstr(md, "|:---|---:|---:|---:|---:|---:|---:|:---|\n"));
	assert_non_null(strstr(md, "| **System Benchmarks Index Score (partial)** |"));
	/* the last line is the basis the comparison states */
	assert_non_null(strstr(md, c->basis));
	free(md);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* Text within 72 columns even with a long imported label; BBCode never closes its block early. */
static void test_text_and_bbcode(void **state)
{
	struct run *a = mk("aaaa0001", "base", 1), *b = mk("bbbb0002", "evil[/code][b]", 1.3);
	snprintf(a->blocks[0].tests[1].label, sizeof a->blocks[0].tests[1].label, "%s",
		 "A very long label someone pasted from an old forum [and more]");
	snprintf(a->blocks[0].tests[1].id, sizeof a->blocks[0].tests[1].id, "odd");
	struct compare *c = cmp(a, b);
	char *txt;
	capture(&txt, w_compare, c, &paste_text);
	for (char *line = txt, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		assert_true(nl - line <= 72);
	}
	assert_non_null(strstr(txt, "faster"));
	assert_non_null(strstr(txt, "B: evil[/code][b] (bbbb0002)"));
	free(txt);
	char *bb;
	capture(&bb, w_compare, c, &paste_bbcode);
	assert_int_equal(strncmp(bb, "[code]\n", 7), 0);
	char *end = strstr(bb, "\n[/code]\n");
	assert_non_null(end);
	for (char *p = bb + 7; p < end; p++)
		assert_true(*p != '[' && *p != ']');
	assert_non_null(strstr(bb, "B: evil(/code)(b) (bbbb0002)"));
	/* after the block, the footer: one line */
	const char *foot = end + strlen("\n[/code]\n");
	assert_int_equal(strncmp(foot, "Verdicts: ", 10), 0);
	assert_ptr_equal(strchr(foot, '\n'), bb + strlen(bb) - 1);
	free(bb);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* One run's table has its tests, a failed one by its status, and the index row. */
static void test_one_run(void **state)
{
	struct run *r = mk("aaaa0001", "base", 1);
	r->blocks[0].tests[1].status = TEST_FAILED;
	char *md;
	capture(&md, w_run, r, &paste_markdown);
	assert_non_null(strstr(md, "| Test | Score | Unit | ± | Index |\n"));
	assert_non_null(strstr(md, "| System Call Overhead | failed | lps |"));
	assert_non_null(strstr(md, "One run ("));
	free(md);
	run_free(r);
}

static void test_lava(void **state)
{
	char name[64];
	lava_case_name(name, sizeof name, "weird id/with space", NULL, 1);
	assert_string_equal(name, "weird_id_with_space-1copy");
	lava_case_name(name, sizeof name, "index", "-partial", 4);
	assert_string_equal(name, "index-partial-4copies");
	struct run *r = mk("aaaa0001", "base", 1);
	snprintf(r->blocks[0].tests[0].unit, sizeof r->blocks[0].tests[0].unit, "KB s;rm");
	r->blocks[0].tests[1].status = TEST_SKIPPED;
	char *out;
	capture(&out, w_lava, r, NULL);
	char want[200];
	snprintf(want, sizeof want,
		 "lava-test-case dhry2reg-1copy --result pass --measurement %.3f --units KB_s_rm\n"
		 "lava-test-case syscall-1copy --result skip\n",
		 r->blocks[0].tests[0].score);
	assert_int_equal(strncmp(out, want, strlen(want)), 0);
	/* the index of a run that has only some index tests is a partial one, and says so */
	assert_non_null(strstr(out, "lava-test-case index-partial-1copy --result pass --measurement "));
	assert_non_null(strstr(out, " --units index\n"));
	free(out);
	r->blocks[0].tests[1].status = TEST_FAILED;
	capture(&out, w_lava, r, NULL);
	assert_non_null(strstr(out, "lava-test-case syscall-1copy --result fail\n"));
	free(out);
	run_free(r);
}

/* A points run (memlat-like): two headline points and a curve point, 3 samples each. */
static struct run *mk_points(const char *id, double factor)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "%s", id);
	snprintf(r->meta.name, sizeof r->meta.name, "lat");
	r->meta.mode = &run_mode_full;
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = run_block_add_test(b, "memlat", "Memory latency", "ns", 0, 0, "memory");
	t->kind = RESULT_POINTS;
	t->status = TEST_DONE;
	/* test_point finds a point or adds it (moving the others): look each up every time */
	for (int s = 0; s < 3; s++) {
		point_push(test_point(t, "rnd L1", 16384, "B", "ns", true, true), 1.287 * factor * (1 + 0.001 * s));
		point_push(test_point(t, "rnd mem", 1 << 27, "B", "ns", true, true), 91.5 * factor * (1 + 0.001 * s));
		point_push(test_point(t, "rnd 4096", 4096, "B", "ns", true, false), 1.3 * factor);
	}
	return r;
}

/* Points runs paste their headline points (value, unit, spread), not the
 * curve (counted in the footer), and no index row; LAVA gets a measurement
 * per headline point and no index. */
static void test_points(void **state)
{
	struct run *a = mk_points("aaaa0001", 1), *b = mk_points("bbbb0001", 1.001);
	struct compare *c = cmp(a, b);
	char *md;
	capture(&md, w_compare, c, &paste_markdown);
	assert_non_null(strstr(md, "| memlat rnd L1 | 1.288 |"));
	assert_non_null(strstr(md, "| memlat rnd mem | 91.59 |"));
	assert_null(strstr(md, "rnd 4096"));
	assert_null(strstr(md, "Index"));
	assert_non_null(strstr(md, "Curve points, not listed: 1,"));
	char *txt;
	capture(&txt, w_run, a, &paste_text);
	assert_non_null(strstr(txt, "memlat rnd L1"));
	assert_non_null(strstr(txt, "1.288 ns"));
	assert_null(strstr(txt, "Index Score"));
	char *lava;
	capture(&lava, w_lava, a, NULL);
	assert_non_null(strstr(lava, "lava-test-case memlat-rnd_L1-1copy --result pass --measurement 1.288 --units ns\n"));
	assert_non_null(strstr(lava, "memlat-rnd_mem-1copy --result pass"));
	assert_null(strstr(lava, "rnd_4096"));
	assert_null(strstr(lava, "index"));
	free(md);
	free(txt);
	free(lava);
	compare_free(c);
	run_free(a);
	run_free(b);
}

/* timerlat-like points with long names beside memlat's short ones. */
static struct run *mk_lat(const char *id, double factor)
{
	struct run *r = mk_points(id, factor);
	struct test_result *t = run_block_add_test(&r->blocks[0], "timerlat", "Timer wake-up latency", "us", 0,
						   0, "latency");
	t->kind = RESULT_POINTS;
	t->status = TEST_DONE;
	static const char *const names[] = { "other p50", "other+burn p50", "other+burn p99", "other+burn p99.9" };
	for (int s = 0; s < 3; s++)
		for (int i = 0; i < 4; i++)
			point_push(test_point(t, names[i], 0, "", "us", true, true),
				   (4000.0 + 1000 * i) * factor * (1 + 0.01 * s));
	return r;
}

/* A text table too wide for the mail's 72 columns drops a points test's id
 * from all its rows rather than cut their names to "timerlat other+burn p". */
static void test_text_drops_the_id(void **state)
{
	(void)state;
	struct run *a = mk_lat("aaaa0002", 1), *b = mk_lat("bbbb0002", 1.001);
	struct compare *c = cmp(a, b);
	char *txt;
	capture(&txt, w_compare, c, &paste_text);
	assert_null(strstr(txt, "timerlat other+burn p "));
	assert_non_null(strstr(txt, "\nother+burn p50 "));
	assert_non_null(strstr(txt, "\nother+burn p99.9 "));
	assert_non_null(strstr(txt, "\nother p50 ")); /* every row of the test, not only the long ones */
	assert_non_null(strstr(txt, "\nmemlat rnd L1 ")); /* a test whose rows fit keeps its id */
	for (const char *l = txt; *l;) {
		size_t n = strcspn(l, "\n");
		if (n > 72)
			fail_msg("a line of %zu columns: %.*s", n, (int)n, l);
		l += n + (l[n] == '\n');
	}
	char *md; /* markdown has no width to keep: the labels whole */
	capture(&md, w_compare, c, &paste_markdown);
	assert_non_null(strstr(md, "| timerlat other+burn p99.9 |"));
	free(txt);
	free(md);
	compare_free(c);
	run_free(a);
	run_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_text_and_bbcode), cmocka_unit_test(test_one_run),
		cmocka_unit_test(test_lava), cmocka_unit_test(test_points),
		cmocka_unit_test(test_text_drops_the_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
