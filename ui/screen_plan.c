/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan screen: an A/B plan's progress, the kernel due next, this boot's runs started live as any run, and the answer so far or the whole report. */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare.h"
#include "format.h"
#include "noise.h"
#include "plan.h"
#include "plan_machine.h"
#include "plan_report.h"
#include "plan_step.h"

/* The screen's one instance: the plan shown, its answer, the report's lines when shown. */
static struct plan_view {
	bool have;
	struct plan p;
	struct plan_result res;
	bool have_res;
	char why[512];        /* no plan, or its answer cannot be read: why */
	char **names;         /* the stored plans, newest first (n picks the next) */
	int nnames, at;
	bool report;          /* the report's lines instead of the summary */
	char *text;           /* the report as kbench plan report prints it */
	int scroll;
	struct plan_this_boot tb;
	bool have_tb;
} pv;

static void drop(void)
{
	if (pv.have_res)
		plan_result_free(&pv.res);
	if (pv.have)
		plan_free(&pv.p);
	free(pv.text);
	pv.text = NULL;
	pv.have = pv.have_res = false;
}

/* Reads plan names[at] and its answer (again, after a step). */
static void load(void)
{
	drop();
	pv.why[0] = 0;
	if (pv.at >= pv.nnames) {
		snprintf(pv.why, sizeof pv.why, "No plan yet: 'kbench plan new NAME --kernels A,B' makes one.");
		return;
	}
	if (plan_load(pv.names[pv.at], &pv.p, pv.why, sizeof pv.why) < 0)
		return;
	pv.have = true;
	pv.have_res = plan_analyze(&pv.p, &pv.res, pv.why, sizeof pv.why) == 0;
	char err[256];
	pv.have_tb = plan_this_boot(&pv.tb, err, sizeof err) == 0;
	if (pv.have_res) {
		size_t len;
		FILE *f = open_memstream(&pv.text, &len);
		if (f) {
			if (plan_print(f, &pv.p, &pv.res, "text", 80, err, sizeof err) < 0)
				fprintf(f, "%s\n", err);
			fclose(f);
		}
	}
}

/* Entered from the setup, or again after a step (whose runs took the run screen): the
 * plan read afresh. Leaving keeps it: a step's runs leave this screen while the step
 * still works on the plan. */
static void plan_enter(struct app *a)
{
	for (int i = 0; i < pv.nnames; i++)
		free(pv.names[i]);
	free(pv.names);
	pv.names = NULL;
	pv.nnames = plan_list(&pv.names, pv.why, sizeof pv.why);
	if (pv.nnames < 0)
		pv.nnames = 0;
	/* the newest plan that goes on, else the newest */
	pv.at = 0;
	for (int i = 0; i < pv.nnames; i++) {
		struct plan p;
		char err[256];
		if (plan_load(pv.names[i], &p, err, sizeof err) == 0) {
			bool on = !p.ended[0];
			plan_free(&p);
			if (on) {
				pv.at = i;
				break;
			}
		}
	}
	pv.report = false;
	pv.scroll = 0;
	load();
}

static void draw_summary(struct app *a, struct canvas *c, int y, int bottom)
{
	const struct plan *p = &pv.p;
	char line[256];
	canvas_printf(c, 1, y++, ROLE_HEADER, "Plan %s: A %s, B %s", p->name, p->kernel[0], p->kernel[1]);
	snprintf(line, sizeof line, "%d boot%s x %d run%s a kernel, order %s; %d of %d done%s%s", p->boots,
		 p->boots == 1 ? "" : "s", p->runs_per_boot, p->runs_per_boot == 1 ? "" : "s", p->schedule, plan_done(p, 'A') + plan_done(p, 'B'), 2 * p->boots,
		 p->ended[0] ? "; ended: " : "", p->ended);
	canvas_text(c, 1, y++, ROLE_NORMAL, line, c->w - 2);
	y++;
	canvas_text(c, 1, y++, ROLE_DIM, "boot  kernel  release                  runs  state", c->w - 2);
	int first = p->nboots > bottom - y - 8 ? p->nboots - (bottom - y - 8) : 0;
	for (int i = first < 0 ? 0 : first; i < p->nboots && y < bottom - 7; i++) {
		const struct plan_boot *b = &p->boot[i];
		snprintf(line, sizeof line, "%4d  %-6c  %-24.24s %d/%-3d %s", b->slot + 1, b->side, b->release, b->nruns,
			 p->runs_per_boot,
			 b->state == PLAN_BOOT_DONE ? "done" : b->state == PLAN_BOOT_ABANDONED ? "abandoned" : "running");
		canvas_text(c, 1, y++, b->state == PLAN_BOOT_DONE ? ROLE_NORMAL : ROLE_WARN, line, c->w - 2);
	}
	y++;
	char next[300];
	plan_next_words(p, next, sizeof next);
	if (next[0]) {
		char side = pv.have_tb ? plan_side_of(p, pv.tb.release, pv.tb.cmdline) : 0;
		int slot = plan_next_slot(p);
		bool due = side && side == plan_slot_side(p, slot) && !plan_find_boot((struct plan *)p, pv.tb.boot_id);
		snprintf(line, sizeof line, "Next: boot %s.", next);
		canvas_text(c, 1, y++, ROLE_NORMAL, line, c->w - 2);
		snprintf(line, sizeof line, "This boot: %s%s", pv.have_tb ? pv.tb.release : "?",
			 due ? ", due: s makes its runs" : ", not the kernel due (kbench plan step --reboot boots it)");
		canvas_text(c, 1, y++, due ? ROLE_DONE : ROLE_DIM, line, c->w - 2);
	}
	if (!pv.have_res) {
		canvas_text(c, 1, y++, ROLE_WARN, pv.why, c->w - 2);
		return;
	}
	canvas_printf(c, 1, y++, ROLE_HEADER, "The answer%s (%.3g%% intervals):", pv.res.complete ? "" : " so far",
		      pv.res.conf * 100);
	if (!pv.res.nrows)
		canvas_text(c, 3, y++, ROLE_DIM, "no boot measured yet", c->w - 4);
	for (int i = 0; i < pv.res.nrows && y < bottom; i++) {
		const struct plan_row *r = &pv.res.rows[i];
		if (!r->weighted && strncmp(r->id, "boot:", 5))
			continue;
		char w[200];
		plan_row_words(w, sizeof w, r);
		snprintf(line, sizeof line, "%-30.30s %s", r->label, w);
		int role = r->verdict == VERDICT_FASTER ? ROLE_FASTER : r->verdict == VERDICT_SLOWER ? ROLE_SLOWER : ROLE_NORMAL;
		canvas_text(c, 1, y++, role, line, c->w - 2);
		if (r->pace.ok && !strcmp(r->id, NOISE_INDEX_ID) && y < bottom) { /* as the report: the index's */
			char pw[320];
			plan_row_pace_words(pw, sizeof pw, r);
			snprintf(line, sizeof line, "  at the same pace: %s", pw);
			canvas_text(c, 1, y++, ROLE_DIM, line, c->w - 2);
		}
	}
}

