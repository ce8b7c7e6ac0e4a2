/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the importer: every published format in tests/fixtures, messy pastes and broken files. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "import.h"
#include "run.h"
#include "runfile.h"

static const char *fixture(const char *name)
{
	static char path[4][512];
	static int k;
	const char *top = getenv("KBENCH_TOP");
	char *p = path[k++ % 4];
	snprintf(p, 512, "%s/tests/fixtures/%s", top ? top : ".", name);
	return p;
}

static void load(const char *name, const char *as, struct import_result *res)
{
	char err[512];
	if (import_file(fixture(name), as, res, err, sizeof err) < 0)
		fail_msg("%s", err);
}

static const struct test_result *find(const struct run *r, int copies, const char *id)
{
	const struct run_block *b = run_find_block(r, copies);
	return b ? run_block_find_test(b, id) : NULL;
}

/* Does one of the n sentences hold needle? */
static bool any_holds(char *const *v, int n, const char *needle)
{
	for (int i = 0; i < n; i++)
		if (strstr(v[i], needle))
			return true;
	return false;
}

static bool warned(const struct import_result *res, const char *needle)
{
	return any_holds(res->warnings, res->nwarnings, needle);
}

/* The 12 reference scores of UNIXBENCH.md §9, as the fixtures hold them. */
static void check_reference_block(const struct run *r)
{
	const struct run_block *b = run_find_block(r, 1);
	assert_non_null(b);
	assert_int_equal(b->ntests, 12);
	assert_float_equal(b->index_score, 834.1, 1e-9);
	assert_false(b->index_partial);
	const struct test_result *t = find(r, 1, "dhry2reg");
	assert_non_null(t);
	assert_float_equal(t->score, 38040918.7, 1e-6);
	assert_float_equal(t->index, 3259.7, 1e-9);
	assert_float_equal(t->baseline, 116700, 0);
	assert_int_equal(t->status, TEST_IMPORTED);
	assert_int_equal(t->nsamples, 0);
	assert_float_equal(find(r, 1, "shell8")->score, 1131.6, 1e-9);
	assert_float_equal(find(r, 1, "spawn")->index, 272.8, 1e-9);
	/* UnixBench's test order, whatever order the log printed. */
	assert_string_equal(b->tests[0].id, "dhry2reg");
	assert_string_equal(b->tests[11].id, "shell8");
}

static void test_log_one_copy(void **state)
{
	struct import_result res;
	load("ub6-1copy.log", NULL, &res);
	assert_int_equal(res.nruns, 1);
	assert_int_equal(res.nwarnings, 0);
	const struct run *r = res.runs[0];
	check_reference_block(r);
	assert_string_equal(r->meta.kernel_release, "6.1.0-13-amd64");
	assert_string_equal(r->meta.name, "6.1.0-13-amd64");
	assert_string_equal(r->meta.hostname, "vm");
	assert_string_equal(r->meta.cpu_model, "AMD EPYC");
	assert_float_equal(r->meta.bogomips, 4890.8, 1e-9);
	assert_int_equal(r->meta.ncpus, 2);
	assert_ptr_equal(r->meta.mode, &run_mode_imported);
	assert_string_equal(r->meta.kbench_version, "UnixBench 6.0.0");
	assert_float_equal(find(r, 1, "dhry2reg")->time, 10.0, 1e-9);
	assert_int_equal(find(r, 1, "dhry2reg")->kept, 7);
	import_result_free(&res);
}

static void test_log_multi_copy(void **state)
{
	struct import_result res;
	load("ub5-2copies.log", "stock", &res);
	assert_int_equal(res.nruns, 1);
	const struct run *r = res.runs[0];
	assert_string_equal(r->meta.name, "stock");
	assert_string_equal(r->meta.kernel_release, "5.15.0-91-generic");
	assert_int_equal(r->nblocks, 2);
	check_reference_block(r);
	assert_non_null(run_find_block(r, 2));
	assert_float_equal(run_find_block(r, 2)->index_score, 1389.3, 1e-9);
	assert_float_equal(find(r, 2, "pipe")->score, 1750333.9, 1e-6);
	assert_true(run_find_block(r, 1)->start > 0);
	import_result_free(&res);
}

static void test_collapsed(void **state)
{
	struct import_result res;
	load("collapsed.txt", NULL, &res);
	assert_int_equal(res.nruns, 1);
	const struct run *r = res.runs[0];
	assert_int_equal(r->nblocks, 2);
	check_reference_block(r);
	assert_string_equal(r->meta.kernel_release, "5.15.0-91-generic");
	assert_string_equal(r->meta.cpu_model, "AMD EPYC");
	assert_float_equal(find(r, 2, "shell1")->score, 9112.7, 1e-9);
	import_result_free(&res);
}

