/* Unit tests of the run file: every field survives a round trip, and bad files are refused with the field named. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run.h"
#include "runfile.h"

static struct run *full_run(void)
{
	struct run *r = run_new();
	struct run_meta *m = &r->meta;
	snprintf(m->id, sizeof m->id, "0badcafe");
	snprintf(m->name, sizeof m->name, "6.8.0-pf3");
	snprintf(m->kbench_version, sizeof m->kbench_version, "0.1.0");
	snprintf(m->build_flags, sizeof m->build_flags, "cc -O2");
	snprintf(m->hostname, sizeof m->hostname, "netbook");
	snprintf(m->os, sizeof m->os, "GNU/Linux");
	snprintf(m->kernel_release, sizeof m->kernel_release, "6.8.0-pf3");
	snprintf(m->kernel_version, sizeof m->kernel_version, "#1 SMP PREEMPT");
	snprintf(m->machine, sizeof m->machine, "x86_64");
	snprintf(m->cmdline, sizeof m->cmdline, "root=/dev/sda1 mitigations=off \"quoted\"");
	snprintf(m->cpu_model, sizeof m->cpu_model, "Intel Atom N270");
	snprintf(m->cpu_flags, sizeof m->cpu_flags, "MMX, SYSENTER/SYSEXIT");
	m->bogomips = 3192.25;
	m->ncpus = 2;
	snprintf(m->governor, sizeof m->governor, "performance");
	snprintf(m->boost, sizeof m->boost, "n/a");
	snprintf(m->mitigations, sizeof m->mitigations, "spectre_v2: Mitigation");
	snprintf(m->microcode, sizeof m->microcode, "0x20");
	m->mem_kib = 2048000;
	snprintf(m->lang, sizeof m->lang, "en_US.utf8");
	snprintf(m->charmap, sizeof m->charmap, "\"UTF-8\"");
	snprintf(m->collate, sizeof m->collate, "\"UTF-8\"");
	snprintf(m->uptime, sizeof m->uptime, "up 3 days");
	m->date = 1796032800;
	snprintf(m->mode, sizeof m->mode, "quick");
	m->duration_override = 1.5;
	m->iterations = 3;
	r->incomplete = true;
	for (int copies = 1; copies <= 2; copies++) {
		struct run_block *b = run_add_block(r, copies);
		b->start = 1796032800 + copies;
		b->end = b->start + 60;
		struct test_result *t = run_block_add_test(b, "dhry2reg", "Dhrystone 2 using register variables",
							   "lps", 1, 116700, "system");
		t->status = TEST_DONE;
		for (int s = 0; s < 3; s++) {
			struct sample *sm = test_add_sample(t, copies);
			sm->start = s * 10.25;
			for (int c = 0; c < copies; c++) {
				sm->count[c] = 1e8 + s * 12345 + c;
				sm->elapsed[c] = 10.0 + 0.001 * s + 0.1 * c;
			}
		}
		test_summary_set(t, "freq_mhz", 1600.5, NULL);
		test_summary_set(t, "throttle", 0, "none seen");
		run_rescore(r);
		struct test_result *f = run_block_add_test(b, "spawn", "Process Creation", "lps", 1, 126, "system");
		f->status = TEST_FAILED;
		snprintf(f->reason, sizeof f->reason, "fork: Resource temporarily unavailable");
	}
	struct series *s = run_series(r, "cpu0 MHz", "MHz");
	for (int i = 0; i < 5; i++)
		series_push(s, i * 0.5, 1600 + i);
	run_add_marker(r, 1.25, "begin dhry2reg 1 copy sample 1");
	run_add_note(r, "governor is powersave: scores will be low");
	return r;
}

static void test_round_trip(void **state)
{
	struct run *r = full_run();
	char err[256];
	char *a = runfile_dump(r, err, sizeof err);
	assert_non_null(a);
	struct run *back = runfile_parse(a, strlen(a), "test", err, sizeof err);
	assert_non_null(back);
	char *b = runfile_dump(back, err, sizeof err);
	assert_string_equal(a, b); /* nothing lost, nothing added */
	assert_string_equal(back->meta.cmdline, r->meta.cmdline);
	assert_int_equal(back->meta.date, r->meta.date);
	assert_int_equal(back->meta.mem_kib, 2048000);
	assert_true(back->incomplete);
	assert_int_equal(back->nblocks, 2);
	const struct test_result *t = &back->blocks[1].tests[0];
	assert_int_equal(t->nsamples, 3);
	assert_int_equal(t->samples[2].copies, 2);
	assert_float_equal(t->samples[2].count[1], 1e8 + 2 * 12345 + 1, 0);
	assert_float_equal(t->samples[2].elapsed[1], 10.102, 1e-12);
	assert_float_equal(t->score, r->blocks[1].tests[0].score, 0);
	assert_int_equal(back->blocks[0].tests[1].status, TEST_FAILED);
	assert_string_equal(back->blocks[0].tests[1].reason, "fork: Resource temporarily unavailable");
	assert_non_null(test_summary_get(t, "throttle"));
	assert_string_equal(test_summary_get(t, "throttle")->text, "none seen");
	assert_float_equal(test_summary_get(t, "freq_mhz")->value, 1600.5, 0);
	assert_int_equal(back->nseries, 1);
	assert_int_equal(back->series[0].n, 5);
	assert_string_equal(back->markers[0].what, "begin dhry2reg 1 copy sample 1");
	assert_string_equal(back->notes[0], "governor is powersave: scores will be low");
	free(a);
	free(b);
	run_free(r);
	run_free(back);
}

