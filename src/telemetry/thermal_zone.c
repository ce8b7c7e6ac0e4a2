/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal framework's zones (/sys/class/thermal/thermal_zoneN): CPU temperature where no hwmon chip is the CPU's, with trip points as limits. */
#include "telemetry/thermal_zone.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/sysroot.h"

static int read_milli(const char *path, double *c)
{
	char buf[32], *end;
	int rc = sysroot_read_line(path, buf, sizeof buf);
	if (rc < 0)
		return rc;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*c = v / 1000.0;
	return 0;
}

int thermal_zone_read(int id, double *c)
{
	char p[96];
	snprintf(p, sizeof p, "/sys/class/thermal/thermal_zone%d/temp", id);
	return read_milli(p, c);
}

/* Documentation/driver-api/thermal/sysfs-api.rst: trip_point_N_type is active, passive, hot or
 * critical. Passive is where the zone starts slowing the CPU; critical is where it shuts down. */
static void read_trips(struct thermal_zone *z)
{
	for (int k = 0; k < 32; k++) {
		char p[96], type[24];
		double t;
		snprintf(p, sizeof p, "/sys/class/thermal/thermal_zone%d/trip_point_%d_type", z->id, k);
		if (sysroot_read_line(p, type, sizeof type) < 0)
			break;
		snprintf(p, sizeof p, "/sys/class/thermal/thermal_zone%d/trip_point_%d_temp", z->id, k);
		if (read_milli(p, &t) < 0 || t <= 0)
			continue;
		if (!strcmp(type, "passive") && (z->passive == 0 || t < z->passive))
			z->passive = t;
		else if (!strcmp(type, "critical") && (z->critical == 0 || t < z->critical))
			z->critical = t;
	}
}

bool thermal_cdev_is_cpu(const char *type)
{
	return !strncmp(type, "cpufreq-", 8) || !strncmp(type, "thermal-cpufreq-", 16) ||
	       !strncmp(type, "cpuidle-", 8);
}

/* What a zone is bound to (Documentation/driver-api/thermal/sysfs-api.rst: cdevN links to the
 * cooling devices of its trip points): a zone that slows the CPUs watches them, whatever its
 * device tree calls it (RK3588's bigcore0-thermal, i.MX's imx_thermal_zone). */
static void read_bindings(struct thermal_zone *z)
{
	for (int k = 0; k < 64 && !z->cpu_bound; k++) {
		char p[96], type[48];
		snprintf(p, sizeof p, "/sys/class/thermal/thermal_zone%d/cdev%d/type", z->id, k);
		if (sysroot_read_line(p, type, sizeof type) < 0)
			break;
		z->cpu_bound = thermal_cdev_is_cpu(type);
	}
}

static int by_id(const void *a, const void *b)
{
	return ((const struct thermal_zone *)a)->id - ((const struct thermal_zone *)b)->id;
}

struct zones {
	struct thermal_zone *z;
	int n, max;
};

/* One thermal_zoneN directory: 1 once z is full (the walk stops). */
static int add_zone(const char *name, void *arg)
{
	struct zones *zs = arg;
	if (zs->n >= zs->max)
		return 1;
	int id;
	char tail;
	if (sscanf(name, "thermal_zone%d%c", &id, &tail) != 1)
		return 0;
	struct thermal_zone *t = &zs->z[zs->n];
	memset(t, 0, sizeof *t);
	t->id = id;
	char p[96];
	snprintf(p, sizeof p, "/sys/class/thermal/thermal_zone%d/type", id);
	if (sysroot_read_line(p, t->type, sizeof t->type) < 0)
		return 0;
	if (thermal_zone_read(id, &t->temp) < 0)
		t->temp = NAN;
	read_trips(t);
	read_bindings(t);
	zs->n++;
	return 0;
}

int thermal_zones_list(struct thermal_zone *z, int max)
{
	struct zones zs = { z, 0, max };
	sysroot_dir_each("/sys/class/thermal", add_zone, &zs);
	qsort(z, (size_t)zs.n, sizeof *z, by_id);
	return zs.n;
}

bool thermal_zone_is_cpu(const char *type)
{
	if (!strcmp(type, "x86_pkg_temp"))
		return true;
	size_t l = strlen(type);
	bool cpu = !strncmp(type, "cpu", 3) || !strncmp(type, "soc", 3);
	return cpu && l > 8 && (!strcmp(type + l - 8, "-thermal") || !strcmp(type + l - 8, "_thermal"));
}
