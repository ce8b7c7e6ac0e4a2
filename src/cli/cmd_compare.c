/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench compare`: two runs or groups side by side with honest verdicts, as a table, JSON or CSV; and the comparison kbench export writes. */
#include "commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "options.h"
#include "run.h"
#include "store.h"

extern const struct opt_command cmd_compare_entry;

static void free_runs(struct run **v, int n)
{
	for (int i = 0; i < n; i++)
		run_free(v[i]);
	free(v);
}

/* A host: side is titled by its selector: the runs' names say less than where they ran. */
static void host_titles(struct compare *c, const char *spec_a, const char *spec_b)
{
	for (int s = 0; s < 2; s++) {
		const char *spec = s ? spec_b : spec_a;
		if (strncmp(spec, STORE_HOST_PREFIX, strlen(STORE_HOST_PREFIX)) || strchr(spec, ','))
			continue;
		int n = s ? c->nb : c->na;
		const struct compare_ref *r = s ? c->b_runs : c->a_runs;
		char *title = s ? c->b_title : c->a_title;
		if (n == 1)
			snprintf(title, sizeof c->a_title, "%.90s (%s)", spec, r[0].id);
		else
			snprintf(title, sizeof c->a_title, "%.90s (%d runs)", spec, n);
	}
}

/* kbench compare's options; kbench report's begin with the same verdict options (the rows it
 * takes are compare's). */
struct compare_args {
	struct compare_opts verdicts;
	enum { AS_TABLE, AS_JSON, AS_CSV } as; /* the last of --json and --csv given */
	int width;
};

static int as_json(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	((struct compare_args *)base)->as = AS_JSON;
	return 0;
}

static int as_csv(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	((struct compare_args *)base)->as = AS_CSV;
	return 0;
}

static const struct opt_def compare_rows[] = {
	{ .name = "json", .kind = OK_FLAG,
	  .help = "the comparison as JSON",
	  .lands = OL_OWN, .store = as_json },
	{ .name = "csv", .kind = OK_FLAG,
	  .help = "the comparison as CSV",
	  .lands = OL_OWN, .store = as_csv },
	{ .name = "width", .kind = OK_INT,
	  .arg = "N", .what = "a number",
	  .min = 40, .max = 1000,
	  .help = "the table's width in columns (default: the terminal's, else 80)",
	  OPT_OWN(struct compare_args, width) },
	{ .name = "default-noise", .kind = OK_FLAG,
	  .help = "ignore noise floors learned from the store",
	  .cmds = OC_REPORT, OPT_OWN(struct compare_opts, default_noise) },
	{ .name = "confidence", .kind = OK_DOUBLE,
	  .arg = "P", .what = "a level",
	  .min = 0.5, .max = 0.999, .def = "0.95",
	  .help = "the verdicts' confidence level (default 0.95)",
	  .cmds = OC_REPORT, OPT_OWN(struct compare_opts, conf) },
	{ .name = NULL },
};

struct compare *cli_compare(const char *spec_a, const char *spec_b, const struct compare_opts *o, char *err,
			    size_t errlen)
{
	int na, nb;
	struct run **a = store_load_group(spec_a, &na, err, errlen);
	if (!a)
		return NULL;
	struct run **b = store_load_group(spec_b, &nb, err, errlen);
	if (!b) {
		free_runs(a, na);
		return NULL;
	}
	struct compare *c = compare_stored((const struct run *const *)a, na, (const struct run *const *)b,
					   nb, o, err, errlen);
	free_runs(a, na);
	free_runs(b, nb);
	if (c)
		host_titles(c, spec_a, spec_b);
	return c;
}

static int compare_exec(int argc, char **argv)
{
	struct opt_parsed p;
	struct compare_args o = { 0 };
	opts_defaults(&cmd_compare_entry, &o);
	int rc = opts_take(&cmd_compare_entry, argc, argv, &p, NULL, &o);
	if (rc >= 0)
		return rc;
	if (p.noperands != 2) {
		opts_free(&p);
		return usage_error("usage: kbench compare A B (see 'kbench compare --help')");
	}
	char *spec[2] = { p.operand[0], p.operand[1] };
	opts_free(&p);
	char err[512];
	struct compare *c = cli_compare(spec[0], spec[1], &o.verdicts, err, sizeof err);
	if (!c)
		return runtime_error("%s", err);
	rc = 0;
	if (o.as == AS_JSON)
		rc = compare_print_json(stdout, c) < 0;
	else if (o.as == AS_CSV)
		compare_print_csv(stdout, c);
	else
		compare_print_text(stdout, c, o.width ? o.width : terminal_width(NULL));
	compare_free(c);
	return rc;
}

const struct opt_command cmd_compare_entry = {
	.name = "compare", .args = "A B [--json|--csv]", .about = "side-by-side table with honest verdicts",
	.text = "A, B: a run (id, id prefix, name, file, last, last~N) or a group:\n"
		"A1,A2,A3, a name several runs share, or host:HOST[:NAME] (the runs measured\n"
		"on HOST, named NAME). Verdicts use 95% intervals.",
	.operand = "runs", .options = compare_rows, .exec = compare_exec,
};
