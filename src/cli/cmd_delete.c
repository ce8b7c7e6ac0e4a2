/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench delete`: one stored run, or the runs kbench runs' filters select, listed and removed after a yes. */
#include "commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "store.h"

extern const struct opt_command cmd_delete_entry;

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
			cli_date_text(date, sizeof date, l.e[i].date);
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

/* kbench delete's options: the filters of kbench runs (their rows are runs'), then --yes. */
struct delete_opts {
	struct store_filter f;
	bool yes;
};

static const struct opt_def delete_rows[] = {
	{ .name = "yes", .short_name = 'y', .kind = OK_FLAG,
	  .help = "delete the runs a filter selects without asking",
	  OPT_OWN(struct delete_opts, yes) },
	{ .name = NULL },
};

static int delete_exec(int argc, char **argv)
{
	struct opt_parsed p;
	struct delete_opts o = { 0 };
	int rc = opts_take(&cmd_delete_entry, argc, argv, &p, NULL, &o);
	if (rc >= 0)
		return rc;
	char err[512];
	const struct store_filter f = o.f;
	bool yes = o.yes;
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
	char id[16];
	rc = store_delete(spec, id, sizeof id, err, sizeof err);
	opts_free(&p);
	if (rc < 0)
		return runtime_error("%s", err);
	printf("deleted run %s\n", id);
	return 0;
}

const struct opt_command cmd_delete_entry = {
	.name = "delete", .bit = OC_DELETE, .args = "RUN | filters [--yes]",
	.about = "remove a stored run, or the runs a filter selects",
	.text = "Removes one stored run, or every run the filters select (those of 'kbench runs'\n"
		"with the same filters) after listing them and asking; --yes does not ask.",
	.operand = "runs", .options = delete_rows, .exec = delete_exec,
};