static void test_newer_major_refused(void **state)
{
	const char *text = "{\"format\":{\"major\":2,\"minor\":0},\"blocks\":[]}";
	char err[256] = "";
	assert_null(runfile_parse(text, strlen(text), "run file x.json", err, sizeof err));
	assert_non_null(strstr(err, "x.json"));
	assert_non_null(strstr(err, "newer"));
	/* A newer minor is read: unknown fields are ignored. */
	const char *minor = "{\"format\":{\"major\":1,\"minor\":7},\"future\":[1,2],\"blocks\":[]}";
	struct run *r = runfile_parse(minor, strlen(minor), "m", err, sizeof err);
	assert_non_null(r);
	run_free(r);
}

static void expect_error(const char *text, const char *needle)
{
	char err[256] = "";
	struct run *r = runfile_parse(text, strlen(text), "f.json", err, sizeof err);
	if (r)
		fail_msg("parsed: %s", text);
	if (!strstr(err, needle))
		fail_msg("error '%s' lacks '%s'", err, needle);
}

static void test_bad_files(void **state)
{
	expect_error("", "line");
	expect_error("{\"format\":{\"major\":1", "line 1");
	expect_error("[1,2]", "not a JSON object");
	expect_error("{\"blocks\":[]}", "format");
	expect_error("{\"format\":{\"major\":1},\"meta\":{\"name\":5}}", "meta.name");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"score\":\"fast\"}]}]}",
		     "blocks[0].tests[0].score");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"score\":-3}]}]}",
		     "negative");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"samples\":[{\"count\":[1,2],\"elapsed\":[1]}]}]}]}",
		     "elapsed");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":-4}]}", "copies");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"status\":\"weird\"}]}]}",
		     "status");
	expect_error("{\"format\":{\"major\":1},\"a\":1,\"a\":2}", "line");
}

static void test_truncated_everywhere(void **state)
{
	/* Every prefix of a good file is refused or read, never a crash. */
	struct run *r = full_run();
	char err[256];
	char *a = runfile_dump(r, err, sizeof err);
	size_t len = strlen(a);
	for (size_t n = 0; n < len; n += 7) {
		struct run *x = runfile_parse(a, n, "t", err, sizeof err);
		assert_null(x);
		assert_true(err[0] != 0);
	}
	free(a);
	run_free(r);
}

static void test_bad_utf8_saved(void **state)
{
	struct run *r = run_new();
	snprintf(r->meta.hostname, sizeof r->meta.hostname, "caf\xe9-box");
	char err[256];
	char *a = runfile_dump(r, err, sizeof err);
	assert_non_null(a);
	struct run *back = runfile_parse(a, strlen(a), "t", err, sizeof err);
	assert_non_null(back);
	assert_string_equal(back->meta.hostname, "caf?-box");
	free(a);
	run_free(r);
	run_free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip), cmocka_unit_test(test_newer_major_refused),
		cmocka_unit_test(test_bad_files), cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_bad_utf8_saved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
