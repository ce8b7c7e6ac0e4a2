/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the system workloads (pipe, context, spawn, syscall, file tests, shell, grep, C), run in-process briefly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buildload.h"
#include "family.h"
#include "kbuild.h"
#include "settings.h"
#include "tests.h"
#include "workload.h"
#include "workloads/workloads.h"

/* A stand-in for the runner's deadline: stop after `after` seconds, but
 * not before the count moved (up to 20 s), so that a busy machine, where a
 * shell loop can take longer than `after`, does not fail the test. It
 * leaves as soon as the stop flag is set (a run that ended by itself). */
struct stopper {
	struct worker_slot *slot;
	double after;
	int wait_count;
};

static void *stop_later(void *arg)
{
	struct stopper *s = arg;
	double t0 = wl_now();
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	while (!atomic_load(&s->slot->stop) &&
	       (wl_now() - t0 < s->after ||
		(s->wait_count && atomic_load(&s->slot->count) == 0 && wl_now() - t0 < 20)))
		nanosleep(&tick, NULL);
	atomic_store(&s->slot->stop, 1);
	return NULL;
}

static char tmpdir[PATH_MAX];
static char datadir[PATH_MAX];

static int setup(void **state)
{
	const char *top = getenv("KBENCH_TOP");

	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/kbench-wlsys.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(datadir, sizeof datadir, "%s/data", top && *top ? top : ".");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

/* Runs wl with arg, stopping it after `after` seconds (and once the count
 * moved, for counted runs); returns run()'s result. */
static int run_for(const struct workload *wl, const char *arg, double duration, double after,
		   struct worker_slot *slot, const char *data)
{
	struct workload_ctx ctx = { .slot = slot, .copies = 1, .duration = duration, .arg = arg,
				    .tmpdir = tmpdir, .datadir = data ? data : datadir,
				    .shm_fd = -1 };
	struct stopper s = { .slot = slot, .after = after, .wait_count = after > 0.15 };
	pthread_t th;
	/* the settings the runner would fill for its family's defaults */
	static _Alignas(max_align_t) char settings[SETTINGS_MAX_SIZE];
	const struct settings *f = NULL;
	char err[300];

	for (size_t i = 0; i < test_count && !f; i++)
		if (test_table[i].workload == wl)
			f = test_family(&test_table[i])->settings;
	if (f)
		assert_int_equal(test_settings_fill(f, NULL, false, settings, err, sizeof err), 0);
	ctx.settings = f ? settings : NULL;
	memset(slot, 0, sizeof *slot);
	assert_int_equal(pthread_create(&th, NULL, stop_later, &s), 0);
	int rc = wl->run(&ctx);
	atomic_store(&slot->stop, 1); /* self-timed runs end by themselves */
	pthread_join(th, NULL);
	return rc;
}

static int entries_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* What every workload must leave behind: nothing. */
static void assert_clean(void)
{
	assert_int_equal(entries_in(tmpdir), 0);
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void expect_counts(const struct workload *wl, const char *arg)
{
	struct worker_slot slot;

	if (run_for(wl, arg, 0.2, 0.2, &slot, NULL) != 0)
		fail_msg("%s %s: %s", wl->name, arg, slot.err); /* what failed, not only that it did */
	assert_string_equal(slot.err, "");
	assert_true(atomic_load(&slot.count) > 0);
	assert_clean();
}

static void test_pipe_counts(void **state)
{
	(void)state;
	expect_counts(&wl_pipe, NULL);
}

static void test_context_counts(void **state)
{
	(void)state;
	expect_counts(&wl_context, NULL);
}

static void test_spawn_counts(void **state)
{
	(void)state;
	expect_counts(&wl_spawn, NULL);
}

static void test_syscall_modes_count(void **state)
{
	(void)state;
	mode_t before = umask(077);
	expect_counts(&wl_syscall, "mix");
	assert_int_equal(umask(before), 077); /* the mix's umask(022) is undone */
	expect_counts(&wl_syscall, NULL); /* no argument: the mix */
	expect_counts(&wl_syscall, "close");
	expect_counts(&wl_syscall, "getpid");
	expect_counts(&wl_syscall, "exec");
}

static void test_syscall_bad_mode(void **state)
{
	struct worker_slot slot;

	(void)state;
	assert_int_equal(run_for(&wl_syscall, "nope", 0.2, 0, &slot, NULL), -1);
	assert_non_null(strstr(slot.err, "nope"));
	assert_int_equal(atomic_load(&slot.count), 0);
	assert_clean();
}

static void test_fscopy_reports_rate_and_time(void **state)
{
	struct worker_slot slot;

	(void)state;
	/* 0.3 s of copy; the settle sleeps and 2 s phases scale to 1/100. */
	double t0 = wl_now();
	assert_int_equal(run_for(&wl_fscopy, "1024 64", 0.3, 100, &slot, NULL), 0);
	double took = wl_now() - t0;
	assert_string_equal(slot.err, "");
	assert_true(slot.rate > 0);
	assert_true(slot.rate == (double)(long)slot.rate); /* KiB/s, truncated */
	assert_true(slot.time >= 0.3 && slot.time < 5);
	assert_true(took < 20);
	assert_true(atomic_load(&slot.count) > 0);
	/* The published count is 256-byte units of the copy: the rate's source. */
	double units_rate = (double)atomic_load(&slot.count) / (slot.time * 4);
	assert_true(slot.rate <= units_rate + 1 && slot.rate >= units_rate - 1);
	assert_clean();
}

/* fstime -w: the write is the result, and it stops only after whole passes
 * over the file (64 KiB = 256 units here), however late that is. */
static void test_fscopy_write_reports_rate_and_time(void **state)
{
	struct worker_slot slot;

	(void)state;
	assert_int_equal(run_for(&wl_fscopy, "1024 64 write", 0.3, 100, &slot, NULL), 0);
	assert_string_equal(slot.err, "");
	assert_true(slot.rate > 0);
	assert_true(slot.rate == (double)(long)slot.rate);
	assert_true(slot.time >= 0.3 && slot.time < 5);
	uint64_t units = atomic_load(&slot.count);
	assert_true(units > 0);
	assert_int_equal(units % 256, 0);
	double units_rate = (double)units / (slot.time * 4);
	assert_true(slot.rate <= units_rate + 1 && slot.rate >= units_rate - 1);
	assert_clean();
}

/* fstime -r: the file is written first (2 s, scaled), then read for the
 * sample, rewinding at its end; only the read is counted. */
static void test_fscopy_read_reports_rate_and_time(void **state)
{
	struct worker_slot slot;

	(void)state;
	assert_int_equal(run_for(&wl_fscopy, "4096 64 read", 0.3, 100, &slot, NULL), 0);
	assert_string_equal(slot.err, "");
	assert_true(slot.rate > 0);
	assert_true(slot.rate == (double)(long)slot.rate);
	assert_true(slot.time >= 0.3 && slot.time < 5);
	uint64_t units = atomic_load(&slot.count);
	/* at least one whole file read (the rewinds worked), in 4096-byte reads */
	assert_true(units > 256);
	assert_int_equal(units % 16, 0);
	double units_rate = (double)units / (slot.time * 4);
	assert_true(slot.rate <= units_rate + 1 && slot.rate >= units_rate - 1);
	assert_clean();
}

static void test_fscopy_stopped_early_cleans_up(void **state)
{
	static const char *const args[] = { "256 500", "256 500 write", "256 500 read" };
	struct worker_slot slot;

	(void)state;
	/* Stopped during the settle sleeps (a user's skip): no result, no files. */
	for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
		assert_int_equal(run_for(&wl_fscopy, args[i], 30, 0.1, &slot, NULL), 0);
		assert_string_equal(slot.err, "");
		assert_true(slot.rate == 0);
		assert_clean();
	}
}

static void test_fscopy_bad_args(void **state)
{
	static const char *const bad[] = { "abc", "1024", "1024 2000 7", "100 2000", "1024 0",
					   "", "4096 1", "1024 2000 wr", "1024 2000 write read",
					   "1024 2000x write" };
	struct worker_slot slot;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(run_for(&wl_fscopy, bad[i], 0.2, 0, &slot, NULL), -1);
		assert_true(strlen(slot.err) > 10);
		assert_clean();
	}
	assert_int_equal(run_for(&wl_fscopy, NULL, 0.2, 0, &slot, NULL), -1);
	assert_non_null(strstr(slot.err, "BUFSIZE MAXBLOCKS"));
}

