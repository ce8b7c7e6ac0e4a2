/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#include "score.h"
#include "thermal.h"

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
	m->mode = &run_mode_quick;
	m->duration_override = 1.5;
	m->iterations = 3;
	snprintf(m->scratch_dir, sizeof m->scratch_dir, "/mnt/scratch disk");
	snprintf(m->fs_type, sizeof m->fs_type, "xfs");
	snprintf(m->fs_options, sizeof m->fs_options, "rw,noatime");
	snprintf(m->fs_source, sizeof m->fs_source, "/dev/nvme0n1p2");
	snprintf(m->io_scheduler, sizeof m->io_scheduler, "mq-deadline");
	m->swap_known = true;
	m->swap_total_kib = 1572856;
	m->swap_used_kib = 2048;
	snprintf(m->thp_enabled, sizeof m->thp_enabled, "madvise");
	snprintf(m->thp_defrag, sizeof m->thp_defrag, "defer+madvise");
	snprintf(m->clocksource, sizeof m->clocksource, "kvm-clock");
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

/* A telemetry source's "n/a: why" sentence is kept whole in a test's summary and
 * through a save and a read (the thermal summary printed "(Intel only; not on AMD, AR"
 * when the field held 95 characters). */
static void test_long_summary_text_kept(void **state)
{
	(void)state;
	const char *why = "n/a: nothing here can show throttling: no thermal_throttle counters (Intel only; "
			  "not on AMD, ARM or in VMs) and no CPU cooling devices in /sys/class/thermal";
	struct run *r = full_run();
	struct test_result *t = &r->blocks[1].tests[0];
	test_summary_set(t, "throttle.events", 0, why);
	assert_string_equal(test_summary_get(t, "throttle.events")->text, why);
	char err[256];
	char *a = runfile_dump(r, err, sizeof err);
	assert_non_null(a);
	struct run *back = runfile_parse(a, strlen(a), "test", err, sizeof err);
	assert_non_null(back);
	assert_string_equal(test_summary_get(&back->blocks[1].tests[0], "throttle.events")->text, why);
	free(a);
	run_free(r);
	run_free(back);
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
	assert_non_null(strstr(a, "\"minor\": 2"));
	assert_string_equal(back->meta.scratch_dir, "/mnt/scratch disk");
	assert_string_equal(back->meta.fs_type, "xfs");
	assert_string_equal(back->meta.fs_options, "rw,noatime");
	assert_string_equal(back->meta.fs_source, "/dev/nvme0n1p2");
	assert_string_equal(back->meta.io_scheduler, "mq-deadline");
	assert_true(back->meta.swap_known);
	assert_int_equal(back->meta.swap_total_kib, 1572856);
	assert_int_equal(back->meta.swap_used_kib, 2048);
	assert_string_equal(back->meta.thp_enabled, "madvise");
	assert_string_equal(back->meta.thp_defrag, "defer+madvise");
	assert_string_equal(back->meta.clocksource, "kvm-clock");
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

/* No swap is known and 0; unknown swap is written as null and stays unknown. */
static void test_swap_none_and_unknown(void **state)
{
	char err[256];
	struct run *r = run_new();
	r->meta.swap_known = true;
	char *a = runfile_dump(r, err, sizeof err);
	struct run *back = runfile_parse(a, strlen(a), "t", err, sizeof err);
	assert_non_null(back);
	assert_true(back->meta.swap_known);
	assert_int_equal(back->meta.swap_total_kib, 0);
	free(a);
	run_free(back);
	r->meta.swap_known = false;
	r->meta.swap_total_kib = 77;
	a = runfile_dump(r, err, sizeof err);
	assert_non_null(strstr(a, "\"swap_total_kib\": null"));
	back = runfile_parse(a, strlen(a), "t", err, sizeof err);
	assert_non_null(back);
	assert_false(back->meta.swap_known);
	assert_int_equal(back->meta.swap_total_kib, 0);
	free(a);
	run_free(back);
	run_free(r);
}

/* A file kbench wrote as format 1.0 (before the storage fields) still reads:
 * the new fields are unknown, everything else is there, and it writes back as 1.2. */
static void test_format_1_0_reads(void **state)
{
	char path[512], err[512];
	const char *top = getenv("KBENCH_TOP");
	snprintf(path, sizeof path, "%s/tests/fixtures/run-1.0.json", top ? top : ".");
	struct run *r = runfile_read(path, err, sizeof err);
	if (!r)
		fail_msg("%s", err);
	assert_string_equal(r->meta.name, "old-1.0");
	assert_string_equal(r->meta.kernel_release, "6.18.44-fc-v1045");
	assert_int_equal(r->nblocks, 1);
	assert_string_equal(r->blocks[0].tests[0].id, "syscall");
	assert_string_equal(r->meta.scratch_dir, "");
	assert_string_equal(r->meta.fs_type, "");
	assert_string_equal(r->meta.io_scheduler, "");
	assert_string_equal(r->meta.thp_enabled, "");
	assert_string_equal(r->meta.clocksource, "");
	assert_false(r->meta.swap_known);
	char *a = runfile_dump(r, err, sizeof err);
	assert_non_null(strstr(a, "\"minor\": 2"));
	assert_non_null(strstr(a, "\"swap_total_kib\": null"));
	assert_null(strstr(a, "\"kind\"")); /* a rate test's object is as it was */
	free(a);
	run_free(r);
}

/* A 1.1 file (kbench before points results) reads, its tests are rate tests. */
static void test_format_1_1_reads(void **state)
{
	char path[512], err[512];
	const char *top = getenv("KBENCH_TOP");
	snprintf(path, sizeof path, "%s/tests/fixtures/run-1.1.json", top ? top : ".");
	struct run *r = runfile_read(path, err, sizeof err);
	if (!r)
		fail_msg("%s", err);
	assert_string_equal(r->meta.name, "old-1.1");
	assert_int_equal(r->nblocks, 1);
	const struct test_result *t = &r->blocks[0].tests[0];
	assert_string_equal(t->id, "syscall");
	assert_int_equal(t->kind, RESULT_RATE);
	assert_int_equal(t->npoints, 0);
	assert_int_equal(t->nsamples, 2);
	assert_true(t->score > 0);
	assert_true(test_has_result(t));
	assert_string_equal(r->meta.thp_enabled[0] ? "known" : "", "known");
	run_free(r);
}

/* A points result (1.2) round-trips: names, x, units, direction, summary, every value. */
static void test_points_round_trip(void **state)
{
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 2);
	struct test_result *t = run_block_add_test(b, "memlat", "Memory latency", "ns", 0, 0, "memory");
	t->status = TEST_SKIPPED;
	struct point *p = test_point(t, "rnd 4096", 4096, "B", "ns", true, false);
	point_push(p, 1.25);
	point_push(p, 1.5);
	p = test_point(t, "clock", 0, "", "MHz", false, true);
	point_push(p, 2900);
	point_push(p, NAN); /* a sample that did not reach it */
	assert_ptr_equal(test_point(t, "clock", 9, "x", "y", true, false), p); /* found, not re-added */
	char err[256];
	char *a = runfile_dump(r, err, sizeof err);
	assert_non_null(strstr(a, "\"kind\": \"points\""));
	struct run *back = runfile_parse(a, strlen(a), "t", err, sizeof err);
	if (!back)
		fail_msg("%s", err);
	char *c = runfile_dump(back, err, sizeof err);
	assert_string_equal(a, c);
	const struct test_result *bt = &back->blocks[0].tests[0];
	assert_int_equal(bt->kind, RESULT_POINTS);
	assert_int_equal(bt->npoints, 2);
	assert_true(bt->points[0].lower_better);
	assert_false(bt->points[0].summary);
	assert_float_equal(bt->points[0].x, 4096, 0);
	assert_string_equal(bt->points[0].xunit, "B");
	assert_float_equal(point_mean(&bt->points[0]), 1.375, 1e-12);
	assert_false(bt->points[1].lower_better);
	assert_true(bt->points[1].summary);
	assert_int_equal(bt->points[1].n, 2);
	assert_true(isnan(bt->points[1].v[1]));
	assert_float_equal(point_mean(&bt->points[1]), 2900, 0);
	assert_float_equal(point_spread(&bt->points[1]), -1, 0);
	/* cut short (skipped), but its finished points are a result */
	assert_true(test_has_result(bt));
	free(a);
	free(c);
	run_free(back);
	run_free(r);
}

