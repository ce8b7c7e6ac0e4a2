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

int cmd_report(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = opts_parse(opts_command("report"), argc, argv, &p);
	if (rc >= 0)
		return rc;
	const char *vs = NULL, *output = NULL;
	struct compare_opts o = { .conf = strtod(opts_row(O_CONFIDENCE)->def, NULL) };
	for (int k = 0; k < p.n; k++) {
		switch (p.item[k].def->id) {
		case O_VS: vs = p.item[k].arg; break;
		case O_REPORT_OUTPUT: output = p.item[k].arg; break;
		case O_CONFIDENCE: o.conf = p.item[k].d; break;
		case O_DEFAULT_NOISE: o.default_noise = true; break;
		default: break;
		}
	}
	const char *spec = p.noperands == 1 ? p.operand[0] : NULL;
	opts_free(&p);
	if (!spec)
		return usage_error("usage: kbench report RUN [--vs RUN] -o FILE.html");
	if (!output)
		return usage_error("report needs -o FILE.html (where to write the report)");
	char err[512];
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
