/* What the run screen watches: a live run through the runner, or a stored run replayed from its samples. */
#include "live.h"

#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "runner.h"
#include "sysinfo.h"
#include "tests.h"
#include "telemetry/telemetry.h"

/* Weak, so the console builds and runs before the telemetry sampler is
 * linked in, and lights its panel up once it is (a NULL address: not there). */
#pragma weak telemetry_new
#pragma weak telemetry_free
#pragma weak telemetry_listener
#pragma weak telemetry_latest

void app_poll_keys(struct app *a);
void app_redraw(struct app *a);

static double now_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- a live run ---- */

static struct runner_opts opts;
static double ev_wall;      /* monotonic time of the last event */
static double test_begin;   /* run time the current test began */
static struct telemetry *tele;
static char tele_why[200];

const struct telemetry_frame *live_telemetry(const struct app *a, const char **why)
{
	*why = tele_why;
	if (a->replay || !tele || !telemetry_latest)
		return NULL;
	return telemetry_latest(tele);
}

static void on_event(void *ctx, const struct runner_event *ev)
{
	struct app *a = ctx;
	a->ev = *ev;
	a->ev.pids = NULL; /* valid only inside the call */
	ev_wall = now_mono();
	if (ev->kind == EV_TEST_BEGIN)
		test_begin = ev->now;
	app_poll_keys(a);
	app_redraw(a);
}

int live_run(struct app *a, char *err, size_t errlen)
{
	app_opts(a, &opts);
	struct runner *r = runner_new(&opts, err, errlen);
	if (!r)
		return -1;
	struct run *run = run_new();
	sysinfo_fill(&run->meta);
	sysinfo_fill_storage(&run->meta, opts.tmpdir);
	run->meta.duration_override = opts.duration;
	run->meta.iterations = opts.iterations;
	if (opts.quick)
		snprintf(run->meta.mode, sizeof run->meta.mode, "quick");
	if (a->run)
		run_free(a->run);
	a->run = run;
	a->run_saved = false;
	a->runner = r;
	a->running = true;
	a->aborted = false;
	a->eta_total = runner_estimate(&opts);
	memset(&a->ev, 0, sizeof a->ev);
	a->ev.run = run;
	ev_wall = now_mono();
	if (!telemetry_new) {
		snprintf(tele_why, sizeof tele_why, "n/a (not available yet)");
	} else if (!tele) {
		struct telemetry_opts to = { .interval = opts.interval };
		bool usage = false;
		tele = telemetry_new(&to, &usage, tele_why, sizeof tele_why);
	}
	if (tele) {
		/* first, so each tick's frame is fresh when the screen draws */
		struct runner_listener tl = telemetry_listener(tele);
		runner_listen(r, &tl);
	}
	struct runner_listener l = { .on_event = on_event, .ctx = a, .wake_fd = STDIN_FILENO };
	runner_listen(r, &l);
	int rc = runner_run(r, run);
	a->running = false;
	a->runner = NULL;
	runner_free(r);
	if (rc < 0)
		a->aborted = true;
	return 0;
}

/* ---- a replay ---- */

struct slot {
	int b, t, s;
	double start, len;
};

static struct slot *slots;
static int nslots;
static double clock_now, clock_end;
static int cur = -1;        /* the slot in progress, or -1 in a pause */
static bool replay_stop, replay_skip;

static void build_timeline(const struct run *r)
{
	free(slots);
	slots = NULL;
	nslots = 0;
	int cap = 0;
	double cursor = 0;
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++) {
			const struct test_result *tr = &r->blocks[b].tests[t];
			for (int s = 0; s < tr->nsamples; s++) {
				if (nslots == cap) {
					cap = cap ? cap * 2 : 64;
					slots = realloc(slots, (size_t)cap * sizeof *slots);
				}
				double len = sample_time(&tr->samples[s]);
				if (!(len > 0))
					len = 1;
				/* an old or imported file may not know when samples began */
				double st = tr->samples[s].start;
				if (!(st >= cursor))
					st = cursor;
				slots[nslots++] = (struct slot){ b, t, s, st, len };
				cursor = st + len;
			}
		}
	clock_end = cursor;
}

static void replay_event(struct app *a)
{
	const struct run *r = a->run;
	cur = -1;
	int last = -1;
	for (int i = 0; i < nslots; i++) {
		if (slots[i].start <= clock_now)
			last = i;
		if (slots[i].start <= clock_now && clock_now < slots[i].start + slots[i].len) {
			cur = i;
			break;
		}
	}
	int at = cur >= 0 ? cur : last + 1 < nslots ? last + 1 : last;
	if (at < 0)
		return;
	const struct slot *sl = &slots[at];
	const struct test_result *tr = &r->blocks[sl->b].tests[sl->t];
	a->ev.run = a->run;
	a->ev.kind = cur >= 0 ? EV_TICK : EV_PAUSE;
	a->ev.block = sl->b;
	a->ev.test = sl->t;
	a->ev.sample = sl->s;
	a->ev.nsamples = tr->nsamples;
	a->ev.now = clock_now;
	a->ev.ncopies = r->blocks[sl->b].copies;
	a->ev.sample_length = cur >= 0 ? sl->len : sl->start - (last >= 0 ? slots[last].start + slots[last].len : 0);
	a->ev.sample_elapsed = cur >= 0 ? clock_now - sl->start
					: clock_now - (last >= 0 ? slots[last].start + slots[last].len : 0);
}