static void test_fscopy_unwritable_dir(void **state)
{
	struct worker_slot slot = { 0 };
	struct workload_ctx ctx = { .slot = &slot, .duration = 0.2, .arg = "1024 2000",
				    .tmpdir = "/nonexistent/kbench", .shm_fd = -1 };

	(void)state;
	assert_int_equal(wl_fscopy.run(&ctx), -1);
	assert_non_null(strstr(slot.err, "/nonexistent/kbench"));
}

static void test_shell_counts(void **state)
{
	(void)state;
	expect_counts(&wl_shell, "1");
	expect_counts(&wl_shell, "3");
}

/* Stopped before its first loop ended, a looper still finishes that loop and
 * counts it (a sample shorter than one loop measures one loop, not zero), and
 * starts no second one. */
static void test_shell_counts_its_first_loop(void **state)
{
	struct worker_slot slot;

	(void)state;
	assert_int_equal(run_for(&wl_shell, "3", 0.2, 0, &slot, NULL), 0);
	assert_string_equal(slot.err, "");
	assert_int_equal(atomic_load(&slot.count), 1);
	assert_clean();
}

static void test_grep_counts(void **state)
{
	(void)state;
	expect_counts(&wl_grep, NULL);
}

static bool have_gcc(void)
{
	return system("command -v gcc >/dev/null 2>&1") == 0;
}