static void expect_error(const char *text, const char *needle);

static void test_points_bad(void **state)
{
	expect_error("{\"format\":{\"major\":1,\"minor\":2},\"blocks\":[{\"tests\":[{\"id\":\"m\","
		     "\"kind\":\"curve\"}]}]}", "kind");
	expect_error("{\"format\":{\"major\":1,\"minor\":2},\"blocks\":[{\"tests\":[{\"id\":\"m\","
		     "\"kind\":\"points\",\"points\":[{\"name\":\"a\"},{\"name\":\"a\"}]}]}]}",
		     "not unique");
	expect_error("{\"format\":{\"major\":1,\"minor\":2},\"blocks\":[{\"tests\":[{\"id\":\"m\","
		     "\"kind\":\"points\",\"points\":[{\"name\":\"a\",\"better\":\"up\"}]}]}]}",
		     "better");
	expect_error("{\"format\":{\"major\":1,\"minor\":2},\"blocks\":[{\"tests\":[{\"id\":\"m\","
		     "\"kind\":\"points\",\"points\":[{\"name\":\"a\",\"values\":[1,\"x\"]}]}]}]}",
		     "values[1]");
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
	expect_error("{\"format\":{\"major\":1,\"minor\":1},\"meta\":{\"fs_type\":7}}", "meta.fs_type");
	expect_error("{\"format\":{\"major\":1,\"minor\":1},\"meta\":{\"swap_total_kib\":\"lots\"}}",
		     "meta.swap_total_kib");
	expect_error("{\"format\":{\"major\":1,\"minor\":1},\"meta\":{\"swap_used_kib\":-1}}",
		     "meta.swap_used_kib");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"samples\":[{\"count\":[1],\"elapsed\":[1],\"cpu\":[\"a\"]}]}]}]}",
		     "samples[0].cpu[0]");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"samples\":[{\"count\":[1],\"elapsed\":[1],\"cpu_end\":[1,2]}]}]}]}",
		     "cpu_end");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"samples\":[{\"count\":[1],\"elapsed\":[1],\"shared\":[1.5]}]}]}]}",
		     "shared[0]");
	expect_error("{\"format\":{\"major\":1},\"blocks\":[{\"copies\":1,\"tests\":[{\"id\":\"x\",\"samples\":[{\"count\":[1],\"elapsed\":[1],\"shared_time\":[-0.1]}]}]}]}",
		     "shared_time[0]");
}

