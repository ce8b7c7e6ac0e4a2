/* Thermal throttle counters: per-core and per-package counts and time throttled, as deltas since open. */
#include "telemetry/throttle.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/sysroot.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void read_one(struct throttle_reading *r)
{
	char p[160];
	uint64_t v;
	const char *base = "/sys/devices/system/cpu";
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/core_throttle_count", base, r->cpu);
	r->has_core = sysroot_read_u64(p, &r->core_count) == 0;
	/* The time is only added when an episode ends: poll it as well as the count. */
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/core_throttle_total_time_ms", base, r->cpu);
	r->core_ms = sysroot_read_u64(p, &v) == 0 ? v : 0;
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/package_throttle_count", base, r->cpu);
	r->has_pkg = sysroot_read_u64(p, &r->pkg_count) == 0;
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/package_throttle_total_time_ms", base, r->cpu);
	r->pkg_ms = sysroot_read_u64(p, &v) == 0 ? v : 0;
}

int throttle_open(struct throttle *th)
{
	memset(th, 0, sizeof *th);
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/devices/system/cpu");
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(th->why, sizeof th->why, "no thermal_throttle counters: cannot list %.120s: %s", dir, strerror(errno));
		return 0;
	}
	int cpus[THROTTLE_MAX_CPUS], n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < THROTTLE_MAX_CPUS) {
		char *end;
		if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]))
			continue;
		long c = strtol(e->d_name + 3, &end, 10);
		if (!*end)
			cpus[n++] = (int)c;
	}
	closedir(d);
	qsort(cpus, (size_t)n, sizeof cpus[0], cmp_int);
	int have = 0;
	for (int i = 0; i < n; i++) {
		struct throttle_reading *r = &th->base[i];
		r->cpu = cpus[i];
		char p[160];
		uint64_t pkg;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", r->cpu);
		r->package_id = sysroot_read_u64(p, &pkg) == 0 ? (int)pkg : -1;
		read_one(r);
		have += r->has_core || r->has_pkg;
	}
	th->ncpus = n;
	memcpy(th->cur, th->base, sizeof th->base);
	if (!have) {
		snprintf(th->why, sizeof th->why,
			 "no thermal_throttle counters in %.60s/cpuN (Intel only; not in VMs)",
			 dir);
		return 0;
	}
	th->available = true;
	return 0;
}

void throttle_account(const struct throttle_reading *base, const struct throttle_reading *cur, int n,
		      struct throttle_totals *out)
{
	memset(out, 0, sizeof *out);
#define DELTA(a, b) ((b) >= (a) ? (b) - (a) : 0)
	for (int i = 0; i < n; i++) {
		if (cur[i].has_core) {
			out->core_events += DELTA(base[i].core_count, cur[i].core_count);
			out->core_ms += DELTA(base[i].core_ms, cur[i].core_ms);
		}
		if (!cur[i].has_pkg)
			continue;
		/* Every cpu of a package shows the same package counter: count it once. */
		bool seen = false;
		for (int j = 0; j < i && cur[i].package_id >= 0; j++)
			if (cur[j].has_pkg && cur[j].package_id == cur[i].package_id)
				seen = true;
		if (seen)
			continue;
		out->pkg_events += DELTA(base[i].pkg_count, cur[i].pkg_count);
		uint64_t ms = DELTA(base[i].pkg_ms, cur[i].pkg_ms);
		out->pkg_ms += ms;
	}
#undef DELTA
}

int throttle_sample(struct throttle *th)
{
	if (!th->available)
		return -ENODEV;
	for (int i = 0; i < th->ncpus; i++)
		read_one(&th->cur[i]);
	throttle_account(th->base, th->cur, th->ncpus, &th->total);
	return 0;
}

void throttle_close(struct throttle *th)
{
	th->available = false;
}
