/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run's scratch directory: made with its owner written inside, and left-overs of dead owners removed. */
#include "scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATTERN_PREFIX "kbench-"
#define PATTERN_X 6 /* mkdtemp's XXXXXX: letters and digits */

/* Reads a small text file whole; returns its length or -errno. */
static ssize_t read_small(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size >= len) {
		close(fd);
		return -EINVAL;
	}
	ssize_t n = read(fd, buf, len - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	return n;
}

/* Field 22 of /proc/PID/stat, when the process started (clock ticks after
 * boot). The command name (field 2) may hold blanks and parentheses, so the
 * fields are counted from its last ')'. Returns 0 or -errno (-ENOENT: gone). */
static int start_time(pid_t pid, unsigned long long *t)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	ssize_t n = read_small(AT_FDCWD, path, buf, sizeof buf);
	if (n < 0)
		return n == -ESRCH ? -ENOENT : (int)n;
	char *p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	p++;
	for (int field = 2; field < 21; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EINVAL;
	}
	char *end;
	errno = 0;
	*t = strtoull(p + 1, &end, 10);
	return errno || end == p + 1 ? -EINVAL : 0;
}

/* This boot's id and this process's pid namespace, as the owner file writes them. */
static int boot_id(char *buf, size_t len)
{
	ssize_t n = read_small(AT_FDCWD, "/proc/sys/kernel/random/boot_id", buf, len);
	if (n < 0)
		return (int)n;
	buf[strcspn(buf, "\n")] = '\0';
	return strlen(buf) == 36 ? 0 : -EINVAL;
}

static int pid_ns(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/ns/pid", buf, len - 1);
	if (n <= 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int owner_text(char *buf, size_t len)
{
	unsigned long long t;
	char boot[64], ns[64];
	int rc = start_time(getpid(), &t);
	if (rc == 0)
		rc = boot_id(boot, sizeof boot);
	if (rc == 0)
		rc = pid_ns(ns, sizeof ns);
	if (rc == 0)
		snprintf(buf, len, "%d %llu %s %s\n", (int)getpid(), t, boot, ns);
	return rc;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void scratch_rm_tree(const char *dir)
{
	if (dir[0])
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

int scratch_make(const char *root, char *path, size_t len)
{
	if ((size_t)snprintf(path, len, "%s/" PATTERN_PREFIX "XXXXXX", root) >= len)
		return -ENAMETOOLONG;
	if (!mkdtemp(path))
		return -errno;
	/* Best effort: a scratch filesystem too full for these few bytes still
	 * runs the tests (and the file tests say why they fail); the directory
	 * then has no owner and no later run will touch it. Written under
	 * another name and renamed, so a sweep never reads half of it. */
	char text[200], tmp[PATH_MAX], dst[PATH_MAX];
	if (owner_text(text, sizeof text) != 0)
		return 0;
	snprintf(tmp, sizeof tmp, "%s/" SCRATCH_OWNER ".tmp", path);
	snprintf(dst, sizeof dst, "%s/" SCRATCH_OWNER, path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	size_t n = strlen(text);
	bool ok = write(fd, text, n) == (ssize_t)n;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, dst) != 0)
		unlink(tmp);
	return 0;
}

int scratch_owner_alive(const char *text)
{
	int pid, used = 0;
	unsigned long long t;
	char boot[64], ns[64], here[64];
	if (sscanf(text, "%d %llu %63s %63s\n%n", &pid, &t, boot, ns, &used) != 4 || pid <= 0 ||
	    strlen(boot) != 36 || strncmp(ns, "pid:[", 5) != 0 || text[used] != '\0')
		return -1;
	/* Another boot: its processes are all gone. */
	if (boot_id(here, sizeof here) != 0)
		return 1; /* cannot tell: keep it */
	if (strcmp(boot, here) != 0)
		return 0;
	/* Another pid namespace (a container sharing the directory): its pids
	 * mean nothing here. */
	if (pid_ns(here, sizeof here) != 0 || strcmp(ns, here) != 0)
		return 1;
	unsigned long long now;
	int rc = start_time(pid, &now);
	if (rc == -ENOENT)
		return 0;
	if (rc != 0)
		return 1;
	return now == t; /* a different start time: the pid was reused */
}

static bool ours(const char *name)
{
	size_t n = strlen(PATTERN_PREFIX);
	if (strncmp(name, PATTERN_PREFIX, n) != 0 || strlen(name) != n + PATTERN_X)
		return false;
	for (const char *p = name + n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

int scratch_sweep(const char *root)
{
	DIR *d = opendir(root);
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		struct stat st;
		char owner[PATH_MAX], text[256], path[PATH_MAX];
		if (!ours(e->d_name))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		snprintf(owner, sizeof owner, "%s/" SCRATCH_OWNER, e->d_name);
		if (read_small(dirfd(d), owner, text, sizeof text) <= 0 || scratch_owner_alive(text) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", root, e->d_name);
		scratch_rm_tree(path);
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			removed++;
	}
	closedir(d);
	return removed;
}
