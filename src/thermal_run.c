/* The thermal check as a command of its own (kbench thermal): its defaults for the runner, reached through the thermal mode's row (src/run_mode.c). */
#include "thermal.h"

#include "runner.h"

void thermal_defaults(struct runner_opts *o, int ncpus)
{
	if (o->thermal_seconds <= 0)
		o->thermal_seconds = THERMAL_MINUTES * 60;
	if (o->idle < 0)
		o->idle = THERMAL_IDLE_SECONDS;
	if (o->ncopies == 0)
		o->copies[o->ncopies++] = ncpus;
}
