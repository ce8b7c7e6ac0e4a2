/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of run modes, one line each: the record's readers find a mode a run file names in it, the command line each mode's own command (run.h). */
#include "run.h"

/* Each mode is a `struct run_mode_info` its own files define (the record's own in
 * src/record/run_modes.c, thermal's in src/families/thermal_run.c); adding one is adding its
 * line here. The order is `kbench runs --mode`'s and the commands' in help. */
#define RUN_MODES(X)                                                              \
	X(run_mode_full)     /* src/record/run_modes.c: UnixBench's samples */      \
	X(run_mode_quick)    /* src/record/run_modes.c: --quick */                  \
	X(thermal_mode)      /* src/families/thermal_run.c: kbench thermal */       \
	X(run_mode_imported) /* src/record/run_modes.c: a published result */       \
	/* a new mode goes above this line */

#define DECLARE(m) extern const struct run_mode_info m;
#define ENTRY(m) &m,
RUN_MODES(DECLARE)

static const struct run_mode_info *const run_modes[] = { RUN_MODES(ENTRY) NULL };

/* Before every other constructor (the option table and kbench runs' mode names read the list
 * as they are made): the record, a floor below, holds the pointer and never names this file. */
__attribute__((constructor(101))) static void run_modes_install(void)
{
	run_mode_list = run_modes;
}
