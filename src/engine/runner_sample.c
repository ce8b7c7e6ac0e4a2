/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One sample: fork a worker per copy, release them together, stop them at the
 * deadline, collect their counts and times; and the pause before it. */
#include "runner.h"
#include "runner_int.h"

#include <alloca.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procstat.h"
#include "run.h"
#include "settings.h"
#include "telemetry/sysroot.h"
#include "tests.h"
#include "workload.h"

void runner_emit(struct runner *r, struct runner_event *ev)
{
	ev->now = wl_now() - r->run_t0;
	for (int i = 0; i < r->nlisteners; i++)
		r->listeners[i].on_event(r->listeners[i].ctx, ev);
}

static int wake_fd(const struct runner *r)
{
	for (int i = 0; i < r->nlisteners; i++)
		if (r->listeners[i].wake_fd >= 0)
			return r->listeners[i].wake_fd;
	return -1;
}

/* Sleeps until `until` (monotonic), emitting ticks; returns early on abort/skip. */
static void idle_until(struct runner *r, struct runner_event *ev, double start, double until)
{
	double next_tick = wl_now() + r->o.interval;
	int wfd = wake_fd(r);
	for (;;) {
		double now = wl_now();
		if (now >= until || r->abort || r->skip)
			return;
		double wake = next_tick < until ? next_tick : until;
		int ms = (int)ceil((wake - now) * 1000);
		struct pollfd p = { .fd = wfd, .events = POLLIN };
		int n = poll(&p, wfd >= 0 ? 1 : 0, ms < 0 ? 0 : ms);
		now = wl_now();
		if ((n > 0 && (p.revents & POLLIN)) || now >= next_tick) {
			ev->kind = EV_TICK;
			ev->sample_elapsed = now - start;
			runner_emit(r, ev);
			if (now >= next_tick)
				next_tick = now + r->o.interval;
		}
	}
}

void runner_pause_before_sample(struct runner *r, struct runner_event *ev)
{
	double pause = runner_pause_for(&r->o);
	if (pause <= 0) {
		if (r->o.quick)
			sync();
		return;
	}
	ev->kind = EV_PAUSE;
	ev->sample_length = pause;
	ev->sample_elapsed = 0;
	runner_emit(r, ev);
	/* UnixBench: sync; sleep 1; sync; sleep 2 before every pass. */
	double start = wl_now();
	sync();
	idle_until(r, ev, start, start + pause / 3);
	sync();
	idle_until(r, ev, start, start + pause);
}

/* Every CPU's clock now (kHz, cpufreq), into khz (at most n); how many it read. */
static int clocks_now(unsigned long long *khz, int n)
{
	int got = 0;
	for (int c = 0; c < n; c++) {
		char p[96];
		uint64_t v;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		if (sysroot_read_u64(p, &v) == 0)
			khz[got++] = v;
	}
	return got;
}

/*
 * The previous sample's aftermath (writeback after a file test, kernel threads
 * reaping thousands of processes after spawn or the shell tests) would run
 * beside the next sample and count against it: before a sample the runner is
 * idle, so whatever the machine does then is someone else's. Wait until it is
 * idle and the clocks steady, up to the cap; once the cap has been reached
 * SETTLE_GIVE_UP times in a row, the load is the machine's own and the run
 * stops paying for it (the run's note says so).
 */
