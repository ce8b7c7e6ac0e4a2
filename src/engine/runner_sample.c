/* One sample: fork a worker per copy, release them together, stop them at the
 * deadline, collect their counts and times; and the pause before it. */
#include "runner.h"
#include "runner_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"
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
		if (mode->idle_settled &&
		    mode->idle_settled(run_find_series(ev->run, "temp.cpu"), t0, now - r->run_t0, why, sizeof why)) {
			run_add_marker(ev->run, now - r->run_t0, mode->settled_mark);
			run_add_note(ev->run, "idle baseline: %.0f s of at most %.0f: %s", now - start, seconds,
				     why);
			return;
		}
	}
}

static void worker_main(struct runner *r, const struct test_def *t, int copy, int ncopies,
			double length, int start_fd, pid_t parent)
{
	setpgid(0, 0);
	/* The coordinator dying must not leave workers eating the next run's CPU. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
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
		.params = r->o.params,
	};
	atomic_store(&slot->state, WORKER_RUNNING);
	slot->t_start = wl_now();
	int rc = t->workload->run(&ctx);
	slot->t_end = wl_now();
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
	double t_fork = wl_now();
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
	close(start_pipe[0]);
	close(done_pipe[1]);
	r->live_copies = forked;

	ev->kind = EV_SAMPLE_READY;
	ev->ncopies = forked;
	ev->pids = r->pids;
	/* A sample whose length follows the run's parameters (kbuild: the tree
	 * and the -j list) shows its estimate, not the row's nominal length. */
	ev->sample_length = t->sample_seconds ? t->sample_seconds(r->o.params, r->o.quick, ev->sample == 0, length)
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

	double t0 = r->sample_t0;
	bool stopped = forked < n, failed = forked < n, killed = false;
	double stop_at = stopped ? t0 : 0;
	/* A self-timed test ends by itself; give it generous room before calling it hung. */
	double hang_after = t->self_timed ? length * 2 + 60 : length + 30;
	/* ... and an estimated one far more: a build beside other load takes
	 * three times its estimate here, and is slow, not hung. */
	if (t->sample_seconds && ev->sample_length * 6 + 60 > hang_after)
		hang_after = ev->sample_length * 6 + 60;
	double grace = 10 + length * 0.25;
	double next_tick = t0 + r->o.interval;
	int wfd = wake_fd(r);
	bool reaped[RUNNER_MAX_COPIES] = { false };
	int nreaped = 0;

	for (;;) {
		double now = wl_now(), el = now - t0;
		if (!stopped && !t->self_timed && el >= length) {
			stop_all(r, n);
			stopped = true;
			stop_at = now;
		}
		/* A skipped or aborted sample is thrown away: no need to let the
		 * copies finish (the CPU loops do not even look at the stop flag:
		 * their own timer ends them, see wl_run_timed). */
		if (!stopped && (r->skip || r->abort)) {
			stop_all(r, n);
			kill_all(r, forked);
			killed = true;
			stopped = true;
			stop_at = now;
			snprintf(reason, rlen, "%s", r->abort ? "aborted" : "skipped");
			failed = true;
		}
		if (!killed && ((stopped && now - stop_at > grace) || el > hang_after || r->abort > 1)) {
			kill_all(r, forked);
			killed = true;
			if (!failed) {
				snprintf(reason, rlen, "a copy did not finish %.0f s after %s; killed",
					 stopped ? grace : hang_after, stopped ? "its deadline" : "starting");
				failed = true;
			}
		}
		/* A copy that dies early ends the others at once: the sample is lost anyway. */
		for (int c = 0; c < forked; c++) {
			if (reaped[c])
				continue;
			int st;
			pid_t w = waitpid(r->pids[c], &st, WNOHANG);
			if (w == r->pids[c]) {
				reaped[c] = true;
				nreaped++;
				bool bad = !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
				if (bad) {
					kill(-r->pids[c], SIGKILL);
					if (!failed) {
						describe_status(reason, rlen, c, st, r->slots[c].err);
						failed = true;
					}
					if (!stopped) {
						stop_all(r, n);
						kill_all(r, forked);
						killed = true;
						stopped = true;
						stop_at = now;
					}
				}
			}
		}

		double wake = next_tick;
		if (!stopped && !t->self_timed && t0 + length < wake)
			wake = t0 + length;
		int ms = (int)ceil((wake - wl_now()) * 1000);
		if (ms < 0)
			ms = 0;
		struct pollfd p[2] = { { .fd = done_pipe[0], .events = POLLIN },
				       { .fd = wfd, .events = POLLIN } };
		int np = poll(p, wfd >= 0 ? 2 : 1, ms);
		bool eof = false;
		if (np > 0 && (p[0].revents & (POLLIN | POLLHUP))) {
			char buf[16];
			ssize_t got = read(done_pipe[0], buf, sizeof buf);
			eof = got == 0;
		}
		now = wl_now();
		if ((np > 0 && wfd >= 0 && (p[1].revents & POLLIN)) || now >= next_tick) {
			ev->kind = EV_TICK;
			ev->sample_elapsed = now - t0;
			runner_emit(r, ev);
			if (now >= next_tick)
				next_tick = now + r->o.interval;
		}
		if (eof)
			break;
	}
	double t_gone = wl_now();
	/* Every holder of the done pipe is gone; collect the exit statuses. */
	for (int c = 0; c < forked; c++) {
		if (reaped[c])
			continue;
		int st = 0;
		while (waitpid(r->pids[c], &st, 0) < 0 && errno == EINTR)
			;
		if (!failed && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			describe_status(reason, rlen, c, st, r->slots[c].err);
			failed = true;
		}
	}
	close(done_pipe[0]);

	if (!failed) {
		for (int c = 0; c < n; c++) {
			const struct worker_slot *s = &r->slots[c];
			if (s->t_end <= 0 || s->t_end < s->t_start) {
				snprintf(reason, rlen, "copy %d ended without a time", c + 1);
				failed = true;
				break;
			}
			out->count[c] = t->self_timed ? s->rate : (double)atomic_load(&s->count);
			out->elapsed[c] = s->time > 0 ? s->time : s->t_end - s->t_start;
		}
		double last_end = 0;
		for (int c = 0; c < n; c++)
			if (r->slots[c].t_end > last_end)
				last_end = r->slots[c].t_end;
		/* What a sample costs besides its work: forking and releasing the
		 * copies, and reaping them after the last one finished. */
		*overhead = (r->sample_t0 - t_fork) + (t_gone > last_end ? t_gone - last_end : 0);
	}
	ev->sample_elapsed = wl_now() - t0;
	r->live_copies = 0;
	return failed ? -1 : 0;
}