static void test_cc_counts(void **state)
{
	(void)state;
	if (!have_gcc()) {
		print_message("no gcc here: the C compiler test runs it\n");
		skip();
	}
	expect_counts(&wl_cc, NULL); /* a.out went with the loop's directory */
}

/* The summary names the compiler the loops will run, with its version. */
static void test_cc_describes_its_compiler(void **state)
{
	char key[64], text[96];

	(void)state;
	if (!have_gcc()) {
		print_message("no gcc here: the C compiler test runs it\n");
		skip();
	}
	assert_non_null(wl_cc.describe);
	assert_int_equal(wl_cc.describe(NULL, key, sizeof key, text, sizeof text), 0);
	assert_string_equal(key, "compiler");
	assert_non_null(strstr(text, "gcc"));
	assert_non_null(strstr(text, " at /"));
}

/* No compiler: one sentence that says so, in the sample and in the summary. */
static void test_cc_without_compiler(void **state)
{
	char key[64], text[96], *path = getenv("PATH");
	struct worker_slot slot;

	(void)state;
	path = path ? strdup(path) : NULL;
	setenv("PATH", tmpdir, 1); /* empty: no gcc there */
	assert_int_equal(run_for(&wl_cc, NULL, 0.2, 0, &slot, NULL), -1);
	assert_non_null(strstr(slot.err, "gcc is not installed (no gcc in PATH)"));
	assert_int_equal(wl_cc.describe(NULL, key, sizeof key, text, sizeof text), 0);
	assert_non_null(strstr(text, "gcc is not installed"));
	if (path)
		setenv("PATH", path, 1);
	else
		unsetenv("PATH");
	free(path);
	assert_int_equal(atomic_load(&slot.count), 0);
	assert_clean();
}

/* No make (a package installed without its Recommends): the build tests say
 * so before generating or extracting anything, and nothing is counted. */
static void test_builds_without_make(void **state)
{
	const struct workload *wls[] = { &wl_kbuild, &wl_buildload };
	char *path = getenv("PATH");
	struct worker_slot slot;

	(void)state;
	path = path ? strdup(path) : NULL;
	setenv("PATH", tmpdir, 1); /* empty: no make, no cc */
	for (size_t i = 0; i < sizeof wls / sizeof wls[0]; i++) {
		assert_int_equal(run_for(wls[i], NULL, 0.2, 0, &slot, NULL), -1);
		assert_non_null(strstr(slot.err, "make is not installed (no make in PATH)"));
		assert_int_equal(atomic_load(&slot.count), 0);
	}
	if (path)
		setenv("PATH", path, 1);
	else
		unsetenv("PATH");
	free(path);
}