/* Where each copy ran and a pair's placement (1.2, optional): kept through a save
 * and a read; a sample without them writes neither key, and reads back unknown. */
static void test_placement_round_trip(void **state)
{
	(void)state;
	struct run *r = full_run();
	struct test_result *t = &r->blocks[1].tests[0]; /* 2 copies, 3 samples */
	struct sample *s = &t->samples[0];
	s->cpu[0] = 3, s->cpu[1] = 0, s->cpu_end[0] = 1, s->cpu_end[1] = 0;
	s->shared[0] = 1.0, s->shared[1] = 0.95;
	s->shared_time[0] = 1.0, s->shared_time[1] = 0.75;
	t->samples[1].shared[0] = 0.02; /* copy 1's pair unknown: a mixed sample is not a clear one */
	char err[256];
	char *a = runfile_dump(r, err, sizeof err);
	assert_non_null(a);
	struct run *back = runfile_parse(a, strlen(a), "test", err, sizeof err);
	assert_non_null(back);
	const struct sample *b = &back->blocks[1].tests[0].samples[0];
	assert_int_equal(b->cpu[0], 3);
	assert_int_equal(b->cpu[1], 0);
	assert_int_equal(b->cpu_end[0], 1);
	assert_true(fabs(b->shared[1] - 0.95) < 1e-12);
	assert_true(fabs(b->shared_time[1] - 0.75) < 1e-12);
	assert_true(fabs(sample_time_in(b, 1, PLACE_TWO) - 0.25) < 1e-12);
	assert_int_equal(sample_placement(b), PLACE_ONE);
	assert_int_equal(sample_placement(&back->blocks[1].tests[0].samples[1]), PLACE_MIXED);
	const struct sample *u = &back->blocks[1].tests[0].samples[2];
	assert_int_equal(u->cpu[0], -1);
	assert_true(isnan(u->shared[0]));
	assert_true(isnan(u->shared_time[0]));
	assert_true(isnan(sample_time_in(u, 0, PLACE_ONE)));
	assert_int_equal(sample_placement(u), PLACE_UNKNOWN);
	/* the unknown sample wrote no "cpu" key: one per sample that knows */
	int ncpu = 0;
	for (const char *p = a; (p = strstr(p, "\"cpu\"")); p++)
		ncpu++;
	assert_int_equal(ncpu, 1);
	free(a);
	run_free(r);
	run_free(back);
}

