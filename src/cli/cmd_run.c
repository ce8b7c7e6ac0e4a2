/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench run`: a headless run with UnixBench's habits, progress on stderr, the report on stdout. */
#include "commands.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "report.h"
#include "request.h"
#include "run.h"
#include "runner.h"
#include "session.h"
#include "store.h"
#include "tests.h"
#include "telemetry/telemetry.h"

static struct runner *active_runner;
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
	if (active_runner)
		runner_abort(active_runner);
}

struct progress {
	int verbose, quiet, tty;
	bool idle_baseline; /* the run's mode begins with one (run_mode_info) */
	int copies;
	struct runner *runner;
	int line_open;
};

static void fmt_rate(char *buf, size_t len, double v)
{
	if (v >= 1e7)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.1f", v);
}

/* "/10" after a sample number, or nothing in a quick run (samples until precise). */
static const char *of_n(const struct runner_event *ev)
{
	static char buf[16];
	if (ev->nsamples <= 0)
		return "";
	snprintf(buf, sizeof buf, "/%d", ev->nsamples);
	return buf;
}

static void on_event(void *ctx, const struct runner_event *ev)
{
	struct progress *p = ctx;
	if (p->quiet)
		return;
	const struct run_block *b = &ev->run->blocks[ev->block];
	const struct test_result *t = ev->test >= 0 && ev->test < b->ntests ? &b->tests[ev->test] : NULL;
	switch (ev->kind) {
	case EV_BLOCK_BEGIN:
		fprintf(stderr, "%s== %d parallel %s ==\n", p->line_open ? "\n" : "", b->copies,
			b->copies == 1 ? "copy" : "copies");
		p->line_open = 0;
		break;
	case EV_PAUSE:
		if (p->idle_baseline && ev->sample == 0 && !p->tty) {
			fprintf(stderr, "idle baseline: %.0f s with the CPUs at rest, reading the sensors\n",
				ev->sample_length);
		} else if (p->idle_baseline) {
			fprintf(stderr, "\r\033[Kidle baseline: %.0f s with the CPUs at rest", ev->sample_length);
			p->line_open = 1;
		} else if (p->tty) {
			fprintf(stderr, "\r\033[K%d x %-18s sample %d%s  sync and pause %.0f s (as UnixBench)",
				b->copies, t->id, ev->sample + 1, of_n(ev), ev->sample_length);
			p->line_open = 1;
		}
		break;
	case EV_TICK:
	case EV_SAMPLE_BEGIN:
		if (p->tty && ev->pids) {
			double el = runner_live_elapsed(p->runner), count = 0;
			for (int c = 0; c < runner_live_copies(p->runner); c++)
				count += (double)runner_live_count(p->runner, c);
			char rate[32] = "";
			if (t->timebase > 0 && el > 0.2) {
				fmt_rate(rate, sizeof rate, count / el * t->timebase);
				strcat(rate, " ");
				strcat(rate, t->unit);
			}
			fprintf(stderr, "\r\033[K%d x %-18s sample %d%s  %5.1f/%.1f s  %s", b->copies, t->id,
				ev->sample + 1, of_n(ev), el, ev->sample_length, rate);
			p->line_open = 1;
		} else if (p->tty && p->idle_baseline && ev->sample == 0) {
			fprintf(stderr, "\r\033[Kidle baseline: %.0f of %.0f s with the CPUs at rest",
				ev->sample_elapsed, ev->sample_length);
			p->line_open = 1;
		}
		break;
	case EV_SAMPLE_END:
		if (!p->tty || p->verbose) {
			const struct sample *s = t->nsamples > ev->sample ? &t->samples[ev->sample] : NULL;
			if (p->tty)
				fprintf(stderr, "\r\033[K");
			if (s && t->kind == RESULT_POINTS)
				fprintf(stderr, "%d x %s: sample %d%s: %d points (%.2f s)\n", b->copies, t->id,
					ev->sample + 1, of_n(ev), t->npoints, sample_time(s));
			else if (s)
				fprintf(stderr, "%d x %s: sample %d%s: %.1f %s (%.2f s)\n", b->copies, t->id,
					ev->sample + 1, of_n(ev),
					t->timebase ? sample_count(s) / (sample_time(s) / t->timebase)
						    : sample_count(s),
					t->unit, sample_time(s));
			p->line_open = 0;
		}
		break;
	case EV_TEST_END:
		if (!ev->final) /* a visit of a run in rounds: the test has more to come */
			break;
		if (p->tty)
			fprintf(stderr, "\r\033[K");
		if (t->status != TEST_DONE) {
			fprintf(stderr, "%d x %-40s %s: %s\n", b->copies, t->label,
				test_status_name(t->status), t->reason);
			p->line_open = 0;
			break;
		}
		if (t->kind == RESULT_POINTS) {
			/* no score: the headline points, as many as fit a line or two */
			fprintf(stderr, "%d x %s (%d samples):", b->copies, t->label, t->nsamples);
			for (int i = 0, k = 0; i < t->npoints; i++)
				if (t->points[i].summary)
					fprintf(stderr, "%s %s %.4g %s", k++ % 5 == 4 ? "\n   " : "",
						t->points[i].name, point_mean(&t->points[i]), t->points[i].unit);
			fputc('\n', stderr);
			p->line_open = 0;
			break;
		}
		fprintf(stderr, "%d x %-40s %12.1f %-5s (%d of %d samples kept)\n", b->copies, t->label,
			t->score, t->unit, t->kept, t->nsamples);
		const struct kv *qp = test_summary_get(t, "quick_precision");
		const struct kv *qs = test_summary_get(t, "quick_stop");
		if (qp && qs)
			fprintf(stderr, "    quick: +-%.2f%% after %d samples (%s)\n", qp->value * 100,
				t->nsamples, qs->text);
		const struct kv *o = test_summary_get(t, "overhead_ms");
		if (o && p->verbose)
			fprintf(stderr, "    %s: sample start-up and teardown %.2f ms per sample\n", t->id,
				o->value);
		p->line_open = 0;
		break;
	default:
		break;
	}
}

/* The face kbench run's runs have (and calibrate's): progress on stderr, signals caught, the
 * report on stdout when asked. One run at a time. */
static struct progress face_progress;
static const struct run_request *face_rq;
static const struct run_mode_info *face_mode;
static bool face_report;

static void face_watch(void *ctx, struct runner *r, struct run *run)
{
	struct progress *p = ctx;
	p->runner = r;
	p->line_open = 0;
	struct runner_listener l = { .on_event = on_event, .ctx = p, .wake_fd = -1 };
	runner_listen(r, &l);
	/* A run whose length follows its parameters (kbuild, buildload: the
	 * tree, the -j list, the loads) says how long before it starts. */
	const struct runner_opts *o = &face_rq->run;
	for (int i = 0; i < o->ntests && !p->quiet; i++)
		if (o->tests[i]->sample_seconds)
			fprintf(stderr, "estimate: %s about %.0f min on a quiet machine\n", o->tests[i]->id,
				runner_blocks_for(o, o->tests[i]) * runner_estimate_test(o, o->tests[i]) / 60);
	/* Ctrl-C, kill, a closed terminal: the runner stops and the samples so far are kept. */
	active_runner = r;
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	/* A reader gone (`kbench run | tee` when ssh drops) must not kill the run
	 * before it saves: writes fail with EPIPE instead. Workers reset SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
}

/* The report is on stdout before the save: a full disk loses no numbers. */
static void face_ran(void *ctx, struct run *run, int rc)
{
	struct progress *p = ctx;
	active_runner = NULL;
	if (p->line_open)
		fputc('\n', stderr);
	if (!face_report)
		return;
	report_print(stdout, run);
	if (face_mode && face_mode->print)
		face_mode->print(stdout, run);
	else if (!face_rq->tele.off)
		telemetry_print_summary(stdout, run);
	fflush(stdout);
}

struct session_face cli_run_face(const struct run_request *rq, const struct run_mode_info *mode, bool report)
{
	face_rq = rq;
	face_mode = mode;
	face_report = report;
	face_progress = (struct progress){ .verbose = rq->verbose, .quiet = rq->quiet, .tty = isatty(STDERR_FILENO),
					   .idle_baseline = mode && mode->idle_baseline };
	return (struct session_face){ .ctx = &face_progress, .watch = face_watch, .ran = face_ran,
				      .log = rq->quiet ? NULL : stderr };
}

int cli_run_told(const struct run_request *rq, const struct session_result *res)
{
	if (res->save_failed) {
		runtime_error("could not save the run: %s", res->why);
		return 1;
	}
	if (!rq->no_save && !res->saved && !rq->quiet)
		fprintf(stderr, "not saved: %s\n", res->why);
	if (res->saved && !rq->quiet)
		fprintf(stderr, "saved as %s (%s)%s in %s\n", res->run->meta.id, res->run->meta.name,
			res->run->incomplete ? ", marked incomplete," : "", store_dir());
	return 0;
}

int cli_signal(void)
{
	return got_signal;
}

static void seq_told(void *ctx, int k, const struct session_result *res)
{
	if (!res->run)
		fprintf(stderr, "kbench: %s\n", res->why);
	else
		cli_run_told(ctx, res);
}

static bool seq_stopping(void *ctx)
{
	return cli_signal() != 0;
}

struct sequence_face cli_sequence_face(const struct run_request *rq, void (*begin)(void *ctx, int k, int n))
{
	return (struct sequence_face){ .run = cli_run_face(rq, NULL, false), .ctx = (void *)rq, .begin = begin,
				       .end = seq_told, .stopping = seq_stopping };
}

/* kbench run and a mode's own command (kbench thermal): the request from the options, one
 * run's life, the report on stdout. */
static int run_cli(int argc, char **argv, const char *cmd)
{
	const struct run_mode_info *mode = run_mode_of_command(cmd);
	static struct run_request rq;
	run_request_init(&rq);
	rq.tele.log = stderr;
	struct opt_parsed op;
	int rc = opts_take(opts_command(cmd), argc, argv, &op, &rq, NULL);
	if (rc >= 0)
		return rc;
	char err[512];
	if (mode && op.noperands > 0)
		rc = usage_error("kbench %s takes no operands ('%s'): %s", cmd, op.operand[0], mode->operands_why);
	else
		rc = cli_add_tests(&rq, op.operand, op.noperands);
	opts_free(&op);
	if (rc < 0 && run_request_complete(&rq, mode, err, sizeof err) < 0)
		rc = usage_error("%s", err);
	if (rc >= 0)
		return rc;

	struct session_face face = cli_run_face(&rq, mode, true);
	struct session_result res;
	bool usage;
	if (session_run(&rq, &face, &res, &usage, err, sizeof err) < 0)
		return usage ? usage_error("%s", err) : runtime_error("%s", err);
	int failed = cli_run_told(&rq, &res) || res.failed;
	run_free(res.run);
	if (got_signal)
		return 128 + got_signal;
	if (res.aborted || failed)
		return 1;
	return 0;
}

static int run_exec(int argc, char **argv)
{
	return run_cli(argc, argv, "run");
}

const struct opt_command cmd_run_entry = {
	.name = "run", .bit = OC_RUN, .args = "[options] [TEST|GROUP ...]",
	.about = "run benchmarks headless and print the report",
	.text = "Runs the tests (default: the index group) with 1 and N copies, like UnixBench's Run,\n"
		"and prints UnixBench's report on stdout; progress goes to stderr.",
	.after = "TEST is a test id (kbench list); GROUP is index, system, arithmetic, fs, shell, misc, all, ...",
	.operand = "tests", .exec = run_exec,
};

int cmd_mode(int argc, char **argv)
{
	return run_cli(argc, argv, argv[0]);
}
