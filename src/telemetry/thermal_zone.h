/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal framework's zones (/sys/class/thermal/thermal_zoneN): CPU temperature where no hwmon chip is the CPU's, with trip points as limits. */
#ifndef KBENCH_TELEMETRY_THERMAL_ZONE_H
#define KBENCH_TELEMETRY_THERMAL_ZONE_H

#include <stdbool.h>

#define THERMAL_ZONES_MAX 32

struct thermal_zone {
	int id;		 /* N of thermal_zoneN */
	char type[48];	 /* "cpu-thermal", "x86_pkg_temp", "acpitz" */
	double temp;	 /* °C, NAN when the read failed */
	double passive;	 /* the lowest passive trip point (where cooling by slowing starts), 0 when none */
	double critical; /* the critical trip point (shutdown), 0 when none */
	bool cpu_bound;	 /* one of its cooling devices slows the CPUs (cpufreq-cpuN, cpuidle-N) */
};

/* Every zone through the sysroot seam, by id. Returns how many (0 when none or no thermal class). */
int thermal_zones_list(struct thermal_zone *z, int max);
/* One zone's temp in °C. 0 or -errno. */
int thermal_zone_read(int id, double *c);
/* A cooling device's type that slows the CPUs themselves: cpufreq_cooling.c's "cpufreq-cpuN"
 * ("thermal-cpufreq-N" before 5.x), cpuidle_cooling.c's "cpuidle-N". ACPI's "Processor" is left
 * out: every ACPI zone binds it by _PSL, wherever its sensor sits. */
bool thermal_cdev_is_cpu(const char *type);
/* Zones whose type names the CPU or the SoC it sits in (device-tree cpu-thermal, cpu0-thermal,
 * cpu-big0-thermal, soc_thermal; Intel's x86_pkg_temp). */
bool thermal_zone_is_cpu(const char *type);

#endif
