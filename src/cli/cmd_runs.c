/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench runs`: the stored runs, newest first, as the filters (which kbench delete takes too) select them, or how much the store holds. */
#include "commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "run.h"
#include "store.h"

extern const struct opt_command cmd_runs_entry;

/* The run modes' names, from their table (a constructor fills it): a misspelt mode matched no
 * run and said so as if none were stored. */
static char mode_names[128];

__attribute__((constructor)) static void name_modes(void)
{
	for (const struct run_mode_info *const *m = run_mode_list; *m; m++) {
		const char *name = (*m)->name;
		size_t u = strlen(mode_names);
		if (name[0])
			snprintf(mode_names + u, sizeof mode_names - u, "%s%s", u ? " " : "", name);
	}
}

static int check_mode(const char *opt, const char *arg, char *err, size_t errlen)
{
	return opts_one_of(mode_names, opt, arg, err, errlen);
}

/* --since/--until: a date the store's filters take (store_parse_date). */
static int check_date(const char *opt, const char *arg, char *err, size_t errlen)
{
	time_t t;
	if (store_parse_date(arg, false, &t) < 0) {
		snprintf(err, errlen, "%s wants a date, YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (got '%s')", opt, arg);
		return -1;
	}
	return 0;
}

static int store_since(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct store_filter *f = base;
	f->has_since = store_parse_date(it->arg, false, &f->since) == 0;
	return 0;
}

static int store_until(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	struct store_filter *f = base;
	f->has_until = store_parse_date(it->arg, true, &f->until) == 0;
	return 0;
}

/* kbench runs' options: the filters (kbench delete takes them too: both commands' options begin
 * with the filter they fill), the limit and --size. */
struct runs_opts {
	struct store_filter f;
	int limit;
	bool size;
};

#define FILTER(field) .lands = OL_OWN, .off = offsetof(struct store_filter, field), .cmds = OC_DELETE

static const struct opt_def runs_rows[] = {
	{ .name = "kernel", .kind = OK_STRING,
	  .arg = "PATTERN", .what = "a kernel release pattern",
	  .help = "only runs of a kernel release matching PATTERN (shell wildcards: '6.1*')",
	  FILTER(kernel) },
	{ .name = "name", .kind = OK_STRING,
	  .arg = "PATTERN", .what = "a run name pattern",
	  .help = "only runs whose name matches PATTERN (shell wildcards)",
	  FILTER(name) },
	{ .name = "since", .kind = OK_STRING,
	  .arg = "DATE", .what = "a date",
	  .help = "only runs from DATE on (YYYY-MM-DD or 'YYYY-MM-DD HH:MM', local time)",
	  .check = check_date, .lands = OL_OWN, .store = store_since, .cmds = OC_DELETE },
	{ .name = "until", .kind = OK_STRING,
	  .arg = "DATE", .what = "a date",
	  .help = "only runs up to DATE (a day: its end)",
	  .check = check_date, .lands = OL_OWN, .store = store_until, .cmds = OC_DELETE },
	{ .name = "tests", .kind = OK_STRING,
	  .arg = "LIST", .what = "test ids",
	  .help = "only runs holding every test of LIST (comma-separated ids: dhry2reg,pipe)",
	  FILTER(tests) },
	{ .name = "mode", .kind = OK_STRING,
	  .arg = "MODE", .what = "a mode",
	  .help = "only runs of this mode: full, quick, imported, thermal, ...",
	  .choices = mode_names, .check = check_mode, FILTER(mode) },
	{ .name = "limit", .kind = OK_INT,
	  .arg = "N", .what = "a number of runs", .min = 1, .max = 999999,
	  .help = "the newest N runs that match",
	  OPT_OWN(struct runs_opts, limit) },
	{ .name = "size", .kind = OK_FLAG,
	  .help = "how much the store holds: runs, their files' size, the index, by mode",
	  OPT_OWN(struct runs_opts, size) },
	{ .name = NULL },
};

/* kbench runs --size: how much the store holds, and what. */
static int print_size(const struct store_list *l)
{
	struct { char mode[16]; int n; long long bytes; } modes[16];
	int nmodes = 0, broken = 0;
	long long total = 0;
	for (int i = 0; i < l->n; i++) {
		char path[4400];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", store_dir(), l->e[i].file);
		long long b = stat(path, &st) == 0 ? (long long)st.st_size : 0;
		total += b;
		if (l->e[i].error) {
			broken++;
			continue;
		}
		int m = 0;
		while (m < nmodes && strcmp(modes[m].mode, l->e[i].mode))
			m++;
		if (m == nmodes && nmodes < 16) {
			snprintf(modes[nmodes].mode, sizeof modes[nmodes].mode, "%s", l->e[i].mode);
			modes[nmodes].n = 0;
			modes[nmodes++].bytes = 0;
		}
		if (m < nmodes) {
			modes[m].n++;
			modes[m].bytes += b;
		}
	}
	long long ix = 0;
	const char *side[] = { "", "-wal", "-shm" };
	for (int k = 0; k < 3; k++) {
		char path[4400];
		struct stat st;
		snprintf(path, sizeof path, "%s/index.sqlite%s", store_dir(), side[k]);
		if (stat(path, &st) == 0)
			ix += st.st_size;
	}
	printf("%s: %d run%s, %.1f MB of run files, index %.1f MB\n", store_dir(), l->n, l->n == 1 ? "" : "s",
	       total / 1e6, ix / 1e6);
	for (int m = 0; m < nmodes; m++)
		printf("  %-10s %6d run%s %10.1f MB\n", modes[m].mode[0] ? modes[m].mode : "?", modes[m].n,
		       modes[m].n == 1 ? " " : "s", modes[m].bytes / 1e6);
	if (broken)
		printf("  %-10s %6d file%s that do not read as runs\n", "broken", broken, broken == 1 ? "" : "s");
	return 0;
}

/* What a streamed `kbench runs` counts and selects as the rows go by. */
struct runs_print {
	const struct store_filter *f;
	long limit;
	int total, shown, broken;
};

/* One row of `kbench runs`, printed as the index yields it (the header before the first). */
static int print_run(const struct store_entry *e, void *arg)
{
	struct runs_print *rp = arg;
	if (rp->total++ == 0)
		printf("%-8s  %-20s %-16s %-20s %-7s %s\n", "ID", "NAME", "DATE", "KERNEL", "COPIES", "INDEX/TESTS");
	if ((rp->limit && rp->shown >= rp->limit) || !store_filter_match(rp->f, e))
		return 0; /* read on: the total is in the "no run matches" line */
	rp->shown++;
	if (e->error) {
		rp->broken++;
		printf("%-8s  BROKEN: %s\n", e->id, e->error);
		return 0;
	}
	char date[32], copies[64] = "", index[128] = "";
	cli_date_text(date, sizeof date, e->date);
	bool any_index = false;
	for (int b = 0; b < e->nblocks && b < STORE_LIST_BLOCKS; b++) {
		const struct store_block *bl = &e->blocks[b];
		size_t u = strlen(copies), v = strlen(index);
		snprintf(copies + u, sizeof copies - u, "%s%d", b ? "," : "", bl->copies);
		any_index |= bl->index_score > 0;
		if (bl->index_score > 0)
			snprintf(index + v, sizeof index - v, "%s%.1f%s", v ? "  " : "", bl->index_score,
				 bl->index_partial ? "p" : "");
		else
			snprintf(index + v, sizeof index - v, "%s--", v ? "  " : "");
	}
	/* no index in any block (memlat, timerlat, ...): the tests say what it was */
	if (!any_index && e->nblocks)
		snprintf(index, sizeof index, "%s", e->tests);
	const char *flags = e->incomplete ? " (incomplete)" : run_mode_info(run_mode_parse(e->mode))->runs_tag;
	/* A measured run that came in by kbench import: from which machine. */
	char from[160] = "";
	if (e->from_elsewhere)
		snprintf(from, sizeof from, " (from %s)", e->host[0] ? e->host : "?");
	printf("%-8s  %-20.20s %-16s %-20.20s %-7s %s%s%s\n", e->id, e->name, date, e->kernel[0] ? e->kernel : "?",
	       copies, index, flags, from);
	return 0;
}

static int runs_exec(int argc, char **argv)
{
	struct opt_parsed p;
	struct runs_opts o = { 0 };
	int rc = opts_take(&cmd_runs_entry, argc, argv, &p, NULL, &o);
	if (rc >= 0)
		return rc;
	char err[512];
	const struct store_filter f = o.f;
	long limit = o.limit;
	bool size = o.size;
	rc = p.noperands ? usage_error("runs takes no arguments (got '%s')", p.operand[0]) : -1;
	if (rc >= 0) {
		opts_free(&p);
		return rc;
	}
	if (size) {
		struct store_list l;
		if (store_list(&l, err, sizeof err) < 0) {
			opts_free(&p);
			return runtime_error("%s", err);
		}
		rc = print_size(&l);
		store_list_free(&l);
		opts_free(&p);
		return rc;
	}
	/* Streamed: ten thousand runs are printed as they are read, never held. */
	struct runs_print rp = { &f, limit, 0, 0, 0 };
	if (store_each(print_run, &rp, err, sizeof err) < 0) {
		opts_free(&p);
		return runtime_error("%s", err);
	}
	if (rp.total == 0)
		printf("no stored runs in %s ('kbench run' stores one)\n", store_dir());
	if (rp.broken)
		fprintf(stderr, "kbench: %d stored file%s could not be read (listed as BROKEN)\n", rp.broken,
			rp.broken == 1 ? "" : "s");
	if ((!store_filter_empty(&f) || limit) && rp.total && !rp.shown)
		printf("(no stored run matches; %d in %s)\n", rp.total, store_dir());
	opts_free(&p);
	return 0;
}

const struct opt_command cmd_runs_entry = {
	.name = "runs", .args = "[filters] [--limit N] [--size]", .about = "the stored runs, newest first",
	.text = "The stored runs, newest first; the filters (all must hold) choose which.",
	.options = runs_rows, .exec = runs_exec,
};
