/* SPDX-License-Identifier: GPL-2.0-or-later */
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
 * clock for the build.
 *
 * Kernel mode (params source=, config=) is the same protocol on a Linux
 * tree: prepare (a tarball extracted beside the copy's directory; a
 * directory used as it is, never written: make -C SRC O=OUT builds into
 * the scratch), make mrproper and the config target in O=, the kernel's
 * version, the warm-up, then per -j make clean and the timed build. Its
 * progress is the .o files under O= (counted twice a second: the tree is
 * large) less those make clean left, of what the warm-up counted less the
 * same. */
#include "workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kbuild.h"
#include "scratch.h"
#include "sysinfo.h"

/* After `make clean` and sync, before the timed build: the deleted objects'
 * writeback and the clean's own processes out of the way. A small tree's
 * clean leaves less to settle. */
#define SETTLE_SECONDS 1.0
#define SETTLE_SECONDS_SMALL 0.25

/* What make builds: the generated tree (make in dir), or a kernel (make -C
 * src O=dir), whose objects are counted across its whole O= tree. */
struct kb_tree {
	char dir[PATH_MAX];
	const char *src; /* NULL: the generated tree */
	int left;        /* kernel: the objects make clean left (host programs) */
};

static int kernel_objects_n;
static int count_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	size_t l = strlen(path);
	(void)st;
	(void)ftw;
	kernel_objects_n += flag == FTW_F && l > 2 && !strcmp(path + l - 2, ".o");
	return 0;
}

/* The .o files under an O= tree, its `source` link not followed. */
static int count_kernel_objects(const char *out)
{
	kernel_objects_n = 0;
	nftw(out, count_one, 32, FTW_PHYS | FTW_MOUNT);
	return kernel_objects_n;
}

