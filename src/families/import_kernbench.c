/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernbench's result blocks ("Average Half load -j 2 Run (std deviation):" and its lines) as an imported kbuild run. */
#include "import_scan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "import.h"
#include "run.h"
#include "tests.h"

/* kernbench prints, per load, a block of means with their sd:
 *
 *   Average Optimal load -j 8 Run (std deviation):
 *   Elapsed Time 70.51 (0.31)
 *   User Time 240.12 (0.22)
 *   System Time 20.05 (0.10)
 *   Percent CPU 368 (1.2)
 *   Context Switches 19800 (140.2)
 *   Sleeps 24000 (210)
 *
 * (older versions: "Average Half Load Run:" without -j, the -j on a
 * "Half load -j N run number K..." line above). The first line of the log
 * is often the kernel's release. Each block becomes the kbuild points of
 * its -j with the mean as its one value: the runs behind it are not in the
 * log, so its verdicts are n/a, as for an imported UnixBench result. */

static const struct {
	const char *label, *suffix, *unit;
	bool lower_better;
} kb_lines[] = {
	{ "Elapsed Time", "", "s", true },
	{ "User Time", " user", "s", true },
	{ "System Time", " sys", "s", true },
	{ "Percent CPU", " cpu", "%", false },
	{ "Context Switches", " csw", "", true },
	{ "Sleeps", " sleeps", "", true },
};

bool import_is_kernbench(const char *text, size_t len)
{
	const char *end = text + len;
	return import_find(text, end, "Average ") && import_find(text, end, "Elapsed Time ") &&
	       import_find(text, end, "Run (std deviation)");
}

void import_kernbench(struct src *s, const char *name)
{
	const struct test_def *d = test_find("kbuild");
	const char *end = s->text + s->len;
	struct run *r = NULL;
	struct test_result *t = NULL;
	int last_j = 0, blocks = 0;
	for (int li = 0; li < s->nlines; li++) {
		const char *p = s->text + s->lines[li];
		const char *e = li + 1 < s->nlines ? s->text + s->lines[li + 1] : end;
		/* a "-j N" anywhere on a line names the load of the block it starts or precedes */
		const char *jp = import_find(p, e, "-j ");
		double jv;
		if (jp && import_scan_num(jp + 3, e, &jv) && jv >= 1 && jv < 100000)
			last_j = (int)jv;
		if (import_find(p, e, "Run (std deviation)") && import_find(p, e, "Average")) {
			if (!last_j) {
				import_warn(s, s->lines[li], "a kernbench block without its -j; ignored");
				continue;
			}
			if (!r) {
				r = import_new_run(s, name);
				/* the log's first line: the kernel release, when it looks like one */
				const char *f = s->text, *fe = s->nlines > 1 ? s->text + s->lines[1] : end;
				char first[96];
				import_trim_copy(first, sizeof first, f, fe);
				if (first[0] >= '0' && first[0] <= '9' && strchr(first, '.') && !strchr(first, ' '))
					snprintf(r->meta.kernel_release, sizeof r->meta.kernel_release, "%s", first);
				struct run_block *b = run_add_block(r, 1);
				t = run_block_add_test(b, d->id, d->label, d->unit, d->timebase, d->baseline,
						       d->category);
				t->kind = RESULT_POINTS;
				t->status = TEST_IMPORTED;
				test_summary_set(t, "tree", 0, "a kernel tree (kernbench)");
			}
			int found = 0;
			for (int k = li + 1; k < s->nlines && k <= li + 8; k++) {
				const char *q = s->text + s->lines[k];
				const char *qe = k + 1 < s->nlines ? s->text + s->lines[k + 1] : end;
				for (size_t f = 0; f < sizeof kb_lines / sizeof kb_lines[0]; f++) {
					size_t n = strlen(kb_lines[f].label);
					double v, sd;
					const char *after;
					if ((size_t)(qe - q) <= n || strncmp(q, kb_lines[f].label, n) ||
					    !(after = import_scan_num(import_skip_sp(q + n, qe), qe, &v)))
						continue;
					char pn[32];
					snprintf(pn, sizeof pn, "-j%d%s", last_j, kb_lines[f].suffix);
					point_push(test_point(t, pn, last_j, "jobs", kb_lines[f].unit,
							      kb_lines[f].lower_better, f == 0), v);
					after = import_skip_sp(after, qe);
					if (f == 0 && after < qe && *after == '(' &&
					    import_scan_num(after + 1, qe, &sd)) {
						char key[48];
						snprintf(key, sizeof key, "sd %s", pn);
						test_summary_set(t, key, sd, NULL);
					}
					found++;
				}
			}
			if (!found)
				import_warn(s, s->lines[li], "a kernbench block without its Elapsed Time line; ignored");
			else
				blocks++;
			last_j = 0;
		}
	}
	if (r && blocks) {
		t->nsamples = 0;
		import_finish_run(s, r, name);
	} else if (r) {
		run_free(r);
	}
}
