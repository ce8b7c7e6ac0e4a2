/* kbench-exec: the small program kbench's fork and exec loops run in, as UnixBench runs them in its own small programs. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"
#include "workloads/workloads.h"

/*
 * A worker that reaches a loop whose cost depends on the process it runs
 * in (fork copies the forking process, exec loads the program) execs this
 * program: `kbench-exec MODE FD COPY`. FD is the runner's memfd of worker
 * slots, COPY the worker's slot. The worker's pid does not change, so to
 * the runner it is the same worker; this program finishes the sample
 * (t_end, state) as the worker would have.
 *
 * It is linked dynamically against libc only and compiled with UnixBench's
 * flags (see the Makefile), so that it is the same kind of process as
 * UnixBench's execl, spawn and syscall programs. It carries nothing else.
 */

static const struct {
	const char *mode;
	int (*loop)(struct workload_ctx *ctx);
} modes[] = {
	{ "execl", execl_link },
	{ "spawn", spawn_loop },
	{ "sysexec", sysexec_loop },
};

int main(int argc, char **argv)
{
	char err[200];
	struct workload_ctx ctx;
	int (*loop)(struct workload_ctx *) = NULL;

	for (size_t i = 0; argc > 1 && i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(argv[1], modes[i].mode) == 0)
			loop = modes[i].loop;
	if (argc != 4 || !loop) {
		fprintf(stderr, "kbench-exec: internal to kbench's execl, spawn and sysexec tests "
				"(usage: kbench-exec execl|spawn|sysexec FD COPY)\n");
		return 2;
	}
	if (wl_attach(argv[2], argv[3], &ctx, err, sizeof err) < 0) {
		fprintf(stderr, "kbench-exec: %s\n", err);
		return 2;
	}
	int rc = loop(&ctx);
	ctx.slot->t_end = wl_now();
	atomic_store(&ctx.slot->state, rc ? WORKER_FAILED : WORKER_DONE);
	return rc ? 1 : 0;
}