static int count_objects(const char *tree)
{
	char dir[PATH_MAX + 8];
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

/* In a child of the worker (parent: its pid), before it runs make or tar:
 * SIGTERM when the worker dies, stdin from /dev/null, stdout and stderr to
 * log, in dir when one is given. -1 when one of them cannot be had. */
static int child_to_log(pid_t parent, const char *log, const char *dir)
{
	wl_die_with(parent, SIGTERM);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int nul = open("/dev/null", O_RDONLY);
	if (fd < 0 || nul < 0 || (dir && chdir(dir) != 0))
		return -1;
	dup2(nul, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	return 0;
}

/* Runs make on the tree with -j jobs and target (NULL: the default one);
 * fills ru and the elapsed time. A build (progress true) says when it
 * begins (timed_jobs: its -j, 0 the warm-up) and publishes the objects
 * made so far while it runs; a clean, when it begins (timed_jobs: the -j of
 * the build it comes before). 0, or -1 with a sentence. */
static int run_make(struct workload_ctx *ctx, const struct kb_tree *t, const char *log, int jobs,
		    int timed_jobs, const char *target, bool progress, double *elapsed,
		    struct rusage *ru)
{
	char jarg[16], oarg[PATH_MAX + 8];
	snprintf(jarg, sizeof jarg, "-j%d", jobs);
	snprintf(oarg, sizeof oarg, "O=%s", t->dir);
	const char *argv[10];
	int a = 0;
	argv[a++] = "make";
	argv[a++] = "-s";
	if (t->src) {
		argv[a++] = "-C";
		argv[a++] = t->src;
		argv[a++] = oarg;
	}
	argv[a++] = jarg;
	if (target)
		argv[a++] = target;
	argv[a] = NULL;
	if (progress) /* the console's progress: which build, since when */
		wl_publish_point(ctx, KB_BEGIN, timed_jobs, wl_now() - ctx->slot->t_start);
	else if (target && !strcmp(target, "clean")) /* and the clean before it */
		wl_publish_point(ctx, KB_CLEAN, timed_jobs, wl_now() - ctx->slot->t_start);
	/* The compilers' temporary files (gcc's cc*.s) in the copy's own
	 * directory: a compiler killed with its worker cannot remove them, and
	 * the scratch goes at the run's end, Ctrl-C or not. */
	char tmp[PATH_MAX];
	if (!realpath(ctx->tmpdir, tmp))
		snprintf(tmp, sizeof tmp, "%s", ctx->tmpdir);
	double t0 = wl_now(), next_count = 0;
	pid_t worker = getpid(), pid = fork();
	if (pid < 0)
		return wl_fail(ctx, "fork: %s", strerror(errno));
	if (pid == 0) {
		/* The worker killed outright (its coordinator was): make gets
		 * SIGTERM, which it passes to the compilers it runs (GNU make's
		 * fatal_error_signal), so none go on writing into the scratch. A
		 * skip, an abort or Ctrl-C kill the worker's whole group anyway. */
		if (child_to_log(worker, log, t->dir) < 0)
			_exit(126);
		/* Not a sub-make of whatever make started kbench (make test):
		 * its jobserver would share out the -j asked here. And no
		 * ccache between make and the compiler, as kcbench does. */
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		unsetenv("MAKEOVERRIDES");
		setenv("CCACHE_DISABLE", "1", 1);
		setenv("TMPDIR", tmp, 1);
		execvp("make", (char *const *)argv);
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
		if (progress && !t->src) {
			wl_publish(ctx, (uint64_t)count_objects(t->dir));
		} else if (progress && wl_now() >= next_count) {
			int n = count_kernel_objects(t->dir) - t->left;
			wl_publish(ctx, (uint64_t)(n > 0 ? n : 0));
			next_count = wl_now() + 0.5;
		}
		sleep_s(0.05);
	}
	*elapsed = wl_now() - t0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char line[200];
		last_line(log, line, sizeof line);
		return wl_fail(ctx, "make %s %s failed%s%s", jarg, target ? target : "(the kernel)",
			       line[0] ? ": " : "", line);
	}
	return 0;
}

/* The timed builds of one sample, one per -j, each after make clean, sync
 * and the settle; their rusage and time as points. Kernel mode: *made is
 * the objects a build makes, for the progress; 0 at first (then the
 * warm-up's count, total, less what make clean left stands in for it: the
 * warm-up made a few host objects that a build after make clean does not
 * make again), and each build's own count after it. */
static int timed_builds(struct workload_ctx *ctx, struct kb_tree *t, const char *log,
			const struct kbuild_opts *o, int total, int *made, double settle)
{
	struct rusage ru;
	double el;
	for (int i = 0; i < o->njobs && !wl_stopped(ctx); i++) {
		if (run_make(ctx, t, log, t->src ? sysinfo_ncpus() : 1, o->jobs[i], "clean", false, &el, &ru) < 0)
			return -1;
		if (t->src) {
			t->left = count_kernel_objects(t->dir);
			wl_publish_point(ctx, KB_OBJECTS, 0, *made > 0 ? *made : total - t->left);
		}
		wl_publish(ctx, 0);
		sync();
		sleep_s(settle);
		if (run_make(ctx, t, log, o->jobs[i], o->jobs[i], t->src ? NULL : "kbprog", true, &el,
			     &ru) < 0)
			return -1;
		if (t->src)
			*made = count_kernel_objects(t->dir) - t->left;
		double x = o->jobs[i];
		wl_publish_point(ctx, KB_USER, x, (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6);
		wl_publish_point(ctx, KB_SYS, x, (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
		wl_publish_point(ctx, KB_VCSW, x, (double)ru.ru_nvcsw);
		wl_publish_point(ctx, KB_IVCSW, x, (double)ru.ru_nivcsw);
		wl_publish_point(ctx, KB_MAXRSS, x, (double)ru.ru_maxrss);
		/* last: a build is complete once its time is there (kbuild_collect) */
		wl_publish_point(ctx, KB_ELAPSED, x, el);
	}
	return 0;
}

/* The first line of a file that starts with a digit (make kernelversion's
 * answer among make's own warnings). */
static void version_line(const char *path, char *out, size_t len)
{
	snprintf(out, len, "unknown");
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[200];
	while (fgets(line, sizeof line, f))
		if (line[0] >= '0' && line[0] <= '9') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%.60s", line);
			break;
		}
	fclose(f);
}

/* The compiler the kernel's config found (CONFIG_CC_VERSION_TEXT, since
 * 5.8), else what gcc says of itself. */
static void kernel_compiler(const char *out, char *text, size_t len)
{
	char path[PATH_MAX + 16], line[256];
	snprintf(path, sizeof path, "%s/.config", out);
	text[0] = '\0';
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "CONFIG_CC_VERSION_TEXT=\"", 24)) {
			line[strcspn(line + 24, "\"\n") + 24] = '\0';
			snprintf(text, len, "%.90s", line + 24);
			break;
		}
	if (f)
		fclose(f);
	if (!text[0] && (f = popen("gcc --version 2>/dev/null", "r"))) {
		if (fgets(line, sizeof line, f)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(text, len, "%.90s", line);
		}
		pclose(f);
	}
}

static unsigned long long tree_bytes;
static int add_size(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F)
		tree_bytes += (unsigned long long)st->st_size;
	return 0;
}

/* Where a tarball put the tree: dir itself, or its one subdirectory
 * (linux-6.1/, linux-source-6.1/). */
static int find_top(const char *dir, char *top, size_t len)
{
	char mk[PATH_MAX + 16];
	snprintf(mk, sizeof mk, "%s/Makefile", dir);
	if (access(mk, F_OK) == 0)
		return snprintf(top, len, "%s", dir), 0;
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			n++;
			snprintf(top, len, "%s/%s", dir, e->d_name);
		}
	closedir(d);
	return n == 1 ? 0 : -1;
}

