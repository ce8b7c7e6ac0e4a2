/* The runner: forks one worker per copy, times each sample, scores the tests, reports events. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "quick.h"
#include "score.h"
#include "scratch.h"
#include "tests.h"
#include "workload.h"

#define MAX_LISTENERS 4

struct runner {
	struct runner_opts o;
	char scratch_root[PATH_MAX]; /* where the run's scratch dir is made */
	char scratch[PATH_MAX];      /* <root>/kbench-XXXXXX while a run lasts */
	char datadir[PATH_MAX];
	char helper[PATH_MAX]; /* kbench-exec, or "" when not found */
	int shm_fd;
	struct worker_slot *slots;
	size_t shm_len;
	struct runner_listener listeners[MAX_LISTENERS];
	int nlisteners;
	volatile sig_atomic_t skip;
	volatile sig_atomic_t abort;
	pid_t pids[RUNNER_MAX_COPIES];
	int live_copies;
	double sample_t0;
	double run_t0;
};

static double now_mono(void)
{
	return wl_now();
}

const char *runner_self_path(void)
{
	static char self[PATH_MAX];
	if (!self[0]) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			snprintf(self, sizeof self, "kbench");
		else
			self[n] = '\0';
	}
	return self;
}

static bool has_data(const char *dir)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/multi.sh", dir);
	return access(p, R_OK) == 0;
}

const char *runner_find_datadir(const char *hint)
{
	static char found[PATH_MAX];
	if (hint && *hint)
		return has_data(hint) ? hint : NULL;
	const char *env = getenv("KBENCH_DATADIR");
	if (env && *env)
		return has_data(env) ? env : NULL;
	char exe[PATH_MAX];
	snprintf(exe, sizeof exe, "%s", runner_self_path());
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		/* ./kbench in the tree, build/kbench, then an installed prefix. */
		const char *rel[] = { "/data", "/../data", "/../share/kbench" };
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(found, sizeof found, "%s%s", exe, rel[i]);
			if (has_data(found))
				return found;
		}
	}
	if (has_data(KBENCH_DATADIR))
		return KBENCH_DATADIR;
	return NULL;
}

const char *runner_find_helper(void)
{
	static char found[PATH_MAX];
	const char *env = getenv("KBENCH_HELPER");
	if (env && *env)
		return access(env, X_OK) == 0 ? env : NULL;
	char exe[PATH_MAX];
	snprintf(exe, sizeof exe, "%s", runner_self_path());
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		/* build/kbench beside build/kbench-exec, ./kbench in the tree, an installed prefix. */
		const char *rel[] = { "/kbench-exec", "/build/kbench-exec",
				      "/../libexec/kbench/kbench-exec" };
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(found, sizeof found, "%s%s", exe, rel[i]);
			if (access(found, X_OK) == 0)
				return found;
		}
	}
	snprintf(found, sizeof found, "%s/kbench-exec", KBENCH_LIBEXECDIR);
	return access(found, X_OK) == 0 ? found : NULL;
}

static bool needs_data(const struct test_def *t)
{
	return t->needs_data;
}

