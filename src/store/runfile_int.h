/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the run file: what its writer (runfile.c) and reader (runfile_read.c) share. Not for other files. */
#ifndef KBENCH_RUNFILE_INT_H
#define KBENCH_RUNFILE_INT_H

#include "run.h"

/* A test's status as the file spells it, indexed by enum test_status. */
#define RUNFILE_NSTATUS (TEST_IMPORTED + 1)
extern const char *const runfile_status_names[RUNFILE_NSTATUS];
/* Every string of r made safe to print: invalid UTF-8, control characters and
 * C1 codes become '?' (a written file and a file read back get the same). */
void runfile_sanitize_run(struct run *r);

#endif
