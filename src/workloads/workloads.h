/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's benchmark loops, one per file in src/workloads/ (a family's loop is declared in its family's header). */
#ifndef KBENCH_WORKLOADS_H
#define KBENCH_WORKLOADS_H

#include "workload.h"

extern const struct workload wl_dhry;      /* dhry.c + dhry_procs.c: Dhrystone 2.1, register variables */
extern const struct workload wl_whetstone; /* whetstone.c: double precision, self-timed */
extern const struct workload wl_arith;     /* arith.c: arg = arithoh|short|int|long|float|double|register */
extern const struct workload wl_hanoi;     /* hanoi.c: 10-disk Tower of Hanoi per loop */
extern const struct workload wl_execl;     /* execl.c: kbench-exec re-executing itself */
extern const struct workload wl_fscopy;    /* fscopy.c: arg = "bufsize maxblocks", self-timed */
extern const struct workload wl_pipe;      /* pipe.c: 512-byte write+read on one pipe */
extern const struct workload wl_context;   /* context.c: two pipes, two processes */
extern const struct workload wl_spawn;     /* spawn.c: fork + exit + wait */
extern const struct workload wl_syscall;   /* syscall.c: arg = mix|close|getpid|exec */
extern const struct workload wl_shell;     /* shell.c: arg = concurrent scripts per loop */
extern const struct workload wl_grep;      /* grep.c: grep -c on large.txt per loop */
extern const struct workload wl_cc;        /* cc.c: gcc compiles and links cctest.c per loop */

/* The rate tests' settings (family_rate.c's rows; ctx->settings of every rate
 * test): where context1 puts each copy's two processes. PAIR_ANY leaves them
 * to the scheduler, as UnixBench does; on two CPUs they then share one (each
 * wake-up stays on it) or cross (every wake-up an IPI), and the rate differs
 * several times over, so a user may pin the case they mean to measure. */
enum wl_pair_cpus { PAIR_ANY, PAIR_ONE, PAIR_TWO };
struct rate_settings {
	enum wl_pair_cpus pair_cpus;
};

/* The loops kbench-exec runs (src/helper/kbench-exec.c), each in a small
 * process as UnixBench runs them; 0 when stopped, -1 with a sentence. */
int execl_link(struct workload_ctx *ctx);   /* one link of execl's chain: counts, execs the next */
int spawn_loop(struct workload_ctx *ctx);   /* fork + exit + wait until stopped */
int sysexec_loop(struct workload_ctx *ctx); /* fork + exec /bin/true + wait until stopped */


#endif
