/* The thermal framework's zones (/sys/class/thermal/thermal_zoneN): CPU temperature where no hwmon chip is the CPU's, with trip points as limits. */
#include "telemetry/thermal_zone.h"

#include <dirent.h>
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

static int by_id(const void *a, const void *b)
{
	return ((const struct thermal_zone *)a)->id - ((const struct thermal_zone *)b)->id;
}

int thermal_zones_list(struct thermal_zone *z, int max)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/class/thermal");
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		int id;
		char tail;
		if (sscanf(e->d_name, "thermal_zone%d%c", &id, &tail) != 1)
			continue;
		struct thermal_zone *t = &z[n];
		memset(t, 0, sizeof *t);
		t->id = id;
		char p[96];
		snprintf(p, sizeof p, "/sys/class/thermal/thermal_zone%d/type", id);
		if (sysroot_read_line(p, t->type, sizeof t->type) < 0)
			continue;
		if (thermal_zone_read(id, &t->temp) < 0)
			t->temp = NAN;
		read_trips(t);
		n++;
	}
	closedir(d);
	qsort(z, (size_t)n, sizeof *z, by_id);
	return n;
}

bool thermal_zone_is_cpu(const char *type)
{
	if (!strcmp(type, "x86_pkg_temp"))
		return true;
	size_t l = strlen(type);
	bool cpu = !strncmp(type, "cpu", 3) || !strncmp(type, "soc", 3);
	return cpu && l > 8 && (!strcmp(type + l - 8, "-thermal") || !strcmp(type + l - 8, "_thermal"));
}
