/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run as LAVA test results: the `lava-test-case` lines a LAVA test shell turns into measurements. */
#include "lava.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "run.h"

/* Only what LAVA takes in a name, and what a shell reads as one plain word. */
static void safe_word(char *buf, size_t size, const char *s)
{
	size_t n = 0;
	for (; *s && n + 1 < size; s++)
		buf[n++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
					   (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'
				   ? *s
				   : '_';
	buf[n] = 0;
	if (!n)
		snprintf(buf, size, "_");
}

void lava_case_name(char *buf, size_t size, const char *id, const char *suffix, int copies)
{
	char raw[128];
	snprintf(raw, sizeof raw, "%s%s-%dcop%s", id, suffix ? suffix : "", copies,
		 copies == 1 ? "y" : "ies");
	safe_word(buf, size, raw);
}

static void measured(FILE *f, const char *name, double v, const char *unit)
{
	char u[32];
	safe_word(u, sizeof u, unit && *unit ? unit : "none");
	fprintf(f, "lava-test-case %s --result pass --measurement %.3f --units %s\n", name, v, u);
}

/* A points test: one measurement per headline point ("memlat-rnd_L1-1copy").
 * false when it has none (failed before any), so it is reported as a test. */
static bool points(FILE *f, const struct test_result *t, int copies)
{
	bool any = false;
	for (int p = 0; p < t->npoints; p++) {
		const struct point *pt = &t->points[p];
		double v = point_mean(pt);
		if (!pt->summary || !isfinite(v))
			continue;
		char suffix[48], name[160];
		snprintf(suffix, sizeof suffix, "-%s", pt->name);
		lava_case_name(name, sizeof name, t->id, suffix, copies);
		measured(f, name, v, pt->unit);
		any = true;
	}
	return any;
}

void lava_print(FILE *f, const struct run *r)
{
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		char name[160];
		bool indexed = false;
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			indexed = indexed || t->baseline > 0;
			if (t->kind == RESULT_POINTS && points(f, t, bl->copies))
				continue;
			lava_case_name(name, sizeof name, t->id, NULL, bl->copies);
			bool scored = t->status == TEST_DONE || t->status == TEST_IMPORTED;
			if (scored && isfinite(t->score) && t->score > 0)
				measured(f, name, t->score, t->unit);
			else
				/* failed, or done without a score: nothing to measure */
				fprintf(f, "lava-test-case %s --result %s\n", name,
					t->status == TEST_SKIPPED || t->status == TEST_WAITING ||
							t->status == TEST_RUNNING
						? "skip"
						: "fail");
		}
		if (!indexed) /* points tests alone: no index to measure */
			continue;
		/* A partial index is another measurement than a full one: it gets its own name. */
		lava_case_name(name, sizeof name, "index", bl->index_partial ? "-partial" : NULL,
			       bl->copies);
		if (isfinite(bl->index_score) && bl->index_score > 0)
			measured(f, name, bl->index_score, "index");
		else
			fprintf(f, "lava-test-case %s --result skip\n", name);
	}
}
