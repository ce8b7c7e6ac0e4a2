/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every workload shares: the clock and the error sentence. */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/prctl.h>
#include <unistd.h>

double wl_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void wl_die_with(pid_t parent, int sig)
{
	prctl(PR_SET_PDEATHSIG, sig);
	if (getppid() != parent)
		_exit(1);
}

void wl_pair_mark(const struct workload_ctx *c)
{
	atomic_store_explicit(&c->slot->peer_cpu, sched_getcpu() + 1, memory_order_relaxed);
}

void wl_pair_check(const struct workload_ctx *c)
{
	int me = sched_getcpu(), peer = atomic_load_explicit(&c->slot->peer_cpu, memory_order_relaxed) - 1;
	if (me < 0 || peer < 0) /* 0 in the slot: no mark yet (or no CPU to say) */
		return;
	/* the time since the last check goes to how this one found them: a round
	 * trip on one CPU is several times shorter than one across, so the share
	 * of checks alone overstates the share of time spent on one */
	double now = wl_now(), last = c->slot->pair_last;
	uint64_t ns = last > 0 && now > last ? (uint64_t)((now - last) * 1e9) : 0;
	c->slot->pair_last = now;
	bool same = me == peer;
	atomic_fetch_add_explicit(same ? &c->slot->pair_same : &c->slot->pair_cross, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(same ? &c->slot->pair_same_ns : &c->slot->pair_cross_ns, ns, memory_order_relaxed);
}

int wl_fail(const struct workload_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->slot->err, sizeof c->slot->err, fmt, ap);
	va_end(ap);
	return -1;
}

int wl_find_program(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		struct stat st;
		int w = n ? snprintf(out, len, "%.*s/%s", (int)n, path, name)
			  : snprintf(out, len, "%s", name); /* an empty entry is the cwd */
		if (w > 0 && (size_t)w < len && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
		path += n;
		if (*path == ':')
			path++;
	}
	return -1;
}

int wl_need_programs(const struct workload_ctx *c, const char *what, const char *const *names)
{
	char found[4096];
	for (; *names; names++)
		if (wl_find_program(*names, found, sizeof found) < 0)
			return wl_fail(c, "%s is not installed (no %s in PATH): %s", *names, *names, what);
	return 0;
}

static int parse_small(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : -1;
	if (!s || errno || end == s || *end || v < 0 || v > (1 << 20))
		return -1;
	*out = v;
	return 0;
}

int wl_attach(const char *fdarg, const char *copyarg, struct workload_ctx *ctx, char *err,
	      size_t errlen)
{
	long fd, copy;
	struct stat st;
	if (parse_small(fdarg, &fd) || parse_small(copyarg, &copy)) {
		snprintf(err, errlen, "internal entry: usage FD COPY");
		return -1;
	}
	if (fstat((int)fd, &st) < 0 || st.st_size < (off_t)((copy + 1) * sizeof(struct worker_slot))) {
		snprintf(err, errlen, "fd %ld does not hold slot %ld", fd, copy);
		return -1;
	}
	struct worker_slot *slots =
		mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
	if (slots == MAP_FAILED) {
		snprintf(err, errlen, "cannot map the slots: %s", strerror(errno));
		return -1;
	}
	memset(ctx, 0, sizeof *ctx);
	ctx->slot = &slots[copy];
	ctx->copy = (int)copy;
	ctx->shm_fd = (int)fd;
	return 0;
}

int wl_exec_helper(const struct workload_ctx *ctx, const char *mode)
{
	char *const none[] = { NULL };
	return wl_exec_helper_argv(ctx, mode, none);
}