double runner_settle(struct runner *r, double cap)
{
	struct runner_settle *st = &r->settle;
	if (cap <= 0 || st->gave_up || st->unread)
		return 0;
	double start = wl_now(), t0 = start, busy0, busy1 = 0;
	if (procstat_busy_now(&busy0) < 0) {
		st->unread = true;
		return 0;
	}
	enum { MAXCPU = 64 };
	unsigned long long k0[MAXCPU], k1[MAXCPU];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nk = clocks_now(k0, ncpu > MAXCPU ? MAXCPU : (int)ncpu);
	st->tries++;
	for (;;) {
		struct timespec ts = { 0, (long)(SETTLE_WINDOW * 1e9) };
		nanosleep(&ts, NULL);
		double now = wl_now();
		if (procstat_busy_now(&busy1) < 0)
			break;
		bool idle = (busy1 - busy0) / (now - t0 > 0 ? now - t0 : 1) < SETTLE_IDLE_CPU;
		int nk1 = clocks_now(k1, nk);
		bool steady = nk1 == nk;
		for (int c = 0; c < nk && steady; c++)
			steady = llabs((long long)k1[c] - (long long)k0[c]) * 50 <= (long long)k0[c];
		if (idle && steady) {
			st->in_a_row = 0;
			break;
		}
		if (now - start >= cap || r->abort || r->skip) {
			double used = (busy1 - busy0) / (now - t0);
			st->missed++;
			st->busy_max = used > st->busy_max ? used : st->busy_max;
			st->gave_up = ++st->in_a_row >= SETTLE_GIVE_UP;
			break;
		}
		/* the next window from here */
		t0 = now;
		busy0 = busy1;
		memcpy(k0, k1, sizeof k0[0] * (size_t)nk);
	}
	double waited = wl_now() - start;
	st->waited += waited;
	return waited;
}

void runner_idle_baseline(struct runner *r, struct runner_event *ev, double seconds)
{
	if (seconds <= 0)
		return;
	ev->kind = EV_PAUSE;
	ev->sample_length = seconds;
	ev->sample_elapsed = 0;
	runner_emit(r, ev);
	double start = wl_now(), t0 = start - r->run_t0;
	/* a second at a time, until the temperature the telemetry records is steady */
	for (double until = start + 1;; until += 1) {
		idle_until(r, ev, start, until < start + seconds ? until : start + seconds);
		double now = wl_now();
		if (r->abort || r->skip)
			return;
		char why[120];
		if (now - start >= seconds) {
			run_add_note(ev->run, "idle baseline: %.0f s, its full length", now - start);
			return;
		}
		const struct run_mode_info *mode = run_mode_info(r->o.mode);
		if (mode->idle_settled && mode->watch &&
		    mode->idle_settled(run_find_series(ev->run, mode->watch), t0, now - r->run_t0, why, sizeof why)) {
			run_add_marker(ev->run, now - r->run_t0, mode->settled_mark);
			run_add_note(ev->run, "idle baseline: %.0f s of at most %.0f: %s", now - start, seconds,
				     why);
			return;
		}
	}
}

/*
 * A worker is a fork of kbench, so without this every sample of a run would
 * see one layout: the stack and heap offsets of the process kbench started
 * as, which a second run draws anew. UnixBench runs a new program per pass,
 * and a new process's stack starts at a random offset of up to 8 KiB in
 * 16-byte steps (the kernel's arch_align_stack), which moves Dhrystone's and
 * Whetstone's locals across cache lines and 4 KiB alias sets. So each sample
 * draws that offset again, and a heap offset of up to 4 KiB, before its
 * workload starts: the run's spread then holds what the next run's layout
 * brings, as UnixBench's passes do. (kbench's code and data are linked at
 * fixed addresses, the same in every run.) A workload that execs kbench-exec
 * gets a new process anyway (slot.execed).
 */
static int __attribute__((noinline)) run_workload(const struct test_def *t, struct workload_ctx *ctx)
{
	return t->workload->run(ctx);
}

static int run_at_new_offsets(const struct test_def *t, struct workload_ctx *ctx)
{
	unsigned rnd = 0;
	if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != (ssize_t)sizeof rnd)
		rnd = (unsigned)(wl_now() * 1e9) ^ (unsigned)getpid() * 2654435761u;
	size_t stack = (rnd & 0x1ff) * 16, heap = ((rnd >> 9) & 0xff) * 16;
	/* held while the workload runs: what it allocates comes after it */
	void *h = heap ? malloc(heap) : NULL;
	char *pad = alloca(stack + 16);
	/* the compiler must keep the pad (and so the offset) */
	__asm__ volatile("" : : "r"(pad), "r"(h) : "memory");
	int rc = run_workload(t, ctx);
	free(h);
	return rc;
}

