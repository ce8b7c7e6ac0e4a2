/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench plan`: an A/B plan across boots, from its design (new) through its steps, one a boot, to its report. */
#include "commands.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bootcfg.h"
#include "compare.h"
#include "noise.h"
#include "options.h"
#include "plan.h"
#include "plan_machine.h"
#include "plan_report.h"
#include "plan_stats.h"
#include "plan_step.h"
#include "request.h"
#include "run.h"
#include "runner.h"
#include "store.h"
#include "telemetry/sysroot.h"
#include "tests.h"

extern const struct opt_command cmd_plan_entry;

/* kbench plan's own options, where their rows land (its runs' options land in the request). */
struct plan_args {
	const char *kernels, *until, *order, *format, *output;
	int boots, runs, seed;
	double settle, confidence; /* confidence: percent, 0 when not asked */
	bool reboot, full;
};

static int check_order(const char *opt, const char *arg, char *err, size_t errlen)
{
	return opts_one_of("balanced random", opt, arg, err, errlen);
}

static int check_format(const char *opt, const char *arg, char *err, size_t errlen)
{
	return opts_one_of("text markdown html json", opt, arg, err, errlen);
}

static const struct opt_def plan_rows[] = {
	{ .name = "kernels", .kind = OK_STRING,
	  .arg = "A,B", .what = "two kernels",
	  .help = "plan new: the two kernels, as uname -r prints their releases, or boot menu entries",
	  OPT_OWN(struct plan_args, kernels) },
	{ .name = "boots", .kind = OK_INT,
	  .arg = "N", .what = "a number of boots", .min = 1, .max = PLAN_MAX_BOOTS,
	  .help = "plan new: boots a kernel (default 3; with --until, the most it may take, default 10)",
	  OPT_OWN(struct plan_args, boots) },
	{ .name = "until", .kind = OK_STRING,
	  .arg = "X%", .what = "a resolution",
	  .help = "plan new: after each boot, stop once every index verdict is settled at +-X%\n"
		  "(a change found, or none larger than X% either way)",
	  OPT_OWN(struct plan_args, until) },
	{ .name = "runs-per-boot", .kind = OK_INT,
	  .arg = "K", .what = "a number of runs", .min = 1, .max = PLAN_MAX_RUNS, .def = "1",
	  .help = "plan new: runs in each boot (default 1)",
	  OPT_OWN(struct plan_args, runs) },
	{ .name = "order", .kind = OK_STRING,
	  .arg = "ORDER", .what = "an order", .def = "balanced",
	  .help = "plan new: balanced (A B B A A B ...) or random (each pair's order a coin's)",
	  .choices = "balanced random", .check = check_order, OPT_OWN(struct plan_args, order) },
	{ .name = "seed", .kind = OK_INT,
	  .arg = "S", .what = "a seed", .min = 1, .max = 999999,
	  .help = "plan new: the random order's seed (default: from the clock)",
	  OPT_OWN(struct plan_args, seed) },
	{ .name = "full", .kind = OK_FLAG,
	  .help = "plan new: full-length runs (default: quick, unless -i, --samples or --duration)",
	  OPT_OWN(struct plan_args, full) },
	{ .name = "confidence", .kind = OK_DOUBLE,
	  .arg = "P", .what = "a confidence in percent", .min = PLAN_CONF_MIN_PCT, .max = PLAN_CONF_MAX_PCT,
	  .help = "plan new: the intervals' confidence, in percent (default 95); report, status: another for\n"
		  "this answer (99.9: a change is called falsely once in a thousand, and wider intervals)",
	  OPT_OWN(struct plan_args, confidence) },
	{ .name = "reboot", .kind = OK_FLAG,
	  .help = "plan step: then choose the next kernel once with the boot loader, and reboot",
	  OPT_OWN(struct plan_args, reboot) },
	{ .name = "settle", .kind = OK_DOUBLE,
	  .arg = "S", .what = "seconds", .min = 0, .max = 3600, .def = "300",
	  .help = "plan step: wait at most S seconds for the machine to settle after boot",
	  OPT_OWN(struct plan_args, settle) },
	{ .name = "format", .kind = OK_STRING,
	  .arg = "FMT", .what = "a format", .def = "text",
	  .help = "plan report: text, markdown (a forum table), html (with -o) or json",
	  .choices = "text markdown html json", .check = check_format, OPT_OWN(struct plan_args, format) },
	{ .name = "output", .short_name = 'o', .kind = OK_STRING,
	  .arg = "FILE", .what = "a file",
	  .help = "plan report: write to FILE (replaced whole; html needs it)",
	  OPT_OWN(struct plan_args, output) },
	{ .name = NULL },
};

static const char *const subcommands[] = { "new", "status", "step", "install", "uninstall", "report", "list", "delete", NULL };

/* The plan's request: its stored words parsed as plan new parses them, tests after. */
static int request_of(int argc, char **argv, struct run_request *rq, struct plan_args *a, bool quiet, char *err,
		      size_t errlen)
{
	struct opt_parsed p;
	int rc = opts_parse(&cmd_plan_entry, argc, argv, &p);
	if (rc >= 0) {
		snprintf(err, errlen, "the plan's run options are refused");
		return -1;
	}
	run_request_init(rq);
	memset(a, 0, sizeof *a);
	opts_defaults(&cmd_plan_entry, a);
	rc = opts_apply(&p, rq, a, err, errlen);
	for (int i = 0; i < p.noperands && rc == 0; i++)
		if (run_request_add(rq, p.operand[i]) != 0) {
			snprintf(err, errlen, "unknown test or group '%s' (try 'kbench list')", p.operand[i]);
			rc = -1;
		}
	opts_free(&p);
	if (rc < 0)
		return -1;
	/* quick runs and one copy, unless asked otherwise, as calibrate's */
	if (!rq->run.quick)
		rq->run.quick = !a->full && !rq->run.iterations && !rq->run.duration && !rq->run.samples;
	if (rq->run.ncopies == 0)
		rq->run.copies[rq->run.ncopies++] = 1;
	rq->quiet = quiet;
	rq->tele.log = stderr;
	return run_request_complete(rq, NULL, err, errlen);
}

/* The words plan new was given that its runs take: every option that lands in the run
 * request, as --name=value, and the tests. */
static int run_words(const struct opt_parsed *p, int first_test, char **words, int max)
{
	int n = 0;
	for (int i = 0; i < p->n && n < max; i++) {
		const struct opt_def *d = p->item[i].def;
		/* what lands in the request, and --full, which decides its mode */
		if (d->lands != OL_REQUEST && !d->param && strcmp(d->name, "full"))
			continue;
		char w[1200];
		if (p->item[i].arg)
			snprintf(w, sizeof w, "--%s=%s", d->name, p->item[i].arg);
		else
			snprintf(w, sizeof w, "--%s", d->name);
		if (!(words[n++] = strdup(w)))
			abort();
	}
	for (int i = first_test; i < p->noperands && n < max; i++)
		if (!(words[n++] = strdup(p->operand[i])))
			abort();
	return n;
}

static int plan_request(const struct plan *p, struct run_request *rq, struct plan_args *a, char *err, size_t errlen)
{
	char *argv[PLAN_MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = "plan";
	for (int i = 0; i < p->nargs; i++)
		argv[argc++] = p->args[i];
	argv[argc] = NULL;
	return request_of(argc, argv, rq, a, false, err, errlen);
}

/* A run record with the request's settings, for the floors the store learned for them. */
static struct run *like_of(const struct run_request *rq)
{
	struct run *r = run_new();
	r->meta.mode = rq->run.quick ? &run_mode_quick : &run_mode_full;
	r->meta.duration_override = rq->run.duration;
	r->meta.iterations = rq->run.iterations;
	return r;
}

/* What the design can resolve before any run: the index's, and the tests' median. */
static void promise(struct plan *p, struct run_request *rq, FILE *f)
{
	struct noise_table nt;
	char err[512];
	bool have = noise_learn_store(&nt, NULL, 0, err, sizeof err) == 0;
	struct run *like = like_of(rq);
	double conf = p->until > 0 ? pstat_look_conf(p->boots, p->boots, p->alpha) : 1 - p->alpha;
	const struct noise_floor *ix = noise_get(have ? &nt : NULL, NOISE_INDEX_ID, like);
	struct pstat_prior pr = { .within = noise_sigma(ix), .between = noise_sigma(ix), .df = noise_dof(ix),
				  .calibrated = ix->df > 0 };
	/* between boots: what earlier plans of these settings taught, else as much as within */
	struct plan_between pb;
	char setting[64];
	noise_setting(like, setting, sizeof setting);
	bool have_pb = plan_between_learn(&pb, NULL, err, sizeof err) == 0, between = false;
	double bdf, sb = have_pb ? plan_between_get(&pb, NOISE_INDEX_ID, rq->run.copies[0], setting, &bdf) : -1;
	if (sb >= 0) {
		pr.between = sb;
		between = true;
	}
	p->promise = pstat_resolution(&pr, p->boots, p->runs_per_boot, conf, 0.9);
	p->promise_calibrated = pr.calibrated;
	double res[64];
	int n = 0;
	const struct runner_opts *o = run_request_opts(rq);
	for (int i = 0; i < o->ntests && n < 64; i++) {
		const struct noise_floor *tf = noise_get(have ? &nt : NULL, o->tests[i]->id, like);
		struct pstat_prior tp = { .within = noise_sigma(tf), .between = noise_sigma(tf), .df = noise_dof(tf) };
		res[n++] = pstat_resolution(&tp, p->boots, p->runs_per_boot, conf, 0.9);
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && res[j] < res[j - 1]; j--) {
			double t = res[j];
			res[j] = res[j - 1];
			res[j - 1] = t;
		}
	p->minutes = runner_estimate(o) / 60 * p->boots * p->runs_per_boot;
	char mins[48];
	if (p->minutes < 1)
		snprintf(mins, sizeof mins, "under a minute");
	else
		snprintf(mins, sizeof mins, "about %.0f minute%s", p->minutes, p->minutes < 1.5 ? "" : "s");
	fprintf(f, "Before any run: %d boot%s x %d run%s a kernel, %s of runs a kernel: a change of %.1f%% in the index",
		p->boots, p->boots == 1 ? "" : "s", p->runs_per_boot, p->runs_per_boot == 1 ? "" : "s", mins,
		pstat_pct(p->promise));
	if (n)
		fprintf(f, " (%.1f%% a test, the median of %d)", pstat_pct(res[n / 2]), n);
	fprintf(f, " would be found 9 times in 10%s.\n", p->until > 0 ? " by the last boot" : "");
	fprintf(f, "(%s; between boots %s.)\n",
		pr.calibrated ? "From the noise learned on this machine for these settings"
			      : "From default noise, not calibrated: 'kbench calibrate' with these settings sharpens it",
		between ? "as earlier plans taught it" : "as much again: not calibrated");
	if (have_pb)
		plan_between_free(&pb);
	run_free(like);
	if (have)
		noise_free(&nt);
}

/* The boot menu's entry for each kernel (the release an entry boots, and its image). */
static void find_entries(struct plan *p, FILE *f)
{
	struct boot_menu m;
	char err[512];
	if (bootcfg_read(&m, sysroot(), err, sizeof err) < 0) {
		fprintf(f, "Boot menu: %s; boot the kernels by hand (plan step --reboot and plan install need it).\n", err);
		return;
	}
	for (int s = 0; s < 2; s++) {
		const struct boot_entry *e = bootcfg_find(&m, p->kernel[s], err, sizeof err);
		if (!e) {
			fprintf(f, "%c: %s: boot it by hand.\n", s ? 'B' : 'A', err);
			continue;
		}
		snprintf(p->entry[s], sizeof p->entry[s], "%s", e->id);
		snprintf(p->image[s], sizeof p->image[s], "%s", e->kernel);
		if (e->release[0] && strcmp(e->release, p->kernel[s]))
			snprintf(p->release[s], sizeof p->release[s], "%s", e->release);
		else if (!strcmp(e->release, p->kernel[s]))
			snprintf(p->release[s], sizeof p->release[s], "%s", e->release);
		fprintf(f, "%c: %s's entry '%s'%s\n", s ? 'B' : 'A', bootcfg_loader_name(m.loader), e->title,
			e->recovery ? " (a recovery entry: no other boots it)" : "");
	}
	bootcfg_free(&m);
}

/* The newest plan that has not ended, else the newest; NULL with err filled. */
static int pick(const char *name, struct plan *p, char *err, size_t errlen)
{
	if (name)
		return plan_load(name, p, err, errlen);
	char **names;
	int n = plan_list(&names, err, errlen);
	if (n < 0)
		return -1;
	int rc = -1;
	for (int pass = 0; pass < 2 && rc < 0; pass++)
		for (int i = 0; i < n && rc < 0; i++) {
			char e2[512];
			if (plan_load(names[i], p, e2, sizeof e2) < 0)
				continue;
			if (pass == 1 || !p->ended[0])
				rc = 0;
			else
				plan_free(p);
		}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc < 0)
		snprintf(err, errlen, n ? "no plan could be read ('kbench plan list')" : "no plan yet: 'kbench plan new NAME --kernels A,B' makes one");
	return rc;
}

/* --confidence, where given: the plan's intervals' (plan new stores it; report and status
 * answer at it this once). */
static void ask_confidence(struct plan *p, const struct plan_args *a)
{
	if (a->confidence > 0)
		p->alpha = 1 - a->confidence / 100;
}

static int cmd_new(struct opt_parsed *o, struct plan_args *a)
{
	if (o->noperands < 2)
		return usage_error("usage: kbench plan new NAME --kernels A,B [--boots N | --until X%%] [run options] [TEST ...]");
	const char *name = o->operand[1];
	if (!a->kernels || !strchr(a->kernels, ','))
		return usage_error("plan new needs --kernels A,B (two kernel releases or boot menu entries)");
	char ka[256], kb[256];
	snprintf(ka, sizeof ka, "%.*s", (int)(strchr(a->kernels, ',') - a->kernels), a->kernels);
	snprintf(kb, sizeof kb, "%s", strchr(a->kernels, ',') + 1);
	double until = 0;
	if (a->until) {
		const char *u = a->until;
		if (!strncmp(u, "\xc2\xb1", 2))
			u += 2; /* ± */
		else if (!strncmp(u, "+-", 2))
			u += 2;
		char *end;
		double x = strtod(u, &end);
		if (*end == '%')
			end++;
		if (*end || !(x >= 0.1 && x <= 50))
			return usage_error("--until takes a resolution in percent from 0.1 to 50 (2, 2%%, +-2%%), not '%s'", a->until);
		until = pstat_log(x);
	}
	int boots = a->boots ? a->boots : until > 0 ? PLAN_UNTIL_BOOTS : 3;
	char *words[PLAN_MAX_ARGS];
	int nw = run_words(o, 2, words, PLAN_MAX_ARGS);
	char err[512];
	struct plan p;
	unsigned seed = a->seed ? (unsigned)a->seed : (unsigned)time(NULL);
	int rc = plan_init(&p, name, ka, kb, boots, a->runs, until, !strcmp(a->order, "random") ? PLAN_ORDER_RANDOM : PLAN_ORDER_BALANCED,
			   seed, nw, words, err, sizeof err);
	for (int i = 0; i < nw; i++)
		free(words[i]);
	if (rc < 0)
		return usage_error("%s", err);
	ask_confidence(&p, a);
	struct plan old;
	if (plan_load(name, &old, err, sizeof err) == 0) {
		plan_free(&old);
		plan_free(&p);
		return usage_error("a plan '%s' exists ('kbench plan delete %s' removes its record, its runs stay)", name, name);
	}
	/* its runs' options, checked now as a step will read them */
	struct run_request rq;
	struct plan_args pa;
	if (plan_request(&p, &rq, &pa, err, sizeof err) < 0) {
		plan_free(&p);
		return usage_error("%s", err);
	}
	printf("Plan %s: A %s, B %s\n", p.name, p.kernel[0], p.kernel[1]);
	find_entries(&p, stdout);
	/* start with the kernel running now: a boot saved */
	struct plan_this_boot tb;
	if (plan_this_boot(&tb, err, sizeof err) == 0 && plan_side_of(&p, tb.release, tb.cmdline) == 'B')
		for (char *c = p.schedule; *c; c++)
			*c = *c == 'A' ? 'B' : 'A';
	printf("Order of boots: %s%s\n", p.schedule, p.until > 0 ? " (at most; it stops when settled)" : "");
	promise(&p, &rq, stdout);
	if (plan_save(&p, err, sizeof err) < 0) {
		plan_free(&p);
		return runtime_error("%s", err);
	}
	char next[300];
	plan_next_words(&p, next, sizeof next);
	printf("Next: boot %s, then 'kbench plan step %s' (or 'kbench plan step %s --reboot' boots it for you;\n"
	       "'sudo kbench plan install %s' steps at every boot until the plan ends).\n",
	       next, p.name, p.name, p.name);
	plan_free(&p);
	return 0;
}

static void print_status(const struct plan *p)
{
	printf("Plan %s: A %s, B %s; %d boots x %d run%s a kernel%s\n", p->name, p->kernel[0], p->kernel[1], p->boots,
	       p->runs_per_boot, p->runs_per_boot == 1 ? "" : "s",
	       p->until > 0 ? "" : "");
	if (p->until > 0)
		printf("Until settled at +-%.1f%% (at most %d boots a kernel)\n", pstat_pct(p->until), p->boots);
	printf("Order: %s; %d of %d boots done (A %d, B %d)%s%s\n", p->schedule, plan_done(p, 'A') + plan_done(p, 'B'),
	       2 * p->boots, plan_done(p, 'A'), plan_done(p, 'B'), p->ended[0] ? "; ended: " : "", p->ended);
	for (int i = 0; i < p->nboots; i++) {
		const struct plan_boot *b = &p->boot[i];
		char date[32] = "?";
		struct tm tm;
		time_t t = b->started;
		if (t > 0 && localtime_r(&t, &tm))
			strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm);
		printf("  boot %2d  %c  %-24.24s %s  %d/%d run%s  %s%s%s\n", b->slot + 1, b->side, b->release, date, b->nruns,
		       p->runs_per_boot, p->runs_per_boot == 1 ? "" : "s",
		       b->state == PLAN_BOOT_DONE ? "done" : b->state == PLAN_BOOT_ABANDONED ? "abandoned (rebooted before its runs were done)" : "running",
		       b->note[0] ? "; " : "", b->note);
	}
	struct plan_result r;
	char err[512];
	if (plan_analyze(p, &r, err, sizeof err) == 0) {
		for (int i = 0; i < r.nrows; i++)
			if (!strcmp(r.rows[i].id, "index") || !strcmp(r.rows[i].id, "boot:total")) {
				char w[200];
				plan_row_words(w, sizeof w, &r.rows[i]);
				printf("%s (%d cop%s)%s: %s\n", r.rows[i].label, r.rows[i].copies, r.rows[i].copies == 1 ? "y" : "ies",
				       r.complete ? "" : " so far", w);
				if (r.rows[i].pace.ok) {
					char pw[320];
					plan_row_pace_words(pw, sizeof pw, &r.rows[i]);
					printf("  at the same pace: %s\n", pw);
				}
			}
		plan_result_free(&r);
	} else {
		printf("The answer so far: %s\n", err);
	}
	char next[300];
	plan_next_words(p, next, sizeof next);
	if (next[0])
		printf("Next: boot %s, then 'kbench plan step %s'%s\n", next, p->name,
		       p->installed ? " (plan install's unit does it at boot)" : "");
}

/* kbench plan step's face: its runs' progress as calibrate's. */
static void on_begin(void *ctx, int k, int n)
{
	fprintf(stderr, "kbench: plan run %d of %d\n", k, n);
}

static int cmd_step(const char *name, const struct plan_args *a)
{
	struct plan p;
	char err[512];
	if (pick(name, &p, err, sizeof err) < 0)
		return runtime_error("%s", err);
	static struct run_request rq;
	struct plan_args pa;
	if (plan_request(&p, &rq, &pa, err, sizeof err) < 0) {
		plan_free(&p);
		return usage_error("plan %s: %s", p.name, err);
	}
	struct plan_step_face f = { .seq = cli_sequence_face(&rq, on_begin), .out = stderr };
	struct plan_step_opts so = { .settle = a->settle, .reboot = a->reboot };
	struct plan_step_result res;
	int rc = plan_step(&p, &rq, &so, &f, &res);
	printf("plan %s: %s\n", p.name, res.line);
	if (res.ended)
		printf("The plan has ended (%s): 'kbench plan report %s' gives the answer.\n", p.ended, p.name);
	else if (res.next[0] && !res.rebooting)
		printf("Next: boot %s, then 'kbench plan step %s'.\n", res.next, p.name);
	plan_free(&p);
	return cli_signal() ? 128 + cli_signal() : rc;
}

static int plan_report_cmd(const char *name, const struct plan_args *a)
{
	struct plan p;
	char err[512];
	if (pick(name, &p, err, sizeof err) < 0)
		return runtime_error("%s", err);
	ask_confidence(&p, a);
	struct plan_result r;
	if (plan_analyze(&p, &r, err, sizeof err) < 0) {
		plan_free(&p);
		return runtime_error("%s", err);
	}
	int rc = 0;
	if (!strcmp(a->format, "html")) {
		if (!a->output)
			rc = usage_error("plan report --format html needs -o FILE.html");
		else if (plan_save_html(a->output, &p, &r, err, sizeof err) < 0)
			rc = runtime_error("%s", err);
		else
			printf("wrote %s\n", a->output);
	} else {
		FILE *f = a->output ? fopen(a->output, "w") : stdout;
		bool known;
		int width = terminal_width(&known);
		if (!f)
			rc = runtime_error("cannot write %s", a->output);
		else if (plan_print(f, &p, &r, a->format, width, err, sizeof err) < 0)
			rc = runtime_error("%s", err);
		if (f && f != stdout && fclose(f) != 0)
			rc = runtime_error("cannot write %s", a->output);
	}
	plan_result_free(&r);
	plan_free(&p);
	return rc;
}

static int plan_list_cmd(void)
{
	char **names, err[512];
	int n = plan_list(&names, err, sizeof err);
	if (n < 0)
		return runtime_error("%s", err);
	if (!n)
		printf("No plans yet: 'kbench plan new NAME --kernels A,B' makes one.\n");
	for (int i = 0; i < n; i++) {
		struct plan p;
		if (plan_load(names[i], &p, err, sizeof err) < 0)
			printf("%-20s %s\n", names[i], err);
		else {
			printf("%-20s A %-20s B %-20s %2d/%-2d boots  %s\n", p.name, p.kernel[0], p.kernel[1],
			       plan_done(&p, 'A') + plan_done(&p, 'B'), 2 * p.boots, p.ended[0] ? p.ended : "going on");
			plan_free(&p);
		}
		free(names[i]);
	}
	free(names);
	return 0;
}

/* status, install, uninstall, delete: of one plan, loaded. */
static int cmd_other(const char *sub, struct plan *p)
{
	char err[512];
	if (!strcmp(sub, "status")) {
		print_status(p);
		return 0;
	}
	if (!strcmp(sub, "install")) {
		if (plan_unit_install(p, err, sizeof err) < 0)
			return runtime_error("%s", err);
		p->installed = true;
		if (plan_save(p, err, sizeof err) < 0)
			return runtime_error("%s", err);
		char unit[128], next[300];
		plan_unit_name(p->name, unit, sizeof unit);
		plan_next_words(p, next, sizeof next);
		printf("Installed %s: each boot runs the next step of plan %s, then boots the next kernel, until the "
		       "plan ends.\nNow: 'kbench plan step %s --reboot' (the next is %s), or reboot into it.\n",
		       unit, p->name, p->name, next);
		return 0;
	}
	if (!strcmp(sub, "uninstall")) {
		if (plan_unit_remove(p->name, err, sizeof err) < 0)
			return runtime_error("%s", err);
		p->installed = false;
		if (plan_save(p, err, sizeof err) < 0)
			return runtime_error("%s", err);
		printf("Plan %s steps only by hand now; the machine boots its default kernel.\n", p->name);
		return 0;
	}
	/* delete */
	if (p->installed && plan_unit_remove(p->name, err, sizeof err) < 0)
		return runtime_error("%s", err);
	if (plan_remove(p->name, err, sizeof err) < 0)
		return runtime_error("%s", err);
	printf("Plan %s's record removed; its runs stay in the store.\n", p->name);
	return 0;
}

int cli_plan_request(const struct plan *p, struct run_request *rq, char *err, size_t errlen)
{
	struct plan_args a;
	return plan_request(p, rq, &a, err, errlen);
}

static int plan_exec(int argc, char **argv)
{
	struct opt_parsed o;
	struct plan_args a = { NULL };
	static struct run_request rq;
	run_request_init(&rq);
	opts_defaults(&cmd_plan_entry, &a);
	int rc = opts_take(&cmd_plan_entry, argc, argv, &o, &rq, &a);
	if (rc >= 0)
		return rc;
	char err[512];
	const char *sub = "status", *name = NULL;
	int k = 0;
	if (o.noperands) {
		for (int i = 0; subcommands[i]; i++)
			if (!strcmp(o.operand[0], subcommands[i]))
				sub = subcommands[i];
		if (!strcmp(sub, "status") && strcmp(o.operand[0], "status"))
			name = o.operand[0]; /* kbench plan NAME */
		else
			k = 1;
	}
	if (!name && strcmp(sub, "new") && o.noperands > k)
		name = o.operand[k++];
	if (strcmp(sub, "new") && o.noperands > k) {
		rc = usage_error("plan %s takes one plan name, not '%s'", sub, o.operand[k]);
	} else if (!strcmp(sub, "new")) {
		rc = cmd_new(&o, &a);
	} else if (!strcmp(sub, "step")) {
		rc = cmd_step(name, &a);
	} else if (!strcmp(sub, "report")) {
		rc = plan_report_cmd(name, &a);
	} else if (!strcmp(sub, "list")) {
		rc = plan_list_cmd();
	} else {
		struct plan p;
		if (pick(name, &p, err, sizeof err) < 0) {
			rc = runtime_error("%s", err);
		} else {
			if (!strcmp(sub, "status"))
				ask_confidence(&p, &a);
			rc = cmd_other(sub, &p);
			plan_free(&p);
		}
	}
	opts_free(&o);
	return rc;
}

const struct opt_command cmd_plan_entry = {
	.name = "plan", .bit = OC_PLAN, .args = "[new|step|report|install|...] [NAME] [options]",
	.about = "is my kernel faster? an A/B plan across reboots, to a settled answer",
	.text = "Two kernels need two boots, and the noise between boots is not the noise inside one: a plan\n"
		"boots each kernel N times in a balanced order (A B B A ...), makes K runs in each boot, and\n"
		"answers from the boots: 'B is 3.1% faster (1.2% to 5.0%)' or 'no change larger than 1.5%\n"
		"either way'. new says before any run what the design can resolve; step (after each boot, or\n"
		"at boot from install's systemd unit) records this boot and its time, makes its runs and\n"
		"names the next kernel (--reboot chooses it once with the boot loader and reboots); status,\n"
		"the default, shows the progress and the answer so far; report the whole table.\n"
		"Subcommands: new NAME --kernels A,B [run options] [TEST ...]; step, status, report,\n"
		"install, uninstall, delete [NAME] (default: the newest plan going on); list.",
	.after = "The runs take kbench run's options (quick runs at 1 copy unless asked otherwise); TEST is a\n"
		 "test or group as kbench list names them (default: the index).",
	.operand = "tests", .options = plan_rows, .exec = plan_exec,
};
