/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench calibrate`: runs the same tests several times on this kernel and shows the noise floors they teach. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "options.h"
#include "run.h"
#include "store.h"
#include "telemetry/others.h"
#include "workload.h"

#define CALIBRATE_MAX 50
#define CALIBRATE_NAME "calibration"

/* The options passed through to each run, as `kbench run` takes them. */
struct pass {
	char *argv[128];
	int argc;
	char text[64][1100]; /* "--name=value" for the options given (a --source path too) */
	int ntext;
};

static void add(struct pass *p, const char *a)
{
	if (p->argc < 126)
		p->argv[p->argc++] = (char *)a;
}

static void add_option(struct pass *p, const char *name, const char *value)
{
	if (p->ntext >= 64)
		return;
	char *t = p->text[p->ntext++];
	snprintf(t, sizeof p->text[0], "--%s=%s", name, value);
	add(p, t);
}

static void add_flag(struct pass *p, const char *name)
{
	if (p->ntext >= 64)
		return;
	char *t = p->text[p->ntext++];
	snprintf(t, sizeof p->text[0], "--%s", name);
	add(p, t);
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
	struct opt_parsed o;
	int prc = opts_parse(opts_command("calibrate"), argc, argv, &o);
	if (prc >= 0)
		return prc;
	struct pass p = { .argc = 0 };
	add(&p, "run");
	bool quick = true, copies = false, nset = false;
	long n = CALIBRATE_RUNS;
	double minutes = 0;
	/* Checked by the same rows as kbench run's; passed on as given. */
	for (int k = 0; k < o.n; k++) {
		const struct opt_item *it = &o.item[k];
		switch (it->def->id) {
		case O_QUICK: quick = true; break;
		case O_FULL: quick = false; break;
		case O_RUNS:
			n = it->i;
			nset = true;
			break;
		case O_MINUTES: minutes = it->d; break;
		case O_COPIES:
		case O_ITERATIONS:
		case O_DURATION:
		case O_SAMPLES:
		case O_PAUSE:
		case O_TMPDIR:
		case O_ALLOCATE:
		case O_BUDGET:
			add_option(&p, it->def->name, it->arg);
			copies |= it->def->id == O_COPIES;
			if (it->def->id == O_ITERATIONS || it->def->id == O_DURATION || it->def->id == O_SAMPLES)
				quick = false;
			break;
		default:
			/* the workload settings (--period-us, --tasks, --huge, ...):
			 * floors are learned for the settings the runs have */
			if (!it->def->param)
				break;
			if (it->arg)
				add_option(&p, it->def->name, it->arg);
			else
				add_flag(&p, it->def->name);
			break;
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
	add(&p, "--");
	for (int i = 0; i < o.noperands; i++)
		add(&p, o.operand[i]);
	p.argv[p.argc] = NULL;
	opts_free(&o);

	char ids[CALIBRATE_MAX][16];
	int done = 0, rc = 0;
	double t0 = wl_now();
	for (int i = 0; i < n; i++) {
		if (minutes > 0 && done >= 2) {
			double per = (wl_now() - t0) / done;
			if (wl_now() - t0 + per > minutes * 60)
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
