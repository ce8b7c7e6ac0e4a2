/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build under load: contest's model. The kbuild tree is built once beside each load, each load kbench's own code in processes of the worker's group.
 *
 * Per load: make clean, sync, flush the page cache (not for cacherun;
 * where permitted), check that the load may start (memory, free space),
 * prepare what it reads (untimed), start it, let it run
 * BUILDLOAD_LEAD_SECONDS, then time one build (kbuild_make), reading the
 * load's work units and CPU seconds at the build's start and end, and stop
 * the load and remove what it wrote. The load's processes are forked by
 * the worker, so they are in its process group: a skip, an abort, Ctrl-C
 * or the worker's death (PR_SET_PDEATHSIG) kills them with it, and the
 * runner removes the copy's scratch directory after the sample. They add
 * their work units to the slot's aux count, which the console shows. */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buildload.h"
#include "kbuild.h"
#include "scratch.h"
#include "settings.h"
#include "sysinfo.h"
#include "telemetry/sysroot.h"

#define MAX_LOAD_PROCS 256
#define BLOCK (1024 * 1024)

struct load_run {
	int load;
	int nprocs;
	pid_t pids[MAX_LOAD_PROCS];
	char files[3][4200]; /* what it wrote, removed when it stops */
};

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void add_units(struct workload_ctx *ctx, uint64_t n)
{
	atomic_fetch_add_explicit(&ctx->slot->aux, n, memory_order_relaxed);
}

/* ---- the loads' loops: each runs until it is killed ---- */

static void pipe_ring(struct workload_ctx *ctx, int in, int out, bool first)
{
	char tok = 't';
	if (first && write(out, &tok, 1) != 1)
		_exit(1);
	for (;;) {
		if (read(in, &tok, 1) != 1)
			_exit(1);
		if (first)
			add_units(ctx, 1);
		if (write(out, &tok, 1) != 1)
			_exit(1);
	}
}

/* kbench's own archive format (not tar's): per file "path\n", its size as
 * a decimal line, then its bytes; the tree's sources and headers. */
struct archive {
	int out;
	const char *root, *rel;
	char *buf;
};

static void archive_dir(int out, const char *root, const char *rel, char *buf);

/* One entry of the directory being archived (hidden ones left out). */
static int archive_entry(const char *name, void *arg)
{
	const struct archive *ar = arg;
	int out = ar->out;
	char *buf = ar->buf;
	if (name[0] == '.')
		return 0;
	char r[1024], full[4200];
	snprintf(r, sizeof r, "%s/%s", ar->rel, name);
	snprintf(full, sizeof full, "%s/%s", ar->root, r);
	struct stat st;
	if (lstat(full, &st) != 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		archive_dir(out, ar->root, r, buf);
		return 0;
	}
	int fd = open(full, O_RDONLY);
	if (fd < 0)
		return 0;
	dprintf(out, "%s\n%lld\n", r, (long long)st.st_size);
	ssize_t n;
	long long left = st.st_size;
	while (left > 0 && (n = read(fd, buf, BLOCK < left ? BLOCK : (size_t)left)) > 0) {
		if (write(out, buf, (size_t)n) != n)
			_exit(1);
		left -= n;
	}
	close(fd);
	return 0;
}

static void archive_dir(int out, const char *root, const char *rel, char *buf)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	struct archive ar = { out, root, rel, buf };
	dir_each(path, archive_entry, &ar);
}

static int make_archive(const char *tree, const char *file, char *buf)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	archive_dir(fd, tree, "src", buf);
	archive_dir(fd, tree, "include", buf);
	return close(fd);
}

static void mkdirs(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
}

static void extract(const char *file, const char *dest, char *buf)
{
	FILE *f = fopen(file, "r");
	if (!f)
		_exit(1);
	char name[1024], size[32], path[8192];
	while (fgets(name, sizeof name, f) && fgets(size, sizeof size, f)) {
		name[strcspn(name, "\n")] = '\0';
		long long left = atoll(size);
		snprintf(path, sizeof path, "%s/%s", dest, name);
		mkdirs(path);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		while (left > 0) {
			size_t n = fread(buf, 1, BLOCK < left ? BLOCK : (size_t)left, f);
			if (n == 0)
				break;
			if (fd >= 0 && write(fd, buf, n) != (ssize_t)n)
				_exit(1);
			left -= (long long)n;
		}
		if (fd >= 0)
			close(fd);
	}
	fclose(f);
}

