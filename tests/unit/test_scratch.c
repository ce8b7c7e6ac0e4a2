/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for scratch directories: the owner file kbench writes, read back, and what a sweep removes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* This process's own owner line, as scratch_make writes it. */
static void own_line(char *text, size_t len, char *dir, size_t dirlen)
{
	char root[] = "/tmp/kbench-test-scratch.XXXXXX";
	assert_non_null(mkdtemp(root));
	assert_int_equal(scratch_make(root, dir, dirlen), 0);
	char path[600];
	snprintf(path, sizeof path, "%s/%s", dir, SCRATCH_OWNER);
	read_file(path, text, len);
}

static void test_owner_is_this_process(void **state)
{
	char text[256], dir[512], pid[32];
	own_line(text, sizeof text, dir, sizeof dir);
	snprintf(pid, sizeof pid, "%d ", (int)getpid());
	assert_true(strncmp(text, pid, strlen(pid)) == 0);
	assert_int_equal(scratch_owner_alive(text), 1);
	/* A sweep keeps a live owner's directory. */
	char root[512];
	snprintf(root, sizeof root, "%s", dir);
	*strrchr(root, '/') = '\0';
	assert_int_equal(scratch_sweep(root), 0);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	char cmd[1100];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void test_owner_gone_or_not_an_owner(void **state)
{
	char text[256], dir[512], line[300];
	own_line(text, sizeof text, dir, sizeof dir);
	int pid;
	unsigned long long t;
	char boot[64], ns[64];
	assert_int_equal(sscanf(text, "%d %llu %63s %63s", &pid, &t, boot, ns), 4);

	/* the same pid started at another time: reused */
	snprintf(line, sizeof line, "%d %llu %s %s\n", pid, t + 1, boot, ns);
	assert_int_equal(scratch_owner_alive(line), 0);
	/* another boot */
	snprintf(line, sizeof line, "%d %llu 00000000-0000-0000-0000-000000000000 %s\n", pid, t, ns);
	assert_int_equal(scratch_owner_alive(line), 0);
	/* no such pid (pid_max is never handed out) */
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	int max = 0;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &max), 1);
	fclose(f);
	snprintf(line, sizeof line, "%d %llu %s %s\n", max, t, boot, ns);
	assert_int_equal(scratch_owner_alive(line), 0);
	/* another pid namespace: its pids cannot be judged here, so it is kept */
	snprintf(line, sizeof line, "%d %llu %s pid:[1]\n", max, t, boot);
	assert_int_equal(scratch_owner_alive(line), 1);

	/* not an owner file kbench wrote */
	assert_int_equal(scratch_owner_alive(""), -1);
	assert_int_equal(scratch_owner_alive("hello\n"), -1);
	assert_int_equal(scratch_owner_alive("0 1 00000000-0000-0000-0000-000000000000 pid:[1]\n"), -1);
	snprintf(line, sizeof line, "%d %llu %s %s\nmore\n", max, t, boot, ns);
	assert_int_equal(scratch_owner_alive(line), -1);
	snprintf(line, sizeof line, "%d %llu short %s\n", max, t, ns);
	assert_int_equal(scratch_owner_alive(line), -1);

	char cmd[1100];
	*strrchr(dir, '/') = '\0';
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_is_this_process),
		cmocka_unit_test(test_owner_gone_or_not_an_owner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
