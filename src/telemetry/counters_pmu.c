/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's PMUs (/sys/bus/event_source/devices): what each counts, and a hybrid CPU's core-type PMUs (cpu_core + cpu_atom, big.LITTLE's armv8_*), on each of which a hardware event is opened. */
#include "telemetry/counters.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/sysroot.h"

/* ---- hybrid CPUs: one PMU per core type ---- */

/* What the common PMUs count (Documentation/ABI/testing/sysfs-bus-event_source-devices-*,
 * the drivers under arch/x86/events and drivers/perf). */
static const char *pmu_what(const char *name)
{
	static const struct {
		const char *name, *what;
		bool prefix;
	} known[] = {
		{ "cpu", "the CPU's core events", false },
		{ "cpu_core", "P-cores (hybrid: counted per type)", false },
		{ "cpu_atom", "E-cores (hybrid: counted per type)", false },
		{ "armv8_", "one ARM core type (counted per type)", true },
		{ "armv7_", "one ARM core type (counted per type)", true },
		{ "apple_", "one Apple core type (counted per type)", true },
		{ "software", "software: task-clock, switches, faults", false },
		{ "tracepoint", "kernel tracepoints", false },
		{ "breakpoint", "hardware breakpoints", false },
		{ "kprobe", "kernel probes", false },
		{ "uprobe", "user-space probes", false },
		{ "power", "RAPL energy (energy-pkg, ...)", false },
		{ "msr", "free-running MSRs: tsc, aperf, mperf", false },
		{ "cstate_", "C-state residency", true },
		{ "intel_pt", "Intel Processor Trace", false },
		{ "uncore_", "uncore: memory, caches, interconnect", true },
		{ "amd_df", "AMD data fabric", false },
		{ "amd_l3", "AMD L3 cache", false },
		{ "ibs_", "AMD instruction-based sampling", true },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (known[i].prefix ? !strncmp(name, known[i].name, strlen(known[i].name))
				    : !strcmp(name, known[i].name))
			return known[i].what;
	return NULL;
}

static int cmp_kpmu(const void *a, const void *b)
{
	return strcmp(((const struct kernel_pmu *)a)->name, ((const struct kernel_pmu *)b)->name);
}

int counters_kernel_pmus(struct kernel_pmu *out, int max)
{
	char dir[4096];
	if (sysroot_path(dir, sizeof dir, "/sys/bus/event_source/devices") < 0)
		return -ENAMETOOLONG;
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof out[0].name)
			continue;
		struct kernel_pmu *k = &out[n++];
		memset(k, 0, sizeof *k);
		snprintf(k->name, sizeof k->name, "%s", de->d_name);
		char p[200], buf[64];
		snprintf(p, sizeof p, "/sys/bus/event_source/devices/%s/type", de->d_name);
		k->type = sysroot_read_line(p, buf, sizeof buf) == 0 ? atoi(buf) : -1;
		snprintf(p, sizeof p, "/sys/bus/event_source/devices/%s/cpus", de->d_name);
		if (sysroot_read_line(p, k->cpus, sizeof k->cpus) < 0) {
			snprintf(p, sizeof p, "/sys/bus/event_source/devices/%s/cpumask", de->d_name);
			if (sysroot_read_line(p, k->cpus, sizeof k->cpus) < 0)
				k->cpus[0] = '\0';
		}
		k->what = pmu_what(k->name);
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof out[0], cmp_kpmu);
	return n;
}

bool counters_is_core_pmu(const char *name)
{
	size_t l = strlen(name);
	/* Apple silicon's core types (Asahi): apple_icestorm_pmu, apple_firestorm_pmu. */
	bool apple = !strncmp(name, "apple_", 6) && l > 10 && !strcmp(name + l - 4, "_pmu");
	return !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom") || !strncmp(name, "armv8_", 6) ||
	       !strncmp(name, "armv7_", 6) || apple;
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct counter_pmu *)a)->name, ((const struct counter_pmu *)b)->name);
}

int counters_core_pmus(struct counter_pmu *out, int max)
{
	char dir[4096];
	if (sysroot_path(dir, sizeof dir, "/sys/bus/event_source/devices") < 0)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		if (!counters_is_core_pmu(de->d_name) || strlen(de->d_name) >= sizeof out[0].name)
			continue;
		char p[200], buf[32];
		snprintf(p, sizeof p, "/sys/bus/event_source/devices/%s/type", de->d_name);
		if (sysroot_read_line(p, buf, sizeof buf) < 0)
			continue;
		snprintf(out[n].name, sizeof out[n].name, "%s", de->d_name);
		out[n].type = (uint32_t)strtoul(buf, NULL, 10);
		n++;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof out[0], cmp_pmu);
	return n;
}
