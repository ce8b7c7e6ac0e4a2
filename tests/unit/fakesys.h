/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fake /sys for the unit tests: files under a temporary root that the telemetry
 * readers take for / (KBENCH_SYSFS_ROOT, src/telemetry/sysroot.c). Include after
 * cmocka.h; one tree per test program. */
#ifndef KBENCH_TESTS_FAKESYS_H
#define KBENCH_TESTS_FAKESYS_H

#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A new empty tree (name tells the test programs' trees apart), made the root. In
 * /dev/shm where there is one: sysfs is in memory too, and a corpus test makes and removes
 * hundreds of trees, which a disk's file system (ext4 mounted with discard) takes seconds
 * over. */
static int fakesys_make(const char *name)
{
	struct stat st;
	const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK | X_OK) == 0
				   ? "/dev/shm"
				   : "/tmp";
	snprintf(fakesys_root, sizeof fakesys_root, "%s/kbench-unit-%s.XXXXXX", base, name);
	if (!mkdtemp(fakesys_root))
		return -1;
	setenv("KBENCH_SYSFS_ROOT", fakesys_root, 1);
	return 0;
}

static int fakesys_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* The tree removed, and the real / the root again. In this process, not by an rm a shell
 * runs: a corpus test makes and removes hundreds of trees (an rm each took half its time). */
static int fakesys_remove(void)
{
	unsetenv("KBENCH_SYSFS_ROOT");
	return nftw(fakesys_root, fakesys_remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

#endif
