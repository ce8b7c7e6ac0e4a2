/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench import`: published UnixBench results, pasted tables, other families' logs and other machines' run files, stored as runs (a run file once). */
#include "commands.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "import.h"
#include "options.h"
#include "run.h"
#include "store.h"

extern const struct opt_command cmd_import_entry;

static int check_import_name(const char *opt, const char *arg, char *err, size_t errlen)
{
	if (!*arg || strlen(arg) >= sizeof(((struct run_meta *)0)->name)) {
		snprintf(err, errlen, "%s wants 1 to %zu characters", opt,
			 sizeof(((struct run_meta *)0)->name) - 1);
		return -1;
	}
	return 0;
}

/* Its one option lands in the name it gives the stored runs. */
static const struct opt_def import_rows[] = {
	{ .name = "name", .short_name = 'n', .kind = OK_STRING,
	  .arg = "NAME", .what = "a name",
	  .help = "the stored runs' name (default: from the file)",
	  .check = check_import_name, .lands = OL_OWN, .off = 0 },
	{ .name = NULL },
};

static int import_exec(int argc, char **argv)
{
	struct opt_parsed p;
	const char *name = NULL;
	int rc = opts_take(&cmd_import_entry, argc, argv, &p, NULL, &name);
	if (rc >= 0)
		return rc;
	char err[512];
	if (p.noperands == 0) {
		opts_free(&p);
		return usage_error("usage: kbench import FILE... [--name NAME]");
	}
	int failed = 0;
	for (int i = 0; i < p.noperands; i++) {
		const char *file = p.operand[i];
		struct import_result res;
		if (import_file(file, name, &res, err, sizeof err) < 0) {
			fprintf(stderr, "kbench: %s\n", err);
			failed++;
			continue;
		}
		for (int w = 0; w < res.nwarnings; w++)
			fprintf(stderr, "kbench: warning: %s\n", res.warnings[w]);
		for (int k = 0; k < res.nruns; k++) {
			struct run *r = res.runs[k];
			if (res.runfile) {
				/* A run from another store: once only, under its own id when that is free. */
				char same[16];
				int found = store_find_same(r, same, sizeof same, err, sizeof err);
				if (found < 0) {
					fprintf(stderr, "kbench: %s\n", err);
					failed++;
					continue;
				}
				if (found) {
					printf("%s: run %s (%s, measured on %s) is already stored as %s; not imported again\n",
					       file, r->meta.id, r->meta.name, r->meta.hostname[0] ? r->meta.hostname : "?",
					       same);
					continue;
				}
				char path[4200];
				snprintf(path, sizeof path, "%s/%s.json", store_dir(), r->meta.id);
				if (!store_id_valid(r->meta.id) || access(path, F_OK) == 0)
					r->meta.id[0] = 0; /* another run's id here: store_save makes a new one */
			}
			if (store_save(r, err, sizeof err) < 0) {
				fprintf(stderr, "kbench: %s: %s\n", file, err);
				failed++;
				continue;
			}
			printf("imported %s as %s (%s", file, r->meta.id, r->meta.name);
			if (res.runfile)
				printf(", %s run from %s", run_mode_info(r->meta.mode)->name, r->meta.hostname[0] ? r->meta.hostname : "?");
			printf("): %d block%s", r->nblocks, r->nblocks == 1 ? "" : "s");
			for (int b = 0; b < r->nblocks; b++)
				printf("%s%d cop%s index %.1f", b ? "; " : " (", r->blocks[b].copies,
				       r->blocks[b].copies == 1 ? "y" : "ies", r->blocks[b].index_score);
			printf("%s\n", r->nblocks ? ")" : "");
		}
		import_result_free(&res);
	}
	opts_free(&p);
	return failed ? 1 : 0;
}

const struct opt_command cmd_import_entry = {
	.name = "import", .args = "FILE... [--name NAME]", .about = "store published UnixBench results, or other machines' runs",
	.text = "Stores UnixBench 5.x/6.x logs (whole, pasted in part, or collapsed onto one\n"
		"line) and pasted result tables (markdown, tab or space separated) as runs,\n"
		"and kbench run files (export --format json) from other machines as they\n"
		"were measured, hostname kept, each once.",
	.operand = "files", .options = import_rows, .exec = import_exec,
};
