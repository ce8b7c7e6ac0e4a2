/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sequence of runs: each run of one request made through the session, named and tagged with the sequence, until all are stored or one stops it. */
#include "sequence.h"

#include <stdio.h>
#include <string.h>

#include "run.h"
#include "store.h"
#include "workload.h"

int sequence_run(struct run_sequence *s, const struct run_request *rq, const struct sequence_face *f,
		 struct sequence_result *res)
{
	*res = (struct sequence_result){ .end = SEQ_DONE };
	int n = s->runs < 1 ? 1 : s->runs > SEQUENCE_MAX ? SEQUENCE_MAX : s->runs;
	bool stored[SEQUENCE_MAX] = { false };
	if (s->id[0]) {
		int had = store_seq_stored(s->id, stored, n, res->why, sizeof res->why);
		if (had < 0)
			return -1;
		res->before = had;
	} else {
		char id[16];
		if (store_new_id(id, sizeof id, res->why, sizeof res->why) < 0)
			return -1;
		snprintf(s->id, sizeof s->id, "%s-%s", s->purpose, id);
	}
	struct run_request one = *rq;
	one.name = s->name;
	one.no_save = false;
	snprintf(one.seq.id, sizeof one.seq.id, "%s", s->id);
	snprintf(one.seq.purpose, sizeof one.seq.purpose, "%s", s->purpose);
	one.seq.runs = n;
	void *ctx = f->ctx;
	double t0 = wl_now();
	for (int k = 1; k <= n && res->end == SEQ_DONE; k++) {
		if (stored[k - 1])
			continue;
		if (f->stopping && f->stopping(ctx)) {
			res->end = SEQ_STOPPED;
			break;
		}
		/* as many as fit: the next would end past the time, by the mean of those stored */
		if (s->minutes > 0 && res->stored >= 2) {
			double per = (wl_now() - t0) / res->stored;
			if (wl_now() - t0 + per > s->minutes * 60) {
				res->end = SEQ_TIME;
				break;
			}
		}
		if (f->begin)
			f->begin(ctx, k, n);
		one.seq.run = k;
		struct session_result r;
		bool usage;
		if (session_run(&one, &f->run, &r, &usage, r.why, sizeof r.why) < 0) {
			res->end = usage ? SEQ_USAGE : SEQ_FAILED;
			snprintf(res->why, sizeof res->why, "%s", r.why);
		} else if (r.saved) {
			snprintf(res->ids[res->stored++], sizeof res->ids[0], "%s", r.run->meta.id);
		}
		if (r.run && (r.aborted || (f->stopping && f->stopping(ctx))))
			res->end = SEQ_STOPPED;
		else if (r.run && (r.failed || !r.saved)) {
			res->end = SEQ_FAILED;
			snprintf(res->why, sizeof res->why, "%s", r.why[0] ? r.why : "a test failed");
		}
		if (f->end)
			f->end(ctx, k, &r);
		run_free(r.run);
	}
	return 0;
}
