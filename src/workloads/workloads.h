/* The benchmark loops kbench knows, one per file in src/workloads/. */
#ifndef KBENCH_WORKLOADS_H
#define KBENCH_WORKLOADS_H

#include "workload.h"

extern const struct workload wl_dhry;      /* dhry.c + dhry_procs.c: Dhrystone 2.1, register variables */
extern const struct workload wl_whetstone; /* whetstone.c: double precision, self-timed */
extern const struct workload wl_arith;     /* arith.c: arg = arithoh|short|int|long|float|double|register */
extern const struct workload wl_hanoi;     /* hanoi.c: 10-disk Tower of Hanoi per loop */
extern const struct workload wl_execl;     /* execl.c: re-execs kbench itself */
extern const struct workload wl_fscopy;    /* fscopy.c: arg = "bufsize maxblocks", self-timed */
extern const struct workload wl_pipe;      /* pipe.c: 512-byte write+read on one pipe */
extern const struct workload wl_context;   /* context.c: two pipes, two processes */
extern const struct workload wl_spawn;     /* spawn.c: fork + exit + wait */
extern const struct workload wl_syscall;   /* syscall.c: arg = mix|close|getpid|exec */
extern const struct workload wl_shell;     /* shell.c: arg = concurrent scripts per loop */
extern const struct workload wl_grep;      /* grep.c: grep -c on large.txt per loop */

/* The hidden `kbench __execl ...` entry: one link of execl's chain. */
int execl_chain_main(int argc, char **argv);
/* The hidden `kbench __spawn FD COPY` entry: spawn's loop in a fresh, small process. */
int spawn_main(int argc, char **argv);

#endif