int wl_exec_helper_argv(const struct workload_ctx *ctx, const char *mode, char *const extra[])
{
	char fdbuf[16], copybuf[16];
	char *argv[WL_HELPER_MAX_ARGS + 5];
	size_t n = 0;

	if (ctx->shm_fd < 0)
		return 1;
	if (!ctx->helper || !*ctx->helper)
		return wl_fail(ctx, "kbench-exec, the small program this test runs in, was not found "
			       "beside kbench or in its libexec directory (run make, or set KBENCH_HELPER)");
	/* The helper reaches the slots only through this descriptor. */
	int flags = fcntl(ctx->shm_fd, F_GETFD);
	if (flags < 0 || fcntl(ctx->shm_fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
		return wl_fail(ctx, "the shared slots are not open (fd %d): %s", ctx->shm_fd,
			       strerror(errno));
	snprintf(fdbuf, sizeof fdbuf, "%d", ctx->shm_fd);
	snprintf(copybuf, sizeof copybuf, "%d", ctx->copy);
	argv[n++] = (char *)ctx->helper;
	argv[n++] = (char *)mode;
	argv[n++] = fdbuf;
	argv[n++] = copybuf;
	for (size_t i = 0; extra[i]; i++) {
		if (i >= WL_HELPER_MAX_ARGS)
			return wl_fail(ctx, "too many arguments for kbench-exec (at most %d)",
				       WL_HELPER_MAX_ARGS);
		argv[n++] = extra[i];
	}
	argv[n] = NULL;
	ctx->slot->execed = 1;
	execv(ctx->helper, argv);
	ctx->slot->execed = 0;
	return wl_fail(ctx, "cannot execute %s: %s", ctx->helper, strerror(errno));
}

/* glibc before 2.35 has the field but not its documented name. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static sigjmp_buf wl_timed_out;

#if ULONG_MAX > 0xffffffffUL
static void wl_timed_fold(void)
{
}
#else
/* The 32-bit loops' word folded into the 64-bit count (wl_loop_store) every 10 ms
 * (the count stays live for the console and the tests; 100 signals a second
 * cost a loop about 0.03%), and it cannot wrap twice in that time. */
static struct worker_slot *wl_timed_slot;
static unsigned long wl_timed_last;
static uint64_t wl_timed_wraps;

static void wl_timed_fold(void)
{
	unsigned long w = atomic_load_explicit(&wl_timed_slot->loop_word, memory_order_relaxed);
	if (w < wl_timed_last)
		wl_timed_wraps++;
	wl_timed_last = w;
	atomic_store_explicit(&wl_timed_slot->count, wl_timed_wraps << 32 | w, memory_order_relaxed);
}
#endif

/* Both timers signal SIGALRM; the fold's tick (value 1) returns to the loop. */
static void wl_timed_alarm(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	wl_timed_fold();
	if (si->si_code == SI_TIMER && si->si_value.sival_int == 1)
		return;
	siglongjmp(wl_timed_out, 1);
}

int wl_run_timed(struct workload_ctx *ctx, void (*loop)(struct workload_ctx *ctx))
{
	struct sigaction sa = { .sa_sigaction = wl_timed_alarm, .sa_flags = SA_SIGINFO }, old;
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGALRM };
	timer_t timer;
	double d = ctx->duration > 0 ? ctx->duration : 1e-3;
	struct itimerspec at = { .it_value = { (time_t)d, (long)((d - (double)(time_t)d) * 1e9) } };

	/* At this thread only: in the unit tests other threads share the process. */
	ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
	if (at.it_value.tv_sec == 0 && at.it_value.tv_nsec == 0)
		at.it_value.tv_nsec = 1;
	sigemptyset(&sa.sa_mask);
	if (timer_create(CLOCK_MONOTONIC, &ev, &timer) < 0)
		return wl_fail(ctx, "cannot make a timer for the sample: %s", strerror(errno));
#if ULONG_MAX <= 0xffffffffUL
	timer_t tick;
	struct itimerspec every = { .it_value = { 0, 10000000 }, .it_interval = { 0, 10000000 } };
	wl_timed_slot = ctx->slot;
	wl_timed_last = atomic_load_explicit(&ctx->slot->loop_word, memory_order_relaxed);
	wl_timed_wraps = 0;
	ev.sigev_value.sival_int = 1;
	if (timer_create(CLOCK_MONOTONIC, &ev, &tick) < 0) {
		int e = errno;
		timer_delete(timer);
		return wl_fail(ctx, "cannot make a timer for the sample: %s", strerror(e));
	}
#endif
	sigaction(SIGALRM, &sa, &old);
	if (sigsetjmp(wl_timed_out, 1) == 0) {
		int rc = timer_settime(timer, 0, &at, NULL);
#if ULONG_MAX <= 0xffffffffUL
		if (rc == 0)
			rc = timer_settime(tick, 0, &every, NULL);
#endif
		if (rc < 0) {
			int e = errno;
			timer_delete(timer);
#if ULONG_MAX <= 0xffffffffUL
			timer_delete(tick);
#endif
			sigaction(SIGALRM, &old, NULL);
			return wl_fail(ctx, "cannot start the sample's timer: %s", strerror(e));
		}
		loop(ctx);
	}
#if ULONG_MAX <= 0xffffffffUL
	timer_delete(tick);
#endif
	timer_delete(timer);
	sigaction(SIGALRM, &old, NULL);
	return 0;
}
