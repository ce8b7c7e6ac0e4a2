/* Process Creation: fork a child that exits at once, wait for it, per loop. */
#include "workloads.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int spawn_run(struct workload_ctx *ctx)
{
	uint64_t n = 0;

	while (!wl_stopped(ctx)) {
		pid_t pid = fork();
		if (pid < 0)
			return wl_fail(ctx, "fork failed after %llu processes: %s",
				       (unsigned long long)n, strerror(errno));
		if (pid == 0)
			_exit(0);
		int status;
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR)
				return wl_fail(ctx, "waiting for a child failed: %s", strerror(errno));
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return wl_fail(ctx, "a child ended with wait status %#x instead of exit 0",
				       (unsigned)status);
		wl_publish(ctx, ++n);
	}
	return 0;
}

const struct workload wl_spawn = { .name = "spawn", .run = spawn_run };
