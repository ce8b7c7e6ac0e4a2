/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Energy and power: RAPL package domains through powercap, else perf's power PMU, else the system batteries' discharge power. */
#ifndef KBENCH_TELEMETRY_POWER_H
#define KBENCH_TELEMETRY_POWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define POWER_MAX_DOMAINS 8
#define POWER_MAX_BATTERIES 4
#define POWER_MAX_PMU_FDS 8

struct rapl_domain {
	char dir[64];   /* "intel-rapl:0" */
	char name[32];  /* "package-0", "psys" */
	uint64_t max_range_uj;
	uint64_t last_uj;
	double joules;  /* accumulated since open, wraparound handled */
};

/* Which way the system batteries' charge goes (UPower's rules: status first, the sign of the current after). */
enum battery_dir { BATTERY_UNKNOWN, BATTERY_DISCHARGING, BATTERY_CHARGING, BATTERY_IDLE };

/* perf's power PMU behind a seam: the real one calls perf_event_open(2); tests answer as a kernel would. */
struct power_pmu_ops {
	/* An fd counting (type, config) on cpu for every process, or -errno. */
	int (*open)(uint32_t type, uint64_t config, int cpu);
	/* The counter's running total in the PMU's units. 0 or -errno. */
	int (*read)(int fd, uint64_t *count);
	void (*close)(int fd);
};
/* NULL restores perf_event_open. */
void power_set_pmu_ops(const struct power_pmu_ops *ops);

struct power {
	bool available;
	char why[240];        /* why neither RAPL nor a battery (or why RAPL is missing) */
	char brief[40];       /* the same in a few words, when neither: "no RAPL, no battery" */
	char source[64];      /* "RAPL package-0+package-1", "perf power/energy-pkg", "battery BAT0+BAT1" */
	int ndomains;
	struct rapl_domain dom[POWER_MAX_DOMAINS];
	/* perf's power/energy-pkg, one fd per package (the PMU's cpumask) */
	int npmu;
	int pmu_fd[POWER_MAX_PMU_FDS];
	uint64_t pmu_last[POWER_MAX_PMU_FDS];
	double pmu_scale;     /* joules per count (energy-pkg.scale) */
	/* system batteries only: type Battery, scope not Device, present */
	int nbatteries;
	char bat[POWER_MAX_BATTERIES][32];
	char battery[64];     /* "BAT0+BAT1", "" when none */
	char ignored[96];     /* batteries that are not the system's: "hidpp_battery_0 (scope Device)" */
	enum battery_dir dir; /* as of the latest read */
	bool battery_discharging;
	int ac_online;        /* 1, 0, or -1 unknown: a Mains or USB supply online */
	char unmeasured[96];  /* battery: why the latest rate is not the machine's draw, "" when it is */
	double last_t;        /* time of the previous sample (seconds, caller's clock) */
	double joules;        /* total since open */
	double watts;         /* over the last interval; NAN when unknown */
	double integrated_s;  /* battery: seconds whose energy was counted (discharging) */
	double missed_s;      /* battery: seconds not counted (charging, full, unknown) */
};

int power_open(struct power *pw, double now);
/* Adds the energy since the previous sample; `now` is the caller's clock in seconds. */
int power_sample(struct power *pw, double now);
void power_close(struct power *pw);

/* The energy counter's increase from prev to cur; it wraps at max_range (0 = unknown: no wrap). */
uint64_t rapl_delta(uint64_t prev, uint64_t cur, uint64_t max_range);

/* battery.c: finds the system batteries (type Battery, not scope Device,
 * present) and the AC adapter into pw. */
void power_battery_open(struct power *pw);
/* The machine's draw from its batteries: the sum over those discharging
 * (pw->dir and battery_discharging updated); NAN when none is, or none has a
 * rate. *any_rate: some battery reported a rate. */
double power_battery_watts(struct power *pw, bool *any_rate);

/* 1 when on battery, 0 when on AC or unknown: for the preflight. */
int power_on_battery(struct power *pw);

/* "discharging", "charging", "idle: full or not charging", "direction unknown". */
const char *power_battery_dir_name(enum battery_dir d);

#endif
