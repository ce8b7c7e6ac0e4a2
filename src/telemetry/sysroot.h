/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one place sysfs and procfs paths get their root, so tests can point every reader at a fixture tree, and the one directory walk. */
#ifndef KBENCH_TELEMETRY_SYSROOT_H
#define KBENCH_TELEMETRY_SYSROOT_H

#include <stddef.h>
#include <stdint.h>

/* "" normally; $KBENCH_SYSFS_ROOT when set (a tree holding sys/... and proc/...).
 * libsensors is not covered: it always reads the real /sys. */
const char *sysroot(void);

/* Writes root + the formatted absolute path ("/sys/...") into buf. Returns 0 or -ENAMETOOLONG. */
int sysroot_path(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads the first line of root+path (no newline). Returns 0 or -errno. */
int sysroot_read_line(const char *path, char *buf, size_t size);
/* Reads one whole number from root+path. Returns 0, -errno, or -EINVAL when it is not one. */
int sysroot_read_u64(const char *path, uint64_t *out);
/* 1 when root+path exists. */
int sysroot_exists(const char *path);

/* Calls fn(name, arg) for each entry of the directory dir (as given, no root), "." and
 * ".." aside, in readdir's order, until fn returns non-zero. Returns what fn returned
 * last (0 when it was called for every entry or for none), or -errno when dir does not open. */
int dir_each(const char *dir, int (*fn)(const char *name, void *arg), void *arg);
/* dir_each on root+path ("/sys/class/thermal"). */
int sysroot_dir_each(const char *path, int (*fn)(const char *name, void *arg), void *arg);

#endif
