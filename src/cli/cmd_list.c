/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench list`: the tests and groups, with units, baselines, nominal time and quick sample length. */
#include "commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "runner.h"
#include "tests.h"

extern const struct opt_command cmd_list_entry;

static int list_exec(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = opts_parse(&cmd_list_entry, argc, argv, &p);
	if (rc >= 0)
		return rc;
	bool extra = p.noperands > 0;
	opts_free(&p);
	if (extra)
		return usage_error("list takes no arguments");
	/* On a terminal narrower than the table (a netbook's 80 columns) the
	 * baselines are left out and the titles cut to fit; a pipe or a file
	 * gets the whole table. */
	bool known;
	int width = terminal_width(&known);
	bool narrow = known && width < 101;
	/* the narrow line: id 16, title, unit 5, samples 7, time 6, quick 6, a space
	 * between each, and the last column left free */
	int tw = narrow ? width - 1 - (16 + 1 + 1 + 5 + 1 + 7 + 1 + 6 + 1 + 6) : 39;
	if (tw < 16)
		tw = 16;
	if (tw > 39)
		tw = 39;
	/* wrapped text ends a column short of the edge, as the table does */
	width = narrow ? width - 1 : 1000;
	if (narrow)
		printf("%-16s %-*s %-5s %7s %-6s %s\n", "TEST", tw, "TITLE", "UNIT", "SAMPLES", "TIME", "QUICK");
	else
		printf("%-17s %-39s %-5s %10s %8s  %-7s %s\n", "TEST", "TITLE", "UNIT", "BASELINE", "SAMPLES",
		       "TIME", "QUICK");
	struct runner_opts o = { .pause = -1 };
	for (size_t i = 0; i < test_count; i++) {
		const struct test_def *t = &test_table[i];
		char base[16];
		if (t->baseline > 0)
			snprintf(base, sizeof base, "%.1f", t->baseline);
		else
			snprintf(base, sizeof base, "---");
		double est = runner_estimate_test(&o, t);
		if (narrow) {
			char title[64], smp[24], tm[24];
			if ((int)strlen(t->label) > tw)
				snprintf(title, sizeof title, "%.*s~", tw - 1, t->label);
			else
				snprintf(title, sizeof title, "%s", t->label);
			snprintf(smp, sizeof smp, "%dx%.0fs", t->samples, t->seconds);
			snprintf(tm, sizeof tm, "~%.0fs", est);
			printf("%-16s %-*s %-5s %7s %-6s %.0fs%s\n", t->id, tw, title, t->unit, smp, tm,
			       test_quick_seconds(t), t->uncounted ? " *" : "");
		} else {
			char secs[16];
			snprintf(secs, sizeof secs, "~%.0f s", est);
			printf("%-17s %-39s %-5s %10s %5d x %2.0fs  %-7s %.0f s%s\n", t->id, t->label, t->unit,
			       base, t->samples, t->seconds, secs, test_quick_seconds(t),
			       t->uncounted ? " *" : "");
		}
		/* a points test is no rate: what its points are, under its line */
		if (t->collect) {
			printf("%-*s ", narrow ? 16 : 17, "");
			print_wrapped(stdout, t->about, narrow ? 17 : 18, narrow ? 17 : 18, width);
		}
	}
	printf("\nTIME: samples x length + a 3 s pause before each.\nQUICK: sample length with --quick.\n"
	       "*: no per-worker counters unless --events names them (counting slows its forks,\n"
	       "   execs or context switches).\n");
	if (narrow)
		printf("BASELINE (UnixBench's, of the index tests) is left out at %d columns:\n"
		       "   kbench list | cat shows it.\n", width + 1);
	printf("\n%-12s %s\n", "GROUP", "TESTS");
	for (size_t g = 0; g < test_group_count; g++) {
		char ids[512] = "";
		if (!test_groups[g].ids)
			snprintf(ids, sizeof ids, "every test");
		for (const char *const *id = test_groups[g].ids; id && *id; id++)
			snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", id == test_groups[g].ids ? "" : " ",
				 *id);
		printf("%-12s ", test_groups[g].name);
		print_wrapped(stdout, ids, 13, 13, width);
	}
	return 0;
}

const struct opt_command cmd_list_entry = {
	.name = "list", .args = "", .about = "the tests and groups, with units, baselines and lengths",
	.text = "The tests and groups, with units, baselines, nominal time and quick sample length.",
	.exec = list_exec,
};