static void stream_write(struct workload_ctx *ctx, const char *file, uint64_t size_kib, char *buf)
{
	memset(buf, 0x5a, BLOCK);
	for (;;) {
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(1);
		for (uint64_t k = 0; k < size_kib / 1024; k++) {
			if (write(fd, buf, BLOCK) != BLOCK)
				_exit(1);
			add_units(ctx, 1);
		}
		close(fd);
	}
}

static void stream_read(struct workload_ctx *ctx, const char *file, char *buf)
{
	int fd = open(file, O_RDONLY);
	if (fd < 0)
		_exit(1);
	for (;;) {
		ssize_t n;
		while ((n = read(fd, buf, BLOCK)) > 0)
			add_units(ctx, 1);
		/* drop its pages, so the next pass reads the disk, root or not */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		lseek(fd, 0, SEEK_SET);
	}
}

struct walk {
	struct workload_ctx *ctx;
	const char *dir;
};

static void walk(struct workload_ctx *ctx, const char *dir);

static int walk_entry(const char *name, void *arg)
{
	const struct walk *w = arg;
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", w->dir, name);
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		walk(w->ctx, path);
	return 0;
}

/* A unit per directory that opened (counted once its entries are walked). */
static void walk(struct workload_ctx *ctx, const char *dir)
{
	struct walk w = { ctx, dir };
	if (dir_each(dir, walk_entry, &w) >= 0)
		add_units(ctx, 1);
}

static void mem_hog(struct workload_ctx *ctx, uint64_t size_kib)
{
	size_t len = (size_t)size_kib * 1024;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	long page = sysconf(_SC_PAGESIZE);
	for (unsigned char v = 1;; v++)
		for (size_t off = 0; off < len; off += BLOCK) {
			size_t end = off + BLOCK < len ? off + BLOCK : len;
			for (size_t k = off; k < end; k += (size_t)page)
				p[k] = v;
			add_units(ctx, 1);
		}
}

/* ---- starting and stopping a load ---- */

static pid_t fork_load(void)
{
	pid_t worker = getpid(), pid = fork();
	if (pid == 0) {
		/* the worker killed outright: its loads go with it */
		wl_die_with(worker, SIGKILL);
		signal(SIGTERM, SIG_DFL);
	}
	return pid;
}

static void stop_load(struct load_run *lr)
{
	for (int i = 0; i < lr->nprocs; i++)
		if (lr->pids[i] > 0)
			kill(lr->pids[i], SIGKILL);
	for (int i = 0; i < lr->nprocs; i++)
		if (lr->pids[i] > 0)
			while (waitpid(lr->pids[i], NULL, 0) < 0 && errno == EINTR)
				;
	lr->nprocs = 0;
	for (int i = 0; i < 3; i++)
		if (lr->files[i][0]) {
			struct stat st;
			if (lstat(lr->files[i], &st) == 0 && S_ISDIR(st.st_mode))
				scratch_rm_tree(lr->files[i]);
			else
				unlink(lr->files[i]);
			lr->files[i][0] = '\0';
		}
}

/* The load's processes' CPU seconds so far (utime + stime). */
static double load_cpu(const struct load_run *lr)
{
	double ticks = (double)sysconf(_SC_CLK_TCK), s = 0;
	for (int i = 0; i < lr->nprocs; i++) {
		char path[64], buf[1024];
		snprintf(path, sizeof path, "/proc/%d/stat", (int)lr->pids[i]);
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		char *p = strrchr(buf, ')');
		unsigned long ut = 0, st = 0;
		/* after "pid (comm)": state, then 10 fields, then utime and stime */
		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
			s += (ut + st) / ticks;
	}
	return s;
}