/* Kernel mode: prepare once per run (the facts file says it was), then the
 * sample's timed builds. */
static int kernel_run(struct workload_ctx *ctx, const struct kbuild_opts *o, const char *base,
		      const char *log)
{
	char facts[PATH_MAX + 16], src[PATH_MAX], ext[PATH_MAX + 8];
	struct kb_tree t = { .src = src };
	snprintf(facts, sizeof facts, "%s/kbench.facts", base);
	snprintf(t.dir, sizeof t.dir, "%.4000s/out", base);
	snprintf(ext, sizeof ext, "%s/src", base);
	bool tarball = kbuild_is_tarball(o->source);
	if (!tarball)
		snprintf(src, sizeof src, "%s", o->source);
	else if (find_top(ext, src, sizeof src) < 0)
		src[0] = '\0';
	struct rusage ru;
	double el;
	if (access(facts, F_OK) != 0) {
		/* prepare: what an earlier sample left half done goes first */
		scratch_rm_tree(base);
		if (mkdir(base, 0755) != 0 || mkdir(t.dir, 0755) != 0)
			return wl_fail(ctx, "cannot make %s: %s", t.dir, strerror(errno));
		/* the console's state: a kernel build, preparing, its objects not known yet */
		wl_publish_point(ctx, KB_OBJECTS, 0, 0);
		wl_publish_point(ctx, KB_BEGIN, -1, wl_now() - ctx->slot->t_start);
		unsigned long long bytes = 0;
		struct stat st;
		if (tarball) {
			if (mkdir(ext, 0755) != 0)
				return wl_fail(ctx, "cannot make %s: %s", ext, strerror(errno));
			pid_t worker = getpid(), pid = fork();
			if (pid < 0)
				return wl_fail(ctx, "fork: %s", strerror(errno));
			if (pid == 0) {
				if (child_to_log(worker, log, NULL) < 0)
					_exit(126);
				execlp("tar", "tar", "-xf", o->source, "-C", ext, "--no-same-owner",
				       (char *)NULL);
				dprintf(2, "cannot run tar: %s\n", strerror(errno));
				_exit(127);
			}
			int ws = 0;
			while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
				;
			if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
				char line[200];
				last_line(log, line, sizeof line);
				return wl_fail(ctx, "%s did not extract%s%s", o->source, line[0] ? ": " : "",
					       line);
			}
			if (find_top(ext, src, sizeof src) < 0)
				return wl_fail(ctx, "%s holds no Linux source tree (not one directory at its top)",
					       o->source);
			char why[300];
			if (kbuild_check_source(src, why, sizeof why) < 0)
				return wl_fail(ctx, "%s holds no Linux source tree (no Makefile, Kconfig, arch/ "
					       "and scripts/ at its top)", o->source);
			if (stat(o->source, &st) == 0)
				bytes = (unsigned long long)st.st_size;
		} else {
			tree_bytes = 0;
			nftw(src, add_size, 32, FTW_PHYS | FTW_MOUNT);
			bytes = tree_bytes;
		}
		if (run_make(ctx, &t, log, 1, 0, "mrproper", false, &el, &ru) < 0 ||
		    run_make(ctx, &t, log, sysinfo_ncpus(), 0, o->config, false, &el, &ru) < 0)
			return -1;
		char ver[64], cc[96], vlog[PATH_MAX + 16];
		snprintf(vlog, sizeof vlog, "%s/version.log", base);
		if (run_make(ctx, &t, vlog, 1, 0, "kernelversion", false, &el, &ru) < 0)
			return -1;
		version_line(vlog, ver, sizeof ver);
		kernel_compiler(t.dir, cc, sizeof cc);
		/* the warm-up: its objects are what every build makes (less what
		 * make clean leaves) */
		if (run_make(ctx, &t, log, sysinfo_ncpus(), 0, NULL, true, &el, &ru) < 0)
			return -1;
		const char *name = strrchr(o->source, '/');
		char text[sizeof ctx->slot->facts];
		snprintf(text, sizeof text,
			 "kernel_version=%s\nconfig=%s\ncompiler=%s\nsource=%.60s%s (%.1f MiB%s)\n"
			 "source_bytes=%llu\nobjects=%d\n",
			 ver, o->config, cc, tarball && name ? name + 1 : o->source,
			 tarball || strlen(o->source) <= 60 ? "" : "...", bytes / 1048576.0,
			 tarball ? "" : ", a directory", bytes, count_kernel_objects(t.dir));
		char tmp[PATH_MAX + 32];
		snprintf(tmp, sizeof tmp, "%s.tmp", facts);
		FILE *f = fopen(tmp, "w");
		if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, facts) != 0)
			return wl_fail(ctx, "cannot write %s: %s", facts, strerror(errno));
	}
	FILE *f = fopen(facts, "r");
	size_t n = f ? fread(ctx->slot->facts, 1, sizeof ctx->slot->facts - 1, f) : 0;
	ctx->slot->facts[n] = '\0';
	if (f)
		fclose(f);
	const char *ob = strstr(ctx->slot->facts, "objects=");
	int total = ob ? atoi(ob + 8) : 0, made = 0;
	/* what the last sample's builds made, kept beside the facts */
	char mf[PATH_MAX + 16];
	snprintf(mf, sizeof mf, "%s/kbench.made", base);
	if ((f = fopen(mf, "r"))) {
		if (fscanf(f, "%d", &made) != 1)
			made = 0;
		fclose(f);
	}
	int rc = timed_builds(ctx, &t, log, o, total, &made, SETTLE_SECONDS);
	if (made > 0 && (f = fopen(mf, "w"))) {
		fprintf(f, "%d\n", made);
		fclose(f);
	}
	if (rc < 0)
		return -1;
	ctx->slot->time = wl_now() - ctx->slot->t_start;
	ctx->slot->rate = 0;
	return 0;
}