struct runner *runner_new(const struct runner_opts *opts, char *err, size_t errlen)
{
	if (opts->ncopies < 1 || opts->ncopies > RUNNER_MAX_BLOCKS) {
		snprintf(err, errlen, "between 1 and %d copy counts, please", RUNNER_MAX_BLOCKS);
		return NULL;
	}
	for (int i = 0; i < opts->ncopies; i++)
		if (opts->copies[i] < 1 || opts->copies[i] > RUNNER_MAX_COPIES) {
			snprintf(err, errlen, "copies must be between 1 and %d, not %d",
				 RUNNER_MAX_COPIES, opts->copies[i]);
			return NULL;
		}
	if (opts->ntests < 1 || opts->ntests > RUNNER_MAX_TESTS) {
		snprintf(err, errlen, "no tests to run");
		return NULL;
	}
	struct runner *r = calloc(1, sizeof *r);
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->o = *opts;
	r->shm_fd = -1;
	const char *root = opts->tmpdir;
	if (!root || !*root)
		root = getenv("TMPDIR");
	if (!root || !*root)
		root = "/tmp";
	snprintf(r->scratch_root, sizeof r->scratch_root, "%s", root);
	struct stat st;
	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "scratch directory %s: %s", root,
			 errno ? strerror(errno) : "not a directory");
		if (stat(root, &st) == 0)
			snprintf(err, errlen, "scratch directory %s: not a directory", root);
		free(r);
		return NULL;
	}
	if (access(root, W_OK | X_OK) != 0) {
		snprintf(err, errlen, "scratch directory %s is not writable: %s", root, strerror(errno));
		free(r);
		return NULL;
	}
	/* Out of inodes (or space for a directory), access() still says yes but
	 * the run's scratch directory cannot be made: refuse now, before a run
	 * of nothing is reported and stored. */
	char probe[PATH_MAX];
	snprintf(probe, sizeof probe, "%s/kbench-XXXXXX", root);
	if (!mkdtemp(probe)) {
		snprintf(err, errlen, "cannot make a directory in the scratch directory %s: %s", root,
			 strerror(errno));
		free(r);
		return NULL;
	}
	rmdir(probe);
	const struct test_def *want_data = NULL;
	for (int i = 0; i < opts->ntests && !want_data; i++)
		want_data = needs_data(opts->tests[i]) ? opts->tests[i] : NULL;
	const char *dd = runner_find_datadir(opts->datadir);
	if (want_data && !dd) {
		snprintf(err, errlen, "%s needs kbench's data files (data/ in the source tree: multi.sh, "
			 "large.txt, cctest.c, ...), which were not found; set KBENCH_DATADIR to the "
			 "directory holding them", want_data->id);
		free(r);
		return NULL;
	}
	snprintf(r->datadir, sizeof r->datadir, "%s", dd ? dd : "");
	const char *helper = runner_find_helper();
	snprintf(r->helper, sizeof r->helper, "%s", helper ? helper : "");

	/* A memfd, not anonymous memory: execl's chain maps the slots again after exec. */
	r->shm_len = sizeof(struct worker_slot) * RUNNER_MAX_COPIES;
	r->shm_fd = memfd_create("kbench-slots", 0);
	if (r->shm_fd < 0 || ftruncate(r->shm_fd, (off_t)r->shm_len) != 0) {
		snprintf(err, errlen, "shared memory for the workers: %s", strerror(errno));
		if (r->shm_fd >= 0)
			close(r->shm_fd);
		free(r);
		return NULL;
	}
	r->slots = mmap(NULL, r->shm_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->shm_fd, 0);
	if (r->slots == MAP_FAILED) {
		snprintf(err, errlen, "shared memory for the workers: %s", strerror(errno));
		close(r->shm_fd);
		free(r);
		return NULL;
	}
	if (r->o.interval <= 0)
		r->o.interval = 0.5;
	return r;
}

void runner_free(struct runner *r)
{
	if (!r)
		return;
	if (r->slots && r->slots != MAP_FAILED)
		munmap(r->slots, r->shm_len);
	if (r->shm_fd >= 0)
		close(r->shm_fd);
	free(r);
}

void runner_listen(struct runner *r, const struct runner_listener *l)
{
	if (r->nlisteners < MAX_LISTENERS)
		r->listeners[r->nlisteners++] = *l;
}

void runner_skip_test(struct runner *r)
{
	r->skip = 1;
}

void runner_abort(struct runner *r)
{
	if (r->abort < 2)
		r->abort++;
}

int runner_live_copies(const struct runner *r)
{
	return r->live_copies;
}

uint64_t runner_live_count(const struct runner *r, int copy)
{
	if (copy < 0 || copy >= r->live_copies)
		return 0;
	return atomic_load_explicit(&r->slots[copy].count, memory_order_relaxed);
}

double runner_live_elapsed(const struct runner *r)
{
	return r->live_copies ? now_mono() - r->sample_t0 : 0;
}

static int samples_for(const struct runner_opts *o, const struct test_def *t)
{
	if (o->samples > 0)
		return o->samples;
	if (o->iterations > 0)
		return test_samples_for_iterations(t, o->iterations);
	return t->samples;
}

static double length_for(const struct runner_opts *o, const struct test_def *t)
{
	if (o->duration > 0)
		return o->duration;
	if (o->quick)
		return test_quick_seconds(t);
	return t->seconds;
}

/* UnixBench's sync and 3 s before each pass; a quick run only syncs. */
static double pause_for(const struct runner_opts *o)
{
	return o->pause >= 0 ? o->pause : o->quick ? 0 : 3.0;
}

/* 15 s a test keeps a quick index run of the twelve tests near 1/8 of a full
 * one (make bench-quick); most tests reach +-1-3% by then on a quiet machine. */
static double quick_limit(const struct runner_opts *o)
{
	return o->max_test_seconds > 0 ? o->max_test_seconds : 15;
}