static void plan_draw(struct app *a, struct canvas *c)
{
	app_draw_title(a, c, "Plan", pv.have ? pv.p.name : "");
	int y = 2, bottom = c->h - 3;
	if (!pv.have) {
		canvas_text(c, 1, y, ROLE_WARN, pv.why, c->w - 2);
	} else if (pv.report && pv.text) {
		/* the report, scrolled: kbench plan report's own lines */
		const char *s = pv.text;
		for (int skip = pv.scroll; skip > 0 && *s; skip--) {
			const char *nl = strchr(s, '\n');
			s = nl ? nl + 1 : s + strlen(s);
		}
		for (; *s && y < bottom; y++) {
			size_t n = strcspn(s, "\n");
			char line[512];
			snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), s);
			canvas_text(c, 1, y, ROLE_NORMAL, line, c->w - 2);
			s += n + (s[n] == '\n');
		}
	} else {
		draw_summary(a, c, y, bottom);
	}
	app_draw_bottom(a, c);
}

/* The step's moments on the run screen, as a calibration's. */
static void step_begin(void *ctx, int k, int n)
{
	struct app *a = ctx;
	a->calib_run = k;
	a->calib_runs = n;
	app_goto(a, &screen_run);
}

static void step_end(void *ctx, int k, const struct session_result *res)
{
	struct app *a = ctx;
	a->run = NULL; /* the sequence frees it */
	a->live.run = NULL;
}

static bool step_stopping(void *ctx)
{
	return ((struct app *)ctx)->quit;
}

static unsigned act_step(struct app *a)
{
	if (!pv.have)
		return 0;
	static struct run_request rq;
	char err[512];
	if (cli_plan_request(&pv.p, &rq, err, sizeof err) < 0) {
		app_message(a, ROLE_WARN, "Plan %s: %s", pv.p.name, err);
		return 0;
	}
	struct run *shown = a->run, *base = a->base;
	a->run = NULL;
	a->base = NULL;
	snprintf(a->seq_what, sizeof a->seq_what, "Plan %s", pv.p.name);
	/* no settle wait on the console: its user chose the moment (a step from the command
	 * line or plan install's unit waits for the machine after boot) */
	struct plan_step_face f = { .seq = { .run = live_face(&a->live, &rq, &a->run), .ctx = a, .begin = step_begin,
					     .end = step_end, .stopping = step_stopping } };
	struct plan_step_opts o = { .settle = 0 };
	struct plan_step_result res;
	plan_step(&pv.p, &rq, &o, &f, &res);
	a->calib_run = a->calib_runs = 0;
	a->seq_what[0] = 0;
	a->run = shown;
	a->base = base;
	if (a->quit)
		return UI_QUIT;
	app_compare(a); /* the shown run's, with the store's floors after the step's runs */
	app_goto(a, &screen_plan);
	app_message(a, res.end == STEP_MEASURED || res.end == STEP_ALREADY ? ROLE_DONE : ROLE_WARN, "%s", res.line);
	return 0;
}

static unsigned act_report(struct app *a)
{
	pv.report = !pv.report;
	pv.scroll = 0;
	return 0;
}

static unsigned act_next(struct app *a)
{
	if (pv.nnames > 1) {
		pv.at = (pv.at + 1) % pv.nnames;
		load();
	}
	return 0;
}

static unsigned act_down(struct app *a)
{
	if (pv.report)
		pv.scroll++;
	return 0;
}

static unsigned act_up(struct app *a)
{
	if (pv.report && pv.scroll > 0)
		pv.scroll--;
	return 0;
}

static unsigned act_back(struct app *a)
{
	app_goto(a, &screen_setup);
	return 0;
}

static const struct key_def plan_keys[] = {
	{ 's', 0, NULL, "step: this boot's runs", act_step, true },
	{ 'r', 0, NULL, "report / summary", act_report, true },
	{ 'n', 0, NULL, "next plan", act_next, true },
	{ UK_DOWN, 'j', NULL, "scroll the report", act_down, false },
	{ UK_UP, 'k', NULL, "scroll back", act_up, false },
	{ 'q', UK_ESC, NULL, "back", act_back, true },
};
static const struct key_table plan_table = KEY_TABLE("Plan", plan_keys);

const struct screen_ops screen_plan = {
	.name = "plan",
	.enter = plan_enter,
	.draw = plan_draw,
	.keys = &plan_table,
};
