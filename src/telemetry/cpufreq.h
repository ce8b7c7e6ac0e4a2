/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU frequency per core (sysfs cpufreq's average-frequency or current-frequency files when there and cheap, else "cpu MHz" from /proc/cpuinfo), each CPU's nominal clock, and the CPUs the workers run on. */
#ifndef KBENCH_TELEMETRY_CPUFREQ_H
#define KBENCH_TELEMETRY_CPUFREQ_H

#include <stdbool.h>
#include <sys/types.h>

/* Linux's largest NR_CPUS (x86's MAXSMP): every CPU of any machine is read, so the workers' are
 * among them (a cap read the first 256 in directory order). */
#define CPUFREQ_MAX_CPUS 8192

enum cpufreq_source { CPUFREQ_NONE, CPUFREQ_SYSFS, CPUFREQ_CPUINFO };

struct cpufreq {
	bool available;
	enum cpufreq_source source;
	char why[200];       /* why not sysfs (or why nothing at all) */
	int ncpus;
	int cpu[CPUFREQ_MAX_CPUS];       /* cpu numbers, in order */
	double cur_mhz[CPUFREQ_MAX_CPUS];/* latest sample; NAN when unknown */
	/* Each CPU's nominal clock (hybrid parts have one per core type): its
	 * base_frequency (intel_pstate), else ACPI CPPC's nominal_freq, else its
	 * cpuinfo_max_freq, which is a boost ceiling; 0 unknown. */
	double nom_mhz[CPUFREQ_MAX_CPUS];
	bool nom_ceiling[CPUFREQ_MAX_CPUS]; /* nom_mhz is cpuinfo_max_freq with boost on: a ceiling, no nominal */
	bool avg_freq;            /* cur_mhz is cpuinfo_avg_freq: the APERF/MPERF average since the last tick */
	double min_mhz, max_mhz;  /* cpuinfo_min/max_freq of cpu0 (0 unknown) */
	double nominal_mhz;       /* cpu0's nominal, else "@ x.xxGHz" in the model name */
	char nominal_from[48];
	bool nominal_ceiling;     /* nominal_mhz is cpuinfo_max_freq with boost on (AMD, ARM): a ceiling */
	char governor[32];        /* "" when unknown */
	char boost[16];           /* "on", "off" or "" */
	char driver[32];
	double read_ms;           /* what one sysfs round over all cores cost at open; NAN not timed (a fixture tree) */
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

/* The index of cpu number `cpu` in cf->cpu[], or -1. */
int cpufreq_index(const struct cpufreq *cf, int cpu);
/* The CPU a task last ran on: field 39 of /proc/PID/stat (through the
 * sysroot). Returns it, or -errno. */
int cpufreq_task_cpu(pid_t pid);
/* The mean clock and nominal of the CPUs in cpus[] (one per worker, so a
 * CPU shared by two workers counts twice); NAN / 0 when none is known. A
 * boost ceiling is no nominal: those CPUs are left out of it. */
double cpufreq_on(const struct cpufreq *cf, const int *cpus, int n, double *nominal);

/* A sysfs round slower than this (per sample, all cores) falls back to /proc/cpuinfo:
 * on some CPUs each scaling_cur_freq read IPIs the core and takes milliseconds. */
#define CPUFREQ_SLOW_MS 2.0

/* Tests only: the clock (milliseconds) that times the sysfs round at open,
 * so the slow rule can be tested on a fixture tree; NULL restores the
 * default (the monotonic clock on the real /sys, no timing on a tree under
 * KBENCH_SYSFS_ROOT, whose cost is not the kernel's). */
void cpufreq_set_clock(double (*now_ms)(void));

#endif
