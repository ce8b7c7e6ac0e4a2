/* `kbench calibrate`: runs the same tests several times on this kernel and shows the noise floors they teach. */
#include "commands.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "noise.h"
#include "run.h"
#include "store.h"
#include "telemetry/others.h"

#define CALIBRATE_MAX 50
#define CALIBRATE_NAME "calibration"

static const char calibrate_usage[] =
	"usage: kbench calibrate [--quick|--full] [-n N] [--minutes M] [options] [TEST|GROUP ...]\n"
	"\n"
	"Runs the tests (default: the index, 1 copy) N times on this kernel and stores the runs\n"
	"(named 'calibration') as A/A runs: 'kbench compare' then learns this machine's run-to-run\n"
	"noise from them instead of using the wide defaults. Calibrate with the settings you\n"
	"compare with: quick runs teach the floors of quick runs, full runs those of full ones.\n"
	"\n"
	"  --quick          quick runs (the default)\n"
	"  --full           full-length runs, UnixBench's samples (about half an hour each)\n"
	"  -n N             how many runs (default 5; at least 2)\n"
	"  --minutes M      as many runs as fit in M minutes (at least 2, at most -n or 50)\n"
	"  -c N, -i N, --duration S, --samples N, --pause S, --tmpdir DIR\n"
	"                   as for kbench run (and part of the settings floors are learned for)\n"
	"  -h, --help       this text\n";

/* The options passed through to each run, as `kbench run` takes them. */
struct pass {
	char *argv[128];
	int argc;
};

static void add(struct pass *p, const char *a)
{
	if (p->argc < 126)
		p->argv[p->argc++] = (char *)a;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

int cmd_calibrate(int argc, char **argv)
{
	enum { O_QUICK = 256, O_FULL, O_MINUTES, O_DURATION, O_SAMPLES, O_PAUSE, O_TMPDIR };
	static const struct option longopts[] = {
		{ "quick", no_argument, NULL, O_QUICK },
		{ "full", no_argument, NULL, O_FULL },
		{ "minutes", required_argument, NULL, O_MINUTES },
		{ "copies", required_argument, NULL, 'c' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, O_DURATION },
		{ "samples", required_argument, NULL, O_SAMPLES },
		{ "pause", required_argument, NULL, O_PAUSE },
		{ "tmpdir", required_argument, NULL, O_TMPDIR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pass p = { .argc = 0 };
	add(&p, "run");
	bool quick = true, copies = false, nset = false;
	long n = CALIBRATE_RUNS, v;
	double minutes = 0, d;
	opterr = 0;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "+:n:c:i:h", longopts, NULL)) != -1) {
		switch (ch) {
		case O_QUICK: quick = true; break;
		case O_FULL: quick = false; break;
		case 'n':
			if (parse_int(optarg, 2, CALIBRATE_MAX, &n))
				return usage_error("-n wants a number of runs from 2 to %d, not '%s'", CALIBRATE_MAX,
						   optarg);
			nset = true;
			break;
		case O_MINUTES:
			if (parse_double(optarg, 1, 100000, &minutes))
				return usage_error("--minutes wants a number of minutes from 1, not '%s'", optarg);
			break;
		case 'c':
			if (parse_int(optarg, 1, 256, &v))
				return usage_error("-c wants a number of copies from 1 to 256, not '%s'", optarg);
			add(&p, "-c");
			add(&p, optarg);
			copies = true;
			break;
		case 'i':
			if (parse_int(optarg, 1, 1000, &v))
				return usage_error("-i wants a number of iterations from 1 to 1000, not '%s'", optarg);
			add(&p, "-i");
			add(&p, optarg);
			quick = false;
			break;
		case O_DURATION:
			if (parse_double(optarg, 0.01, 86400, &d))
				return usage_error("--duration wants seconds from 0.01 to 86400, not '%s'", optarg);
			add(&p, "--duration");
			add(&p, optarg);
			quick = false;
			break;
		case O_SAMPLES:
		case O_PAUSE:
		case O_TMPDIR:
			add(&p, ch == O_SAMPLES ? "--samples" : ch == O_PAUSE ? "--pause" : "--tmpdir");
			add(&p, optarg);
			if (ch == O_SAMPLES)
				quick = false;
			break;
		case 'h':
			fputs(calibrate_usage, stdout);
			return 0;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s' (try 'kbench calibrate --help')", argv[optind - 1]);
		}
	}
	if (minutes > 0 && !nset)
		n = CALIBRATE_MAX;
	if (quick)
		add(&p, "--quick");
	/* One copy by default: the floor is a test's, pooled over copy counts,
	 * and a calibration that takes twice as long is one fewer people do. */
	if (!copies) {
		add(&p, "-c");
		add(&p, "1");
	}
	add(&p, "--name");
	add(&p, CALIBRATE_NAME);
	for (int i = optind; i < argc; i++)
		add(&p, argv[i]);
	p.argv[p.argc] = NULL;

	char ids[CALIBRATE_MAX][16];
	int done = 0, rc = 0;
	double t0 = now_s();
	for (int i = 0; i < n; i++) {
		if (minutes > 0 && done >= 2) {
			double per = (now_s() - t0) / done;
			if (now_s() - t0 + per > minutes * 60)
				break;
		}
		fprintf(stderr, "kbench: calibration run %d of %ld%s\n", i + 1, n,
			minutes > 0 ? " at most (as many as fit the time)" : "");
		rc = cmd_run_stored(p.argc, p.argv, ids[done], sizeof ids[done]);
		if (ids[done][0])
			done++;
		if (rc != 0)
			break; /* a usage error, a failed test, or Ctrl-C: what is stored stays */
	}
	if (done >= 2)
		report(ids[0], ids, done);
	else if (rc == 0)
		fprintf(stderr, "kbench: %d calibration run%s stored: at least 2 are needed to learn anything\n",
			done, done == 1 ? "" : "s");
	if (rc == 0 && done >= 2)
		printf("%d calibration runs stored (name '%s'; 'kbench runs' lists them).\n", done,
		       CALIBRATE_NAME);
	return rc;
}
