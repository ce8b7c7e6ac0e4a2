/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One step of a plan, the same for the command line and the console: this boot recorded, its runs made as a sequence, the answer looked at, the next kernel chosen. */
#ifndef KBENCH_PLAN_STEP_H
#define KBENCH_PLAN_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sequence.h"

struct plan;
struct run_request;

struct plan_step_opts {
	double settle;   /* seconds at most to wait for the machine to settle after boot (0: none) */
	bool reboot;     /* then choose the next kernel with the boot loader and reboot */
};

/* How a front end watches a step: the boot's runs as any sequence's, and the step's own lines. */
struct plan_step_face {
	struct sequence_face seq;
	FILE *out; /* the step's lines (settling, the boot time, the answer so far); NULL: none */
};

enum plan_step_end {
	STEP_MEASURED,   /* this boot's runs are stored */
	STEP_ALREADY,    /* this boot was measured before: nothing run */
	STEP_ENDED,      /* the plan had ended: nothing run */
	STEP_WRONG,      /* the running kernel is not the one due: nothing run */
	STEP_STOPPED,    /* interrupted: what is stored stays, the next step goes on */
	STEP_FAILED,     /* a run failed, or the machine could not say which boot this is */
	STEP_USAGE,      /* the plan's run options are refused (a setting this kbench does not know) */
};

struct plan_step_result {
	enum plan_step_end end;
	char line[600];   /* one sentence: what happened */
	char next[300];   /* the next kernel to boot, in words ("" when the plan has ended) */
	int boot;         /* the boot record stepped (index in plan->boot), -1 none */
	bool ended;       /* the plan ended at this step (settled, or every boot done) */
	bool rebooting;   /* the machine was asked to reboot */
};

/* One step of plan p (loaded; saved by it at every change) with the request its
 * runs are made of (run_request_complete'd from the plan's run options). A
 * step killed at any point leaves the plan and the store consistent: the next
 * one in the same boot makes only the runs not stored yet; one in another boot
 * marks the unfinished boot abandoned and measures its slot again. Returns the
 * exit code a command gives: 0 measured, already measured or ended; 1 wrong
 * kernel, failed, stopped; 2 refused options. */
int plan_step(struct plan *p, const struct run_request *rq, const struct plan_step_opts *o,
	      const struct plan_step_face *f, struct plan_step_result *res);

/* The next kernel due, in words: "B (6.6.8-pf1) for boot 4 of 6". "" when none. */
void plan_next_words(const struct plan *p, char *buf, size_t size);

#endif
