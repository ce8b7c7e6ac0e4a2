/* SPDX-License-Identifier: GPL-2.0-or-later */
/* make bench's observer tick: the temperature source's per-interval reads on the machine it finds
 * (a 40-input fake /sys in tests/bench/bench.d/observer.sh), headline inputs only as kbench samples them,
 * side by side with every input read each tick as kbench did before, in alternating rounds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "telemetry/sensors.h"

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* CPU seconds for ticks reads of the sampled inputs. */
static double ticks(struct temp_sensors *ts, int n)
{
	double a = cpu_now();
	for (int i = 0; i < n; i++)
		sensors_sample(ts);
	return cpu_now() - a;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000, rounds = 4;
	struct temp_sensors ts;
	char err[200];
	if (sensors_open(&ts, NULL, err, sizeof err) < 0 || !ts.available) {
		fprintf(stderr, "observer_driver: no temperature inputs (%s)\n", ts.why);
		return 1;
	}
	bool *now_sampled = calloc((size_t)ts.n + 1, sizeof *now_sampled);
	if (!now_sampled)
		return 1;
	int nsampled = 0;
	for (int i = 0; i < ts.n; i++)
		nsampled += now_sampled[i] = ts.in[i].sampled;
	double t_now = 0, t_old = 0;
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < ts.n; i++)
			ts.in[i].sampled = now_sampled[i];
		t_now += ticks(&ts, n);
		/* Before: every input, every tick, whatever its chip. */
		for (int i = 0; i < ts.n; i++)
			ts.in[i].sampled = true;
		t_old += ticks(&ts, n);
	}
	double us_now = t_now / (n * rounds) * 1e6, us_old = t_old / (n * rounds) * 1e6;
	printf("%-24s %8s %12s %16s\n", "OBSERVER TICK", "INPUTS", "us CPU/tick", "% CPU at 0.5 s");
	printf("%-24s %8d %12.1f %15.4f%%\n", "headline only (now)", nsampled, us_now, us_now / 5e5 * 100);
	printf("%-24s %8d %12.1f %15.4f%%\n", "every input (before)", ts.n, us_old, us_old / 5e5 * 100);
	printf("ratio now/before %.3f (goal: now under 1%% of a CPU)\n", us_old > 0 ? us_now / us_old : 0);
	sensors_close(&ts);
	free(now_sampled);
	return 0;
}
