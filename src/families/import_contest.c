/* SPDX-License-Identifier: GPL-2.0-or-later */
/* contest's tables ("no_load:" and a row per kernel of Time, CPU%, Loads, LCPU%, Ratio) as imported buildload runs, one per kernel. */
#include "import_scan.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "buildload.h"
#include "import.h"
#include "run.h"
#include "tests.h"

/* contest (Con Kolivas, 2002-2003) posted, per load, a block:
 *
 *   no_load:
 *   Kernel         [runs]   Time    CPU%    Loads   LCPU%   Ratio
 *   2.5.70              1   79      94.9    0.0     0.0     1.00
 *   2.5.72              1   79      94.9    0.0     0.0     1.00
 *
 * (older posts: "noload:", "Kernel [runs]  Time ..." and rows like
 * "2.5.44 [3]   74.6   93   0   0   1.04"). Each kernel becomes one run
 * holding, per load, the points buildload stores (its Time the headline);
 * the runs behind the means are not in the post, so its verdicts are n/a,
 * as for an imported UnixBench result. */

bool import_is_contest(const char *text, size_t len)
{
	const char *end = text + len;
	return import_find(text, end, "Kernel") && import_find(text, end, "LCPU%") && import_find(text, end, "Ratio") &&
	       (import_find(text, end, "no_load:") || import_find(text, end, "noload:") ||
		import_find(text, end, "_load:") || import_find(text, end, "cacherun:"));
}

#define MAX_KERNELS 32

struct kernel_run {
	char name[96];
	struct run *r;
	struct test_result *t;
};

static struct test_result *kernel_test(struct src *s, struct kernel_run *k, int *nk, const char *name)
{
	for (int i = 0; i < *nk; i++)
		if (!strcmp(k[i].name, name))
			return k[i].t;
	if (*nk >= MAX_KERNELS)
		return NULL;
	const struct test_def *d = test_find("buildload");
	struct kernel_run *n = &k[(*nk)++];
	snprintf(n->name, sizeof n->name, "%s", name);
	n->r = import_new_run(s, NULL);
	snprintf(n->r->meta.kernel_release, sizeof n->r->meta.kernel_release, "%s", name);
	struct run_block *b = run_add_block(n->r, 1);
	n->t = run_block_add_test(b, d->id, d->label, d->unit, d->timebase, d->baseline, d->category);
	n->t->kind = RESULT_POINTS;
	n->t->status = TEST_IMPORTED;
	test_summary_set(n->t, "build tree", 0, "a kernel tree (contest)");
	return n->t;
}

/* "name:" alone on a line: the load whose block follows, or -1 (-2: a
 * block name kbench has no load for). */
static int block_name(const char *p, const char *e, char *name, size_t len)
{
	char line[64];
	import_trim_copy(line, sizeof line, p, e);
	size_t n = strlen(line);
	if (n < 2 || line[n - 1] != ':')
		return -1;
	line[n - 1] = '\0';
	for (size_t i = 0; i + 1 < n; i++)
		if (!(isalnum((unsigned char)line[i]) || line[i] == '_'))
			return -1;
	snprintf(name, len, "%s", line);
	int l = buildload_find_load(line);
	return l >= 0 ? l : -2;
}

/* A row: kernel, runs ("3" or "[3]"), then Time CPU% Loads LCPU% Ratio. */
static bool parse_row(const char *p, const char *e, char *kernel, size_t klen, double v[6])
{
	p = import_skip_sp(p, e);
	const char *ks = p;
	while (p < e && !import_is_sp(*p) && *p != '\n')
		p++;
	if (p == ks || (size_t)(p - ks) >= klen)
		return false;
	snprintf(kernel, klen, "%.*s", (int)(p - ks), ks);
	p = import_skip_sp(p, e);
	bool bracket = p < e && *p == '[';
	if (bracket)
		p++;
	const char *after = import_scan_num(p, e, &v[0]);
	if (!after)
		return false;
	p = after;
	if (bracket) {
		if (p >= e || *p != ']')
			return false;
		p++;
	}
	for (int i = 1; i < 6; i++) {
		p = import_skip_sp(p, e);
		if (!(after = import_scan_num(p, e, &v[i])))
			return false;
		p = after;
	}
	p = import_skip_sp(p, e);
	return (p >= e || *p == '\n' || *p == '\r') && v[0] >= 1 && v[0] < 1e6 && v[1] > 0 && v[2] >= 0 &&
	       v[3] >= 0 && v[4] >= 0 && v[5] >= 0;
}

