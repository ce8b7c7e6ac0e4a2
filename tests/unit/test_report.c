/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the report header's Storage and Kernel settings lines, and that kbench import reads them back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "import.h"
#include "report.h"
#include "run.h"
#include "score.h"

/* A run with a header's worth of metadata and one scored test, so that it imports. */
static struct run *base_run(void)
{
	struct run *r = run_new();
	struct run_meta *m = &r->meta;
	snprintf(m->hostname, sizeof m->hostname, "netbook");
	snprintf(m->os, sizeof m->os, "GNU/Linux");
	snprintf(m->kernel_release, sizeof m->kernel_release, "6.8.0-pf3");
	snprintf(m->kernel_version, sizeof m->kernel_version, "#1 SMP");
	snprintf(m->machine, sizeof m->machine, "x86_64");
	snprintf(m->lang, sizeof m->lang, "en_US.utf8");
	snprintf(m->charmap, sizeof m->charmap, "\"UTF-8\"");
	snprintf(m->collate, sizeof m->collate, "\"UTF-8\"");
	snprintf(m->cpu_model, sizeof m->cpu_model, "Intel Atom N270");
	m->bogomips = 3192.2;
	m->ncpus = 1;
	snprintf(m->uptime, sizeof m->uptime, "10:00:00 up 3 days,  1:02,  1 user,  load average: 0.01, 0.02, 0.03");
	m->date = 1796032800;
	struct run_block *b = run_add_block(r, 1);
	b->start = m->date;
	b->end = m->date + 20;
	struct test_result *t = run_block_add_test(b, "syscall", "System Call Overhead", "lps", 1, 15000, "system");
	t->status = TEST_DONE;
	struct sample *s = test_add_sample(t, 1);
	s->count[0] = 3e6;
	s->elapsed[0] = 10;
	run_rescore(r);
	return r;
}

static void with_facts(struct run_meta *m, const char *dir)
{
	snprintf(m->scratch_dir, sizeof m->scratch_dir, "%s", dir);
	snprintf(m->fs_type, sizeof m->fs_type, "ext4");
	snprintf(m->fs_options, sizeof m->fs_options, "rw,relatime");
	snprintf(m->fs_source, sizeof m->fs_source, "/dev/vda1");
	snprintf(m->io_scheduler, sizeof m->io_scheduler, "mq-deadline");
	snprintf(m->clocksource, sizeof m->clocksource, "tsc");
	snprintf(m->thp_enabled, sizeof m->thp_enabled, "madvise");
	snprintf(m->thp_defrag, sizeof m->thp_defrag, "defer+madvise");
	m->mem_kib = 24 * 1024 * 1024 + 300;
	m->swap_known = true;
	m->swap_total_kib = 2097148;
	m->swap_used_kib = 12 * 1024 + 100;
}

/* The report as text (malloc'd). Not inlined: gcc 12 then takes the text for
 * a pointer to the local `buf` (-Wdangling-pointer). */
__attribute__((noinline)) static char *report_text(const struct run *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_print(f, r);
	fclose(f);
	return buf;
}

/* Imports text and returns the one run found (the result is freed by the caller). */
static struct run *import_one(const char *text, struct import_result *res)
{
	char err[300];
	memset(res, 0, sizeof *res);
	if (import_text(text, strlen(text), "report", NULL, res, err, sizeof err) != 0)
		fail_msg("import: %s", err);
	assert_int_equal(res->nruns, 1);
	return res->runs[0];
}

static void header_lines(void **state)
{
	(void)state;
	struct run *r = base_run();
	with_facts(&r->meta, "/tmp");
	char *text = report_text(r);
	/* After UnixBench's uptime line, before the empty line that ends the header. */
	assert_non_null(strstr(text, "; runlevel \n"
				     "   Storage: /tmp on ext4 (rw,relatime) /dev/vda1, scheduler mq-deadline\n"
				     "   Kernel settings: clocksource tsc, THP madvise (defrag defer+madvise), "
				     "memory 24576 MiB, swap 2048 MiB (12 MiB used)\n"
				     "\n---"));
	free(text);

	/* What could not be found says so; no swap is "none". */
	snprintf(r->meta.fs_type, sizeof r->meta.fs_type, "unknown");
	snprintf(r->meta.clocksource, sizeof r->meta.clocksource, "unknown");
	snprintf(r->meta.thp_enabled, sizeof r->meta.thp_enabled, "n/a");
	snprintf(r->meta.thp_defrag, sizeof r->meta.thp_defrag, "n/a");
	r->meta.swap_total_kib = 0;
	r->meta.mem_kib = 0;
	text = report_text(r);
	assert_non_null(strstr(text, "   Storage: /tmp (filesystem unknown)\n"));
	assert_non_null(strstr(text, "   Kernel settings: clocksource unknown, THP n/a (defrag n/a), swap none\n"));
	free(text);
	r->meta.swap_known = false;
	text = report_text(r);
	assert_non_null(strstr(text, ", swap unknown\n"));
	free(text);

	/* A newline in the directory cannot break the header. */
	with_facts(&r->meta, "/tmp/a\nb");
	text = report_text(r);
	assert_non_null(strstr(text, "   Storage: /tmp/a?b on ext4"));
	free(text);
	run_free(r);
}

