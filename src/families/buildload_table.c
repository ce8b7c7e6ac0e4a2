/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build under load's text: contest's table layout, the report's blocks and the comparison's, with intervals and verdicts. */
#include "buildload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "kbuild.h"
#include "run.h"
#include "wrap.h"

/* ---- contest's table ----
 * contest printed one block per load:
 *
 *   no_load:
 *   Kernel         [runs]   Time    CPU%    Loads   LCPU%   Ratio
 *   2.5.70              1   79      94.9    0.0     0.0     1.00
 *
 * kbench keeps the columns and their order, and adds the interval and the
 * verdict on the right, so an old post's rows paste beside its own. */

void buildload_fmt_header(char *buf, size_t len, bool verdicts)
{
	snprintf(buf, len, "%-15s%-9s%-8s%-8s%-8s%-8s%-7s%s", "Kernel", "[runs]", "Time", "CPU%",
		 "Loads", "LCPU%", "Ratio", verdicts ? "  +-      verdict" : "");
	for (size_t n = strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
		buf[n - 1] = '\0';
}

static void num(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

void buildload_fmt_cells(const struct buildload_row *row, struct buildload_cells *c)
{
	snprintf(c->runs, sizeof c->runs, "%d", row->runs);
	num(c->time, sizeof c->time, row->time >= 100 ? "%.0f" : "%.1f", row->time);
	num(c->cpu, sizeof c->cpu, "%.1f", row->cpu);
	num(c->loads, sizeof c->loads, row->loads >= 1000 ? "%.0f" : "%.1f", row->loads);
	num(c->lcpu, sizeof c->lcpu, "%.1f", row->lcpu);
	num(c->ratio, sizeof c->ratio, "%.2f", row->ratio);
}

void buildload_fmt_row(char *buf, size_t len, const char *kernel, int runs, double time,
		       double cpu, double loads, double lcpu, double ratio, const char *pm,
		       const char *verdict)
{
	struct buildload_cells c;
	buildload_fmt_cells(&(struct buildload_row){ .kernel = kernel, .runs = runs, .time = time,
						     .cpu = cpu, .loads = loads, .lcpu = lcpu,
						     .ratio = ratio },
			    &c);
	int w = snprintf(buf, len, "%-15.15s%6d   %-8s%-8s%-8s%-8s%-7s", kernel, runs, c.time, c.cpu,
			 c.loads, c.lcpu, c.ratio);
	if (w > 0 && (size_t)w < len && (pm || verdict))
		snprintf(buf + w, len - (size_t)w, "  %-8s%s", pm ? pm : "", verdict ? verdict : "");
	for (size_t n = strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
		buf[n - 1] = '\0';
}

static double pmean(const struct test_result *t, int load, const char *suffix)
{
	char pn[32];
	buildload_point_name(pn, sizeof pn, load, suffix);
	return point_mean(test_find_point(t, pn));
}

bool buildload_is(const struct test_result *t)
{
	return t && t->kind == RESULT_POINTS && test_result_family(t) == &family_buildload &&
	       test_has_result(t);
}

void buildload_fmt_title(char *buf, size_t len, const struct test_result *t)
{
	const struct kv *tree = test_summary_get(t, "build tree");
	snprintf(buf, len, "%s: %s%s", t->label, tree ? tree->text : "a build tree",
		 t->status == TEST_DONE || t->status == TEST_IMPORTED
			 ? ""
			 : " (cut short: finished builds kept)");
}

void buildload_fmt_setup(char *buf, size_t len, const struct test_result *t)
{
	const struct kv *jobs = test_summary_get(t, "jobs");
	if (t->status == TEST_IMPORTED) /* contest's posts say nothing of it */
		buf[0] = '\0';
	else
		snprintf(buf, len, "make -j%.0f, CFLAGS %s; %d build%s per load", jobs ? jobs->value : 0,
			 KBUILD_CFLAGS, t->nsamples, t->nsamples == 1 ? "" : "s");
}

bool buildload_test_row(const struct test_result *t, int load, const char *kernel,
			struct buildload_row *row)
{
	char key[64];
	snprintf(key, sizeof key, "refused %s", buildload_loads[load].id);
	const struct kv *ref = test_summary_get(t, key);
	const struct point *p = test_find_point(t, buildload_loads[load].id);
	if (!p && !ref)
		return false;
	*row = (struct buildload_row){ .kernel = kernel, .time = NAN, .cpu = NAN, .loads = NAN,
				       .lcpu = NAN, .ratio = NAN };
	if (!p) {
		row->refused = ref->text;
		return true;
	}
	const struct kv *runs = NULL;
	if (t->status == TEST_IMPORTED) { /* contest's [runs], not samples kbench has */
		snprintf(key, sizeof key, "runs %s", buildload_loads[load].id);
		runs = test_summary_get(t, key);
	}
	row->runs = runs ? (int)runs->value : p->n;
	row->time = point_mean(p);
	row->cpu = pmean(t, load, " cpu");
	row->loads = pmean(t, load, " loads");
	row->lcpu = pmean(t, load, " lcpu");
	row->ratio = pmean(t, load, " ratio");
	if (!isfinite(row->ratio))
		row->ratio = buildload_ratio(row->time, pmean(t, BL_NO_LOAD, ""));
	return true;
}

bool buildload_print_test(FILE *f, const struct test_result *t, const char *kernel)
{
	if (!buildload_is(t))
		return false;
	char line[200];
	buildload_fmt_title(line, sizeof line, t);
	fprintf(f, "%s\n", line);
	buildload_fmt_setup(line, sizeof line, t);
	if (line[0])
		fprintf(f, "  %s\n", line);
	bool io = false;
	for (int i = 0; i < BL_NLOADS; i++) {
		struct buildload_row row;
		if (!buildload_test_row(t, i, kernel, &row))
			continue;
		fprintf(f, "%s:\n", buildload_loads[i].id);
		buildload_fmt_header(line, sizeof line, false);
		fprintf(f, "%s\n", line);
		if (row.refused) {
			fprintf(f, "%-15.15s  %s\n", kernel, row.refused);
			continue;
		}
		io = io || buildload_loads[i].disk;
		buildload_fmt_row(line, sizeof line, kernel, row.runs, row.time, row.cpu, row.loads,
				  row.lcpu, row.ratio, NULL, NULL);
		fprintf(f, "%s\n", line);
	}
	if (t->status != TEST_IMPORTED) {
		fputs("  ", f);
		print_wrapped(f, "Time: s of the build, lower is better; CPU%: the build's; Loads: the load's "
			      "work units in the build's window (laps, archives, MiB, dirs); LCPU%: the load's "
			      "CPU in that window; Ratio: Time / no_load's.", 2, 2, 79);
		if (io) {
			fputs("  ", f);
			print_wrapped(f, "Under the disk loads the build waits for reads behind the load's "
				      "writes: that measures the block layer's read latency during a write flood "
				      "as much as the kernel's scheduler.", 2, 2, 79);
		}
	}
	return true;
}

/* The compare row of a buildload point ("buildload:io_load cpu"), or NULL. */
static const struct compare_row *crow(const struct compare_block *b, int load, const char *suffix)
{
	char id[64];
	snprintf(id, sizeof id, "buildload:%s%s", buildload_loads[load].id, suffix);
	for (int i = 0; i < b->nrows; i++)
		if (!strcmp(b->rows[i].id, id))
			return &b->rows[i];
	return NULL;
}

static double side_score(const struct compare_row *r, bool b)
{
	const struct compare_side *s = r ? (b ? &r->b : &r->a) : NULL;
	return s && s->present ? s->score : NAN;
}

bool buildload_compare_row(const struct compare_row *r)
{
	return !strncmp(r->id, "buildload:", 10);
}

int buildload_compare_rows(const struct compare *c, const struct compare_block *b, int load,
			   struct buildload_row rows[2])
{
	const struct compare_row *t = crow(b, load, "");
	int n = 0;
	for (int side = 0; t && side < 2; side++) {
		const struct compare_side *s = side ? &t->b : &t->a;
		if (!s->present)
			continue;
		rows[n++] = (struct buildload_row){
			.kernel = side ? c->b_title : c->a_title,
			.runs = s->nruns * (s->nsamples > 0 ? s->nsamples : 1),
			.time = s->score,
			.cpu = side_score(crow(b, load, " cpu"), side),
			.loads = side_score(crow(b, load, " loads"), side),
			.lcpu = side_score(crow(b, load, " lcpu"), side),
			.ratio = side_score(crow(b, load, " ratio"), side),
			.cmp = side ? t : NULL,
		};
	}
	return n;
}

void buildload_print_compare(FILE *f, const struct compare *c)
{
	bool any = false;
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		for (int i = 0; i < BL_NLOADS; i++) {
			struct buildload_row rows[2];
			int n = buildload_compare_rows(c, b, i, rows);
			if (!n)
				continue;
			char line[240];
			if (!any)
				fprintf(f, "\nBuild under load, in contest's layout (Time in s; +- and verdict: B's "
					   "Time against A's):\n");
			any = true;
			fprintf(f, "%s:\n", buildload_loads[i].id);
			buildload_fmt_header(line, sizeof line, true);
			fprintf(f, "%s\n", line);
			for (int j = 0; j < n; j++) {
				char pm[16] = "", verdict[64] = "";
				if (rows[j].cmp) {
					if (isfinite(rows[j].cmp->change_pm))
						snprintf(pm, sizeof pm, "%.1f%%", rows[j].cmp->change_pm);
					compare_verdict_text(verdict, sizeof verdict, rows[j].cmp);
				}
				buildload_fmt_row(line, sizeof line, rows[j].kernel, rows[j].runs, rows[j].time,
						  rows[j].cpu, rows[j].loads, rows[j].lcpu, rows[j].ratio,
						  rows[j].cmp ? pm : NULL, rows[j].cmp ? verdict : NULL);
				fprintf(f, "%s\n", line);
			}
		}
	}
}