/* The unmeasured first sample of a quick run: it faults in the worker's
 * pages, warms the caches and branch predictors, and for the file tests
 * brings the files into the page cache, as the first of UnixBench's ten
 * samples does (and is then usually dropped as the worst third). */
#define QUICK_WARMUP_SECONDS 0.3

double runner_estimate_test(const struct runner_opts *o, const struct test_def *t)
{
	double len = length_for(o, t);
	if (o->quick) {
		/* Most tests are precise after 3 to 5 samples; the noisy ones hit the limit. */
		double est = QUICK_WARMUP_SECONDS + 5 * (len + 0.1);
		if (t->self_timed)
			est *= 1.3;
		return est < quick_limit(o) ? est : quick_limit(o);
	}
	/* Self-timed tests do more than their nominal length (the row's overrun):
	 * whetstone calibrates first, the file tests write and read before copying. */
	if (t->self_timed)
		len *= t->overrun;
	return samples_for(o, t) * (pause_for(o) + len);
}

double runner_estimate(const struct runner_opts *o)
{
	double total = 0;
	for (int c = 0; c < o->ncopies; c++)
		for (int i = 0; i < o->ntests; i++)
			total += runner_estimate_test(o, o->tests[i]);
	return total;
}

static void emit(struct runner *r, struct runner_event *ev)
{
	ev->now = now_mono() - r->run_t0;
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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *dir)
{
	if (dir[0])
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Sleeps until `until` (monotonic), emitting ticks; returns early on abort/skip. */
static void idle_until(struct runner *r, struct runner_event *ev, double start, double until)
{
	double next_tick = now_mono() + r->o.interval;
	int wfd = wake_fd(r);
	for (;;) {
		double now = now_mono();
		if (now >= until || r->abort || r->skip)
			return;
		double wake = next_tick < until ? next_tick : until;
		int ms = (int)ceil((wake - now) * 1000);
		struct pollfd p = { .fd = wfd, .events = POLLIN };
		int n = poll(&p, wfd >= 0 ? 1 : 0, ms < 0 ? 0 : ms);
		now = now_mono();
		if ((n > 0 && (p.revents & POLLIN)) || now >= next_tick) {
			ev->kind = EV_TICK;
			ev->sample_elapsed = now - start;
			emit(r, ev);
			if (now >= next_tick)
				next_tick = now + r->o.interval;
		}
	}
}

static void pause_before_sample(struct runner *r, struct runner_event *ev)
{
	double pause = pause_for(&r->o);
	if (pause <= 0) {
		if (r->o.quick)
			sync();
		return;
	}
	ev->kind = EV_PAUSE;
	ev->sample_length = pause;
	ev->sample_elapsed = 0;
	emit(r, ev);
	/* UnixBench: sync; sleep 1; sync; sleep 2 before every pass. */
	double start = now_mono();
	sync();
	idle_until(r, ev, start, start + pause / 3);
	sync();
	idle_until(r, ev, start, start + pause);
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
		.arg = t->arg,
		.tmpdir = dir,
		.datadir = r->datadir,
		.helper = r->helper[0] ? r->helper : NULL,
		.shm_fd = r->shm_fd,
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
static int run_sample(struct runner *r, struct runner_event *ev, const struct test_def *t, int n,
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
	double t_fork = now_mono();
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
	ev->sample_length = length;
	ev->sample_elapsed = 0;
	if (forked == n)
		emit(r, ev);

	/* Closing the write end releases every copy at once. */
	r->sample_t0 = now_mono();
	close(start_pipe[1]);
	if (forked < n) {
		stop_all(r, forked);
		kill_all(r, forked);
	} else {
		ev->kind = EV_SAMPLE_BEGIN;
		emit(r, ev);
	}

	double t0 = r->sample_t0;
	bool stopped = forked < n, failed = forked < n, killed = false;
	double stop_at = stopped ? t0 : 0;
	/* A self-timed test ends by itself; give it generous room before calling it hung. */
	double hang_after = t->self_timed ? length * 2 + 60 : length + 30;
	double grace = 10 + length * 0.25;
	double next_tick = t0 + r->o.interval;
	int wfd = wake_fd(r);
	bool reaped[RUNNER_MAX_COPIES] = { false };
	int nreaped = 0;

	for (;;) {
		double now = now_mono(), el = now - t0;
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
		int ms = (int)ceil((wake - now_mono()) * 1000);
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
		now = now_mono();
		if ((np > 0 && wfd >= 0 && (p[1].revents & POLLIN)) || now >= next_tick) {
			ev->kind = EV_TICK;
			ev->sample_elapsed = now - t0;
			emit(r, ev);
			if (now >= next_tick)
				next_tick = now + r->o.interval;
		}
		if (eof)
			break;
	}
	double t_gone = now_mono();
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
	ev->sample_elapsed = now_mono() - t0;
	r->live_copies = 0;
	return failed ? -1 : 0;
}

static void run_test(struct runner *r, struct run *run, int bi, int ti)
{
	struct run_block *b = &run->blocks[bi];
	struct test_result *res = &b->tests[ti];
	const struct test_def *t = r->o.tests[ti];
	bool quick = r->o.quick;
	int nsamples = quick ? 0 : samples_for(&r->o, t);
	double length = length_for(&r->o, t);
	struct quick_rule rule = { .precision = r->o.precision > 0 ? r->o.precision : 0.01,
				   .min_samples = 3, .max_samples = 200,
				   .max_seconds = quick_limit(&r->o) };
	double rates[200];
	double achieved = INFINITY;
	enum quick_verdict verdict = QUICK_MORE;
	struct runner_event ev = { .run = run, .block = bi, .test = ti, .nsamples = nsamples,
				   .sample_length = length, .ncopies = b->copies };
	res->status = TEST_RUNNING;
	char key[64], text[96];
	if (t->workload->describe && t->workload->describe(t->arg, key, sizeof key, text, sizeof text) == 0)
		test_summary_set(res, key, 0, text);
	r->skip = 0;
	emit(r, (ev.kind = EV_TEST_BEGIN, &ev));
	char what[80];
	snprintf(what, sizeof what, "test %s copies %d", t->id, b->copies);
	run_add_marker(run, now_mono() - r->run_t0, what);

	double overhead_sum = 0;
	double test_t0 = now_mono();
	if (quick && !r->abort && !r->skip) {
		double c[RUNNER_MAX_COPIES], e[RUNNER_MAX_COPIES], ov;
		struct sample warm = { .copies = b->copies, .count = c, .elapsed = e };
		char reason[200] = "";
		ev.sample = 0;
		int rc = run_sample(r, &ev, t, b->copies, QUICK_WARMUP_SECONDS, &warm, &ov, reason,
				    sizeof reason);
		ev.kind = EV_SAMPLE_END; /* listeners close what they opened at SAMPLE_READY */
		emit(r, &ev);
		ev.pids = NULL;
		if (rc != 0 && !r->skip && !r->abort) {
			snprintf(res->reason, sizeof res->reason, "warm-up: %s", reason);
			res->status = TEST_FAILED;
		}
		test_t0 = now_mono();
	}
	for (int k = 0; res->status == TEST_RUNNING && (quick || k < nsamples); k++) {
		ev.sample = k;
		pause_before_sample(r, &ev);
		if (r->skip || r->abort) {
			snprintf(res->reason, sizeof res->reason, "%s after %d samples",
				 r->abort ? "aborted" : "skipped", k);
			res->status = TEST_SKIPPED;
			break;
		}
		snprintf(what, sizeof what, "sample %s %d", t->id, k + 1);
		run_add_marker(run, now_mono() - r->run_t0, what);
		struct sample tmp = { .copies = b->copies };
		double counts[RUNNER_MAX_COPIES] = { 0 }, times[RUNNER_MAX_COPIES] = { 0 };
		tmp.count = counts;
		tmp.elapsed = times;
		tmp.start = now_mono() - r->run_t0;
		char reason[200] = "";
		ev.sample_length = length;
		double overhead = 0;
		int rc = run_sample(r, &ev, t, b->copies, length, &tmp, &overhead, reason, sizeof reason);
		if (rc == 0) {
			overhead_sum += overhead;
			test_summary_set(res, "overhead_ms", overhead_sum / (res->nsamples + 1) * 1e3, NULL);
			struct sample *s = test_add_sample(res, b->copies);
			s->start = tmp.start;
			memcpy(s->count, counts, sizeof(double) * (size_t)b->copies);
			memcpy(s->elapsed, times, sizeof(double) * (size_t)b->copies);
		}
		/* After the sample is in the run, so listeners can read it. */
		ev.kind = EV_SAMPLE_END;
		emit(r, &ev);
		ev.pids = NULL;
		/* Nothing of one sample may leak into the next (file tests, shell
		 * temp files), nor of a killed one into the next test. */
		char dir[PATH_MAX];
		for (int c = 0; c < b->copies; c++) {
			snprintf(dir, sizeof dir, "%s/copy%d", r->scratch, c);
			rm_tree(dir);
		}
		if (rc != 0) {
			if (r->skip || r->abort) {
				snprintf(res->reason, sizeof res->reason, "%s after %d samples",
					 r->abort ? "aborted" : "skipped", k);
				res->status = TEST_SKIPPED;
			} else {
				snprintf(res->reason, sizeof res->reason, "sample %d: %s", k + 1, reason);
				res->status = TEST_FAILED;
			}
			break;
		}
		if (quick) {
			const struct sample *s = &res->samples[res->nsamples - 1];
			rates[k] = score_rate(sample_count(s), sample_time(s), t->timebase);
			verdict = quick_decide(&rule, rates, k + 1, now_mono() - test_t0, &achieved);
			if (verdict != QUICK_MORE)
				break;
		}
	}
	if (quick && res->nsamples > 0) {
		test_summary_set(res, "quick_precision_asked", rule.precision, NULL);
		if (isfinite(achieved))
			test_summary_set(res, "quick_precision", achieved, NULL);
		test_summary_set(res, "quick_stop", 0,
				 verdict == QUICK_PRECISE	? "precise"
				 : verdict == QUICK_TIME_UP	? "time limit"
				 : verdict == QUICK_MAX_SAMPLES ? "sample limit"
								: "stopped");
		test_summary_set(res, "quick_seconds", now_mono() - test_t0, NULL);
	}
	if (res->status == TEST_RUNNING)
		res->status = TEST_DONE;
	score_test(res);
	emit(r, (ev.kind = EV_TEST_END, &ev));
}

int runner_run(struct runner *r, struct run *run)
{
	r->abort = 0;
	r->skip = 0;
	r->run_t0 = now_mono();
	/* A kbench killed outright (SIGKILL, a crash) could not remove its
	 * directory: remove those whose owner is gone, then make this run's. */
	scratch_sweep(r->scratch_root);
	int rc = scratch_make(r->scratch_root, r->scratch, sizeof r->scratch);
	if (rc < 0) {
		run_add_note(run, "could not create a scratch directory in %s: %s", r->scratch_root,
			     strerror(-rc));
		r->scratch[0] = '\0';
		return -1;
	}
	/* Every block and row exists before the first sample, so a front end
	 * can show the whole plan and pointers into the run stay valid. */
	int first = run->nblocks;
	for (int c = 0; c < r->o.ncopies; c++) {
		struct run_block *b = run_add_block(run, r->o.copies[c]);
		for (int i = 0; i < r->o.ntests; i++) {
			const struct test_def *t = r->o.tests[i];
			run_block_add_test(b, t->id, t->label, t->unit, t->timebase, t->baseline,
					   t->category);
		}
	}
	struct runner_event ev = { .run = run, .block = first };
	emit(r, (ev.kind = EV_RUN_BEGIN, &ev));
	for (int c = 0; c < r->o.ncopies && !r->abort; c++) {
		int bi = first + c;
		run->blocks[bi].start = time(NULL);
		ev = (struct runner_event){ .run = run, .block = bi, .ncopies = run->blocks[bi].copies };
		emit(r, (ev.kind = EV_BLOCK_BEGIN, &ev));
		for (int i = 0; i < r->o.ntests && !r->abort; i++)
			run_test(r, run, bi, i);
		for (int i = 0; i < r->o.ntests; i++)
			if (run->blocks[bi].tests[i].status == TEST_WAITING) {
				run->blocks[bi].tests[i].status = TEST_SKIPPED;
				snprintf(run->blocks[bi].tests[i].reason,
					 sizeof run->blocks[bi].tests[i].reason, "run aborted");
			}
		run->blocks[bi].end = time(NULL);
		score_block(&run->blocks[bi]);
		ev = (struct runner_event){ .run = run, .block = bi, .ncopies = run->blocks[bi].copies };
		emit(r, (ev.kind = EV_BLOCK_END, &ev));
	}
	if (r->abort) {
		run->incomplete = true;
		for (int c = 0; c < r->o.ncopies; c++) {
			struct run_block *b = &run->blocks[first + c];
			for (int i = 0; i < b->ntests; i++)
				if (b->tests[i].status == TEST_WAITING) {
					b->tests[i].status = TEST_SKIPPED;
					snprintf(b->tests[i].reason, sizeof b->tests[i].reason, "run aborted");
				}
			if (!b->end)
				b->end = time(NULL);
			score_block(b);
		}
	}
	rm_tree(r->scratch);
	r->scratch[0] = '\0';
	ev = (struct runner_event){ .run = run, .block = first };
	emit(r, (ev.kind = EV_RUN_END, &ev));
	return r->abort ? -1 : 0;
}
