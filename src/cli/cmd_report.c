/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kbench report: a stored run (against another, with --vs) as one self-contained HTML file. */
#include "commands.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "options.h"
#include "report_html.h"
#include "run.h"
#include "store.h"

extern const struct opt_command cmd_report_entry;

/* Its options: the verdicts' first, as kbench compare's (whose rows for them it takes). */
struct report_args {
	struct compare_opts verdicts;
	const char *vs, *output;
};

static const struct opt_def report_rows[] = {
	{ .name = "vs", .kind = OK_STRING,
	  .arg = "RUN", .what = "a stored run",
	  .help = "the stored run (or group) to compare with, as kbench compare does",
	  OPT_OWN(struct report_args, vs) },
	{ .name = "output", .short_name = 'o', .kind = OK_STRING,
	  .arg = "FILE", .what = "a file",
	  .help = "the HTML file to write (required; replaced whole, never half-written)",
	  OPT_OWN(struct report_args, output) },
	{ .name = NULL },
};

static int report_exec(int argc, char **argv)
{
	struct opt_parsed p;
	struct report_args a = { .vs = NULL };
	opts_defaults(&cmd_report_entry, &a);
	int rc = opts_take(&cmd_report_entry, argc, argv, &p, NULL, &a);
	if (rc >= 0)
		return rc;
	char err[512];
	const char *vs = a.vs, *output = a.output;
	struct compare_opts o = a.verdicts;
	const char *spec = p.noperands == 1 ? p.operand[0] : NULL;
	opts_free(&p);
	if (!spec)
		return usage_error("usage: kbench report RUN [--vs RUN] -o FILE.html");
	if (!output)
		return usage_error("report needs -o FILE.html (where to write the report)");
	struct run *r = store_load(spec, err, sizeof err);
	if (!r)
		return runtime_error("%s", err);
	int nb = 0;
	struct run **b = NULL;
	if (vs && !(b = store_load_group(vs, &nb, err, sizeof err))) {
		run_free(r);
		return runtime_error("%s", err);
	}
	rc = report_html_save(output, r, (const struct run *const *)b, nb, &o, err, sizeof err);
	if (rc < 0)
		rc = runtime_error("%s", err);
	else
		printf("wrote %s\n", output);
	for (int i = 0; i < nb; i++)
		run_free(b[i]);
	free(b);
	run_free(r);
	return rc < 0 ? 1 : rc;
}

const struct opt_command cmd_report_entry = {
	.name = "report", .bit = OC_REPORT, .args = "RUN [--vs RUN] -o FILE.html",
	.about = "an HTML report with charts, for slides and posts",
	.text = "Writes one self-contained HTML file (inline CSS and SVG, no script, nothing fetched):\n"
		"the machine, the index, per test the change with its 95% interval and verdict (with\n"
		"--vs; the same verdicts as 'kbench compare'), the telemetry through the run, the\n"
		"counters per test, and UnixBench's text report.",
	.after = "RUN: id, unique id prefix, name, file path, last, last~N; --vs may name a group.",
	.operand = "runs", .options = report_rows, .exec = report_exec,
};
