/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of export formats, each a row of its name and writers (the writers that are only a way of exporting, one run's CSV, are here too). */
#include "export.h"

#include <stdbool.h>
#include <string.h>

#include "compare.h"
#include "lava.h"
#include "paste.h"
#include "report.h"
#include "run.h"
#include "runfile.h"

static int run_json(FILE *f, const struct run *r, const void *arg, char *err, size_t errlen)
{
	return runfile_write(f, r, err, errlen) < 0 ? -1 : 0;
}

static int pair_json(FILE *f, const struct compare *c, const void *arg, char *err, size_t errlen)
{
	if (compare_print_json(f, c) < 0) {
		snprintf(err, errlen, "cannot encode the comparison as JSON (out of memory)");
		return -1;
	}
	return 0;
}

/* One line per copy of each sample of a rate test; one line per sample
 * value of each point of a points test (test, point name as label, its
 * unit, mean as score, values kept, relative sd as spread, the value as
 * count), with the point's x, its unit and which way is better in the
 * last three columns (empty for a rate test). */
static int run_csv(FILE *f, const struct run *r, const void *arg, char *err, size_t errlen)
{
	fprintf(f, "copies,test,label,unit,status,score,index,baseline,time,kept,spread,sample,copy,count,elapsed,x,xunit,better\n");
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			if (t->kind == RESULT_POINTS) {
				for (int k = 0; k < t->npoints; k++) {
					const struct point *p = &t->points[k];
					for (int s = 0; s < p->n; s++)
						fprintf(f, "%d,%s,\"%s\",%s,%s,%.10g,,,,%d,%.6g,%d,,%.10g,,%.10g,%s,%s\n",
							bl->copies, t->id, p->name, p->unit,
							test_status_name(t->status), point_mean(p), p->n,
							point_spread(p), s + 1, p->v[s], p->x, p->xunit,
							p->lower_better ? "lower" : "higher");
				}
				continue;
			}
			/* One line per copy of each sample; a test without samples still gets a line. */
			int ns = t->nsamples ? t->nsamples : 1;
			for (int s = 0; s < ns; s++) {
				int nc = t->nsamples ? t->samples[s].copies : 1;
				for (int c = 0; c < nc; c++) {
					fprintf(f, "%d,%s,\"%s\",%s,%s,%.10g,%.10g,%.10g,%.10g,%d,%.6g,", bl->copies,
						t->id, t->label, t->unit, test_status_name(t->status), t->score,
						t->index, t->baseline, t->time, t->kept, t->spread);
					if (t->nsamples)
						fprintf(f, "%d,%d,%.10g,%.10g,,,\n", s + 1, c + 1,
							t->samples[s].count[c], t->samples[s].elapsed[c]);
					else
						fprintf(f, ",,,,,,\n");
				}
			}
		}
		fprintf(f, "%d,index,\"System Benchmarks Index Score\",,%s,,%.10g,,,,,,,,,,,\n", bl->copies,
			bl->index_partial ? "partial" : "full", bl->index_score);
	}
	return 0;
}

static int pair_csv(FILE *f, const struct compare *c, const void *arg, char *err, size_t errlen)
{
	compare_print_csv(f, c);
	return 0;
}

static int run_unixbench(FILE *f, const struct run *r, const void *arg, char *err, size_t errlen)
{
	report_print(f, r);
	return 0;
}

static int run_paste(FILE *f, const struct run *r, const void *layout, char *err, size_t errlen)
{
	paste_run(f, r, layout);
	return 0;
}

static int pair_paste(FILE *f, const struct compare *c, const void *layout, char *err, size_t errlen)
{
	paste_compare(f, c, layout);
	return 0;
}

static int run_lava(FILE *f, const struct run *r, const void *arg, char *err, size_t errlen)
{
	lava_print(f, r);
	return 0;
}

const struct export_format export_formats[] = {
	{ .name = "json", .run = run_json, .pair = pair_json },
	{ .name = "csv", .run = run_csv, .pair = pair_csv },
	{ .name = "unixbench", .note = "UnixBench's text report", .run = run_unixbench },
	{ .name = "markdown", .run = run_paste, .pair = pair_paste, .arg = &paste_markdown },
	{ .name = "text", .run = run_paste, .pair = pair_paste, .arg = &paste_text },
	{ .name = "bbcode", .note = "tables to paste", .run = run_paste, .pair = pair_paste, .arg = &paste_bbcode },
	{ .name = "lava", .note = "lava-test-case lines", .run = run_lava },
};
const size_t export_format_count = sizeof export_formats / sizeof export_formats[0];

const struct export_format *export_format_find(const char *name)
{
	for (size_t i = 0; i < export_format_count; i++)
		if (!strcmp(export_formats[i].name, name))
			return &export_formats[i];
	return NULL;
}

void export_format_names(char *buf, size_t len, bool pairs)
{
	size_t n = 0, k = 0, u;
	buf[0] = '\0';
	for (size_t i = 0; i < export_format_count; i++)
		n += !pairs || export_formats[i].pair;
	for (size_t i = 0; i < export_format_count; i++) {
		if (pairs && !export_formats[i].pair)
			continue;
		u = strlen(buf);
		snprintf(buf + u, len - u, "%s%s", !k ? "" : !pairs ? " " : k + 1 == n ? " or " : ", ",
			 export_formats[i].name);
		k++;
	}
}
