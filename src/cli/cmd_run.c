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
#include "run.h"
#include "runner.h"
#include "store.h"
#include "sysinfo.h"
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

static int add_tests(struct runner_opts *o, const char *name)
{
	const struct test_def *t = test_find(name);
	if (t) {
		for (int i = 0; i < o->ntests; i++)
			if (o->tests[i] == t)
				return 0;
		if (o->ntests >= RUNNER_MAX_TESTS)
			return -1;
		o->tests[o->ntests++] = t;
		return 0;
	}
	const struct test_group *g = test_group_find(name);
	if (!g)
		return -1;
	if (!g->ids) {
		for (size_t i = 0; i < test_count; i++)
			add_tests(o, test_table[i].id);
		return 0;
	}
	for (const char *const *id = g->ids; *id; id++)
		add_tests(o, *id);
	return 0;
}

/* What the options of kbench run (or of a mode's own command) said. */
struct cli_run {
	struct runner_opts o;
	struct telemetry_opts topts;
	const char *name, *test; /* test: the mode's --test */
	int save, quiet, verbose;
	char params[OPT_PARAMS_MAX];
};

/* The parsed options into cr: -1 to go on, else the exit code. */
static int read_options(const struct opt_parsed *op, struct cli_run *cr)
{
	struct runner_opts *o = &cr->o;
	for (int k = 0; k < op->n; k++) {
		const struct opt_item *it = &op->item[k];
		int pr = opts_param_append(cr->params, sizeof cr->params, it);
		if (pr < 0)
			return usage_error("the workload settings are longer than %d characters", OPT_PARAMS_MAX - 1);
		if (pr > 0)
			continue;
		switch (it->def->id) {
		case O_COPIES: {
			/* -c 1 -c 2 as UnixBench takes them, or -c 1,2 as the console does */
			int n = opts_copy_list(it->arg, sysinfo_ncpus(), o->copies + o->ncopies,
					       RUNNER_MAX_BLOCKS - o->ncopies);
			if (n < 0)
				return usage_error("at most %d copy counts in all", RUNNER_MAX_BLOCKS);
			o->ncopies += n;
			break;
		}
		case O_ITERATIONS: o->iterations = (int)it->i; break;
		case O_SAMPLES: o->samples = (int)it->i; break;
		case O_DURATION: o->duration = it->d; break;
		case O_PAUSE: o->pause = it->d; break;
		case O_TMPDIR: o->tmpdir = it->arg; break;
		case O_NAME: cr->name = it->arg; break;
		case O_QUICK: o->quick = true; break;
		case O_PRECISION: o->precision = it->d / 100; break;
		case O_MAX_TEST: o->max_test_seconds = it->d; break;
		case O_ALLOCATE: o->allocation = !strcmp(it->arg, "precision") ? ALLOC_PRECISION : ALLOC_INDEX; break;
		case O_BUDGET: o->budget = it->d * 60; break; /* the run's; per copy count below */
		case O_NO_SAVE: cr->save = 0; break;
		case O_QUIET: cr->quiet = 1; break;
		case O_VERBOSE: cr->verbose = 1; break;
		/* telemetry (src/telemetry): its rows checked the values */
		case O_EVENTS: cr->topts.events = it->arg; break;
		case O_INTERVAL:
			cr->topts.interval = it->d;
			if (it->d == 0)
				cr->topts.off = true;
			else
				o->interval = it->d;
			break;
		case O_SENSOR: cr->topts.sensor = it->arg; break;
		case O_COOLDOWN: cr->topts.cooldown = true; break;
		case O_NO_TELEMETRY: cr->topts.off = true; break;
		/* a run mode's own options (its row's cmd, src/registry/run_mode.c) */
		case O_MODE_MINUTES: o->timed_seconds = it->d * 60; break;
		case O_MODE_TEST: cr->test = it->arg; break;
		case O_MODE_IDLE: o->idle = it->d; break;
		case O_MODE_COPIES:
			o->copies[0] = (int)it->i;
			o->ncopies = 1;
			break;
		default: break;
		}
	}
	return -1;
}

/* The tests and copies: a mode's own command's test and defaults, else the operands
 * (the index when none); then what does not go together. -1 to go on, else the exit code. */
