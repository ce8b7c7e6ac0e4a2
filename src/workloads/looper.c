/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's looper for kbench's shell and grep tests: run a command again and again, count the runs. */
#include "looper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct looper {
	struct workload_ctx *ctx;
	const char *what;
	char dir[PATH_MAX];
	int null_fd, out_fd, err_fd;
	pid_t worker; /* the forking process, for its children's wl_die_with */
	char **envp;
	char lang[96], lc_all[96];
};

static bool locale_exists(const char *name)
{
	locale_t l = newlocale(LC_ALL_MASK, name, (locale_t)0);
	if (!l)
		return false;
	freelocale(l);
	return true;
}

const char *looper_locale(void)
{
	/* UnixBench forces LANG=en_US.utf8; sort and grep are slower in UTF-8
	 * than in C, so the shell scores depend on it (UNIXBENCH.md §10). */
	static const char *const tries[] = { "en_US.utf8", "C.UTF-8", "C" };
	for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++)
		if (locale_exists(tries[i]))
			return tries[i];
	return "C";
}

/* The environment of every loop: ours, with the locale UnixBench forces
 * (LANG=en_US.utf8) or the closest one this machine has. LC_ALL too, so a
 * user's LC_* cannot make sort and grep behave differently from run to run. */
static int looper_env(struct looper *l)
{
	const char *loc = looper_locale();
	size_t n = 0;

	while (environ && environ[n])
		n++;
	l->envp = calloc(n + 3, sizeof *l->envp);
	if (!l->envp)
		return -1;
	snprintf(l->lang, sizeof l->lang, "LANG=%s", loc);
	snprintf(l->lc_all, sizeof l->lc_all, "LC_ALL=%s", loc);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LANG=", 5) && strncmp(environ[i], "LC_ALL=", 7))
			l->envp[k++] = environ[i];
	l->envp[k++] = l->lang;
	l->envp[k++] = l->lc_all;
	l->envp[k] = NULL;
	return 0;
}

/* Removes what a script may have left in its working directory (it makes
 * only plain files there), then the directory. */
static void looper_remove_dir(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(path);
}

static void looper_cleanup(struct looper *l)
{
	if (l->null_fd >= 0)
		close(l->null_fd);
	if (l->out_fd >= 0)
		close(l->out_fd);
	if (l->err_fd >= 0)
		close(l->err_fd);
	if (l->dir[0])
		looper_remove_dir(l->dir);
	free(l->envp);
}

static int looper_setup(struct looper *l)
{
	struct workload_ctx *ctx = l->ctx;
	char path[PATH_MAX + 16];
	l->worker = getpid();

	if (!ctx->tmpdir)
		return wl_fail(ctx, "%s needs a scratch directory", l->what);
	int n = snprintf(l->dir, sizeof l->dir, "%s/%s-%d-XXXXXX", ctx->tmpdir, l->what,
			 ctx->copy);
	if (n < 0 || (size_t)n >= sizeof l->dir) {
		l->dir[0] = 0;
		return wl_fail(ctx, "the scratch directory path is too long");
	}
	if (!mkdtemp(l->dir)) {
		int e = errno;
		l->dir[0] = 0;
		return wl_fail(ctx, "cannot make a working directory in %s: %s", ctx->tmpdir,
			       strerror(e));
	}
	/* stdout is a file the loops append to, as UnixBench's looper appends
	 * to its log: not /dev/null, which GNU grep detects and then stops at
	 * the first match instead of reading the whole file. */
	snprintf(path, sizeof path, "%s/stdout", l->dir);
	l->out_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (l->out_fd < 0)
		return wl_fail(ctx, "cannot open %s: %s", path, strerror(errno));
	snprintf(path, sizeof path, "%s/stderr", l->dir);
	l->err_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (l->err_fd < 0)
		return wl_fail(ctx, "cannot open %s: %s", path, strerror(errno));
	l->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (l->null_fd < 0)
		return wl_fail(ctx, "cannot open /dev/null: %s", strerror(errno));
	if (looper_env(l) < 0)
		return wl_fail(ctx, "out of memory");
	return 0;
}

/* The child: never returns. Only async-signal-safe calls after fork. */
static void looper_child(const struct looper *l, char *const argv[])
{
	wl_die_with(l->worker, SIGKILL);
	if (chdir(l->dir) < 0)
		_exit(126);
	dup2(l->null_fd, 0);
	dup2(l->out_fd, 1);
	dup2(l->err_fd, 2);
	execvpe(argv[0], argv, l->envp);
	_exit(127);
}

/* A failed loop's sentence: its status and the first line it wrote on stderr. */
static int looper_failed(struct looper *l, const char *cmd, int status)
{
	char msg[120] = "";
	ssize_t r = pread(l->err_fd, msg, sizeof msg - 1, 0);
	if (r > 0) {
		msg[r] = 0;
		msg[strcspn(msg, "\n")] = 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return wl_fail(l->ctx, "cannot run %s (not found or not executable)", cmd);
	if (WIFEXITED(status))
		return wl_fail(l->ctx, "%s failed with exit status %d%s%s", l->what,
			       WEXITSTATUS(status), msg[0] ? ": " : "", msg);
	return wl_fail(l->ctx, "%s was killed by signal %d", l->what,
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int looper_run(struct workload_ctx *ctx, const char *what, char *const argv[])
{
	/* A loop of a few milliseconds (grep) pays for every fork of the
	 * process it runs in: run it in kbench-exec, as UnixBench runs it in
	 * its small looper (`kbench-exec looper FD COPY WHAT TMPDIR CMD...`). */
	char *extra[WL_HELPER_MAX_ARGS + 1];
	size_t n = 0;
	extra[n++] = (char *)what;
	extra[n++] = (char *)(ctx->tmpdir ? ctx->tmpdir : "");
	for (size_t i = 0; argv[i]; i++) {
		if (n >= WL_HELPER_MAX_ARGS)
			return wl_fail(ctx, "%s has too many arguments for kbench-exec", what);
		extra[n++] = argv[i];
	}
	extra[n] = NULL;
	int rc = wl_exec_helper_argv(ctx, "looper", extra);
	return rc <= 0 ? rc : looper_loop(ctx, what, argv);
}

int looper_loop(struct workload_ctx *ctx, const char *what, char *const argv[])
{
	struct looper l = { .ctx = ctx, .what = what, .null_fd = -1, .out_fd = -1, .err_fd = -1 };
	uint64_t n = 0;
	int rc = looper_setup(&l);

	/* The first loop always finishes and counts, even past the deadline: a
	 * sample shorter than one loop (a short --duration on a slow machine)
	 * then measures that loop, instead of counting 0, which UnixBench's
	 * rule for a zero count would turn into a score of 1.0. */
	while (rc == 0 && !(n > 0 && wl_stopped(ctx))) {
		pid_t pid = fork();
		if (pid < 0) {
			rc = wl_fail(ctx, "fork failed: %s", strerror(errno));
			break;
		}
		if (pid == 0)
			looper_child(&l, argv);
		int status;
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				rc = wl_fail(ctx, "waiting for %s failed: %s", what, strerror(errno));
				break;
			}
		}
		if (rc)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			rc = looper_failed(&l, argv[0], status);
			break;
		}
		/* UnixBench's alarm lands during a loop: that loop is not
		 * counted, but its tail is inside the measured time. */
		if (n > 0 && wl_stopped(ctx))
			break;
		wl_publish(ctx, ++n);
	}
	looper_cleanup(&l);
	return rc;
}
