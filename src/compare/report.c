/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The UnixBench text report (UNIXBENCH.md §8), byte for byte in layout, from a run. */
#include "report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "family.h"
#include "run.h"
#include "tests.h"
#include "score.h"
#include "wrap.h"

#define UNIXBENCH_VERSION "6.0.0"

/* A fact for kbench's header lines: "unknown" when empty; control characters
 * (a --tmpdir holding a newline) as '?', so each fact stays on its line. */
static void put_fact(FILE *f, const char *s)
{
	if (!*s)
		s = "unknown";
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static unsigned long long mib(uint64_t kib)
{
	unsigned long long m = (kib + 512) / 1024;
	return m || !kib ? m : 1; /* a little swap is not "none" */
}

/* kbench's lines after UnixBench's header, in its style: where the file tests
 * wrote and the settings a reader of a result asks about first. A run that
 * did not record them (an imported log, a 1.0 file) prints neither line.
 * `kbench import` reads both back (src/store/import_facts.c). */
static void env_lines(FILE *f, const struct run_meta *m)
{
	if (m->scratch_dir[0] || m->fs_type[0]) {
		fputs("   Storage: ", f);
		put_fact(f, m->scratch_dir);
		if (m->fs_type[0] && strcmp(m->fs_type, "unknown") != 0) {
			fputs(" on ", f);
			put_fact(f, m->fs_type);
			fputs(" (", f);
			put_fact(f, m->fs_options);
			fputs(") ", f);
			put_fact(f, m->fs_source);
			fputs(", scheduler ", f);
			put_fact(f, m->io_scheduler);
		} else {
			fputs(" (filesystem unknown)", f);
		}
		fputc('\n', f);
	}
	if (m->clocksource[0] || m->thp_enabled[0] || m->swap_known) {
		fputs("   Kernel settings: clocksource ", f);
		put_fact(f, m->clocksource);
		fputs(", THP ", f);
		put_fact(f, m->thp_enabled);
		fputs(" (defrag ", f);
		put_fact(f, m->thp_defrag);
		fputs(")", f);
		if (m->mem_kib)
			fprintf(f, ", memory %llu MiB", mib(m->mem_kib));
		fputs(", swap ", f);
		if (!m->swap_known)
			fputs("unknown", f);
		else if (!m->swap_total_kib)
			fputs("none", f);
		else
			fprintf(f, "%llu MiB (%llu MiB used)", mib(m->swap_total_kib), mib(m->swap_used_kib));
		fputc('\n', f);
	}
}

void report_header(FILE *f, const struct run *r)
{
	const struct run_meta *m = &r->meta;
	fprintf(f, "   BYTE UNIX Benchmarks (Version %s)\n\n", UNIXBENCH_VERSION);
	fprintf(f, "   System: %s: %s\n", m->hostname, m->os);
	fprintf(f, "   OS: %s -- %s -- %s\n", m->os, m->kernel_release, m->kernel_version);
	fprintf(f, "   Machine: %s (unknown)\n", m->machine);
	fprintf(f, "   Language: %s (charmap=%s, collate=%s)\n", m->lang, m->charmap, m->collate);
	for (int i = 0; i < m->ncpus; i++) {
		fprintf(f, "   CPU %d: %s (%.1f bogomips)\n", i, m->cpu_model, m->bogomips);
		fprintf(f, "          %s\n", m->cpu_flags);
	}
	fprintf(f, "   %s; runlevel \n", m->uptime);
	env_lines(f, m);
	fputc('\n', f);
}

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static int by_label(const void *a, const void *b)
{
	const struct test_result *x = *(const struct test_result *const *)a;
	const struct test_result *y = *(const struct test_result *const *)b;
	return strcmp(x->label, y->label);
}

static bool reportable(const struct test_result *t)
{
	return (t->status == TEST_DONE || t->status == TEST_IMPORTED) && t->score > 0;
}

/* One category's index table. For "system" the index and fullness come from
 * the block (score_block); other categories are computed here, always partial. */
static void index_table(FILE *f, const struct test_result **sorted, int n, const char *category,
			const struct run_block *b)
{
	bool system = !strcmp(category, "system");
	int rows = 0, with_base = 0;
	double ratios[64];
	for (int i = 0; i < n; i++) {
		if (strcmp(sorted[i]->category, category) != 0)
			continue;
		rows++;
		if (sorted[i]->baseline > 0 && with_base < 64)
			ratios[with_base++] = sorted[i]->score / sorted[i]->baseline;
	}
	if (!rows)
		return;
	bool partial = system ? b->index_partial : true;
	double idx = system ? b->index_score : 10.0 * score_geomean(ratios, (size_t)with_base, 1e-6);
	const char *header = !system ? "Non-Index Benchmarks"
			     : partial ? "System Benchmarks Partial Index"
				       : "System Benchmarks Index Values";
	fprintf(f, "%-40s %12s %12s %8s\n", header, "BASELINE", "RESULT", "INDEX");
	for (int i = 0; i < n; i++) {
		const struct test_result *t = sorted[i];
		if (strcmp(t->category, category) != 0)
			continue;
		if (t->baseline > 0)
			fprintf(f, "%-40s %12.1f %12.1f %8.1f\n", t->label, t->baseline, t->score,
				score_index(t->score, t->baseline));
		else
			fprintf(f, "%-40s %12s %12.1f %8s\n", t->label, "---", t->score, "---");
	}
	if (!with_base) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "%-40s %12s %12s %8s\n", "", "", "", "========");
	const char *title = !system ? "Non-Index Benchmarks Index Score (Partial Only)"
			    : partial ? "System Benchmarks Index Score (Partial Only)"
				      : "System Benchmarks Index Score";
	fprintf(f, "%-66s %8.1f\n\n", title, idx);
}

