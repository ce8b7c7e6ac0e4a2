/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Throughput as tasks grow: a fixed job mix run by 1, 2, 4, ... concurrent tasks, each step timed whole.
 *
 * A job is a fixed amount of mixed work, the kinds AIM7's multi-user mix
 * is made of: an arithmetic loop, a fork and exec of a small program
 * (kbench-exec, or /bin/true without it), pipe round trips, a small file
 * created, written, read back and deleted in the scratch directory, and a
 * sort of the lines of a text file from data/. Every task of a step runs
 * the same number of jobs, so a step's work grows with its tasks and its
 * real time says how well the kernel shares the machine among them.
 *
 * Copy 0 runs the steps; other copies have nothing to do (the tasks are the
 * parallelism; a block of several copies would only run the same steps at
 * once). Each step's tasks are forked first and wait on a pipe; closing it
 * starts them together, so the forks are outside the timed part. A step's
 * CPU time is the tasks' and their programs' user + system time, from the
 * rusage of the reaped children. Nothing is published inside a step. */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scaling.h"
#include "sysinfo.h"

#define ARITH_ITERS 300000
#define PIPE_TRIPS 200
#define PIPE_BYTES 512
#define FILE_BYTES (16 * 1024)
#define FILE_CHUNK 4096
#define SORT_FILE "sort.src"
#define SORT_MAX_LINES 4096

static volatile long scaling_sink;

static int arith_job(void)
{
	/* unsigned: the sums wrap, as they may */
	unsigned long a = 3, b = 7, c = 0;
	for (unsigned long i = 1; i <= ARITH_ITERS; i++) {
		c += a * i + b / (i | 1);
		a ^= c >> 3;
		b += i & 7;
	}
	scaling_sink = (long)(c & 0xffff);
	return 0;
}

static int exec_job(const char *helper, char *why, size_t len)
{
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (helper)
			execl(helper, helper, "true", (char *)NULL);
		else
			execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(why, len, "wait: %s", strerror(errno));
			return -1;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(why, len, "%s did not run (status %d)", helper ? helper : "/bin/true", st);
		return -1;
	}
	return 0;
}

static int pipe_job(char *why, size_t len)
{
	int fd[2];
	char buf[PIPE_BYTES];
	memset(buf, 'p', sizeof buf);
	if (pipe(fd) < 0) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < PIPE_TRIPS && rc == 0; i++)
		if (write(fd[1], buf, sizeof buf) != (ssize_t)sizeof buf ||
		    read(fd[0], buf, sizeof buf) != (ssize_t)sizeof buf) {
			snprintf(why, len, "pipe round trip: %s", strerror(errno));
			rc = -1;
		}
	close(fd[0]);
	close(fd[1]);
	return rc;
}

static int file_job(const char *dir, int task, char *why, size_t len)
{
	char path[4096], buf[FILE_CHUNK];
	snprintf(path, sizeof path, "%s/scaling-%d-%d", dir, (int)getpid(), task);
	memset(buf, 'f', sizeof buf);
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "cannot create a file in %s: %s", dir, strerror(errno));
		return -1;
	}
	int rc = 0;
	for (int off = 0; off < FILE_BYTES && rc == 0; off += FILE_CHUNK)
		if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
			snprintf(why, len, "cannot write a file in %s: %s", dir,
				 errno ? strerror(errno) : "short write");
			rc = -1;
		}
	if (rc == 0 && lseek(fd, 0, SEEK_SET) == 0)
		for (int off = 0; off < FILE_BYTES && rc == 0; off += FILE_CHUNK)
			if (read(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
				snprintf(why, len, "cannot read back a file in %s", dir);
				rc = -1;
			}
	close(fd);
	unlink(path);
	return rc;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the text file and sorts its lines: buf and lines are the task's,
 * allocated once before the step starts. */
static int sort_job(const char *path, char *buf, size_t cap, char **lines, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "cannot open %.200s: %s", path, strerror(errno));
		return -1;
	}
	ssize_t got = read(fd, buf, cap - 1);
	close(fd);
	if (got <= 0) {
		snprintf(why, len, "cannot read %.200s", path);
		return -1;
	}
	buf[got] = '\0';
	int n = 0;
	for (char *p = buf; *p && n < SORT_MAX_LINES;) {
		lines[n++] = p;
		p = strchr(p, '\n');
		if (!p)
			break;
		*p++ = '\0';
	}
	qsort(lines, (size_t)n, sizeof *lines, cmp_line);
	scaling_sink = lines[0][0];
	return 0;
}