static void no_lines_without_facts(void **state)
{
	(void)state;
	/* An imported log or a 1.0 file knows none of it: UnixBench's header exactly. */
	struct run *r = base_run();
	char *text = report_text(r);
	assert_null(strstr(text, "Storage:"));
	assert_null(strstr(text, "Kernel settings:"));
	assert_non_null(strstr(text, "; runlevel \n\n---"));
	free(text);
	run_free(r);
}

static void import_reads_them_back(void **state)
{
	(void)state;
	struct run *r = base_run();
	/* A directory with blanks and " on " in it still splits at the right place. */
	with_facts(&r->meta, "/mnt/runs on disk (old) x");
	snprintf(r->meta.fs_source, sizeof r->meta.fs_source, "host:/export a");
	char *text = report_text(r);
	struct import_result res;
	struct run *b = import_one(text, &res);
	const struct run_meta *m = &b->meta;
	assert_string_equal(m->kernel_release, "6.8.0-pf3"); /* "Kernel settings:" is not "Kernel:" */
	assert_string_equal(m->scratch_dir, "/mnt/runs on disk (old) x");
	assert_string_equal(m->fs_type, "ext4");
	assert_string_equal(m->fs_options, "rw,relatime");
	assert_string_equal(m->fs_source, "host:/export a");
	assert_string_equal(m->io_scheduler, "mq-deadline");
	assert_string_equal(m->clocksource, "tsc");
	assert_string_equal(m->thp_enabled, "madvise");
	assert_string_equal(m->thp_defrag, "defer+madvise");
	assert_true(m->swap_known);
	assert_int_equal(m->swap_total_kib, 2048 * 1024);
	assert_int_equal(m->swap_used_kib, 12 * 1024);
	assert_int_equal(m->mem_kib, 24 * 1024 * 1024);
	assert_int_equal(b->nblocks, 1);
	import_result_free(&res);
	free(text);

	/* The same log collapsed onto one line by a web page. */
	with_facts(&r->meta, "/tmp");
	r->meta.swap_total_kib = 0;
	text = report_text(r);
	for (char *c = text; *c; c++)
		if (*c == '\n')
			*c = ' ';
	b = import_one(text, &res);
	assert_string_equal(b->meta.scratch_dir, "/tmp");
	assert_string_equal(b->meta.io_scheduler, "mq-deadline");
	assert_string_equal(b->meta.clocksource, "tsc");
	assert_true(b->meta.swap_known);
	assert_int_equal(b->meta.swap_total_kib, 0);
	import_result_free(&res);
	free(text);

	/* Unknowns read back as unknown. */
	snprintf(r->meta.fs_type, sizeof r->meta.fs_type, "unknown");
	r->meta.swap_known = false;
	text = report_text(r);
	b = import_one(text, &res);
	assert_string_equal(b->meta.scratch_dir, "/tmp");
	assert_string_equal(b->meta.fs_type, "unknown");
	assert_string_equal(b->meta.io_scheduler, "unknown");
	assert_false(b->meta.swap_known);
	import_result_free(&res);
	free(text);
	run_free(r);
}

static void plain_unixbench_log_has_none(void **state)
{
	(void)state;
	/* A UnixBench log imports with these facts unknown, and a "Kernel:" line still names the kernel. */
	struct run *r = base_run();
	char *text = report_text(r);
	const char *at = strstr(text, "   Machine:");
	assert_non_null(at);
	size_t n = strlen(text);
	char *withk = malloc(n + 64);
	assert_non_null(withk);
	snprintf(withk, n + 64, "%.*s   Kernel: 6.9.0-other\n%s", (int)(at - text), text, at);
	struct import_result res;
	struct run *b = import_one(withk, &res);
	assert_string_equal(b->meta.kernel_release, "6.9.0-other");
	assert_string_equal(b->meta.fs_type, "");
	assert_string_equal(b->meta.clocksource, "");
	assert_false(b->meta.swap_known);
	import_result_free(&res);
	free(withk);
	free(text);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_lines),
		cmocka_unit_test(no_lines_without_facts),
		cmocka_unit_test(import_reads_them_back),
		cmocka_unit_test(plain_unixbench_log_has_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
