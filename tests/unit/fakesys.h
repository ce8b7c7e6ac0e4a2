/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fake /sys for the unit tests: files under a temporary root that the telemetry
 * readers take for / (KBENCH_SYSFS_ROOT, src/telemetry/sysroot.c). Include after
 * cmocka.h; one tree per test program. */
#ifndef KBENCH_TESTS_FAKESYS_H
#define KBENCH_TESTS_FAKESYS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char fakesys_root[256];

/* Writes fakesys_root/rel (making its directories) with the formatted text. */
__attribute__((format(printf, 2, 3), unused)) static void fakesys_put(const char *rel, const char *fmt, ...)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", fakesys_root, rel);
	for (char *p = path + strlen(fakesys_root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* A new empty tree (name tells the test programs' trees apart in /tmp), made the root. */
static int fakesys_make(const char *name)
{
	snprintf(fakesys_root, sizeof fakesys_root, "/tmp/kbench-unit-%s.XXXXXX", name);
	if (!mkdtemp(fakesys_root))
		return -1;
	setenv("KBENCH_SYSFS_ROOT", fakesys_root, 1);
	return 0;
}

/* The tree removed, and the real / the root again. */
static int fakesys_remove(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fakesys_root);
	unsetenv("KBENCH_SYSFS_ROOT");
	return system(cmd) == 0 ? 0 : -1;
}

#endif