static int choose_tests(struct cli_run *cr, const struct run_mode_info *mode, const char *cmd, int nops,
			char **ops)
{
	struct runner_opts *o = &cr->o;
	int urc = -1;
	if (mode && nops > 0)
		urc = usage_error("kbench %s takes no operands ('%s'): %s", cmd, ops[0], mode->operands_why);
	if (mode && urc < 0) {
		mode->defaults(o, sysinfo_ncpus());
		add_tests(o, cr->test ? cr->test : mode->test); /* the row checked it */
	}
	/* Stopped between two of calibrate's runs: no new one. */
	if (got_signal)
		urc = 128 + got_signal;
	for (int i = 0; i < nops && urc < 0; i++)
		if (add_tests(o, ops[i]) != 0)
			urc = usage_error("unknown test or group '%s' (try 'kbench list')", ops[i]);
	if (urc >= 0)
		return urc;
	if (o->ntests == 0)
		add_tests(o, "index");
	if (!o->quick && (o->precision > 0 || o->max_test_seconds > 0))
		return usage_error("--precision and --max-test-seconds go with --quick");
	/* each test until its precision: what --precision and --max-test-seconds are for
	 * (runner_allocation takes them so) */
	if ((o->precision > 0 || o->max_test_seconds > 0) && o->allocation == ALLOC_INDEX)
		return usage_error("--precision and --max-test-seconds go with --allocate precision, not index");
	if (o->allocation == ALLOC_PRECISION && !o->quick)
		return usage_error("--allocate precision goes with --quick");
	if (runner_allocation(o) == ALLOC_PRECISION && o->budget > 0)
		return usage_error("--budget goes with --allocate index: a precision run stops each test by itself");
	if (o->allocation == ALLOC_INDEX && !o->quick && !(o->budget > 0))
		return usage_error("--allocate index needs --quick or --budget: the minutes it shares out");
	if (o->budget > 0 && (o->samples > 0 || o->iterations > 0))
		return usage_error("--budget shares the minutes out itself: not with %s",
				   o->samples > 0 ? "--samples" : "-i");
	char perr[200];
	if (opts_params_check(cr->params, perr, sizeof perr) < 0)
		return usage_error("%s", perr);
	/* tests that run their own tasks only (scaling) or use the CPUs themselves
	 * (kbuild: make -j) need no block of more copies */
	bool own_tasks = true;
	for (int i = 0; i < o->ntests; i++)
		own_tasks = own_tasks && o->tests[i]->one_copy;
	if (o->ncopies == 0) {
		o->copies[o->ncopies++] = 1;
		if (sysinfo_ncpus() > 1 && !own_tasks)
			o->copies[o->ncopies++] = sysinfo_ncpus();
	}
	/* --budget is the whole run's: the runner's is each copy count's */
	o->budget /= o->ncopies;
	if (cr->params[0])
		o->params = cr->params;
	return -1;
}

/* Telemetry (src/telemetry): preflight notes, the sampler, -v lines. *tele stays NULL
 * when it is off. -1 to go on, else the exit code. */
static int start_telemetry(struct cli_run *cr, struct runner *r, struct run *run, struct telemetry **tele)
{
	*tele = NULL;
	if (cr->topts.off)
		return -1;
	preflight_check(run, cr->quiet ? NULL : stderr);
	bool tusage;
	char err[512];
	if (!(*tele = telemetry_new(&cr->topts, &tusage, err, sizeof err)))
		return tusage ? usage_error("%s", err) : runtime_error("%s", err);
	struct runner_listener tl = telemetry_listener(*tele);
	runner_listen(r, &tl);
	if (cr->verbose && !cr->quiet) {
		struct runner_listener vl = telemetry_verbose_listener(stderr);
		runner_listen(r, &vl);
	}
	return -1;
}

