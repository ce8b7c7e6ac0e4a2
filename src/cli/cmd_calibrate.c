/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench calibrate`: runs the same tests several times on this kernel and shows the noise floors they teach. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "options.h"
#include "request.h"
#include "run.h"
#include "sequence.h"
#include "store.h"
#include "telemetry/others.h"

#define CALIBRATE_NAME "calibration"
#define CALIBRATE_RUNS_DEF "5" /* CALIBRATE_RUNS as typed (test_options checks they agree) */

extern const struct opt_command cmd_calibrate_entry;

/* The learned floors for the calibration's setting, and what was left out. */
static void report(const char *first_id, char ids[][16], int nids)
{
	char err[512];
	struct run *like = first_id[0] ? store_load(first_id, err, sizeof err) : NULL;
	if (!like) {
		fprintf(stderr, "kbench: %s\n", err);
		return;
	}
	struct noise_table nt;
	if (noise_learn_store(&nt, NULL, 0, err, sizeof err) < 0) {
		fprintf(stderr, "kbench: %s\n", err);
		run_free(like);
		return;
	}
	/* The tests the calibration ran, then the index. */
	const char *list[80];
	int n = 0;
	for (int b = 0; b < like->nblocks; b++)
		for (int i = 0; i < like->blocks[b].ntests && n < 78; i++) {
			bool seen = false;
			for (int k = 0; k < n && !seen; k++)
				seen = !strcmp(list[k], like->blocks[b].tests[i].id);
			if (!seen)
				list[n++] = like->blocks[b].tests[i].id;
		}
	list[n++] = NOISE_INDEX_ID;
	list[n] = NULL;
	char setting[64];
	noise_setting(like, setting, sizeof setting);
	const struct noise_floor *ix = noise_get(&nt, NOISE_INDEX_ID, like);
	printf("\nNoise floors for %s runs of %s on %s (sd of one run's score; LEARNED from %d\n"
	       "stored runs of this kernel and settings, FLOOR what compare now uses):\n\n",
	       setting, like->meta.kernel_release, like->meta.hostname, ix->runs);
	noise_print(stdout, &nt, like, list);
	/* A test the machine was busy for taught nothing (noise_learn leaves it out). */
	for (int i = 0; i < nids; i++) {
		struct run *r = store_load(ids[i], err, sizeof err);
		if (!r)
			continue;
		int busy = 0;
		for (int b = 0; b < r->nblocks; b++)
			for (int t = 0; t < r->blocks[b].ntests; t++) {
				const struct kv *o = test_summary_get(&r->blocks[b].tests[t], "others.cpu");
				busy += o && o->has_value && o->value >= OTHERS_BUSY_CPU;
			}
		if (busy)
			printf("\nrun %s: other processes used the CPUs during %d test%s; left out of the "
			       "learning (calibrate again on an idle machine for more)\n",
			       r->meta.id, busy, busy == 1 ? "" : "s");
		run_free(r);
	}
	printf("\n'kbench compare' uses these for %s runs from now on ('kbench noise' shows them).\n",
	       setting);
	noise_free(&nt);
	run_free(like);
}

/* The calibration under way: whether its count is a most (--minutes: as many as fit). */
static bool timed;

static void on_begin(void *ctx, int k, int n)
{
	fprintf(stderr, "kbench: calibration run %d of %d%s\n", k, n, timed ? " at most (as many as fit the time)" : "");
}

/* kbench calibrate's own options (the run options land in the request). */
struct calibrate_opts {
	bool full;      /* --full */
	int runs;       /* -n; 0: the default */
	double minutes; /* --minutes; 0: none */
};

static const struct opt_def calibrate_rows[] = {
	{ .name = "full", .kind = OK_FLAG,
	  .help = "full-length runs, UnixBench's samples (about half an hour each)",
	  OPT_OWN(struct calibrate_opts, full) },
	{ .name = "runs", .short_name = 'n', .kind = OK_INT,
	  .arg = "N", .what = "a number of runs",
	  .min = 2, .max = SEQUENCE_MAX, .def = CALIBRATE_RUNS_DEF,
	  .help = "how many runs (default 5; at least 2)",
	  OPT_OWN(struct calibrate_opts, runs) },
	{ .name = "minutes", .kind = OK_DOUBLE,
	  .arg = "M", .what = "a number of minutes",
	  .min = 1, .max = 100000,
	  .help = "as many runs as fit in M minutes (at least 2, at most -n or 50)",
	  OPT_OWN(struct calibrate_opts, minutes) },
	{ .name = NULL },
};

static int calibrate_exec(int argc, char **argv)
{
	struct opt_parsed o;
	static struct run_request rq;
	run_request_init(&rq);
	rq.tele.log = stderr;
	struct calibrate_opts c = { 0 };
	int rc = opts_take(&cmd_calibrate_entry, argc, argv, &o, &rq, &c);
	if (rc < 0)
		rc = cli_add_tests(&rq, o.operand, o.noperands);
	opts_free(&o);
	if (rc >= 0)
		return rc;
	char err[512];
	/* Quick runs unless asked for full-length ones (--full, or samples of a length or count). */
	if (!rq.run.quick)
		rq.run.quick = !c.full && !rq.run.iterations && !rq.run.duration && !rq.run.samples;
	/* One copy by default: the floor is a test's, pooled over copy counts,
	 * and a calibration that takes twice as long is one fewer people do. */
	if (rq.run.ncopies == 0)
		rq.run.copies[rq.run.ncopies++] = 1;
	if (run_request_complete(&rq, NULL, err, sizeof err) < 0)
		return usage_error("%s", err);

	struct run_sequence seq = { .name = CALIBRATE_NAME, .purpose = "calibration",
				    .runs = c.runs ? c.runs : c.minutes > 0 ? SEQUENCE_MAX : CALIBRATE_RUNS,
				    .minutes = c.minutes };
	timed = c.minutes > 0;
	struct sequence_face f = cli_sequence_face(&rq, on_begin);
	struct sequence_result res;
	if (sequence_run(&seq, &rq, &f, &res) < 0)
		return runtime_error("%s", res.why);
	rc = res.end == SEQ_USAGE ? 2 : cli_signal() ? 128 + cli_signal() : res.end == SEQ_DONE || res.end == SEQ_TIME ? 0 : 1;
	int done = res.stored;
	if (done >= 2)
		report(res.ids[0], res.ids, done);
	else if (rc == 0)
		fprintf(stderr, "kbench: %d calibration run%s stored: at least 2 are needed to learn anything\n",
			done, done == 1 ? "" : "s");
	if (rc == 0 && done >= 2)
		printf("%d calibration runs stored (name '%s'; 'kbench runs' lists them).\n", done,
		       CALIBRATE_NAME);
	return rc;
}

const struct opt_command cmd_calibrate_entry = {
	.name = "calibrate", .bit = OC_CALIBRATE, .args = "[options] [TEST|GROUP ...]",
	.about = "learn this machine's run-to-run noise (A/A runs)",
	.text = "Runs the tests (default: the index, 1 copy) N times on this kernel and stores the runs\n"
		"(named 'calibration') as A/A runs: 'kbench compare' then learns this machine's run-to-run\n"
		"noise from them instead of using the wide defaults. Calibrate with the settings you\n"
		"compare with: quick runs teach the floors of quick runs, full runs those of full ones.\n"
		"Quick runs unless --full, -i, --samples or --duration asks for others.",
	.after = "-c, -i, --duration, --samples and --pause are part of the setting floors are learned for.",
	.operand = "tests", .options = calibrate_rows, .exec = calibrate_exec,
};