void live_replay(struct app *a)
{
	build_timeline(a->run);
	clock_now = 0;
	replay_stop = replay_skip = false;
	a->running = true;
	a->eta_total = clock_end;
	app_goto(a, &screen_run);
	double wall = now_mono();
	while (!a->quit && !replay_stop && clock_now < clock_end) {
		double w = now_mono();
		clock_now += (w - wall) * a->replay_speed;
		wall = w;
		if (replay_skip) {
			replay_skip = false;
			/* jump to the end of the current test */
			int at = cur;
			if (at >= 0) {
				int i = at;
				while (i + 1 < nslots && slots[i + 1].b == slots[at].b && slots[i + 1].t == slots[at].t)
					i++;
				clock_now = slots[i].start + slots[i].len;
			}
		}
		if (clock_now > clock_end)
			clock_now = clock_end;
		replay_event(a);
		app_redraw(a);
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		int n = poll(&p, 1, 250);
		if (n > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
			a->quit = true;
			break;
		}
		app_poll_keys(a);
	}
	cur = -1;
	a->running = false;
}

void live_close(void)
{
	if (tele && telemetry_free)
		telemetry_free(tele);
	tele = NULL;
	free(slots);
	slots = NULL;
	nslots = 0;
}

/* ---- control and live values ---- */

void live_abort(struct app *a)
{
	if (a->replay)
		replay_stop = true;
	else if (a->runner)
		runner_abort(a->runner);
}

void live_skip(struct app *a)
{
	if (a->replay)
		replay_skip = true;
	else if (a->runner)
		runner_skip_test(a->runner);
}

int live_copies(const struct app *a)
{
	if (a->replay)
		return cur >= 0 ? a->run->blocks[slots[cur].b].copies : 0;
	return a->runner ? runner_live_copies(a->runner) : 0;
}

static const struct sample *replay_sample(const struct app *a)
{
	if (cur < 0)
		return NULL;
	const struct test_result *tr = &a->run->blocks[slots[cur].b].tests[slots[cur].t];
	return &tr->samples[slots[cur].s];
}

double live_count(const struct app *a, int copy)
{
	if (a->replay) {
		const struct sample *s = replay_sample(a);
		if (!s || copy >= s->copies)
			return 0;
		const struct test_result *tr = &a->run->blocks[slots[cur].b].tests[slots[cur].t];
		if (tr->timebase == 0)
			return s->count[copy]; /* a rate: it does not grow with time */
		double frac = (clock_now - slots[cur].start) / slots[cur].len;
		return s->count[copy] * (frac < 0 ? 0 : frac > 1 ? 1 : frac);
	}
	return a->runner ? (double)runner_live_count(a->runner, copy) : 0;
}

double live_elapsed(const struct app *a)
{
	if (a->replay)
		return cur >= 0 ? clock_now - slots[cur].start : 0;
	return a->runner ? runner_live_elapsed(a->runner) : 0;
}

double live_now(const struct app *a)
{
	if (a->replay)
		return clock_now;
	if (!a->running)
		return a->ev.now;
	return a->ev.now + (now_mono() - ev_wall);
}

double live_remaining(const struct app *a)
{
	if (a->replay)
		return clock_end - clock_now;
	if (!a->running || !a->run)
		return 0;
	double left = 0;
	const struct run *r = a->run;
	for (int b = 0; b < r->nblocks; b++)
		for (int t = 0; t < r->blocks[b].ntests; t++) {
			const struct test_def *d = test_find(r->blocks[b].tests[t].id);
			if (!d)
				continue;
			double est = runner_estimate_test(&opts, d);
			enum test_status st = r->blocks[b].tests[t].status;
			if (st == TEST_WAITING)
				left += est;
			else if (st == TEST_RUNNING && est > live_now(a) - test_begin)
				left += est - (live_now(a) - test_begin);
		}
	return left;
}

/* Replay: when a test's first sample starts and its last one ends. */
static void replay_span(int b, int t, double *begin, double *end)
{
	*begin = INFINITY;
	*end = -INFINITY;
	double before = 0;
	for (int i = 0; i < nslots; i++) {
		if (slots[i].b < b || (slots[i].b == b && slots[i].t < t))
			before = slots[i].start + slots[i].len;
		if (slots[i].b == b && slots[i].t == t) {
			if (slots[i].start < *begin)
				*begin = slots[i].start;
			if (slots[i].start + slots[i].len > *end)
				*end = slots[i].start + slots[i].len;
		}
	}
	if (isinf(*begin))
		*begin = *end = before; /* no samples: it ends where the one before did */
}

enum test_status live_status(const struct app *a, int block, int test)
{
	const struct test_result *tr = &a->run->blocks[block].tests[test];
	if (!a->replay || !a->running)
		return tr->status;
	double begin, end;
	replay_span(block, test, &begin, &end);
	if (clock_now < begin)
		return TEST_WAITING;
	if (clock_now < end)
		return TEST_RUNNING;
	return tr->status == TEST_IMPORTED ? TEST_DONE : tr->status;
}

int live_samples_done(const struct app *a, int block, int test)
{
	const struct test_result *tr = &a->run->blocks[block].tests[test];
	if (!a->replay || !a->running)
		return tr->nsamples;
	int n = 0;
	for (int i = 0; i < nslots; i++)
		if (slots[i].b == block && slots[i].t == test && slots[i].start + slots[i].len <= clock_now)
			n++;
	return n;
}

int live_series_points(const struct app *a, const struct series *s)
{
	if (!a->replay || !a->running)
		return s->n;
	int n = 0;
	while (n < s->n && s->t[n] <= clock_now)
		n++;
	return n;
}