void import_contest(struct src *s, const char *name)
{
	const char *end = s->text + s->len;
	struct kernel_run k[MAX_KERNELS];
	int nk = 0, load = -1, nkernels = 0;
	bool header = false;
	char bname[64];
	/* first pass: how many kernels, for the runs' names (--name alone for
	 * one kernel, "NAME KERNEL" for several) */
	for (int pass = 0; pass < 2; pass++) {
		load = -1;
		header = false;
		for (int li = 0; li < s->nlines; li++) {
			const char *p = s->text + s->lines[li];
			const char *e = li + 1 < s->nlines ? s->text + s->lines[li + 1] : end;
			int l = block_name(p, e, bname, sizeof bname);
			if (l != -1) {
				if (l == -2 && pass == 1)
					import_warn(s, s->lines[li], "contest's %s: kbench has no such load; ignored",
						    bname);
				load = l;
				header = false;
				continue;
			}
			if (load < 0)
				continue;
			const char *q = import_skip_sp(p, e);
			if ((size_t)(e - q) > 6 && !strncmp(q, "Kernel", 6) && import_find(q, e, "Ratio")) {
				header = true;
				continue;
			}
			if (!header)
				continue;
			char kernel[96];
			double v[6];
			if (!parse_row(p, e, kernel, sizeof kernel, v)) {
				if (import_skip_sp(p, e) < e && *import_skip_sp(p, e) != '\n' && *import_skip_sp(p, e) != '\r' &&
				    pass == 1)
					import_warn(s, s->lines[li], "not a contest row (kernel, runs, Time, CPU%%, "
								     "Loads, LCPU%%, Ratio); the block ends here");
				header = false; /* a blank line or prose ends the block */
				continue;
			}
			if (pass == 0) {
				bool seen = false;
				for (int i = 0; i < nk; i++)
					seen = seen || !strcmp(k[i].name, kernel);
				if (!seen && nk < MAX_KERNELS)
					snprintf(k[nk++].name, sizeof k[0].name, "%s", kernel);
				continue;
			}
			struct test_result *t = kernel_test(s, k, &nk, kernel);
			if (!t) {
				import_warn(s, s->lines[li], "more than %d kernels; %s ignored", MAX_KERNELS,
					    kernel);
				continue;
			}
			const char *id = buildload_loads[load].id;
			if (test_find_point(t, id)) {
				import_warn(s, s->lines[li], "%s's %s again; the first row kept", kernel, id);
				continue;
			}
			char pn[40], key[64];
			point_push(test_point(t, id, load, "", "s", true, true), v[1]);
			snprintf(pn, sizeof pn, "%s cpu", id);
			point_push(test_point(t, pn, load, "", "%", false, false), v[2]);
			snprintf(pn, sizeof pn, "%s loads", id);
			point_push(test_point(t, pn, load, "", buildload_loads[load].unit, false, false), v[3]);
			snprintf(pn, sizeof pn, "%s lcpu", id);
			point_push(test_point(t, pn, load, "", "%", true, false), v[4]);
			snprintf(pn, sizeof pn, "%s ratio", id);
			point_push(test_point(t, pn, load, "", "", true, false), v[5]);
			snprintf(key, sizeof key, "runs %s", id);
			test_summary_set(t, key, v[0], NULL);
		}
		if (pass == 0) {
			nkernels = nk;
			nk = 0;
		}
	}
	for (int i = 0; i < nk; i++) {
		char rn[200];
		if (name)
			snprintf(rn, sizeof rn, nkernels > 1 ? "%s %s" : "%s", name, k[i].name);
		k[i].t->nsamples = 0;
		import_finish_run(s, k[i].r, name ? rn : NULL);
	}
}
