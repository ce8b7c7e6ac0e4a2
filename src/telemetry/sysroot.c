/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one place sysfs and procfs paths get their root, so tests can point every reader at a fixture tree, and the one directory walk. */
#include "telemetry/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read each time, not cached: unit tests switch trees between cases. */
const char *sysroot(void)
{
	const char *r = getenv("KBENCH_SYSFS_ROOT");
	return r ? r : "";
}

int sysroot_path(char *buf, size_t size, const char *fmt, ...)
{
	int n = snprintf(buf, size, "%s", sysroot());
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= size - (size_t)n)
		return -ENAMETOOLONG;
	return 0;
}

/* One read(2) into a small buffer: sysfs attributes are single values, and
 * stdio would allocate a page-sized buffer for each. */
int sysroot_read_line(const char *path, char *buf, size_t size)
{
	char full[4096];
	if (sysroot_path(full, sizeof full, "%s", path) < 0)
		return -ENAMETOOLONG;
	int fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, size - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int sysroot_read_u64(const char *path, uint64_t *out)
{
	char buf[64], *end;
	int rc = sysroot_read_line(path, buf, sizeof buf);
	if (rc < 0)
		return rc;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (errno || end == buf || buf[0] == '-')
		return -EINVAL;
	*out = v;
	return 0;
}

int sysroot_exists(const char *path)
{
	char full[4096];
	if (sysroot_path(full, sizeof full, "%s", path) < 0)
		return 0;
	return access(full, F_OK) == 0;
}

int dir_each(const char *dir, int (*fn)(const char *name, void *arg), void *arg)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = fn(e->d_name, arg);
	closedir(d);
	return rc;
}

int sysroot_dir_each(const char *path, int (*fn)(const char *name, void *arg), void *arg)
{
	char full[4096];
	if (sysroot_path(full, sizeof full, "%s", path) < 0)
		return -ENAMETOOLONG;
	return dir_each(full, fn, arg);
}