/* Ctrl-C, kill, a closed terminal: the runner stops and the samples so far are kept. */
static void catch_signals(struct runner *r)
{
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

/* Stores the run unless told not to (or it holds nothing worth keeping); its id to id.
 * 1 when the save failed. */
static int save_run(const struct cli_run *cr, struct run *run, char *id, size_t idlen)
{
	char serr[512];
	if (cr->save && !store_worth_saving(run, serr, sizeof serr)) {
		if (!cr->quiet)
			fprintf(stderr, "not saved: %s\n", serr);
	} else if (cr->save) {
		if (store_save(run, serr, sizeof serr) != 0) {
			runtime_error("could not save the run: %s", serr);
			return 1;
		}
		if (!cr->quiet)
			fprintf(stderr, "saved as %s (%s)%s in %s\n", run->meta.id, run->meta.name,
				run->incomplete ? ", marked incomplete," : "", store_dir());
		if (id)
			snprintf(id, idlen, "%s", run->meta.id);
	}
	return 0;
}

/* kbench run, a mode's own command (kbench thermal), and each of kbench calibrate's
 * runs: with report false the UnixBench report is not printed (the progress on stderr
 * is), and the stored run's id goes to id. */
static int run_cli(int argc, char **argv, const char *cmd, bool report, char *id, size_t idlen)
{
	const struct run_mode_info *mode = run_mode_of_command(cmd);
	struct cli_run cr = { .o = { .pause = -1, .idle = -1 }, .topts = { .log = stderr }, .save = 1 };
	struct opt_parsed op;
	int rc = opts_parse(opts_command(cmd), argc, argv, &op);
	if (rc >= 0)
		return rc;
	rc = read_options(&op, &cr);
	int nops = op.noperands;
	char **ops = op.operand;
	op.operand = NULL;
	opts_free(&op);
	if (rc < 0)
		rc = choose_tests(&cr, mode, cmd, nops, ops);
	free(ops);
	if (rc >= 0)
		return rc;

	char err[512];
	struct runner *r = runner_new(&cr.o, err, sizeof err);
	if (!r)
		return runtime_error("%s", err);
	struct run *run = runner_new_run(&cr.o);
	if (cr.name)
		snprintf(run->meta.name, sizeof run->meta.name, "%s", cr.name);
	struct progress p = { .verbose = cr.verbose, .quiet = cr.quiet, .tty = isatty(STDERR_FILENO),
			      .runner = r, .idle_baseline = mode && mode->idle_baseline };
	struct runner_listener l = { .on_event = on_event, .ctx = &p, .wake_fd = -1 };
	runner_listen(r, &l);
	struct telemetry *tele;
	if ((rc = start_telemetry(&cr, r, run, &tele)) >= 0) {
		runner_free(r);
		run_free(run);
		return rc;
	}

	/* A run whose length follows its parameters (kbuild, buildload: the
	 * tree, the -j list, the loads) says how long before it starts. */
	for (int i = 0; i < cr.o.ntests && !cr.quiet; i++)
		if (cr.o.tests[i]->sample_seconds)
			fprintf(stderr, "estimate: %s about %.0f min on a quiet machine\n", cr.o.tests[i]->id,
				runner_blocks_for(&cr.o, cr.o.tests[i]) * runner_estimate_test(&cr.o, cr.o.tests[i]) / 60);

	catch_signals(r);
	rc = runner_run(r, run);
	active_runner = NULL;
	if (p.line_open)
		fputc('\n', stderr);

	if (report) {
		report_print(stdout, run);
		if (mode && mode->print)
			mode->print(stdout, run);
		else if (tele)
			telemetry_print_summary(stdout, run);
		fflush(stdout);
	}

	/* The report is on stdout before the save: a full disk loses no numbers. */
	int failed = save_run(&cr, run, id, idlen);
	for (int b = 0; b < run->nblocks; b++)
		for (int i = 0; i < run->blocks[b].ntests; i++)
			failed |= run->blocks[b].tests[i].status == TEST_FAILED;

	telemetry_free(tele);
	runner_free(r);
	run_free(run);
	if (got_signal)
		return 128 + got_signal;
	if (rc != 0 || failed)
		return 1;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	return run_cli(argc, argv, "run", true, NULL, 0);
}

int cmd_mode(int argc, char **argv)
{
	return run_cli(argc, argv, argv[0], true, NULL, 0);
}

int cmd_run_stored(int argc, char **argv, char *id, size_t idlen)
{
	if (idlen)
		id[0] = '\0';
	return run_cli(argc, argv, "run", false, id, idlen);
}
