/* `kbench run`: a headless run with UnixBench's habits, progress on stderr, the report on stdout. */
#include "commands.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "runner.h"
#include "store.h"
#include "sysinfo.h"
#include "tests.h"
#include "thermal.h"
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
	bool thermal;
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
		if (p->thermal && ev->sample == 0 && !p->tty) {
			fprintf(stderr, "idle baseline: %.0f s with the CPUs at rest, reading the sensors\n",
				ev->sample_length);
		} else if (p->thermal) {
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
		} else if (p->tty && p->thermal && ev->sample == 0) {
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

/* kbench run, and each of kbench calibrate's runs: with report false the
 * UnixBench report is not printed (the progress on stderr is), and the
 * stored run's id goes to id. */
static int run_cli(int argc, char **argv, const char *cmd, bool report, char *id, size_t idlen)
{
	struct runner_opts o = { .pause = -1, .idle = -1 };
	bool thermal = !strcmp(cmd, "thermal");
	const char *thermal_test = THERMAL_TEST;
	int quiet = 0, verbose = 0;
	struct telemetry_opts topts = { .log = stderr };
	const char *name = NULL;
	int save = 1;
	char params[OPT_PARAMS_MAX] = "";
	struct opt_parsed op;
	int prc = opts_parse(opts_command(cmd), argc, argv, &op);
	if (prc >= 0)
		return prc;
	for (int k = 0; k < op.n; k++) {
		const struct opt_item *it = &op.item[k];
		int pr = opts_param_append(params, sizeof params, it);
		if (pr < 0) {
			opts_free(&op);
			return usage_error("the workload settings are longer than %d characters", OPT_PARAMS_MAX - 1);
		}
		if (pr > 0)
			continue;
		switch (it->def->id) {
		case O_COPIES: {
			/* -c 1 -c 2 as UnixBench takes them, or -c 1,2 as the console does */
			int k = opts_copy_list(it->arg, sysinfo_ncpus(), o.copies + o.ncopies,
					       RUNNER_MAX_BLOCKS - o.ncopies);
			if (k < 0) {
				opts_free(&op);
				return usage_error("at most %d copy counts in all", RUNNER_MAX_BLOCKS);
			}
			o.ncopies += k;
			break;
		}
		case O_ITERATIONS: o.iterations = (int)it->i; break;
		case O_SAMPLES: o.samples = (int)it->i; break;
		case O_DURATION: o.duration = it->d; break;
		case O_PAUSE: o.pause = it->d; break;
		case O_TMPDIR: o.tmpdir = it->arg; break;
		case O_NAME: name = it->arg; break;
		case O_QUICK: o.quick = true; break;
		case O_PRECISION: o.precision = it->d / 100; break;
		case O_MAX_TEST: o.max_test_seconds = it->d; break;
		case O_NO_SAVE: save = 0; break;
		case O_QUIET: quiet = 1; break;
		case O_VERBOSE: verbose = 1; break;
		/* telemetry (src/telemetry): its rows checked the values */
		case O_EVENTS: topts.events = it->arg; break;
		case O_INTERVAL:
			topts.interval = it->d;
			if (it->d == 0)
				topts.off = true;
			else
				o.interval = it->d;
			break;
		case O_SENSOR: topts.sensor = it->arg; break;
		case O_COOLDOWN: topts.cooldown = true; break;
		case O_NO_TELEMETRY: topts.off = true; break;
		/* the thermal check (src/thermal.h) */
		case O_THERMAL_MINUTES: o.thermal_seconds = it->d * 60; break;
		case O_THERMAL_TEST: thermal_test = it->arg; break;
		case O_IDLE: o.idle = it->d; break;
		case O_THERMAL_COPIES:
			o.copies[0] = (int)it->i;
			o.ncopies = 1;
			break;
		default: break;
		}
	}
	int nops = op.noperands;
	char **ops = op.operand;
	op.operand = NULL;
	opts_free(&op);
	int urc = -1;
	if (thermal && nops > 0)
		urc = usage_error("kbench thermal takes no operands ('%s'): --test ID names its test", ops[0]);
	if (thermal && urc < 0) {
		if (o.thermal_seconds <= 0)
			o.thermal_seconds = THERMAL_MINUTES * 60;
		if (o.idle < 0)
			o.idle = THERMAL_IDLE_SECONDS;
		add_tests(&o, thermal_test); /* the row checked it */
		if (o.ncopies == 0)
			o.copies[o.ncopies++] = sysinfo_ncpus();
	}
	/* Stopped between two of calibrate's runs: no new one. */
	if (got_signal)
		urc = 128 + got_signal;
	for (int i = 0; i < nops && urc < 0; i++)
		if (add_tests(&o, ops[i]) != 0)
			urc = usage_error("unknown test or group '%s' (try 'kbench list')", ops[i]);
	free(ops);
	if (urc >= 0)
		return urc;
	if (o.ntests == 0)
		add_tests(&o, "index");
	if (!o.quick && (o.precision > 0 || o.max_test_seconds > 0))
		return usage_error("--precision and --max-test-seconds go with --quick");
	char perr[200];
	if (opts_params_check(params, perr, sizeof perr) < 0)
		return usage_error("%s", perr);
	/* tests that run their own tasks only (scaling) or use the CPUs themselves
	 * (kbuild: make -j) need no block of more copies */
	bool own_tasks = true;
	for (int i = 0; i < o.ntests; i++)
		own_tasks = own_tasks && o.tests[i]->one_copy;
	if (o.ncopies == 0) {
		o.copies[o.ncopies++] = 1;
		if (sysinfo_ncpus() > 1 && !own_tasks)
			o.copies[o.ncopies++] = sysinfo_ncpus();
	}

	if (params[0])
		o.params = params;
	char err[512];
	struct runner *r = runner_new(&o, err, sizeof err);
	if (!r)
		return runtime_error("%s", err);

	struct run *run = runner_new_run(&o);
	if (name)
		snprintf(run->meta.name, sizeof run->meta.name, "%s", name);

	struct progress p = { .verbose = verbose, .quiet = quiet, .tty = isatty(STDERR_FILENO),
			      .runner = r, .thermal = thermal };
	struct runner_listener l = { .on_event = on_event, .ctx = &p, .wake_fd = -1 };
	runner_listen(r, &l);

	/* Telemetry (src/telemetry): preflight notes, the sampler, -v lines, the thermal summary. */
	struct telemetry *tele = NULL;
	if (!topts.off) {
		preflight_check(run, quiet ? NULL : stderr);
		bool tusage;
		if (!(tele = telemetry_new(&topts, &tusage, err, sizeof err))) {
			runner_free(r);
			run_free(run);
			return tusage ? usage_error("%s", err) : runtime_error("%s", err);
		}
		struct runner_listener tl = telemetry_listener(tele);
		runner_listen(r, &tl);
		if (verbose && !quiet) {
			struct runner_listener vl = telemetry_verbose_listener(stderr);
			runner_listen(r, &vl);
		}
	}

	/* A run whose length follows its parameters (kbuild, buildload: the
	 * tree, the -j list, the loads) says how long before it starts. */
	for (int i = 0; i < o.ntests && !quiet; i++)
		if (o.tests[i]->sample_seconds)
			fprintf(stderr, "estimate: %s about %.0f min on a quiet machine\n", o.tests[i]->id,
				runner_blocks_for(&o, o.tests[i]) * runner_estimate_test(&o, o.tests[i]) / 60);

	active_runner = r;
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	/* A reader gone (`kbench run | tee` when ssh drops) must not kill the run
	 * before it saves: writes fail with EPIPE instead. Workers reset SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);

	int rc = runner_run(r, run);
	active_runner = NULL;
	if (p.line_open)
		fputc('\n', stderr);

	if (report) {
		report_print(stdout, run);
		if (thermal)
			thermal_print(stdout, run);
		else if (tele)
			telemetry_print_summary(stdout, run);
		fflush(stdout);
	}

	/* The report is on stdout before the save: a full disk loses no numbers. */
	int save_failed = 0;
	char serr[512];
	if (save && !store_worth_saving(run, serr, sizeof serr)) {
		if (!quiet)
			fprintf(stderr, "not saved: %s\n", serr);
	} else if (save) {
		if (store_save(run, serr, sizeof serr) != 0) {
			runtime_error("could not save the run: %s", serr);
			save_failed = 1;
		} else {
			if (!quiet)
				fprintf(stderr, "saved as %s (%s)%s in %s\n", run->meta.id, run->meta.name,
					run->incomplete ? ", marked incomplete," : "", store_dir());
			if (id)
				snprintf(id, idlen, "%s", run->meta.id);
		}
	}

	int failed = save_failed;
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

int cmd_thermal(int argc, char **argv)
{
	return run_cli(argc, argv, "thermal", true, NULL, 0);
}

int cmd_run_stored(int argc, char **argv, char *id, size_t idlen)
{
	if (idlen)
		id[0] = '\0';
	return run_cli(argc, argv, "run", false, id, idlen);
}