static void test_tables(void **state)
{
	const char *files[] = { "table.md", "table.tsv", "table-spaces.txt" };
	const int blocks[] = { 2, 1, 2 };
	for (int i = 0; i < 3; i++) {
		struct import_result res;
		load(files[i], NULL, &res);
		assert_int_equal(res.nruns, 1);
		const struct run *r = res.runs[0];
		assert_int_equal(r->nblocks, blocks[i]);
		check_reference_block(r);
		if (blocks[i] == 2)
			assert_float_equal(run_find_block(r, 2)->index_score, 1389.3, 1e-9);
		import_result_free(&res);
	}
	struct import_result res;
	load("table.md", NULL, &res);
	assert_string_equal(res.runs[0]->meta.kernel_release, "6.8.0-pf3");
	assert_string_equal(res.runs[0]->meta.name, "6.8.0-pf3");
	import_result_free(&res);
	load("table.tsv", "mine", &res);
	assert_string_equal(res.runs[0]->meta.name, "mine");
	import_result_free(&res);
}

static void test_messy(void **state)
{
	struct import_result res;
	load("messy.log", NULL, &res);
	assert_int_equal(res.nruns, 1);
	const struct run *r = res.runs[0];
	/* The index table wins over a disagreeing result line. */
	assert_float_equal(find(r, 1, "execl")->score, 1674.8, 1e-9);
	assert_true(warned(&res, "Execl Throughput: the result line says 1700.0"));
	assert_true(warned(&res, "Pipe Throughput is listed again"));
	assert_true(warned(&res, "stated index score 900.0 differs from 834.1"));
	assert_float_equal(run_find_block(r, 1)->index_score, 900.0, 1e-9); /* kept, warned */
	/* Warnings carry the file and the line. */
	assert_true(warned(&res, "messy.log:21:"));
	import_result_free(&res);
}

static void test_partial(void **state)
{
	struct import_result res;
	load("partial.log", NULL, &res);
	const struct run_block *b = run_find_block(res.runs[0], 1);
	assert_int_equal(b->ntests, 2);
	assert_true(b->index_partial);
	assert_float_equal(b->index_score, 1545.2, 1e-9);
	import_result_free(&res);
}

static void expect_fail(const char *name, const char *needle)
{
	struct import_result res;
	char err[512] = "";
	if (import_file(fixture(name), NULL, &res, err, sizeof err) == 0)
		fail_msg("%s imported", name);
	if (!strstr(err, name) || !strstr(err, needle))
		fail_msg("error '%s' lacks '%s'", err, needle);
	assert_int_equal(res.nruns, 0);
}

static void test_broken(void **state)
{
	expect_fail("broken-noresults.txt", "no UnixBench results");
	expect_fail("broken-garbage.txt", "no UnixBench results");
	expect_fail("broken-negative.log", "line 18: score of Dhrystone 2 using register variables is negative");
	expect_fail("broken-table.md", "line 3: score of Pipe Throughput is not a number");
	expect_fail("broken-paste-empty.txt", "line 4: block has no results");
	expect_fail("no-such-file", "No such file");
	/* A truncated log keeps what it has and says what is missing. */
	struct import_result res;
	load("broken-truncated.log", NULL, &res);
	assert_true(warned(&res, "no index table"));
	import_result_free(&res);
}