static void test_shell_bad_args(void **state)
{
	struct worker_slot slot;

	(void)state;
	assert_int_equal(run_for(&wl_shell, "many", 0.2, 0, &slot, NULL), -1);
	assert_non_null(strstr(slot.err, "many"));
	assert_int_equal(run_for(&wl_shell, "1", 0.2, 0, &slot, "/nonexistent/data"), -1);
	assert_non_null(strstr(slot.err, "/nonexistent/data/multi.sh"));
	assert_int_equal(run_for(&wl_grep, NULL, 0.2, 0, &slot, "/nonexistent/data"), -1);
	assert_non_null(strstr(slot.err, "large.txt"));
	assert_clean();
}

/* A script that fails: the loop stops with its status and its message. */
static void test_shell_failure_is_reported(void **state)
{
	char bad[PATH_MAX], script[PATH_MAX + 16];
	struct worker_slot slot;

	(void)state;
	snprintf(bad, sizeof bad, "/tmp/kbench-wlbad.XXXXXX");
	assert_non_null(mkdtemp(bad));
	snprintf(script, sizeof script, "%s/multi.sh", bad);
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fputs("touch leftover\necho 'tst.sh: broken' >&2\nexit 3\n", f);
	fclose(f);
	assert_int_equal(run_for(&wl_shell, "1", 0.2, 5, &slot, bad), -1);
	assert_non_null(strstr(slot.err, "exit status 3"));
	assert_non_null(strstr(slot.err, "tst.sh: broken"));
	assert_int_equal(atomic_load(&slot.count), 0);
	assert_clean(); /* the script's leftover went with its directory */
	unlink(script);
	rmdir(bad);
}

/* The loops write to a file, not /dev/null: GNU grep notices /dev/null and
 * stops at the first match, which would make the grep test a different one. */
static void test_loop_stdout_is_a_file(void **state)
{
	char dir[PATH_MAX], script[PATH_MAX + 16];
	struct worker_slot slot;

	(void)state;
	snprintf(dir, sizeof dir, "/tmp/kbench-wlout.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(script, sizeof script, "%s/multi.sh", dir);
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fputs("[ -f /dev/stdout ] || { echo 'stdout is not a file' >&2; exit 5; }\necho out\n", f);
	fclose(f);
	assert_int_equal(run_for(&wl_shell, "1", 0.2, 0.2, &slot, dir), 0);
	assert_string_equal(slot.err, "");
	assert_true(atomic_load(&slot.count) > 0);
	assert_clean();
	unlink(script);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_counts),
		cmocka_unit_test(test_context_counts),
		cmocka_unit_test(test_spawn_counts),
		cmocka_unit_test(test_syscall_modes_count),
		cmocka_unit_test(test_syscall_bad_mode),
		cmocka_unit_test(test_fscopy_reports_rate_and_time),
		cmocka_unit_test(test_fscopy_write_reports_rate_and_time),
		cmocka_unit_test(test_fscopy_read_reports_rate_and_time),
		cmocka_unit_test(test_fscopy_stopped_early_cleans_up),
		cmocka_unit_test(test_fscopy_bad_args),
		cmocka_unit_test(test_fscopy_unwritable_dir),
		cmocka_unit_test(test_shell_counts),
		cmocka_unit_test(test_shell_counts_its_first_loop),
		cmocka_unit_test(test_grep_counts),
		cmocka_unit_test(test_cc_counts),
		cmocka_unit_test(test_cc_describes_its_compiler),
		cmocka_unit_test(test_cc_without_compiler),
		cmocka_unit_test(test_builds_without_make),
		cmocka_unit_test(test_shell_bad_args),
		cmocka_unit_test(test_shell_failure_is_reported),
		cmocka_unit_test(test_loop_stdout_is_a_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
