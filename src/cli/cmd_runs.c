/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands over the store's list: runs (filters, --size) and delete (by filter, with a confirmation). */
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

/* Parses a command's options from the table; -1 to go on, else the exit code. */
static int parse(const char *cmd, int argc, char **argv, struct opt_parsed *p)
{
	return opts_parse(opts_command(cmd), argc, argv, p);
}

static void date_text(char *buf, size_t size, time_t t)
{
	struct tm tm;
	if (!t || !localtime_r(&t, &tm))
		snprintf(buf, size, "?");
	else
		strftime(buf, size, "%Y-%m-%d %H:%M", &tm);
}

/* The filter rows of runs and delete, from the parsed options; -1, or a usage error's exit code. */
static int filter_from(const struct opt_parsed *p, struct store_filter *f)
{
	memset(f, 0, sizeof *f);
	for (int k = 0; k < p->n; k++) {
		const struct opt_item *it = &p->item[k];
		switch (it->def->id) {
		case O_SEL_KERNEL: f->kernel = it->arg; break;
		case O_SEL_NAME: f->name = it->arg; break;
		case O_SEL_TESTS: f->tests = it->arg; break;
		case O_SEL_MODE: f->mode = it->arg; break;
		case O_SINCE: f->has_since = store_parse_date(it->arg, false, &f->since) == 0; break;
		case O_UNTIL: f->has_until = store_parse_date(it->arg, true, &f->until) == 0; break;
		default: break;
		}
	}
	return -1;
}

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
	date_text(date, sizeof date, e->date);
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

int cmd_runs(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = parse("runs", argc, argv, &p);
	if (rc >= 0)
		return rc;
	struct store_filter f;
	filter_from(&p, &f);
	long limit = 0;
	bool size = false;
	for (int k = 0; k < p.n; k++) {
		if (p.item[k].def->id == O_LIMIT)
			limit = p.item[k].i;
		if (p.item[k].def->id == O_STORE_SIZE)
			size = true;
	}
	rc = p.noperands ? usage_error("runs takes no arguments (got '%s')", p.operand[0]) : -1;
	if (rc >= 0) {
		opts_free(&p);
		return rc;
	}
	char err[512];
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

/* kbench delete with filters: the runs they select, listed, then removed after a yes. */
static int delete_selected(const struct store_filter *f, bool yes)
{
	char err[512];
	struct store_list l;
	if (store_list(&l, err, sizeof err) < 0)
		return runtime_error("%s", err);
	int n = 0;
	for (int i = 0; i < l.n; i++)
		if (store_filter_match(f, &l.e[i])) {
			char date[32];
			date_text(date, sizeof date, l.e[i].date);
			printf("%-8s  %-20.20s %-16s %s\n", l.e[i].id, l.e[i].name, date, l.e[i].kernel);
			n++;
		}
	if (!n) {
		store_list_free(&l);
		printf("no stored run matches; nothing deleted\n");
		return 0;
	}
	if (!yes) {
		if (!isatty(STDIN_FILENO)) {
			store_list_free(&l);
			fprintf(stderr, "kbench: %d run%s would be deleted: confirm on a terminal, or add --yes\n", n,
				n == 1 ? "" : "s");
			return 1;
		}
		printf("Delete these %d run%s for good? [y/N] ", n, n == 1 ? "" : "s");
		fflush(stdout);
		char answer[16] = "";
		if (!fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
			store_list_free(&l);
			printf("nothing deleted\n");
			return 1;
		}
	}
	int failed = 0, done = 0;
	for (int i = 0; i < l.n; i++) {
		if (!store_filter_match(f, &l.e[i]))
			continue;
		char path[4400];
		snprintf(path, sizeof path, "%s/%s", store_dir(), l.e[i].file);
		if (unlink(path) < 0 && errno != ENOENT) {
			fprintf(stderr, "kbench: cannot delete %s: %s\n", path, strerror(errno));
			failed++;
		} else {
			done++;
		}
	}
	store_list_free(&l);
	printf("deleted %d run%s\n", done, done == 1 ? "" : "s");
	return failed ? 1 : 0;
}

int cmd_delete(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = parse("delete", argc, argv, &p);
	if (rc >= 0)
		return rc;
	struct store_filter f;
	filter_from(&p, &f);
	bool yes = false;
	for (int k = 0; k < p.n; k++)
		if (p.item[k].def->id == O_YES)
			yes = true;
	const char *spec = p.noperands ? p.operand[0] : NULL;
	int nops = p.noperands;
	if (!store_filter_empty(&f)) {
		rc = nops ? usage_error("delete takes a RUN or filters, not both") : delete_selected(&f, yes);
		opts_free(&p);
		return rc;
	}
	if (nops != 1) {
		opts_free(&p);
		return usage_error("usage: kbench delete RUN, or kbench delete FILTERS [--yes]");
	}
	char err[512], id[16];
	rc = store_delete(spec, id, sizeof id, err, sizeof err);
	opts_free(&p);
	if (rc < 0)
		return runtime_error("%s", err);
	printf("deleted run %s\n", id);
	return 0;
}