/* A quick run says how precise each score is and what stopped the test: its precision
 * (each test until its interval was within it), or the index allocation (the samples
 * shared out to narrow the index's interval most in the seconds given, in rounds). */
static void quick_table(FILE *f, const struct run_block *b)
{
	const struct test_result *first = NULL;
	for (int i = 0; i < b->ntests && !first; i++)
		if (test_summary_get(&b->tests[i], "quick_precision_asked") || test_summary_get(&b->tests[i], "quick_alloc"))
			first = &b->tests[i];
	if (!first)
		return;
	const struct kv *asked = test_summary_get(first, "quick_precision_asked");
	if (asked)
		fprintf(f, "Quick run: each test stopped once its 95%% interval was within +-%.1f%%\n", asked->value * 100);
	else
		fprintf(f, "Quick run: samples in rounds, shared out to narrow the index's interval most in %.0f s\n",
			test_summary_get(first, "quick_alloc")->value);
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		const struct kv *p = test_summary_get(t, "quick_precision");
		const struct kv *why = test_summary_get(t, "quick_stop");
		const struct kv *secs = test_summary_get(t, "quick_seconds");
		if (t->status != TEST_DONE || !why)
			continue;
		char prec[16];
		if (p)
			snprintf(prec, sizeof prec, "+-%.2f%%", p->value * 100);
		else
			snprintf(prec, sizeof prec, "n/a");
		fprintf(f, "  %-40s %9s %4d samples %6.1f s%s\n", t->label, prec, t->nsamples,
			secs ? secs->value : 0,
			!strcmp(why->text, "precise") || !strcmp(why->text, "allocated")
				? ""
				: "  (limit reached before the precision)");
	}
	fputc('\n', f);
}

/* Where a pair test's processes ran (context1: on one CPU, or each wake-up
 * crossing to another): the split over its samples, since the two read
 * several times apart and a run holding both is two measurements. */
static void placement_lines(FILE *f, const struct run_block *b)
{
	bool any = false;
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		int n[PLACE_COUNT] = { 0 };
		for (int s = 0; s < t->nsamples; s++)
			n[sample_placement(&t->samples[s])]++;
		if (!reportable(t) || n[PLACE_UNKNOWN] == t->nsamples)
			continue;
		fprintf(f, "Placement: %s: each pair on one CPU in %d of %d samples, on two CPUs in %d", t->id,
			n[PLACE_ONE], t->nsamples, n[PLACE_TWO]);
		if (n[PLACE_MIXED])
			fprintf(f, ", mixed in %d", n[PLACE_MIXED]);
		fputc('\n', f);
		any = true;
	}
	if (any)
		fputc('\n', f);
}

/* The x of a point as its family says it (memlat: bytes as KiB/MiB), else the number and unit. */
static void fmt_x(char *buf, size_t size, const struct family *fam, const struct point *p)
{
	if (fam->fmt_x && fam->fmt_x(buf, size, p))
		return;
	if (p->xunit[0] || p->x != 0)
		snprintf(buf, size, "%g %s", p->x, p->xunit);
	else
		snprintf(buf, size, "%s", "");
}

/* A points result (run.h) is no UnixBench rate: its headline points as a
 * table of their own, mean over the samples and their spread (for a family
 * without a layout of its own), then its family's notes. */