/* buildload's builds of the generated tree: make as kbuild runs it, a
 * build (not a clean) publishing its progress. */
int kbuild_make(struct workload_ctx *ctx, const char *tree, const char *log, int jobs, int mark,
		const char *target, double *elapsed, struct rusage *ru)
{
	struct kb_tree t = { .src = NULL };
	snprintf(t.dir, sizeof t.dir, "%s", tree);
	return run_make(ctx, &t, log, jobs, mark, target, strcmp(target, "clean") != 0, elapsed, ru);
}

static int kbuild_run(struct workload_ctx *ctx)
{
	/* The runner's fill: a quick run's tree is the small one (from the run's quick
	 * flag, not guessed from the sample length: a full run with a short --duration
	 * keeps the full tree). */
	if (!ctx->settings)
		return wl_fail(ctx, "kbuild: no settings given");
	struct kbuild_opts o = *(const struct kbuild_opts *)ctx->settings;
	char err[200];
	/* Before a tree is extracted or generated: say what is missing, not
	 * make's exit status. A kernel picks its own compiler (CC=, LLVM=). */
	static const char *const tree_tools[] = { "make", "cc", NULL };
	static const char *const kernel_tools[] = { "make", NULL };
	if (wl_need_programs(ctx,
			     o.source[0] ? "a kernel build runs make (install make)"
					 : "the build test runs make and cc (install make and gcc)",
			     o.source[0] ? kernel_tools : tree_tools) < 0)
		return -1;
	char tree[4096], log[4200];
	snprintf(tree, sizeof tree, "%s", ctx->tmpdir);
	char *slash = strrchr(tree, '/');
	if (!slash)
		return wl_fail(ctx, "scratch directory %s has no parent", ctx->tmpdir);
	snprintf(slash, sizeof tree - (size_t)(slash - tree), "/kbuild%d", ctx->copy);
	snprintf(log, sizeof log, "%s/make.log", ctx->tmpdir);
	if (o.source[0]) {
		/* make -C SRC O=OUT needs OUT absolute; the scratch may not be */
		char abs[PATH_MAX];
		if (tree[0] != '/' && realpath(ctx->tmpdir, abs)) {
			char *sl = strrchr(abs, '/');
			snprintf(sl ? sl : abs, sizeof abs - (size_t)(sl ? sl - abs : 0), "/kbuild%d", ctx->copy);
			snprintf(tree, sizeof tree, "%s", abs);
		}
		return kernel_run(ctx, &o, tree, log);
	}
	wl_publish_point(ctx, KB_UNITS, 0, o.units);

	struct rusage ru;
	double el;
	struct kb_tree t = { .src = NULL };
	snprintf(t.dir, sizeof t.dir, "%s", tree);
	char mk[4200];
	snprintf(mk, sizeof mk, "%s/Makefile", tree);
	if (access(mk, F_OK) != 0) {
		/* prepare: generate, then the untimed warm-up build at -j CPUs */
		uint64_t hash;
		if (mkdir(tree, 0755) != 0 && errno != EEXIST)
			return wl_fail(ctx, "cannot make %s: %s", tree, strerror(errno));
		if (kbuild_generate(tree, o.units, &hash, err, sizeof err) < 0)
			return wl_fail(ctx, "%s", err);
		if (run_make(ctx, &t, log, sysinfo_ncpus(), 0, "kbprog", true, &el, &ru) < 0)
			return -1;
	}
	int made = 0;
	if (timed_builds(ctx, &t, log, &o, 0, &made,
			 o.units >= KBUILD_UNITS_FULL ? SETTLE_SECONDS : SETTLE_SECONDS_SMALL) < 0)
		return -1;
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
