/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plan's step: which boot this is, the boot's record saved before anything runs, its runs as one sequence (resumed, never doubled), the answer, the next kernel. */
#include "plan_step.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boottime.h"
#include "plan.h"
#include "plan_machine.h"
#include "plan_report.h"
#include "request.h"
#include "run.h"
#include "store.h"
#include "storeidx.h"

/* Seconds in a row of a quiet machine that count as settled. */
#define SETTLE_QUIET 5
/* Boots in a row of the wrong kernel after which --reboot stops choosing and rebooting. */
#define WRONG_BOOTS_MAX 2

static void out(const struct plan_step_face *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(const struct plan_step_face *f, const char *fmt, ...)
{
	if (!f->out)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("kbench: ", f->out);
	vfprintf(f->out, fmt, ap);
	fputc('\n', f->out);
	va_end(ap);
	fflush(f->out);
}

static const char *kernel_of(const struct plan *p, char side)
{
	int s = side == 'B';
	return p->release[s][0] ? p->release[s] : p->kernel[s];
}

void plan_next_words(const struct plan *p, char *buf, size_t size)
{
	int slot = plan_next_slot(p);
	char side = plan_slot_side(p, slot);
	if (!side || p->ended[0]) {
		buf[0] = 0;
		return;
	}
	snprintf(buf, size, "%c (%s) for boot %d of %d", side, kernel_of(p, side), slot + 1, 2 * p->boots);
}

/* The step's wrap of the front end's face: the first run of a boot carries
 * the boot's time, added before the run is saved. */
struct wrap {
	const struct session_face *face;
	const struct boot_time *bt;
};

static void wrap_watch(void *ctx, struct runner *r, struct run *run)
{
	struct wrap *w = ctx;
	if (w->face->watch)
		w->face->watch(w->face->ctx, r, run);
}

static void wrap_ran(void *ctx, struct run *run, int rc)
{
	struct wrap *w = ctx;
	if (run->meta.seq.run == 1 && run->nblocks > 0)
		boottime_add_result(&run->blocks[0], w->bt);
	if (w->face->ran)
		w->face->ran(w->face->ctx, run, rc);
}

/* The face's own: its ctx is the face's, not the wrap (the console's reads its live view). */
static bool wrap_leaving(void *ctx)
{
	struct wrap *w = ctx;
	return w->face->leaving && w->face->leaving(w->face->ctx);
}

struct seq_ids {
	struct plan_boot *b;
};

static int add_seq_id(const struct storeidx_row *row, void *arg)
{
	struct plan_boot *b = ((struct seq_ids *)arg)->b;
	size_t n = strlen(row->file);
	if (b->nruns < PLAN_MAX_RUNS && n > 5)
		snprintf(b->runs[b->nruns++], sizeof b->runs[0], "%.*s", (int)(n - 5), row->file);
	return 0;
}

/* The boot's runs as the store holds them (by its sequence id, in run order):
 * what a step killed between a save and the plan's record left unlisted is found. */
static int boot_runs_from_store(struct plan_boot *b, char *err, size_t errlen)
{
	b->nruns = 0;
	struct seq_ids s = { b };
	return storeidx_each_seq(store_dir(), b->seq, add_seq_id, &s, err, errlen) < 0 ? -1 : 0;
}

static int save(const struct plan *p, struct plan_step_result *res)
{
	char err[512];
	if (plan_save(p, err, sizeof err) == 0)
		return 0;
	res->end = STEP_FAILED;
	snprintf(res->line, sizeof res->line, "the plan could not be saved: %s", err);
	return -1;
}

/* After a boot is done: has the plan ended (every slot, or --until settled)? */
static void look(struct plan *p, const struct plan_step_face *f, struct plan_step_result *res)
{
	struct plan_result r;
	char err[512], words[200] = "";
	if (plan_analyze(p, &r, err, sizeof err) < 0) {
		out(f, "the answer cannot be read yet: %s", err);
		return;
	}
	for (int i = 0; i < r.nrows; i++)
		if (!strcmp(r.rows[i].id, "index")) {
			plan_row_words(words, sizeof words, &r.rows[i]);
			break;
		}
	if (words[0])
		out(f, "the index so far (%d+%d boots, %.3g%% interval): %s", r.na, r.nb, r.conf * 100, words);
	if (p->until > 0 && r.settled)
		snprintf(p->ended, sizeof p->ended, "settled at +-%.1f%% after %d boots a kernel", pstat_pct(p->until),
			 r.look);
	else if (plan_next_slot(p) < 0)
		snprintf(p->ended, sizeof p->ended, "all %d boot%s a kernel done%s", p->boots, p->boots == 1 ? "" : "s",
			 p->until > 0 ? " (not settled: the cap)" : "");
	res->ended = p->ended[0] != 0;
	plan_result_free(&r);
}

/* --reboot: the next kernel chosen once, then the reboot. */
static int next_boot(struct plan *p, char side, const struct plan_step_face *f, struct plan_step_result *res)
{
	char what[512], err[600];
	if (plan_choose_next(p, side, what, sizeof what, err, sizeof err) < 0) {
		snprintf(res->line + strlen(res->line), sizeof res->line - strlen(res->line), "; the next kernel could not be chosen: %s", err);
		return -1;
	}
	out(f, "next boot: %c (%s), chosen once with '%s'; rebooting", side, kernel_of(p, side), what);
	if (plan_reboot(err, sizeof err) < 0) {
		snprintf(res->line + strlen(res->line), sizeof res->line - strlen(res->line), "; the reboot failed: %s", err);
		return -1;
	}
	res->rebooting = true;
	return 0;
}

static int finish(struct plan *p, const struct plan_step_opts *o, const struct plan_step_face *f,
		  struct plan_step_result *res, int rc)
{
	plan_next_words(p, res->next, sizeof res->next);
	if (p->ended[0] && p->installed) {
		char err[512];
		if (plan_unit_remove(p->name, err, sizeof err) == 0) {
			p->installed = false;
			save(p, res);
			out(f, "the plan has ended: its boot unit is removed");
		} else {
			out(f, "the plan has ended, but its boot unit stays: %s", err);
		}
	}
	if (o->reboot && !p->ended[0] && rc == 0 && res->end != STEP_WRONG) {
		int slot = plan_next_slot(p);
		if (next_boot(p, plan_slot_side(p, slot), f, res) < 0)
			rc = 1;
	}
	return rc;
}

int plan_step(struct plan *p, const struct run_request *rq, const struct plan_step_opts *o,
	      const struct plan_step_face *f, struct plan_step_result *res)
{
	memset(res, 0, sizeof *res);
	res->boot = -1;
	if (p->ended[0]) {
		res->end = STEP_ENDED;
		snprintf(res->line, sizeof res->line, "plan %s has ended (%s): nothing to run ('kbench plan report %s' gives the answer)",
			 p->name, p->ended, p->name);
		return finish(p, o, f, res, 0);
	}
	struct plan_this_boot tb;
	char err[600];
	if (plan_this_boot(&tb, err, sizeof err) < 0) {
		res->end = STEP_FAILED;
		snprintf(res->line, sizeof res->line, "which boot this is cannot be told: %s", err);
		return 1;
	}
	struct plan_boot *b = plan_find_boot(p, tb.boot_id);
	if (b && b->state == PLAN_BOOT_DONE) {
		res->end = STEP_ALREADY;
		res->boot = (int)(b - p->boot);
		snprintf(res->line, sizeof res->line, "this boot was measured already (boot %d, %c): nothing run", b->slot + 1,
			 b->side);
		return finish(p, o, f, res, 0);
	}
	if (!b) {
		int slot = plan_next_slot(p);
		char due = plan_slot_side(p, slot), running = plan_side_of(p, tb.release, tb.cmdline);
		if (running != due) {
			res->end = STEP_WRONG;
			if (running == '?')
				snprintf(res->line, sizeof res->line, "both kernels are %s and the boot loader's image does not tell "
					 "them apart: the plan cannot tell which one runs", tb.release);
			else
				snprintf(res->line, sizeof res->line, "this is %s%s%s%s, but the plan's boot %d is %c (%s): nothing run",
					 tb.release, running ? " (" : " (neither kernel of the plan", running ? (running == 'A' ? "A" : "B") : "",
					 ")", slot + 1, due, kernel_of(p, due));
			plan_next_words(p, res->next, sizeof res->next);
			/* --reboot: the due kernel once more, but not in a loop when the boot loader keeps failing to start it */
			if (o->reboot) {
				if (++p->wrong_boots <= WRONG_BOOTS_MAX) {
					save(p, res);
					next_boot(p, due, f, res);
				} else {
					snprintf(res->line + strlen(res->line), sizeof res->line - strlen(res->line),
						 "; %d boots in a row were the wrong kernel, so no more reboots: boot %s by hand",
						 p->wrong_boots, kernel_of(p, due));
					save(p, res);
				}
			}
			return 1;
		}
		/* an unfinished boot of another boot id: the machine rebooted before its runs were done */
		for (int i = 0; i < p->nboots; i++)
			if (p->boot[i].state == PLAN_BOOT_RUNNING) {
				p->boot[i].state = PLAN_BOOT_ABANDONED;
				out(f, "boot %d (%c) ended before its runs did (%d of %d stored): its slot is measured again", p->boot[i].slot + 1,
				    p->boot[i].side, p->boot[i].nruns, p->runs_per_boot);
			}
		b = plan_add_boot(p, slot, due);
		snprintf(b->boot_id, sizeof b->boot_id, "%s", tb.boot_id);
		snprintf(b->release, sizeof b->release, "%s", tb.release);
		snprintf(b->cmdline, sizeof b->cmdline, "%s", tb.cmdline);
		snprintf(b->seq, sizeof b->seq, "%s-%s-%d", RUN_SEQ_PLAN, p->id, p->nboots);
		int s = due == 'B';
		if (!p->release[s][0])
			snprintf(p->release[s], sizeof p->release[s], "%s", tb.release);
		p->wrong_boots = 0;
		/* recorded before anything runs: a step killed from here on is resumed in this boot */
		if (save(p, res) < 0)
			return 1;
		out(f, "boot %d of %d: %c (%s), %d run%s", slot + 1, 2 * p->boots, due, tb.release, p->runs_per_boot,
		    p->runs_per_boot == 1 ? "" : "s");
	} else {
		/* the store says what the killed step stored, listed or not */
		if (boot_runs_from_store(b, err, sizeof err) < 0)
			out(f, "the store's index could not list the boot's runs: %s", err);
		out(f, "boot %d of %d (%c) goes on: %d of %d runs stored before", b->slot + 1, 2 * p->boots, b->side, b->nruns,
		    p->runs_per_boot);
	}
	int bi = (int)(b - p->boot);
	res->boot = bi;

	char why[300];
	if (plan_settle(o->settle, SETTLE_QUIET, f->out, why, sizeof why) != 0) {
		snprintf(p->boot[bi].note, sizeof p->boot[bi].note, "did not settle: %s", why);
		out(f, "the machine did not settle (%s): running anyway; its busy tests are left out of the answer", why);
	}
	struct boot_time bt;
	boottime_measure(&bt);
	if (bt.ok)
		out(f, "this boot took %.2f s (%s)", bt.s[BOOT_TOTAL], bt.method);
	else
		out(f, "boot time n/a: %s", bt.why[BOOT_TOTAL]);

	char name[96];
	snprintf(name, sizeof name, "%s %c", p->name, p->boot[bi].side);
	struct run_sequence seq = { .name = name, .purpose = RUN_SEQ_PLAN, .runs = p->runs_per_boot };
	snprintf(seq.id, sizeof seq.id, "%s", p->boot[bi].seq);
	struct wrap w = { .face = &f->seq.run, .bt = &bt };
	struct sequence_face sf = f->seq;
	sf.run.ctx = &w;
	sf.run.watch = wrap_watch;
	sf.run.ran = wrap_ran;
	sf.run.leaving = wrap_leaving; /* every call of the face's gets the wrap as its ctx */
	struct sequence_result sr;
	int src = sequence_run(&seq, rq, &sf, &sr);
	/* The boot's runs as stored, whatever became of this call. */
	b = &p->boot[bi];
	if (boot_runs_from_store(b, err, sizeof err) < 0)
		out(f, "the store's index could not list the boot's runs: %s", err);
	if (src < 0) {
		res->end = STEP_FAILED;
		snprintf(res->line, sizeof res->line, "the boot's runs could not start: %s", sr.why);
		save(p, res);
		return 1;
	}
	if (b->nruns >= p->runs_per_boot) {
		b->state = PLAN_BOOT_DONE;
		b->finished = time(NULL);
	}
	if (save(p, res) < 0)
		return 1;
	if (b->state != PLAN_BOOT_DONE) {
		res->end = sr.end == SEQ_USAGE ? STEP_USAGE : sr.end == SEQ_STOPPED ? STEP_STOPPED : STEP_FAILED;
		snprintf(res->line, sizeof res->line, "boot %d (%c): %d of %d runs stored%s%s; a step in this boot makes the rest",
			 b->slot + 1, b->side, b->nruns, p->runs_per_boot, sr.why[0] ? ": " : "", sr.why);
		return res->end == STEP_USAGE ? 2 : 1;
	}
	res->end = STEP_MEASURED;
	snprintf(res->line, sizeof res->line, "boot %d of %d (%c, %s) measured: %d run%s stored", b->slot + 1,
		 2 * p->boots, b->side, b->release, b->nruns, b->nruns == 1 ? "" : "s");
	look(p, f, res);
	if (save(p, res) < 0)
		return 1;
	return finish(p, o, f, res, 0);
}