static int start_load(struct workload_ctx *ctx, struct load_run *lr, const char *tree,
		      uint64_t size_kib)
{
	int ncpus = sysinfo_ncpus();
	char *buf = malloc(BLOCK);
	if (!buf)
		return wl_fail(ctx, "out of memory");
	lr->nprocs = 0;
	switch (lr->load) {
	case BL_PROCESS: {
		int n = 4 * ncpus > MAX_LOAD_PROCS ? MAX_LOAD_PROCS : 4 * ncpus;
		int fds[MAX_LOAD_PROCS][2];
		for (int i = 0; i < n; i++)
			if (pipe(fds[i]) != 0) {
				for (int k = 0; k < i; k++)
					close(fds[k][0]), close(fds[k][1]);
				free(buf);
				return wl_fail(ctx, "pipe: %s", strerror(errno));
			}
		for (int i = 0; i < n; i++) {
			pid_t pid = fork_load();
			if (pid == 0)
				pipe_ring(ctx, fds[i][0], fds[(i + 1) % n][1], i == 0);
			if (pid > 0)
				lr->pids[lr->nprocs++] = pid;
		}
		for (int i = 0; i < n; i++)
			close(fds[i][0]), close(fds[i][1]);
		break;
	}
	case BL_CTAR:
		snprintf(lr->files[0], sizeof lr->files[0], "%s/ctar.arc", ctx->tmpdir);
		if ((lr->pids[0] = fork_load()) == 0)
			for (;;) {
				if (make_archive(tree, lr->files[0], buf) != 0)
					_exit(1);
				add_units(ctx, 1);
			}
		lr->nprocs = 1;
		break;
	case BL_XTAR:
		snprintf(lr->files[0], sizeof lr->files[0], "%s/xtar.arc", ctx->tmpdir);
		snprintf(lr->files[1], sizeof lr->files[1], "%s/xtar", ctx->tmpdir);
		if (make_archive(tree, lr->files[0], buf) != 0) {
			free(buf);
			return wl_fail(ctx, "cannot write %s: %s", lr->files[0], strerror(errno));
		}
		if ((lr->pids[0] = fork_load()) == 0)
			for (;;) {
				extract(lr->files[0], lr->files[1], buf);
				scratch_rm_tree(lr->files[1]);
				add_units(ctx, 1);
			}
		lr->nprocs = 1;
		break;
	case BL_IO:
		snprintf(lr->files[0], sizeof lr->files[0], "%s/io_load.dat", ctx->tmpdir);
		if ((lr->pids[0] = fork_load()) == 0)
			stream_write(ctx, lr->files[0], size_kib, buf);
		lr->nprocs = 1;
		break;
	case BL_READ: {
		snprintf(lr->files[0], sizeof lr->files[0], "%s/read_load.dat", ctx->tmpdir);
		int fd = open(lr->files[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		memset(buf, 0xa5, BLOCK);
		for (uint64_t k = 0; fd >= 0 && k < size_kib / 1024; k++)
			if (write(fd, buf, BLOCK) != BLOCK) {
				close(fd);
				fd = -1;
			}
		if (fd < 0 || fsync(fd) != 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) < 0 ||
		    close(fd) != 0) {
			free(buf);
			return wl_fail(ctx, "cannot write %s: %s", lr->files[0], strerror(errno));
		}
		if ((lr->pids[0] = fork_load()) == 0)
			stream_read(ctx, lr->files[0], buf);
		lr->nprocs = 1;
		break;
	}
	case BL_LIST:
		if ((lr->pids[0] = fork_load()) == 0)
			for (;;)
				walk(ctx, "/usr");
		lr->nprocs = 1;
		break;
	case BL_MEM:
		if ((lr->pids[0] = fork_load()) == 0)
			mem_hog(ctx, size_kib);
		lr->nprocs = 1;
		break;
	default: break;
	}
	free(buf);
	for (int i = 0; i < lr->nprocs; i++)
		if (lr->pids[i] < 0) {
			int e = errno;
			stop_load(lr);
			return wl_fail(ctx, "fork: %s", strerror(e));
		}
	return 0;
}

/* sync, then drop the page cache (root): 0, the errno why not, or -1 when
 * KBENCH_BUILDLOAD_FLUSH=0 says not to (the tests: a flush slows the
 * machine's other work). */
static int flush_cache(void)
{
	sync();
	const char *env = getenv("KBENCH_BUILDLOAD_FLUSH");
	if (env && !strcmp(env, "0"))
		return -1;
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno ? errno : EPERM;
	int e = write(fd, "3\n", 2) == 2 ? 0 : errno;
	close(fd);
	return e;
}

static double lead_seconds(void)
{
	return settings_env_seconds("KBENCH_BUILDLOAD_LEAD", BUILDLOAD_LEAD_SECONDS, 0, 600);
}

static int buildload_run(struct workload_ctx *ctx)
{
	/* the runner's fill: a quick run has the quick set of loads (from the run's quick
	 * flag, not guessed from the sample length: a full run with a short --duration
	 * keeps all of them) */
	if (!ctx->settings)
		return wl_fail(ctx, "buildload: no settings given");
	struct buildload_opts o = *(const struct buildload_opts *)ctx->settings;
	char err[200];
	static const char *const tools[] = { "make", "cc", NULL };
	static const char *const why = "the build under load runs make and cc (install make and gcc)";
	if (wl_need_programs(ctx, why, tools) < 0)
		return -1;
	char tree[4096], log[4200], mk[4200];
	snprintf(tree, sizeof tree, "%s", ctx->tmpdir);
	char *slash = strrchr(tree, '/');
	if (!slash)
		return wl_fail(ctx, "scratch directory %s has no parent", ctx->tmpdir);
	snprintf(slash, sizeof tree - (size_t)(slash - tree), "/buildload%d", ctx->copy);
	snprintf(log, sizeof log, "%s/make.log", ctx->tmpdir);
	snprintf(mk, sizeof mk, "%s/Makefile", tree);
	wl_publish_point(ctx, BLS_START, 0, o.nloads);
	wl_publish_point(ctx, KB_UNITS, 0, o.units);

	struct rusage ru;
	double el;
	if (access(mk, F_OK) != 0) {
		uint64_t hash;
		if (mkdir(tree, 0755) != 0 && errno != EEXIST)
			return wl_fail(ctx, "cannot make %s: %s", tree, strerror(errno));
		if (kbuild_generate(tree, o.units, &hash, err, sizeof err) < 0)
			return wl_fail(ctx, "%s", err);
		if (kbuild_make(ctx, tree, log, o.jobs, 0, "kbprog", &el, &ru) < 0)
			return -1;
	}
	double lead = lead_seconds();
	for (int k = 0; k < o.nloads && !wl_stopped(ctx); k++) {
		struct load_run lr = { .load = o.loads[k] };
		double x = lr.load;
		if (kbuild_make(ctx, tree, log, 1, lr.load + 1, "clean", &el, &ru) < 0)
			return -1;
		wl_publish(ctx, 0);
		if (lr.load == BL_CACHERUN)
			sync();
		else
			wl_publish_point(ctx, BLS_FLUSH, x, flush_cache());
		uint64_t size, need, have;
		char why[200];
		if (!buildload_check_load(lr.load, &o, ctx->tmpdir, &size, &need, &have, why, sizeof why)) {
			wl_publish_point(ctx, BLS_REFUSED, x, (double)need);
			wl_publish_point(ctx, BLS_HAVE, x, (double)have);
			continue;
		}
		atomic_store_explicit(&ctx->slot->aux, 0, memory_order_relaxed);
		if (start_load(ctx, &lr, tree, size) < 0)
			return -1;
		wl_publish_point(ctx, BLS_LOAD_BEGIN, x, wl_now() - ctx->slot->t_start);
		if (lr.nprocs)
			sleep_s(lead);
		else
			sleep_s(0.25); /* no load: the flush's writeback settles */
		double c0 = load_cpu(&lr);
		uint64_t u0 = atomic_load_explicit(&ctx->slot->aux, memory_order_relaxed);
		int rc = kbuild_make(ctx, tree, log, o.jobs, lr.load + 1, "kbprog", &el, &ru);
		double c1 = load_cpu(&lr);
		uint64_t u1 = atomic_load_explicit(&ctx->slot->aux, memory_order_relaxed);
		stop_load(&lr);
		if (rc < 0)
			return -1;
		wl_publish_point(ctx, KB_USER, x, (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6);
		wl_publish_point(ctx, KB_SYS, x, (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
		wl_publish_point(ctx, BLS_LOADS, x, (double)(u1 - u0));
		wl_publish_point(ctx, BLS_LCPU, x, c1 - c0);
		/* last: a build is complete once its time is there (buildload_collect) */
		wl_publish_point(ctx, KB_ELAPSED, x, el);
	}
	ctx->slot->time = wl_now() - ctx->slot->t_start;
	ctx->slot->rate = 0;
	return 0;
}

const struct workload wl_buildload = { .name = "buildload", .run = buildload_run };
