/* CPU frequency per core: sysfs cpufreq when it is there and cheap, else "cpu MHz" from /proc/cpuinfo. */
#ifndef KBENCH_TELEMETRY_CPUFREQ_H
#define KBENCH_TELEMETRY_CPUFREQ_H

#include <stdbool.h>

#define CPUFREQ_MAX_CPUS 256

enum cpufreq_source { CPUFREQ_NONE, CPUFREQ_SYSFS, CPUFREQ_CPUINFO };

struct cpufreq {
	bool available;
	enum cpufreq_source source;
	char why[200];       /* why not sysfs (or why nothing at all) */
	int ncpus;
	int cpu[CPUFREQ_MAX_CPUS];       /* cpu numbers, in order */
	double cur_mhz[CPUFREQ_MAX_CPUS];/* latest sample; NAN when unknown */
	double min_mhz, max_mhz;  /* cpuinfo_min/max_freq of cpu0 (0 unknown) */
	double nominal_mhz;       /* base_frequency, else max, else "@ x.xxGHz" in the model name */
	char nominal_from[48];
	char governor[32];        /* "" when unknown */
	char boost[16];           /* "on", "off" or "" */
	char driver[32];
	double read_ms;           /* what one sysfs round over all cores cost at open */
};

/* Finds the source. Returns 0 (check cf->available and cf->why) — never fails hard. */
int cpufreq_open(struct cpufreq *cf);
/* Refreshes cur_mhz[]. Returns 0 or -errno (values then NAN). */
int cpufreq_sample(struct cpufreq *cf);
void cpufreq_close(struct cpufreq *cf);

const char *cpufreq_source_name(enum cpufreq_source s);
/* Mean / min / max over cur_mhz[] ignoring NANs; NAN when none. */
double cpufreq_mean(const struct cpufreq *cf);
double cpufreq_min(const struct cpufreq *cf);
double cpufreq_max(const struct cpufreq *cf);

/* A sysfs round slower than this (per sample, all cores) falls back to /proc/cpuinfo:
 * on some CPUs each scaling_cur_freq read IPIs the core and takes milliseconds. */
#define CPUFREQ_SLOW_MS 2.0

#endif