static void test_placement_classes(void **state)
{
	(void)state;
	struct test_result t = { 0 };
	struct sample *s = test_add_sample(&t, 2);
	s->shared[0] = 0.0, s->shared[1] = 0.08;
	assert_int_equal(sample_placement(s), PLACE_TWO);
	s->shared[1] = 0.5;
	assert_int_equal(sample_placement(s), PLACE_MIXED);
	s->shared[0] = 0.91, s->shared[1] = 1.0;
	assert_int_equal(sample_placement(s), PLACE_ONE);
	assert_string_equal(placement_name(PLACE_TWO), "two CPUs");
	free(s->count), free(s->elapsed), free(s->cpu), free(s->cpu_end), free(s->shared), free(s->shared_time),
		free(t.samples);
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

/* What a run was, where it has no index: its tests once each, in run order, cut to fit. */
static void test_tests_text(void **state)
{
	(void)state;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	run_block_add_test(b, "memlat", "Memory latency", "ns", 0, 0, "memory");
	run_block_add_test(b, "scaling", "Throughput as tasks grow", "jpm", 0, 0, "scaling");
	b = run_add_block(r, 2);
	run_block_add_test(b, "memlat", "Memory latency", "ns", 0, 0, "memory");
	run_block_add_test(b, "timerlat", "Timer wake-up latency", "us", 0, 0, "latency");
	run_block_add_test(b, "scaling", "Throughput as tasks grow", "jpm", 0, 0, "scaling");
	char buf[64];
	run_tests_text(r, buf, sizeof buf);
	assert_string_equal(buf, "memlat scaling timerlat");
	run_tests_text(r, buf, 10); /* cut, still a string */
	assert_string_equal(buf, "memlat sc");
	run_free(r);
	r = run_new();
	run_tests_text(r, buf, sizeof buf);
	assert_string_equal(buf, "");
	run_free(r);
}

/* The meters' methods are kept (format 1.2, optional); a run without them writes no key. */
static void test_meters_round_trip(void **state)
{
	struct run *r = full_run();
	char err[256];
	char *a = runfile_dump(r, err, sizeof err);
	assert_non_null(a);
	assert_null(strstr(a, "\"meters\""));
	free(a);
	snprintf(r->meta.meters, sizeof r->meta.meters,
		 "freq: cpufreq cpuinfo_avg_freq; counters: user-only (perf_event_paranoid 2) on cpu_atom+cpu_core");
	a = runfile_dump(r, err, sizeof err);
	assert_non_null(a);
	struct run *back = runfile_parse(a, strlen(a), "test", err, sizeof err);
	assert_non_null(back);
	assert_string_equal(back->meta.meters, r->meta.meters);
	free(a);
	run_free(r);
	run_free(back);
}

/* Every mode is stored by its name and read back as itself; a name this
 * version lacks reads as unsaid (the file still opens), and a file without
 * one keeps run_new's full. */
static void test_modes_round_trip(void **state)
{
	(void)state;
	char err[512];
	/* the record's unsaid row, then every mode the registry lists */
	const struct run_mode_info *modes[16] = { &run_mode_unsaid };
	int n = 1;
	for (const struct run_mode_info *const *l = run_mode_list; *l && n < 16; l++)
		modes[n++] = *l;
	for (int i = 0; i < n; i++) {
		const struct run_mode_info *m = modes[i];
		struct run *r = run_new();
		r->meta.mode = m;
		char *text = runfile_dump(r, err, sizeof err);
		assert_non_null(text);
		char want[64];
		snprintf(want, sizeof want, "\"mode\": \"%s\"", m->name);
		assert_non_null(strstr(text, want));
		struct run *back = runfile_parse(text, strlen(text), "dump", err, sizeof err);
		if (!back)
			fail_msg("%s", err);
		assert_ptr_equal(back->meta.mode, m);
		run_free(back);
		/* the same file with another name, then with none */
		char *at = strstr(text, want);
		char edited[65536];
		snprintf(edited, sizeof edited, "%.*s\"mode\": \"turbo\"%s", (int)(at - text), text,
			 at + strlen(want));
		back = runfile_parse(edited, strlen(edited), "edited", err, sizeof err);
		if (!back)
			fail_msg("%s", err);
		assert_ptr_equal(back->meta.mode, &run_mode_unsaid);
		run_free(back);
		snprintf(edited, sizeof edited, "%.*s\"modeless\": 0%s", (int)(at - text), text, at + strlen(want));
		back = runfile_parse(edited, strlen(edited), "modeless", err, sizeof err);
		if (!back)
			fail_msg("%s", err);
		assert_ptr_equal(back->meta.mode, &run_mode_full);
		run_free(back);
		free(text);
		run_free(r);
	}
	assert_ptr_equal(run_mode_parse("thermal"), &thermal_mode);
	assert_ptr_equal(run_mode_parse(""), &run_mode_unsaid);
	assert_false(run_mode_info(&run_mode_imported)->measured);
	assert_true(run_mode_info(&run_mode_quick)->quick);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meters_round_trip),
		cmocka_unit_test(test_round_trip), cmocka_unit_test(test_newer_major_refused),
		cmocka_unit_test(test_long_summary_text_kept),
		cmocka_unit_test(test_bad_files), cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_bad_utf8_saved), cmocka_unit_test(test_swap_none_and_unknown),
		cmocka_unit_test(test_format_1_0_reads), cmocka_unit_test(test_format_1_1_reads),
		cmocka_unit_test(test_points_round_trip), cmocka_unit_test(test_points_bad),
		cmocka_unit_test(test_tests_text), cmocka_unit_test(test_modes_round_trip),
		cmocka_unit_test(test_placement_round_trip), cmocka_unit_test(test_placement_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
