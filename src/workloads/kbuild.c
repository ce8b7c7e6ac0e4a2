/* Build time: make builds the generated C tree, timed per build with wait4's rusage, at each -j value.
 *
 * kernbench's protocol: the tree is prepared (generated once per run into
 * the scratch directory, beside the copy's own directory, which the runner
 * empties after each sample) and built once untimed (the warm-up: the
 * compiler and the headers into the page cache). Then a sample is one timed
 * build per -j value, each after `make clean`, sync and a short settle.
 * make runs in the worker's process group, so a skip, an abort or Ctrl-C
 * kills it and its compilers with the worker. Progress (objects compiled
 * so far in this build) is the published count, read a few times a second
 * from the objects directory, outside anything that is timed by the kernel's
 * clock for the build. */
#include "workloads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kbuild.h"
#include "sysinfo.h"

/* After `make clean` and sync, before the timed build: the deleted objects'
 * writeback and the clean's own processes out of the way. A small tree's
 * clean leaves less to settle. */
#define SETTLE_SECONDS 1.0
#define SETTLE_SECONDS_SMALL 0.25

static int count_objects(const char *tree)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/obj", tree);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		n += l > 2 && !strcmp(e->d_name + l - 2, ".o");
	}
	closedir(d);
	return n;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The last line of make's output log, for the error sentence. */
static void last_line(const char *log, char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen(log, "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f))
		if (line[0] != '\n') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%.180s", line);
		}
	fclose(f);
}

/* Runs make in tree with args; fills ru and the elapsed time. Progress:
 * the count of objects, published while it runs. 0, or -1 with a sentence. */
static int run_make(struct workload_ctx *ctx, const char *tree, const char *log, int jobs,
		    int timed_jobs, const char *target, double *elapsed, struct rusage *ru)
{
	char jarg[16];
	snprintf(jarg, sizeof jarg, "-j%d", jobs);
	if (target[0] != 'c') /* the console's progress: which build, since when */
		wl_publish_point(ctx, KB_BEGIN, timed_jobs, wl_now() - ctx->slot->t_start);
	double t0 = wl_now();
	pid_t pid = fork();
	if (pid < 0)
		return wl_fail(ctx, "fork: %s", strerror(errno));
	if (pid == 0) {
		/* The worker killed outright (its coordinator was): make gets
		 * SIGTERM, which it passes to the compilers it runs (GNU make's
		 * fatal_error_signal), so none go on writing into the scratch. A
		 * skip, an abort or Ctrl-C kill the worker's whole group anyway. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDONLY);
		if (fd < 0 || nul < 0 || chdir(tree) != 0)
			_exit(126);
		dup2(nul, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("make", "make", "-s", jarg, target, (char *)NULL);
		dprintf(2, "cannot run make: %s\n", strerror(errno));
		_exit(127);
	}
	int st = 0;
	for (;;) {
		pid_t w = wait4(pid, &st, WNOHANG, ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return wl_fail(ctx, "wait4: %s", strerror(errno));
		if (target[0] != 'c')
			wl_publish(ctx, (uint64_t)count_objects(tree));
		sleep_s(0.05);
	}
	*elapsed = wl_now() - t0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char line[200];
		last_line(log, line, sizeof line);
		return wl_fail(ctx, "make %s %s failed%s%s", jarg, target, line[0] ? ": " : "", line);
	}
	return 0;
}

int kbuild_make(struct workload_ctx *ctx, const char *tree, const char *log, int jobs, int mark,
		const char *target, double *elapsed, struct rusage *ru)
{
	return run_make(ctx, tree, log, jobs, mark, target, elapsed, ru);
}

static int kbuild_run(struct workload_ctx *ctx)
{
	struct kbuild_opts o;
	char err[200];
	/* A quick run's samples are short (tests.c): its tree is the small one. */
	bool quick = ctx->duration < 150;
	if (kbuild_parse_params(ctx->params, sysinfo_ncpus(), quick, &o, err, sizeof err) < 0)
		return wl_fail(ctx, "%s", err);
	char tree[4096], log[4200];
	snprintf(tree, sizeof tree, "%s", ctx->tmpdir);
	char *slash = strrchr(tree, '/');
	if (!slash)
		return wl_fail(ctx, "scratch directory %s has no parent", ctx->tmpdir);
	snprintf(slash, sizeof tree - (size_t)(slash - tree), "/kbuild%d", ctx->copy);
	snprintf(log, sizeof log, "%s/make.log", ctx->tmpdir);
	wl_publish_point(ctx, KB_UNITS, 0, o.units);

	struct rusage ru;
	double el;
	char mk[4200];
	snprintf(mk, sizeof mk, "%s/Makefile", tree);
	if (access(mk, F_OK) != 0) {
		/* prepare: generate, then the untimed warm-up build at -j CPUs */
		uint64_t hash;
		if (mkdir(tree, 0755) != 0 && errno != EEXIST)
			return wl_fail(ctx, "cannot make %s: %s", tree, strerror(errno));
		if (kbuild_generate(tree, o.units, &hash, err, sizeof err) < 0)
			return wl_fail(ctx, "%s", err);
		if (run_make(ctx, tree, log, sysinfo_ncpus(), 0, "kbprog", &el, &ru) < 0)
			return -1;
	}
	for (int i = 0; i < o.njobs && !wl_stopped(ctx); i++) {
		if (run_make(ctx, tree, log, 1, 0, "clean", &el, &ru) < 0)
			return -1;
		wl_publish(ctx, 0);
		sync();
		sleep_s(o.units >= KBUILD_UNITS_FULL ? SETTLE_SECONDS : SETTLE_SECONDS_SMALL);
		if (run_make(ctx, tree, log, o.jobs[i], o.jobs[i], "kbprog", &el, &ru) < 0)
			return -1;
		double x = o.jobs[i];
		wl_publish_point(ctx, KB_USER, x, (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6);
		wl_publish_point(ctx, KB_SYS, x, (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
		wl_publish_point(ctx, KB_VCSW, x, (double)ru.ru_nvcsw);
		wl_publish_point(ctx, KB_IVCSW, x, (double)ru.ru_nivcsw);
		wl_publish_point(ctx, KB_MAXRSS, x, (double)ru.ru_maxrss);
		/* last: a build is complete once its time is there (kbuild_collect) */
		wl_publish_point(ctx, KB_ELAPSED, x, el);
	}
	ctx->slot->time = wl_now() - ctx->slot->t_start;
	ctx->slot->rate = 0;
	return 0;
}

/* The compiler the Makefile's `cc` is, and its version. */
static int kbuild_describe(const char *arg, char *key, size_t keylen, char *text, size_t textlen)
{
	snprintf(key, keylen, "compiler");
	FILE *p = popen("cc --version 2>/dev/null", "r");
	if (!p)
		return -1;
	char line[160] = "";
	if (!fgets(line, sizeof line, p))
		line[0] = '\0';
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	snprintf(text, textlen, "%s", line[0] ? line : "cc (its --version said nothing)");
	return 0;
}

const struct workload wl_kbuild = { .name = "kbuild", .run = kbuild_run, .describe = kbuild_describe };
