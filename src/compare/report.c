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

void report_points(FILE *f, const struct test_result *t)
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

	for (int i = 0; family_list[i]; i++) /* UnixBench's tables, the rate tests' */
		if (family_list[i]->print_block)
			family_list[i]->print_block(f, r, b);
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		if (!test_has_result(t))
			continue;
		const struct family *fam = test_result_family(t);
		if (fam->print) {
			fam->print(f, t, r);
		} else if (t->kind == RESULT_POINTS) {
			report_points(f, t);
			fputc('\n', f);
		}
	}
	for (int i = 0; i < b->ntests; i++) {
		const struct test_result *t = &b->tests[i];
		if (t->status == TEST_FAILED)
			fprintf(f, "Failed: %s (%s)\n\n", t->label, t->reason);
		else if (t->status == TEST_SKIPPED)
			fprintf(f, "Skipped: %s (%s)\n\n", t->label, t->reason[0] ? t->reason : "skipped");
	}
}

void report_print(FILE *f, const struct run *r)
{
	report_header(f, r);
	for (int i = 0; i < r->nblocks; i++)
		report_block(f, r, &r->blocks[i]);
	for (int i = 0; family_list[i]; i++) /* their tables of the whole run */
		if (family_list[i]->print_run)
			family_list[i]->print_run(f, r);
	if (r->incomplete)
		fprintf(f, "Incomplete run: stopped before every test had finished.\n\n");
}
