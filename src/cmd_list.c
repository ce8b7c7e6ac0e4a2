/* `kbench list`: the tests and groups, with units, baselines, nominal time and quick sample length. */
#include "commands.h"

#include <stdio.h>
#include <string.h>

#include "options.h"
#include "runner.h"
#include "tests.h"

int cmd_list(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = opts_parse(opts_command("list"), argc, argv, &p);
	if (rc >= 0)
		return rc;
	bool extra = p.noperands > 0;
	opts_free(&p);
	if (extra)
		return usage_error("list takes no arguments");
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
		char secs[16];
		snprintf(secs, sizeof secs, "~%.0f s", runner_estimate_test(&o, t));
		printf("%-17s %-39s %-5s %10s %5d x %2.0fs  %-7s %.0f s%s\n", t->id, t->label, t->unit,
		       base, t->samples, t->seconds, secs, test_quick_seconds(t),
		       t->uncounted ? " *" : "");
		/* a points test is no rate: what its points are, under its line */
		if (t->collect)
			printf("%-17s %s\n", "", t->about);
	}
	printf("\nTIME: samples x length + a 3 s pause before each. QUICK: sample length with --quick.\n"
	       "*: no per-worker counters unless --events names them (counting slows its forks,\n"
	       "   execs or context switches).\n");
	printf("\n%-12s %s\n", "GROUP", "TESTS");
	for (size_t g = 0; g < test_group_count; g++) {
		printf("%-12s ", test_groups[g].name);
		if (!test_groups[g].ids)
			printf("every test");
		for (const char *const *id = test_groups[g].ids; id && *id; id++)
			printf("%s%s", id == test_groups[g].ids ? "" : " ", *id);
		printf("\n");
	}
	return 0;
}
