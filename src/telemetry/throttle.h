/* Thermal throttle counters: per-core and per-package counts and time throttled, as deltas since open. */
#ifndef KBENCH_TELEMETRY_THROTTLE_H
#define KBENCH_TELEMETRY_THROTTLE_H

#include <stdbool.h>
#include <stdint.h>

#define THROTTLE_MAX_CPUS 256

/* One cpu's raw counters; -1 in package_id means unknown (then counted as its own package). */
struct throttle_reading {
	int cpu;
	int package_id;
	bool has_core, has_pkg;
	uint64_t core_count, core_ms, pkg_count, pkg_ms;
};

/* Totals since open: core counts summed over CPUs, package counts once per package. */
struct throttle_totals {
	uint64_t core_events, core_ms;
	uint64_t pkg_events, pkg_ms;
};

struct throttle {
	bool available;
	char why[200];
	int ncpus;
	struct throttle_reading base[THROTTLE_MAX_CPUS]; /* at open */
	struct throttle_reading cur[THROTTLE_MAX_CPUS];
	struct throttle_totals total; /* latest sample minus open */
};

int throttle_open(struct throttle *th);
int throttle_sample(struct throttle *th);
void throttle_close(struct throttle *th);

/* cur - base over n cpus; package counters taken from the first cpu of each package.
 * A counter that went backwards (cpu offlined and back) contributes 0. */
void throttle_account(const struct throttle_reading *base, const struct throttle_reading *cur, int n,
		      struct throttle_totals *out);

/* Events and ms in one number each, for series and summaries. */
static inline uint64_t throttle_events(const struct throttle_totals *t)
{
	return t->core_events + t->pkg_events;
}
static inline uint64_t throttle_ms(const struct throttle_totals *t)
{
	return t->core_ms > t->pkg_ms ? t->core_ms : t->pkg_ms;
}

#endif