static void points_table(FILE *f, const struct test_result *t)
{
	const struct family *fam = test_result_family(t);
	int nsum = 0;
	for (int i = 0; i < t->npoints; i++)
		nsum += t->points[i].summary;
	char title[400];
	snprintf(title, sizeof title, "%s: %d of its points, mean of %d sample%s%s", t->label, nsum, t->nsamples,
		 t->nsamples == 1 ? "" : "s", t->status == TEST_DONE ? "" : " (cut short: finished points kept)");
	print_wrapped(f, title, 0, 2, 79);
	fprintf(f, "  %-16s %12s %12s %-9s %8s\n", "point", "at", "value", "unit", "+-");
	for (int i = 0; i < t->npoints; i++) {
		const struct point *p = &t->points[i];
		if (!p->summary)
			continue;
		char x[32], sd[16] = "---";
		fmt_x(x, sizeof x, fam, p);
		double spread = point_spread(p);
		if (spread >= 0)
			snprintf(sd, sizeof sd, "%.1f%%", spread * 100);
		fprintf(f, "  %-16s %12s %12.4g %-9s %8s\n", p->name, x, point_mean(p), p->unit, sd);
	}
	/* which way is better, once per unit; wrapped to 80 columns */
	char line[1024];
	int u = snprintf(line, sizeof line, "(");
	for (int i = 0, said = 0; i < t->npoints && u > 0 && (size_t)u < sizeof line; i++) {
		const struct point *p = &t->points[i];
		bool seen = false;
		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(t->points[k].unit, p->unit) &&
			       t->points[k].lower_better == p->lower_better;
		if (seen)
			continue;
		u += snprintf(line + u, sizeof line - (size_t)u, "%s%s: %s is better", said++ ? ", " : "",
			      p->unit[0] ? p->unit : "value", p->lower_better ? "lower" : "higher");
	}
	if (u > 0 && (size_t)u < sizeof line)
		snprintf(line + u, sizeof line - (size_t)u, "; %d curve points in the run file: kbench export --format csv)",
			 t->npoints - nsum);
	fputs("  ", f);
	print_wrapped(f, line, 2, 3, 79);
	if (fam->report_notes)
		fam->report_notes(f, t);
	fputc('\n', f);
}

void report_block(FILE *f, const struct run *r, const struct run_block *b)
{
	char day[64], t0[16], t1[16];
	struct tm tm;
	time_t start = b->start ? b->start : r->meta.date, end = b->end ? b->end : start;
	localtime_r(&start, &tm);
	strftime(day, sizeof day, "%a %b %d %Y", &tm);
	strftime(t0, sizeof t0, "%H:%M:%S", &tm);
	localtime_r(&end, &tm);
	strftime(t1, sizeof t1, "%H:%M:%S", &tm);
	for (int i = 0; i < 72; i++)
		fputc('-', f);
	fputc('\n', f);
	fprintf(f, "Benchmark Run: %s %s - %s\n", day, t0, t1);
	fprintf(f, "%d %s in system; running %d parallel %s of tests\n\n", r->meta.ncpus,
		plural(r->meta.ncpus, "CPU", "CPUs"), b->copies, plural(b->copies, "copy", "copies"));

	const struct test_result **sorted = calloc((size_t)b->ntests + 1, sizeof *sorted);
	if (!sorted)
		return;
	int n = 0;
	for (int i = 0; i < b->ntests; i++)
		if (reportable(&b->tests[i]))
			sorted[n++] = &b->tests[i];
	qsort(sorted, (size_t)n, sizeof *sorted, by_label);
	for (int i = 0; i < n; i++) {
		const struct test_result *t = sorted[i];
		fprintf(f, "%-40s %12.1f %-5s (%.1f s, %d samples)\n", t->label, t->score, t->unit, t->time,
			t->kept);
	}
	fputc('\n', f);
	index_table(f, sorted, n, "system", b);
	index_table(f, sorted, n, "misc", b);
	if (r->meta.mode == RUN_MODE_QUICK)
		quick_table(f, b);
	placement_lines(f, b);
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		if (t->kind != RESULT_POINTS || !test_has_result(t))
			continue;
		const struct family *fam = test_result_family(t);
		if (!fam->report_test || !fam->report_test(f, t, r)) /* its own layout, else ours */
			points_table(f, t);
	}
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		if (t->status == TEST_FAILED)
			fprintf(f, "Failed: %s (%s)\n\n", t->label, t->reason);
		else if (t->status == TEST_SKIPPED)
			fprintf(f, "Skipped: %s (%s)\n\n", t->label, t->reason[0] ? t->reason : "skipped");
	}
	free(sorted);
}

void report_print(FILE *f, const struct run *r)
{
	report_header(f, r);
	for (int i = 0; i < r->nblocks; i++)
		report_block(f, r, &r->blocks[i]);
	for (int i = 0; family_list[i]; i++) /* their tables of the whole run */
		if (family_list[i]->report_run)
			family_list[i]->report_run(f, r);
	if (r->incomplete)
		fprintf(f, "Incomplete run: stopped before every test had finished.\n\n");
}
