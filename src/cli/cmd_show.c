/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench show`: a stored run's report in UnixBench's text format, what its mode adds, and its notes. */
#include "commands.h"

#include <stdio.h>

#include "options.h"
#include "report.h"
#include "run.h"
#include "store.h"

extern const struct opt_command cmd_show_entry;

static int show_exec(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = opts_parse(&cmd_show_entry, argc, argv, &p);
	if (rc >= 0)
		return rc;
	if (p.noperands != 1) {
		opts_free(&p);
		return usage_error("usage: kbench show RUN");
	}
	char err[512];
	struct run *r = store_load(p.operand[0], err, sizeof err);
	opts_free(&p);
	if (!r)
		return runtime_error("%s", err);
	report_print(stdout, r);
	/* what the run's mode adds (a thermal check's verdict and table) */
	const struct run_mode_info *mode = run_mode_info(r->meta.mode);
	if (mode->print)
		mode->print(stdout, r);
	for (int i = 0; i < r->nnotes; i++)
		printf("note: %s\n", r->notes[i]);
	run_free(r);
	return 0;
}

const struct opt_command cmd_show_entry = {
	.name = "show", .args = "RUN", .about = "a stored run's report (UnixBench's text format)",
	.text = "The run's report in UnixBench's text format.",
	.after = "RUN: id, unique id prefix, name, file path, last, last~N", .operand = "runs",
	.exec = show_exec,
};