static void worker_main(struct runner *r, const struct test_def *t, int copy, int ncopies,
			double length, int start_fd, pid_t parent)
{
	setpgid(0, 0);
	/* The coordinator dying must not leave workers eating the next run's CPU. */
	wl_die_with(parent, SIGKILL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/copy%d", r->scratch, copy);
	struct worker_slot *slot = &r->slots[copy];
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(slot->err, sizeof slot->err, "scratch directory %s: %s", dir, strerror(errno));
		atomic_store(&slot->state, WORKER_FAILED);
		_exit(1);
	}
	if (chdir(dir) != 0)
		_exit(1);

	char c;
	while (read(start_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(start_fd);

	struct workload_ctx ctx = {
		.slot = slot,
		.copy = copy,
		.copies = ncopies,
		.duration = length,
		.quick = r->o.quick,
		.arg = t->arg,
		.tmpdir = dir,
		.datadir = r->datadir,
		.helper = r->helper[0] ? r->helper : NULL,
		.shm_fd = r->shm_fd,
		.settings = runner_settings_of(r, t),
	};
	atomic_store(&slot->state, WORKER_RUNNING);
	slot->cpu_start = sched_getcpu();
	slot->t_start = wl_now();
	int rc = run_at_new_offsets(t, &ctx);
	slot->t_end = wl_now();
	slot->cpu_end = sched_getcpu();
	atomic_store(&slot->state, rc ? WORKER_FAILED : WORKER_DONE);
	_exit(rc ? 1 : 0);
}

static void stop_all(struct runner *r, int n)
{
	for (int c = 0; c < n; c++)
		atomic_store_explicit(&r->slots[c].stop, 1, memory_order_relaxed);
}

static void kill_all(struct runner *r, int n)
{
	for (int c = 0; c < n; c++)
		if (r->pids[c] > 0)
			kill(-r->pids[c], SIGKILL);
}

static void describe_status(char *buf, size_t len, int copy, int status, const char *err)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "copy %d killed by signal %d (%s)", copy + 1, WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (err && *err)
		snprintf(buf, len, "copy %d: %s", copy + 1, err);
	else
		snprintf(buf, len, "copy %d exited with status %d", copy + 1, WEXITSTATUS(status));
}

/* Runs one sample of one test with n copies. Returns 0 and fills the sample,
 * or -1 with a reason (a worker failed or hung, or the user skipped/aborted). */
/* Fork n copies of t, each waiting on start_pipe; the number forked (fewer
 * than n: reason says why). */
static int fork_copies(struct runner *r, const struct test_def *t, int n, double length, const int start_pipe[2],
		       const int done_pipe[2], char *reason, size_t rlen)
{
	pid_t parent = getpid();
	int forked = 0;
	for (int c = 0; c < n; c++) {
		pid_t pid = fork();
		if (pid < 0) {
			snprintf(reason, rlen, "fork: %s", strerror(errno));
			break;
		}
		if (pid == 0) {
			close(start_pipe[1]);
			close(done_pipe[0]);
			/* The done pipe's write end stays open in the worker and in
			 * everything it starts, across exec: the sample ends when
			 * the last of them is gone, as UnixBench waits for EOF. */
			fcntl(done_pipe[1], F_SETFD, 0);
			fcntl(r->shm_fd, F_SETFD, 0);
			worker_main(r, t, c, n, length, start_pipe[0], parent);
		}
		setpgid(pid, pid);
		r->pids[c] = pid;
		forked++;
	}
	return forked;
}

/* A sample being watched: its copies, its clock, and what has happened to it. */
struct watch {
	const struct test_def *t;
	int n, forked;
	double length, t0, stop_at, hang_after, grace, next_tick;
	bool stopped, failed, killed;
	bool reaped[RUNNER_MAX_COPIES];
	char *reason;
	size_t rlen;
};

static void watch_stop(struct runner *r, struct watch *w, double now, bool kill_too)
{
	stop_all(r, w->n);
	if (kill_too) {
		kill_all(r, w->forked);
		w->killed = true;
	}
	w->stopped = true;
	w->stop_at = now;
}

/* The sample's deadline, a skip or an abort, and a copy past its grace or hung. */
static void watch_police(struct runner *r, struct watch *w, double now)
{
	double el = now - w->t0;
	if (!w->stopped && !w->t->self_timed && el >= w->length)
		watch_stop(r, w, now, false);
	/* A skipped or aborted sample is thrown away: no need to let the
	 * copies finish (the CPU loops do not even look at the stop flag:
	 * their own timer ends them, see wl_run_timed). */
	if (!w->stopped && (r->skip || r->abort)) {
		watch_stop(r, w, now, true);
		snprintf(w->reason, w->rlen, "%s", r->abort ? "aborted" : "skipped");
		w->failed = true;
	}
	if (!w->killed && ((w->stopped && now - w->stop_at > w->grace) || el > w->hang_after || r->abort > 1)) {
		kill_all(r, w->forked);
		w->killed = true;
		if (!w->failed) {
			snprintf(w->reason, w->rlen, "a copy did not finish %.0f s after %s; killed",
				 w->stopped ? w->grace : w->hang_after, w->stopped ? "its deadline" : "starting");
			w->failed = true;
		}
	}
}

/* A copy that dies early ends the others at once: the sample is lost anyway. */
static void watch_reap(struct runner *r, struct watch *w, double now)
{
	for (int c = 0; c < w->forked; c++) {
		if (w->reaped[c])
			continue;
		int st;
		if (waitpid(r->pids[c], &st, WNOHANG) != r->pids[c])
			continue;
		w->reaped[c] = true;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		kill(-r->pids[c], SIGKILL);
		if (!w->failed) {
			describe_status(w->reason, w->rlen, c, st, r->slots[c].err);
			w->failed = true;
		}
		if (!w->stopped)
			watch_stop(r, w, now, true);
	}
}

/* Watch the copies until the last holder of the done pipe is gone, ticking
 * the listeners every interval (and when woken). */
static void watch_sample(struct runner *r, struct runner_event *ev, struct watch *w, int done_fd)
{
	int wfd = wake_fd(r);
	for (;;) {
		watch_police(r, w, wl_now());
		watch_reap(r, w, wl_now());
		double wake = w->next_tick;
		if (!w->stopped && !w->t->self_timed && w->t0 + w->length < wake)
			wake = w->t0 + w->length;
		int ms = (int)ceil((wake - wl_now()) * 1000);
		if (ms < 0)
			ms = 0;
		struct pollfd p[2] = { { .fd = done_fd, .events = POLLIN }, { .fd = wfd, .events = POLLIN } };
		int np = poll(p, wfd >= 0 ? 2 : 1, ms);
		bool eof = false;
		if (np > 0 && (p[0].revents & (POLLIN | POLLHUP))) {
			char buf[16];
			ssize_t got = read(done_fd, buf, sizeof buf);
			eof = got == 0;
		}
		double now = wl_now();
		if ((np > 0 && wfd >= 0 && (p[1].revents & POLLIN)) || now >= w->next_tick) {
			ev->kind = EV_TICK;
			ev->sample_elapsed = now - w->t0;
			runner_emit(r, ev);
			if (now >= w->next_tick)
				w->next_tick = now + r->o.interval;
		}
		if (eof)
			break;
	}
}

/* The copies' counts and times into out, and the sample's overhead: forking
 * and releasing the copies, and reaping them after the last one finished. */
static int collect_counts(struct runner *r, const struct watch *w, double t_fork, double t_gone, struct sample *out,
			  double *overhead)
{
	for (int c = 0; c < w->n; c++) {
		const struct worker_slot *s = &r->slots[c];
		if (s->t_end <= 0 || s->t_end < s->t_start) {
			snprintf(w->reason, w->rlen, "copy %d ended without a time", c + 1);
			return -1;
		}
		out->count[c] = w->t->self_timed ? s->rate : (double)atomic_load(&s->count);
		out->elapsed[c] = s->time > 0 ? s->time : s->t_end - s->t_start;
		out->cpu[c] = s->cpu_start;
		out->cpu_end[c] = s->cpu_end;
		double same = atomic_load(&s->pair_same), cross = atomic_load(&s->pair_cross);
		out->shared[c] = same + cross > 0 ? same / (same + cross) : NAN;
		double same_ns = (double)atomic_load(&s->pair_same_ns), cross_ns = (double)atomic_load(&s->pair_cross_ns);
		out->shared_time[c] = same_ns + cross_ns > 0 ? same_ns / (same_ns + cross_ns) : NAN;
	}
	double last_end = 0;
	for (int c = 0; c < w->n; c++)
		if (r->slots[c].t_end > last_end)
			last_end = r->slots[c].t_end;
	*overhead = (r->sample_t0 - t_fork) + (t_gone > last_end ? t_gone - last_end : 0);
	return 0;
}

int runner_run_sample(struct runner *r, struct runner_event *ev, const struct test_def *t, int n,
		      double length, struct sample *out, double *overhead, char *reason, size_t rlen)
{
	int start_pipe[2], done_pipe[2];
	if (pipe2(start_pipe, O_CLOEXEC) != 0)
		return snprintf(reason, rlen, "pipe: %s", strerror(errno)), -1;
	if (pipe2(done_pipe, O_CLOEXEC) != 0) {
		close(start_pipe[0]);
		close(start_pipe[1]);
		return snprintf(reason, rlen, "pipe: %s", strerror(errno)), -1;
	}
	memset(r->slots, 0, sizeof(struct worker_slot) * (size_t)n);
	for (int c = 0; c < n; c++)
		r->slots[c].cpu_start = r->slots[c].cpu_end = -1;
	double t_fork = wl_now();
	int forked = fork_copies(r, t, n, length, start_pipe, done_pipe, reason, rlen);
	close(start_pipe[0]);
	close(done_pipe[1]);
	r->live_copies = forked;

	ev->kind = EV_SAMPLE_READY;
	ev->ncopies = forked;
	ev->pids = r->pids;
	/* A sample whose length follows the run's parameters (kbuild: the tree
	 * and the -j list) shows its estimate, not the row's nominal length. */
	ev->sample_length = t->sample_seconds
				    ? t->sample_seconds(runner_settings_of(r, t), ev->sample == 0, length)
				    : length;
	ev->sample_elapsed = 0;
	if (forked == n)
		runner_emit(r, ev);

	/* Closing the write end releases every copy at once. */
	r->sample_t0 = wl_now();
	close(start_pipe[1]);
	if (forked < n) {
		stop_all(r, forked);
		kill_all(r, forked);
	} else {
		ev->kind = EV_SAMPLE_BEGIN;
		runner_emit(r, ev);
	}

	struct watch w = { .t = t, .n = n, .forked = forked, .length = length, .t0 = r->sample_t0,
			   .stopped = forked < n, .failed = forked < n, .reason = reason, .rlen = rlen };
	w.stop_at = w.stopped ? w.t0 : 0;
	/* A self-timed test ends by itself; give it generous room before calling it hung. */
	w.hang_after = t->self_timed ? length * 2 + 60 : length + 30;
	/* ... and an estimated one far more: a build beside other load takes
	 * three times its estimate here, and is slow, not hung. */
	if (t->sample_seconds && ev->sample_length * 6 + 60 > w.hang_after)
		w.hang_after = ev->sample_length * 6 + 60;
	/* How long a copy may go on past its deadline before it is killed as hung: ten seconds and
	 * a quarter of the sample, or KBENCH_TEST_GRACE's seconds (tests that freeze a worker on
	 * purpose wait for the kill without ten idle seconds each). */
	w.grace = settings_env_seconds("KBENCH_TEST_GRACE", 10 + length * 0.25, 0.01, 3600);
	w.next_tick = w.t0 + r->o.interval;
	watch_sample(r, ev, &w, done_pipe[0]);

	double t_gone = wl_now();
	/* Every holder of the done pipe is gone; collect the exit statuses. */
	for (int c = 0; c < forked; c++) {
		if (w.reaped[c])
			continue;
		int st = 0;
		while (waitpid(r->pids[c], &st, 0) < 0 && errno == EINTR)
			;
		if (!w.failed && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			describe_status(reason, rlen, c, st, r->slots[c].err);
			w.failed = true;
		}
	}
	close(done_pipe[0]);
	if (!w.failed && collect_counts(r, &w, t_fork, t_gone, out, overhead) < 0)
		w.failed = true;
	ev->sample_elapsed = wl_now() - w.t0;
	r->live_copies = 0;
	return w.failed ? -1 : 0;
}
