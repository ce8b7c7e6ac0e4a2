/* Energy and power: RAPL package domains through powercap, else the battery's discharge power. */
#ifndef KBENCH_TELEMETRY_POWER_H
#define KBENCH_TELEMETRY_POWER_H

#include <stdbool.h>
#include <stdint.h>

#define POWER_MAX_DOMAINS 8

struct rapl_domain {
	char dir[64];   /* "intel-rapl:0" */
	char name[32];  /* "package-0", "psys" */
	uint64_t max_range_uj;
	uint64_t last_uj;
	double joules;  /* accumulated since open, wraparound handled */
};

struct power {
	bool available;
	char why[240];        /* why neither RAPL nor a battery (or why RAPL is missing) */
	char brief[40];       /* the same in a few words, when neither: "no RAPL, no battery" */
	char source[64];      /* "RAPL package-0+package-1", "battery BAT0" */
	int ndomains;
	struct rapl_domain dom[POWER_MAX_DOMAINS];
	char battery[32];     /* power_supply name, "" when none */
	bool battery_discharging;
	int ac_online;        /* 1, 0, or -1 unknown */
	double last_t;        /* time of the previous sample (seconds, caller's clock) */
	double joules;        /* total since open */
	double watts;         /* over the last interval; NAN when unknown */
};

int power_open(struct power *pw, double now);
/* Adds the energy since the previous sample; `now` is the caller's clock in seconds. */
int power_sample(struct power *pw, double now);
void power_close(struct power *pw);

/* The energy counter's increase from prev to cur; it wraps at max_range (0 = unknown: no wrap). */
uint64_t rapl_delta(uint64_t prev, uint64_t cur, uint64_t max_range);

/* 1 when on AC or unknown, 0 when on battery: for the preflight. */
int power_on_battery(struct power *pw);

#endif
