/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of boot time: systemd-analyze outputs from real machines (tests/fixtures/boottime), the init-start fallback, the stored result. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "boottime.h"
#include "run.h"

static char *slurp(const char *name)
{
	char path[512];
	const char *top = getenv("KBENCH_TOP");
	snprintf(path, sizeof path, "%s/tests/fixtures/boottime/%s", top ? top : ".", name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[16384];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static void test_span(void **state)
{
	double v;
	const char *end;
	assert_int_equal(boottime_span("3min 34.953s (userspace)", &v, &end), 0);
	assert_float_equal(v, 214.953, 1e-9);
	assert_string_equal(end, " (userspace)");
	assert_int_equal(boottime_span("798ms", &v, NULL), 0);
	assert_float_equal(v, 0.798, 1e-12);
	assert_int_equal(boottime_span("3min 346ms powerd", &v, &end), 0);
	assert_float_equal(v, 180.346, 1e-9);
	assert_int_equal(boottime_span("1h 2min 3s", &v, NULL), 0);
	assert_float_equal(v, 3723, 1e-9);
	assert_int_equal(boottime_span("12us", &v, NULL), 0);
	assert_float_equal(v, 12e-6, 1e-15);
	assert_int_equal(boottime_span("5.957s.", &v, &end), 0);
	assert_string_equal(end, ".");
	assert_int_equal(boottime_span("abc", &v, NULL), -1);
	assert_int_equal(boottime_span("5 apples", &v, NULL), -1);
	assert_int_equal(boottime_span("", &v, NULL), -1);
}

static void test_time_outputs(void **state)
{
	struct boot_time bt;
	assert_int_equal(boottime_parse_time(slurp("time-ubuntu1604-minutes.txt"), &bt), 0);
	assert_float_equal(bt.s[BOOT_FIRMWARE], 7.235, 1e-9);
	assert_float_equal(bt.s[BOOT_LOADER], 5.170, 1e-9);
	assert_float_equal(bt.s[BOOT_KERNEL], 3.778, 1e-9);
	assert_true(isnan(bt.s[BOOT_INITRD]));
	assert_non_null(strstr(bt.why[BOOT_INITRD], "no initrd time"));
	assert_float_equal(bt.s[BOOT_USERSPACE], 214.953, 1e-9);
	assert_float_equal(bt.s[BOOT_TOTAL], 231.138, 1e-9);

	assert_int_equal(boottime_parse_time(slurp("time-centos-initrd.txt"), &bt), 0);
	assert_float_equal(bt.s[BOOT_KERNEL], 0.798, 1e-9);
	assert_float_equal(bt.s[BOOT_INITRD], 1.862, 1e-9);
	assert_float_equal(bt.s[BOOT_TOTAL], 45.361, 1e-9);

	assert_int_equal(boottime_parse_time(slurp("time-azure-vm.txt"), &bt), 0);
	assert_float_equal(bt.s[BOOT_FIRMWARE], 0.546, 1e-9);
	assert_string_equal(bt.target, "graphical.target");
	assert_float_equal(bt.target_s, 10.457, 1e-9);

	/* the journal's line: no total, so the parts' sum; no firmware reported */
	assert_int_equal(boottime_parse_time(slurp("journal-rhel9-ec2.txt"), &bt), 0);
	assert_float_equal(bt.s[BOOT_TOTAL], 1.040 + 7.182 + 17.567, 1e-9);
	assert_true(isnan(bt.s[BOOT_FIRMWARE]));
	assert_non_null(strstr(bt.why[BOOT_FIRMWARE], "reports no firmware time"));
	assert_non_null(strstr(bt.why[BOOT_LOADER], "GRUB does not"));

	assert_int_equal(boottime_parse_time(slurp("journal-embedded-no-firmware.txt"), &bt), 0);
	assert_float_equal(bt.s[BOOT_TOTAL], 5.957, 1e-9);

	/* a container: userspace alone, the rest (and the total) n/a */
	assert_int_equal(boottime_parse_time(slurp("time-nspawn-container.txt"), &bt), 0);
	assert_float_equal(bt.s[BOOT_USERSPACE], 0.555, 1e-9);
	assert_true(isnan(bt.s[BOOT_TOTAL]) && isnan(bt.s[BOOT_KERNEL]));
	assert_non_null(strstr(bt.why[BOOT_TOTAL], "a container"));

	assert_int_equal(boottime_parse_time(slurp("time-not-finished.txt"), &bt), -1);
	assert_non_null(strstr(bt.why[BOOT_TOTAL], "has not finished"));
	assert_int_equal(boottime_parse_time(slurp("time-no-systemd.txt"), &bt), -1);
	assert_string_equal(bt.why[BOOT_TOTAL], "systemd is not this system's init");
	assert_int_equal(boottime_parse_time("Startup finished in nothing\n", &bt), -1);
}

static void test_blame_chain(void **state)
{
	struct boot_time bt;
	memset(&bt, 0, sizeof bt);
	assert_int_equal(boottime_parse_blame(slurp("blame-ubuntu1604.txt"), &bt), BOOTTIME_SLOWEST);
	assert_string_equal(bt.slow[0].unit, "powerd.service");
	assert_float_equal(bt.slow[0].s, 180.346, 1e-9);
	assert_string_equal(bt.slow[4].unit, "snapd.firstboot.service");
	assert_int_equal(boottime_parse_chain(slurp("critical-chain-ubuntu2404.txt"), &bt), 6);
	assert_string_equal(bt.chain, "plymouth-quit-wait.service +6.56s, systemd-user-sessions.service +0.101s, "
				      "NetworkManager.service +2.06s, dbus.service +0.386s, snapd.socket +0.196s, "
				      "systemd-backlight@backlight:intel_backlight.service +1.31s");
}

/* A scratch root for /proc/1 and a PATH whose systemd-analyze is a stub printing fixtures. */
static char root[64];

static int setup(void **state)
{
	snprintf(root, sizeof root, "/tmp/kbench-boottime-XXXXXX");
	assert_non_null(mkdtemp(root));
	char cmd[2048];
	const char *top = getenv("KBENCH_TOP");
	snprintf(cmd, sizeof cmd,
		 "mkdir -p %s/proc/1 %s/bin && printf 'systemd\\n' >%s/proc/1/comm && "
		 "F=%s/tests/fixtures/boottime && printf '#!/bin/sh\\ncase $1 in time) cat %s;; blame) cat $F/blame-ubuntu1604.txt;; "
		 "critical-chain) cat $F/critical-chain-ubuntu2404.txt;; esac\\n' >%s/bin/systemd-analyze && chmod +x %s/bin/systemd-analyze",
		 root, root, root, top ? top : ".", "$F/time-ubuntu2404.txt", root, root);
	assert_int_equal(system(cmd), 0);
	/* the stub names $F: give it in its environment */
	char f[512];
	snprintf(f, sizeof f, "%s/tests/fixtures/boottime", top ? top : ".");
	setenv("F", f, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	unsetenv("KBENCH_SYSFS_ROOT");
	return system(cmd);
}

static void test_measure_systemd(void **state)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/bin:%s", root, getenv("PATH"));
	char *old = strdup(getenv("PATH"));
	setenv("PATH", path, 1);
	setenv("KBENCH_SYSFS_ROOT", root, 1);
	struct boot_time bt;
	boottime_measure(&bt);
	setenv("PATH", old, 1);
	free(old);
	assert_true(bt.ok);
	assert_string_equal(bt.method, "systemd-analyze time");
	assert_float_equal(bt.s[BOOT_TOTAL], 57.284, 1e-9);
	assert_int_equal(bt.nslow, BOOTTIME_SLOWEST);
	assert_non_null(strstr(bt.chain, "NetworkManager.service +2.06s"));
	/* systemd without systemd-analyze: the kernel's clock at init's start */
	setenv("PATH", "/nonexistent", 1);
	char stat[512];
	snprintf(stat, sizeof stat, "%s/proc/1/stat", root);
	FILE *f = fopen(stat, "w");
	fputs("1 (systemd) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 250 1 2 3\n", f);
	fclose(f);
	boottime_measure(&bt);
	setenv("PATH", path + strlen(root) + 5, 1);
	assert_true(bt.ok);
	assert_float_equal(bt.s[BOOT_KERNEL], 250.0 / sysconf(_SC_CLK_TCK), 1e-9);
	assert_non_null(strstr(bt.why[BOOT_FIRMWARE], "not measured without systemd-analyze (init is systemd)"));
}

/* This machine's init (not systemd): its start by the kernel's clock; a
 * container's init is n/a (it started with the container). */
static void test_measure_init(void **state)
{
	char fx[512];
	const char *top = getenv("KBENCH_TOP");
	snprintf(fx, sizeof fx, "%s/tests/fixtures/boottime/proc-process_api", top ? top : ".");
	setenv("KBENCH_SYSFS_ROOT", fx, 1);
	struct boot_time bt;
	boottime_measure(&bt);
	assert_true(bt.ok);
	assert_string_equal(bt.method, "the kernel's clock when init started (/proc/1/stat)");
	assert_float_equal(bt.s[BOOT_KERNEL], 18.0 / sysconf(_SC_CLK_TCK), 1e-9);
	assert_float_equal(bt.s[BOOT_TOTAL], bt.s[BOOT_KERNEL], 0);
	assert_non_null(strstr(bt.why[BOOT_USERSPACE], "init is process_api"));
	char cmd[600];
	snprintf(cmd, sizeof cmd, "mkdir -p %s/proc/1 && cp %s/proc/1/stat %s/proc/1/ && printf 'bash\\n' >%s/proc/1/comm && touch %s/.dockerenv",
		 root, fx, root, root, root);
	assert_int_equal(system(cmd), 0);
	setenv("KBENCH_SYSFS_ROOT", root, 1);
	boottime_measure(&bt);
	assert_false(bt.ok);
	assert_non_null(strstr(bt.why[BOOT_TOTAL], "a container (/.dockerenv)"));
}

static void test_result(void **state)
{
	struct boot_time bt;
	assert_int_equal(boottime_parse_time(slurp("journal-rhel9-ec2.txt"), &bt), 0);
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	struct test_result *t = boottime_add_result(b, &bt);
	assert_string_equal(t->id, BOOTTIME_TEST);
	assert_int_equal(t->kind, RESULT_POINTS);
	assert_int_equal(t->status, TEST_DONE);
	assert_int_equal(t->npoints, 4); /* total, kernel, initrd, userspace */
	assert_string_equal(t->points[0].name, "total");
	assert_true(t->points[0].lower_better && t->points[0].summary);
	assert_float_equal(point_mean(&t->points[0]), 25.789, 1e-9);
	const struct kv *fw = test_summary_get(t, "boot.firmware");
	assert_non_null(fw);
	assert_non_null(strstr(fw->text, "n/a: the boot loader reports no firmware time"));
	assert_string_equal(test_summary_get(t, "boot.method")->text, "systemd-analyze time");
	/* nothing measured: skipped, with the reason */
	assert_int_equal(boottime_parse_time(slurp("time-no-systemd.txt"), &bt), -1);
	t = boottime_add_result(b, &bt);
	assert_int_equal(t->status, TEST_SKIPPED);
	assert_string_equal(t->reason, "boot time n/a: systemd is not this system's init");
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_time_outputs),
		cmocka_unit_test(test_blame_chain),
		cmocka_unit_test_setup_teardown(test_measure_systemd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_measure_init, setup, teardown),
		cmocka_unit_test(test_result),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
