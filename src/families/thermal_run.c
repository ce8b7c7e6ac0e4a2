/* The thermal check as a command of its own (kbench thermal): its defaults for the runner, reached through the thermal mode's row (src/registry/run_mode.c). */
#include "thermal.h"

#include <stdio.h>

#include "runner.h"
#include "tests.h"

void thermal_defaults(struct runner_opts *o, int ncpus)
{
	o->mode = RUN_MODE_THERMAL;
	if (o->timed_seconds <= 0)
		o->timed_seconds = THERMAL_MINUTES * 60;
	if (o->idle < 0)
		o->idle = THERMAL_IDLE_SECONDS;
	if (o->ncopies == 0)
		o->copies[o->ncopies++] = ncpus;
}

/* A thermal check follows a rate sample by sample: a points test (a curve per
 * sample, memlat's taking seconds) has none to follow. */
int thermal_check_test(const char *opt, const char *arg, char *err, size_t errlen)
{
	const struct test_def *t = test_find(arg);
	if (!t) {
		snprintf(err, errlen, "%s: unknown test '%s' (try 'kbench list')", opt, arg);
		return -1;
	}
	if (t->collect) {
		snprintf(err, errlen,
			 "%s: %s gives a curve of points, not a rate a thermal check can follow sample by "
			 "sample (try dhry2reg or whetstone-double)",
			 opt, arg);
		return -1;
	}
	return 0;
}
