/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run's scratch directory: made with its owner written inside, and left-overs of dead owners removed. */
#ifndef KBENCH_SCRATCH_H
#define KBENCH_SCRATCH_H

#include <stddef.h>
#include <sys/types.h>

/* The file in a scratch directory that names the kbench that made it:
 * "PID STARTTIME BOOT_ID PIDNS\n" (STARTTIME is field 22 of /proc/PID/stat,
 * so a reused pid is not taken for the owner; BOOT_ID tells one boot from the
 * next; PIDNS, "pid:[N]", says in which pid namespace PID means anything). */
#define SCRATCH_OWNER "owner"

/* Makes ROOT/kbench-XXXXXX, writes its owner file, and puts its path in
 * path. Returns 0, or -errno (the directory is not left behind). */
int scratch_make(const char *root, char *path, size_t len);

/* Whether the process an owner file names is alive: 1 alive, 0 gone (no such
 * pid, a pid reused by a process started at another time, or another boot),
 * -1 not an owner file kbench wrote. */
int scratch_owner_alive(const char *text);

/* Removes the directories ROOT/kbench-XXXXXX (kbench's own pattern) that
 * belong to this user and hold an owner file naming a process that is gone:
 * what a kbench killed outright (SIGKILL) could not remove. Anything else,
 * a directory without an owner file included, is left alone. Returns how
 * many were removed. */
int scratch_sweep(const char *root);

/* Removes dir and everything below it, without following symbolic links or
 * leaving its filesystem; "" is nothing. */
void scratch_rm_tree(const char *dir);

#endif
