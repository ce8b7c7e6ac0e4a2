/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the plan's machine side: the boot loader's one-shot command run from PATH, the settle wait's cap, the systemd unit as systemd reads it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "plan.h"
#include "plan_machine.h"

static char dir[64];
static char *old_path;

/* A directory of stubs that record what they were asked, first on PATH. */
static int setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/kbench-machine-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "for t in grub-reboot bootctl systemctl reboot; do printf '#!/bin/sh\\necho \"$0 $*\" >>%s/asked\\n' >%s/$t; chmod +x %s/$t; done",
		 dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	old_path = strdup(getenv("PATH"));
	char path[4096];
	snprintf(path, sizeof path, "%s:%s", dir, old_path);
	setenv("PATH", path, 1);
	return 0;
}

static int teardown(void **state)
{
	setenv("PATH", old_path, 1);
	free(old_path);
	unsetenv("KBENCH_SYSFS_ROOT");
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd);
}

static char *asked(void)
{
	static char buf[2048];
	char p[128];
	snprintf(p, sizeof p, "%s/asked", dir);
	FILE *f = fopen(p, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	unlink(p);
	return buf;
}

/* The next boot chosen once on Debian's GRUB: grub-reboot with the submenu's id path. */
static void test_choose_next(void **state)
{
	char fx[512], err[512], what[512];
	const char *top = getenv("KBENCH_TOP");
	snprintf(fx, sizeof fx, "%s/tests/fixtures/boot/debian12", top ? top : ".");
	setenv("KBENCH_SYSFS_ROOT", fx, 1);
	struct plan p;
	assert_int_equal(plan_init(&p, "n", "6.1.0-13-amd64", "6.6.8-pf1", 2, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	assert_int_equal(plan_choose_next(&p, 'B', what, sizeof what, err, sizeof err), 0);
	assert_string_equal(what, "grub-reboot gnulinux-advanced-3f1c2a9e-5b7d-4e8a-9c61-2d0e7f4b8a15>"
				  "gnulinux-6.6.8-pf1-advanced-3f1c2a9e-5b7d-4e8a-9c61-2d0e7f4b8a15");
	char want[600];
	snprintf(want, sizeof want, "%s/%s\n", dir, what);
	assert_string_equal(asked(), want);
	/* a kernel the menu lacks: one line, nothing asked of the boot loader */
	strcpy(p.kernel[1], "5.10.0-99-amd64");
	assert_int_equal(plan_choose_next(&p, 'B', what, sizeof what, err, sizeof err), -1);
	assert_non_null(strstr(err, "no entry of GRUB's menu"));
	assert_string_equal(asked(), "");
	/* no boot loader at all */
	setenv("KBENCH_SYSFS_ROOT", "/nonexistent-kbench", 1);
	assert_int_equal(plan_choose_next(&p, 'A', what, sizeof what, err, sizeof err), -1);
	assert_non_null(strstr(err, "boot 6.1.0-13-amd64 by hand"));
	plan_free(&p);
	/* the reboot: plain reboot without systemd, systemctl reboot with it */
	assert_int_equal(plan_reboot(err, sizeof err), 0);
	snprintf(want, sizeof want, "%s/reboot \n", dir);
	assert_string_equal(asked(), want);
}

static void test_settle_cap(void **state)
{
	char why[256] = "";
	assert_int_equal(plan_settle(0, 5, NULL, why, sizeof why), 0);
	time_t t0 = time(NULL);
	/* quiet 10 s can never come within a 2 s cap */
	assert_int_equal(plan_settle(2, 10, NULL, why, sizeof why), 1);
	assert_true(time(NULL) - t0 <= 4);
	assert_non_null(strstr(why, "still busy after 2 s"));
}

/* The unit systemd would run: systemd-analyze verify finds nothing to say. */
static void test_unit(void **state)
{
	struct plan p;
	char err[256], text[8192], name[128];
	assert_int_equal(plan_init(&p, "pf", "a", "b", 2, 1, 0, PLAN_ORDER_BALANCED, 1, 0, NULL, err, sizeof err), 0);
	plan_unit_name(p.name, name, sizeof name);
	assert_string_equal(name, "kbench-plan-pf.service");
	plan_unit_text(&p, "/usr/local/bin/kbench", "/home/u/.local/share/kbench", text, sizeof text);
	assert_non_null(strstr(text, "ExecStart=/usr/local/bin/kbench plan step pf --reboot\n"));
	assert_non_null(strstr(text, "Environment=KBENCH_HOME=/home/u/.local/share/kbench\n"));
	assert_non_null(strstr(text, "Type=exec\n"));
	assert_non_null(strstr(text, "WantedBy=multi-user.target\n"));
	if (system("command -v systemd-analyze >/dev/null") != 0) {
		plan_free(&p);
		skip();
	}
	char path[128], cmd[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	/* the verified unit must name a program that exists */
	snprintf(cmd, sizeof cmd, "sed -i 's|/usr/local/bin/kbench|/bin/true|' %s && out=$(systemd-analyze verify %s 2>&1) && [ -z \"$out\" ] || { echo \"$out\"; exit 1; }",
		 path, path);
	assert_int_equal(system(cmd), 0);
	plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_choose_next, setup, teardown),
		cmocka_unit_test(test_settle_cap),
		cmocka_unit_test_setup_teardown(test_unit, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