/* One task: `jobs` jobs after the start signal; exit 0, or 1 with a line on errfd. */
static void task_main(struct workload_ctx *ctx, pid_t worker, int task, int jobs, int startfd, int errfd)
{
	wl_die_with(worker, SIGKILL);
	char why[300] = "", path[4096];
	snprintf(path, sizeof path, "%s/%s", ctx->datadir ? ctx->datadir : ".", SORT_FILE);
	size_t cap = 64 * 1024;
	char *buf = malloc(cap);
	char **lines = malloc(SORT_MAX_LINES * sizeof *lines);
	if (!buf || !lines)
		_exit(1);
	char c;
	while (read(startfd, &c, 1) < 0 && errno == EINTR)
		;
	int rc = 0;
	for (int j = 0; j < jobs && rc == 0 && !wl_stopped(ctx); j++)
		rc = arith_job() || exec_job(ctx->helper, why, sizeof why) || pipe_job(why, sizeof why) ||
		     file_job(ctx->tmpdir ? ctx->tmpdir : "/tmp", task, why, sizeof why) ||
		     sort_job(path, buf, cap, lines, why, sizeof why);
	if (rc) {
		char line[320];
		int n = snprintf(line, sizeof line, "%s\n", why);
		if (write(errfd, line, (size_t)n) < 0)
			_exit(1);
		_exit(1);
	}
	_exit(0);
}

static double tv_secs(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* One step: `tasks` tasks of `jobs` jobs. 0 with real and CPU seconds,
 * 1 when stopped (nothing to keep), -1 with a sentence in the slot. */
static int run_step(struct workload_ctx *ctx, int tasks, int jobs, double *real, double *cpu)
{
	int start[2], errp[2];
	if (pipe2(start, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC | O_NONBLOCK) < 0)
		return wl_fail(ctx, "pipe: %s", strerror(errno));
	pid_t *pids = calloc((size_t)tasks, sizeof *pids);
	if (!pids)
		return wl_fail(ctx, "out of memory for %d tasks", tasks);
	struct rusage r0, r1;
	getrusage(RUSAGE_CHILDREN, &r0);
	int forked = 0, rc = 0;
	pid_t worker = getpid();
	for (; forked < tasks; forked++) {
		pid_t pid = fork();
		if (pid < 0) {
			rc = wl_fail(ctx, "fork of task %d of %d: %s", forked + 1, tasks, strerror(errno));
			break;
		}
		if (pid == 0) {
			close(start[1]);
			close(errp[0]);
			task_main(ctx, worker, forked, jobs, start[0], errp[1]);
		}
		pids[forked] = pid;
	}
	close(start[0]);
	close(errp[1]);
	double t0 = wl_now();
	if (rc < 0) /* the forked ones must not start: kill them before the signal */
		for (int i = 0; i < forked; i++)
			kill(pids[i], SIGKILL);
	close(start[1]); /* the start signal: every task reads end of file */
	bool failed = false;
	for (int i = 0; i < forked; i++) {
		int st;
		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		failed = failed || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	*real = wl_now() - t0;
	getrusage(RUSAGE_CHILDREN, &r1);
	*cpu = tv_secs(&r1.ru_utime) - tv_secs(&r0.ru_utime) + tv_secs(&r1.ru_stime) -
	       tv_secs(&r0.ru_stime);
	free(pids);
	if (rc == 0 && failed && !wl_stopped(ctx)) {
		char line[320];
		ssize_t n = read(errp[0], line, sizeof line - 1);
		line[n > 0 ? n : 0] = '\0';
		line[strcspn(line, "\n")] = '\0';
		rc = wl_fail(ctx, "a task of %d failed: %s", tasks, line[0] ? line : "killed");
	}
	close(errp[0]);
	if (rc == 0 && wl_stopped(ctx))
		return 1;
	return rc;
}

static int scaling_run(struct workload_ctx *ctx)
{
	if (!ctx->settings)
		return wl_fail(ctx, "scaling: no settings given");
	struct scaling_params sp = *(const struct scaling_params *)ctx->settings;
	char err[200];
	int steps[SCALING_MAX_STEPS];
	int n = scaling_task_list(&sp, sysinfo_ncpus(), steps, SCALING_MAX_STEPS);
	if (ctx->copy > 0 || n < 1) {
		ctx->slot->time = 0;
		ctx->slot->rate = 0;
		return 0;
	}
	if (scaling_check_tasks(steps[n - 1], err, sizeof err) < 0)
		return wl_fail(ctx, "%s", err);
	double jpm[SCALING_MAX_STEPS];
	uint64_t done = 0;
	for (int i = 0; i < n && !wl_stopped(ctx); i++) {
		double real = 0, cpu = 0;
		int rc = run_step(ctx, steps[i], sp.jobs, &real, &cpu);
		if (rc < 0)
			return -1;
		if (rc > 0 || real <= 0)
			break; /* stopped mid-step: the finished steps stand */
		jpm[i] = (double)steps[i] * sp.jobs * 60 / real;
		wl_publish_point(ctx, SCALING_REAL, steps[i], real);
		wl_publish_point(ctx, SCALING_CPU, steps[i], cpu);
		wl_publish_point(ctx, SCALING_JPM, steps[i], jpm[i]);
		done += (uint64_t)steps[i] * (uint64_t)sp.jobs;
		wl_publish(ctx, done);
		/* the doubling stops two steps past the peak; a list asked for runs whole */
		if (!sp.ntasks && scaling_should_stop(jpm, i + 1, SCALING_MARGIN))
			break;
	}
	/* The rate fields a self-timed test fills: jobs done per second. */
	ctx->slot->time = wl_now() - ctx->slot->t_start;
	ctx->slot->rate = (double)done;
	return 0;
}

const struct workload wl_scaling = {
	.name = "scaling",
	.run = scaling_run,
};
