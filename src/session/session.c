/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One run's life for every front end: the runner and run record from the request, preflight and telemetry, the run, and the save by the one rule. */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "run.h"
#include "runner.h"
#include "store.h"
#include "telemetry/telemetry.h"

/* Stored as the request says, by the rule both faces follow (store_worth_saving). */
static void save(const struct run_request *rq, struct session_result *res)
{
	if (rq->no_save || (rq->keep_if_left && !res->left))
		return;
	if (!store_worth_saving(res->run, res->why, sizeof res->why))
		return;
	char err[400];
	if (store_save(res->run, err, sizeof err) != 0) {
		res->save_failed = true;
		snprintf(res->why, sizeof res->why, "%s", err);
		return;
	}
	res->saved = true;
}

int session_run(struct run_request *rq, const struct session_face *f, struct session_result *res, bool *usage,
		char *err, size_t errlen)
{
	*res = (struct session_result){ 0 };
	*usage = false;
	const struct runner_opts *o = run_request_opts(rq);
	struct runner *r = runner_new(o, err, errlen);
	if (!r)
		return -1;
	struct run *run = runner_new_run(o);
	if (rq->name)
		snprintf(run->meta.name, sizeof run->meta.name, "%s", rq->name);
	run->meta.seq = rq->seq;
	preflight_check(run, f->log);
	struct telemetry *tele = f->tele;
	bool own = false;
	if (!tele && !rq->tele.off) {
		if (!(tele = telemetry_new(&rq->tele, usage, err, errlen))) {
			runner_free(r);
			run_free(run);
			return -1;
		}
		own = true;
	}
	if (tele) {
		struct runner_listener tl = telemetry_listener(tele);
		runner_listen(r, &tl);
	}
	if (f->watch)
		f->watch(f->ctx, r, run);
	if (tele && rq->verbose && f->log) {
		struct runner_listener vl = telemetry_verbose_listener(f->log);
		runner_listen(r, &vl);
	}
	int rc = runner_run(r, run);
	res->run = run;
	res->aborted = rc != 0;
	for (int b = 0; b < run->nblocks; b++)
		for (int i = 0; i < run->blocks[b].ntests; i++)
			res->failed |= run->blocks[b].tests[i].status == TEST_FAILED;
	if (f->ran)
		f->ran(f->ctx, run, rc);
	runner_free(r); /* after ran: the face's signal handler lets go of it there */
	res->left = f->leaving && f->leaving(f->ctx);
	save(rq, res);
	if (rq->pick_baseline && !res->left) {
		res->base = session_pick_baseline(run, rq->compare, res->base_why, sizeof res->base_why);
		res->cmp = session_compare(run, res->base, res->base_why, res->cmp_why, sizeof res->cmp_why);
	}
	if (own)
		telemetry_free(tele);
	return 0;
}

struct compare *session_compare(const struct run *r, const struct run *base, const char *no_base_why, char *why,
				size_t whylen)
{
	why[0] = '\0';
	if (!r || !base) {
		snprintf(why, whylen, "%s", no_base_why && no_base_why[0] ? no_base_why : "no stored run to compare with");
		return NULL;
	}
	/* The same call as kbench compare: floors learned from the store. */
	const struct run *ra[1] = { base }, *rb[1] = { r };
	struct compare_opts o = { 0 };
	return compare_stored(ra, 1, rb, 1, &o, why, whylen);
}

struct run *session_pick_baseline(const struct run *r, const char *spec, char *why, size_t whylen)
{
	char err[400];
	struct run *base = NULL;
	why[0] = '\0';
	if (!r || !strcmp(spec, "none"))
		snprintf(why, whylen, "no comparison chosen");
	else if (!(base = spec[0] ? store_load(spec, err, sizeof err) : store_pick_baseline(r, err, sizeof err)))
		snprintf(why, whylen, "%s", err);
	return base;
}