/* A fixture's text, for the tests that cut or wrap it the way a paste does. */
static char *slurp(const char *name)
{
	FILE *f = fopen(fixture(name), "rb");
	if (!f)
		fail_msg("cannot open %s", name);
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static void import_string(const char *text, struct import_result *res)
{
	char err[512];
	if (import_text(text, strlen(text), "paste", NULL, res, err, sizeof err) < 0)
		fail_msg("%s", err);
}

static bool noted(const struct run *r, const char *needle)
{
	return any_holds(r->notes, r->nnotes, needle);
}

/* The 1-copy block of the paste fixtures: a 2-CPU laptop, index 711.9. */
static void check_laptop_block(const struct run *r)
{
	const struct run_block *b = run_find_block(r, 1);
	assert_non_null(b);
	assert_int_equal(b->ntests, 12);
	assert_false(b->index_partial);
	assert_float_equal(b->index_score, 711.9, 1e-9);
	assert_float_equal(find(r, 1, "dhry2reg")->score, 24512345.6, 1e-6);
	assert_float_equal(find(r, 1, "dhry2reg")->index, 2100.5, 1e-9);
	assert_float_equal(find(r, 1, "shell8")->score, 912.3, 1e-9);
	assert_float_equal(find(r, 1, "syscall")->index, 304.5, 1e-9);
	assert_string_equal(b->tests[11].id, "shell8");
}

static void test_paste_from_rule(void **state)
{
	/* Banner and "Benchmark Run:" lost: the block starts at its "running" line. */
	const char *files[] = { "paste-rule.txt", "paste-quoted.txt", "paste-blog.txt" };
	for (int i = 0; i < 3; i++) {
		struct import_result res;
		load(files[i], NULL, &res);
		assert_int_equal(res.nruns, 1);
		if (res.nwarnings)
			fail_msg("%s: %s", files[i], res.warnings[0]);
		const struct run *r = res.runs[0];
		assert_int_equal(r->nblocks, 1);
		check_laptop_block(r);
		assert_string_equal(r->meta.name, files[i]);
		assert_int_equal(r->meta.ncpus, 2);
		/* The result lines were read too: times and kept samples. */
		assert_float_equal(find(r, 1, "whetstone-double")->time, 9.9, 1e-9);
		assert_int_equal(find(r, 1, "execl")->kept, 2);
		assert_int_equal(r->nnotes, 0); /* the copies were stated */
		assert_int_equal(run_find_block(r, 1)->start, 0);
		import_result_free(&res);
	}
}

static void test_paste_crlf(void **state)
{
	char *t = slurp("paste-crlf.txt");
	assert_non_null(strstr(t, "copies of tests\r\n")); /* the fixture kept its CR LF (tests/.gitattributes) */
	free(t);
	struct import_result res;
	load("paste-crlf.txt", NULL, &res);
	assert_int_equal(res.nwarnings, 0);
	const struct run *r = res.runs[0];
	assert_int_equal(r->nblocks, 1);
	assert_null(run_find_block(r, 1));
	const struct run_block *b = run_find_block(r, 2);
	assert_non_null(b);
	assert_int_equal(b->ntests, 12);
	assert_float_equal(b->index_score, 1117.2, 1e-9);
	assert_float_equal(find(r, 2, "pipe")->score, 1187654.3, 1e-6);
	assert_string_equal(find(r, 2, "shell1")->unit, "lpm");
	assert_int_equal(find(r, 2, "shell1")->kept, 2);
	import_result_free(&res);
}

static void test_paste_index_only(void **state)
{
	struct import_result res;
	load("paste-index-only.txt", NULL, &res);
	assert_int_equal(res.nruns, 1);
	const struct run *r = res.runs[0];
	const struct run_block *b = run_find_block(r, 1);
	assert_non_null(b);
	assert_int_equal(b->ntests, 12);
	assert_false(b->index_partial);
	assert_float_equal(b->index_score, 571.9, 1e-9);
	assert_float_equal(find(r, 1, "fsdisk")->score, 812345.6, 1e-6);
	assert_float_equal(find(r, 1, "fsdisk")->index, 1400.6, 1e-9);
	assert_int_equal(find(r, 1, "fsdisk")->kept, 0); /* no result lines: no samples stated */
	/* One copy is a guess: said on stderr and kept with the run. */
	assert_true(warned(&res, "paste-index-only.txt:1: block does not say how many copies ran"));
	assert_int_equal(r->nnotes, 1);
	assert_true(noted(r, "paste-index-only.txt:1 does not say how many copies ran; 1 copy assumed"));
	import_result_free(&res);
}

static void test_paste_partial(void **state)
{
	struct import_result res;
	load("paste-partial.txt", NULL, &res);
	assert_int_equal(res.nwarnings, 0);
	const struct run_block *b = run_find_block(res.runs[0], 1);
	assert_non_null(b);
	assert_int_equal(b->ntests, 4);
	assert_int_equal(b->index_tests, 4);
	assert_true(b->index_partial);
	assert_float_equal(b->index_score, 669.7, 1e-9);
	assert_null(run_block_find_test(b, "execl"));
	assert_float_equal(run_block_find_test(b, "syscall")->score, 456789.1, 1e-6);
	import_result_free(&res);
}

static void test_paste_two_blocks(void **state)
{
	/* The second block starts only at "running 2 parallel copies of tests". */
	struct import_result res;
	load("paste-2blocks.txt", "n4020", &res);
	assert_int_equal(res.nwarnings, 0);
	assert_int_equal(res.nruns, 1);
	const struct run *r = res.runs[0];
	assert_string_equal(r->meta.name, "n4020");
	assert_int_equal(r->nblocks, 2);
	check_laptop_block(r);
	const struct run_block *b2 = run_find_block(r, 2);
	assert_non_null(b2);
	assert_int_equal(b2->ntests, 12);
	assert_float_equal(b2->index_score, 1117.2, 1e-9);
	assert_float_equal(find(r, 2, "dhry2reg")->score, 48123456.9, 1e-6);
	assert_int_equal(r->nnotes, 0);
	import_result_free(&res);

	/* A full log whose second block lost its rule and "Benchmark Run:" line. */
	char *t = slurp("ub5-2copies.log");
	char *second = strstr(strstr(t, "Benchmark Run:") + 1, "Benchmark Run:");
	assert_non_null(second);
	char *rule = second - 1;
	while (rule > t && rule[-1] != '\n')
		rule--; /* the dashes line's start */
	rule--;
	while (rule > t && rule[-1] != '\n')
		rule--;
	memmove(rule, strchr(second, '\n') + 1, strlen(strchr(second, '\n') + 1) + 1);
	assert_null(strstr(strstr(t, "Benchmark Run:") + 1, "Benchmark Run:"));
	import_string(t, &res);
	free(t);
	assert_int_equal(res.nwarnings, 0);
	r = res.runs[0];
	assert_int_equal(r->nblocks, 2);
	check_reference_block(r);
	assert_true(run_find_block(r, 1)->start > 0);
	assert_int_equal(run_find_block(r, 2)->start, 0);
	assert_float_equal(run_find_block(r, 2)->index_score, 1389.3, 1e-9);
	import_result_free(&res);
}

static void test_paste_odd_shapes(void **state)
{
	/* Result lines and index table, both header lines lost: the block starts at
	 * the table and keeps the result lines just above it. */
	char *t = slurp("paste-rule.txt");
	char *body = strchr(strchr(t, '\n') + 1, '\n') + 1;
	struct import_result res;
	import_string(body, &res);
	const struct run *r = res.runs[0];
	check_laptop_block(r);
	assert_int_equal(find(r, 1, "dhry2reg")->kept, 7);
	assert_float_equal(find(r, 1, "execl")->time, 29.9, 1e-9);
	assert_true(noted(r, "1 copy assumed"));
	import_result_free(&res);
	free(t);

	/* UnixBench prints each category's table in hash order: one block, two tables. */
	const char *cats =
		"1 CPU in system; running 1 parallel copy of tests\n\n"
		"Dhrystone 2 using register variables       24512345.6 lps   (10.0 s, 7 samples)\n"
		"Grep a large file (system's grep)              1234.5 lpm   (30.0 s, 2 samples)\n\n"
		"Non-Index Benchmarks Partial Index           BASELINE       RESULT    INDEX\n"
		"Grep a large file (system's grep)                 1.0       1234.5  12345.0\n"
		"                                                                   ========\n"
		"Non-Index Benchmarks Index Score (Partial Only)                    12345.0\n\n"
		"System Benchmarks Partial Index              BASELINE       RESULT    INDEX\n"
		"Dhrystone 2 using register variables         116700.0   24512345.6   2100.5\n"
		"                                                                   ========\n"
		"System Benchmarks Index Score (Partial Only)                         2100.5\n\n"
		"Pipe Throughput was not run this time.\n";
	import_string(cats, &res);
	assert_int_equal(res.nwarnings, 0);
	r = res.runs[0];
	assert_int_equal(r->nblocks, 1);
	assert_int_equal(r->meta.ncpus, 1);
	assert_int_equal(r->blocks[0].ntests, 2);
	assert_true(r->blocks[0].index_partial);
	assert_float_equal(r->blocks[0].index_score, 2100.5, 1e-9);
	assert_float_equal(find(r, 1, "grep")->score, 1234.5, 1e-9);
	import_result_free(&res);
}

static void test_paste_quoted_table(void **state)
{
	/* A markdown table quoted in a forum reply, saved by an editor that writes a byte order mark. */
	struct import_result res;
	char *t = slurp("table.md");
	char *q = malloc(3 * strlen(t) + 8), *w = q;
	w += sprintf(w, "\xef\xbb\xbf");
	for (char *line = t; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
		w += sprintf(w, "> %.*s", (int)len, line);
		line += len;
	}
	import_string(q, &res);
	assert_int_equal(res.nwarnings, 0);
	assert_int_equal(res.runs[0]->nblocks, 2);
	check_reference_block(res.runs[0]);
	import_result_free(&res);
	free(q);
	free(t);
}

static void test_hostile_text(void **state)
{
	/* Long lines, labels without numbers, numbers without end. */
	size_t n = 1 << 20;
	char *t = malloc(n + 200);
	memset(t, 'x', n);
	strcpy(t + n, " Benchmark Run: Pipe Throughput Pipe Throughput 1e999 lps ( System Benchmarks Index Score -");
	struct import_result res;
	char err[512];
	assert_int_equal(import_text(t, strlen(t), "hostile", NULL, &res, err, sizeof err) < 0, 1);
	free(t);
	const char *s = "| Test | Score | Index |\n| Pipe Throughput | 99999999999999999999999999999999999999999999 | 3 |\n";
	import_text(s, strlen(s), "big", NULL, &res, err, sizeof err);
	import_result_free(&res);
	/* A block that begins at the text's first byte, on a line shaped like a result
	 * of an unknown test (found by the fuzzer: a read before the buffer). */
	s = "1 CPU in system; running 1 parallel copy of tests (10.0 s, 7 samples)\n"
	    "Pipe Throughput 911212.4 lps (10.0 s, 7 samples)\n";
	assert_int_equal(import_text(s, strlen(s), "digit", NULL, &res, err, sizeof err), 0);
	assert_true(warned(&res, "digit:1: unknown test '1 CPU in system; running 1 parallel copy of tests"));
	assert_float_equal(find(res.runs[0], 1, "pipe")->score, 911212.4, 1e-6);
	import_result_free(&res);
}

/* A kbench run file from another machine: the run as measured, marked with its file; not a run: one sentence. */
static void test_runfile(void **state)
{
	struct run *r = run_new();
	snprintf(r->meta.id, sizeof r->meta.id, "0badc0de");
	snprintf(r->meta.name, sizeof r->meta.name, "6.1.0-lab");
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "board7");
	r->meta.mode = &run_mode_quick;
	struct test_result *t = run_block_add_test(run_add_block(r, 2), "pipe", "Pipe Throughput", "lps", 1,
						   12440, "system");
	t->status = TEST_DONE;
	struct sample *s = test_add_sample(t, 2);
	s->count[0] = 1e6, s->count[1] = 2e6, s->elapsed[0] = s->elapsed[1] = 10;
	char err[512];
	char *text = runfile_dump(r, err, sizeof err);
	assert_non_null(text);
	struct import_result res;
	/* leading blanks (a file written by hand) do not hide it */
	char *padded = malloc(strlen(text) + 3);
	sprintf(padded, "\n %s", text);
	assert_int_equal(import_text(padded, strlen(padded), "lab/board7.json", "renamed", &res, err, sizeof err), 0);
	assert_true(res.runfile);
	assert_int_equal(res.nruns, 1);
	const struct run *got = res.runs[0];
	assert_string_equal(got->meta.id, "0badc0de");
	assert_string_equal(got->meta.name, "renamed");
	assert_string_equal(got->meta.hostname, "board7");
	assert_ptr_equal(got->meta.mode, &run_mode_quick);
	assert_string_equal(got->meta.source, "lab/board7.json");
	assert_int_equal(got->blocks[0].copies, 2);
	assert_int_equal(got->blocks[0].tests[0].nsamples, 1);
	assert_true(got->blocks[0].tests[0].samples[0].count[1] == 2e6);
	assert_true(any_holds(got->notes, got->nnotes, "imported from lab/board7.json (measured on board7)"));
	import_result_free(&res);
	/* JSON that is not a run, and a cut one: -EINVAL, one sentence naming the file */
	const char *bad[] = { "{\"results\": [1, 2]}", "{\"format\": {\"major\": 1, \"minor\": 1}, \"meta\": {" };
	for (int i = 0; i < 2; i++) {
		assert_int_equal(import_text(bad[i], strlen(bad[i]), "x.json", NULL, &res, err, sizeof err), -EINVAL);
		assert_int_equal(strncmp(err, "x.json: ", 8), 0);
		assert_null(strchr(err, '\n'));
		assert_int_equal(res.nruns, 0);
	}
	free(padded);
	free(text);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_one_copy), cmocka_unit_test(test_log_multi_copy),
		cmocka_unit_test(test_collapsed),    cmocka_unit_test(test_tables),
		cmocka_unit_test(test_messy),	     cmocka_unit_test(test_partial),
		cmocka_unit_test(test_broken),	     cmocka_unit_test(test_hostile_text),
		cmocka_unit_test(test_paste_from_rule), cmocka_unit_test(test_paste_crlf),
		cmocka_unit_test(test_paste_index_only), cmocka_unit_test(test_paste_partial),
		cmocka_unit_test(test_paste_two_blocks), cmocka_unit_test(test_paste_odd_shapes),
		cmocka_unit_test(test_paste_quoted_table), cmocka_unit_test(test_runfile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
