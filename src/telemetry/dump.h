/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench sensors --dump FILE`: a tar of the sysfs and procfs files kbench reads, for a bug report or a test fixture. */
#ifndef KBENCH_TELEMETRY_DUMP_H
#define KBENCH_TELEMETRY_DUMP_H

#include <stddef.h>

/* Writes the tar to path (through the sysroot seam: a fixture tree dumps as the machine would).
 * Files keep their values and modes; serial numbers, host names and anything not on the list
 * are left out. Returns the number of files, or -errno with one sentence in err. */
int telemetry_dump(const char *path, char *err, size_t errlen);

#endif
