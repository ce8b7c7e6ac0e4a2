/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU frequency per core (sysfs cpufreq's average-frequency or current-frequency files when there and cheap, else "cpu MHz" from /proc/cpuinfo), each CPU's nominal clock, and the CPUs the workers run on. */
#include "telemetry/cpufreq.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "telemetry/sysroot.h"
#include "workload.h"

static double (*test_clock)(void);

void cpufreq_set_clock(double (*now_ms)(void))
{
	test_clock = now_ms;
}

static double now_ms(void)
{
	return wl_now() * 1e3;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The cpuN directories, sorted; the fixture tree decides under KBENCH_SYSFS_ROOT. */
static int list_cpus(struct cpufreq *cf)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/devices/system/cpu");
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	struct dirent *e;
	cf->ncpus = 0;
	while ((e = readdir(d)) && cf->ncpus < CPUFREQ_MAX_CPUS) {
		if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]))
			continue;
		char *end;
		long n = strtol(e->d_name + 3, &end, 10);
		if (*end)
			continue;
		cf->cpu[cf->ncpus++] = (int)n;
	}
	closedir(d);
	qsort(cf->cpu, (size_t)cf->ncpus, sizeof cf->cpu[0], cmp_int);
	return 0;
}

static int read_sysfs_round(struct cpufreq *cf)
{
	int ok = 0;
	for (int i = 0; i < cf->ncpus; i++) {
		char p[128];
		uint64_t khz;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cf->cpu[i],
			 cf->avg_freq ? "cpuinfo_avg_freq" : "scaling_cur_freq");
		int rc = sysroot_read_u64(p, &khz);
		if (rc < 0 && cf->avg_freq) {
			/* EAGAIN: the CPU was idle over the last tick; the current figure then. */
			snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cf->cpu[i]);
			rc = sysroot_read_u64(p, &khz);
		}
		if (rc == 0) {
			cf->cur_mhz[i] = khz / 1000.0;
			ok++;
		} else {
			cf->cur_mhz[i] = NAN;
		}
	}
	return ok ? 0 : -ENOENT;
}

/* Model names that say the nominal clock say it after an "@": Intel's
 * "... CPU @ 1.60GHz", VIA's "U4200 @ 1.0+ GHz" and "U2250@1300+MHz" (the "+":
 * a clock cpufreq may list above it). MHz; 0 where the name says none. */
static double model_clock(const char *line)
{
	const char *at = strchr(line, '@');
	if (!at)
		return 0;
	char *end;
	double v = strtod(at + 1, &end);
	while (*end == '+' || *end == ' ')
		end++;
	double mhz = !strncmp(end, "GHz", 3) ? v * 1000 : !strncmp(end, "MHz", 3) ? v : 0;
	return mhz > 0 && mhz < 100000 ? mhz : 0;
}

/* From /proc/cpuinfo's first processor: its model name's clock (0 where it
 * names none) and whether the vendor is AMD's (or Hygon's, the same design). */
static double cpuinfo_model_clock(bool *amd)
{
	char path[4096], line[512];
	sysroot_path(path, sizeof path, "/proc/cpuinfo");
	*amd = false;
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	double mhz = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "vendor_id", 9))
			*amd = strstr(line, "AuthenticAMD") || strstr(line, "HygonGenuine");
		else if (!strncmp(line, "model name", 10)) {
			mhz = model_clock(line);
			break;
		}
	}
	fclose(f);
	return mhz;
}

/* The top of cpuN's scaling_available_frequencies (MHz), 0 where unreadable. */
static double available_top(int cpu)
{
	char p[128], line[2048];
	snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_available_frequencies", cpu);
	if (sysroot_read_line(p, line, sizeof line) < 0)
		return 0;
	double top = 0;
	for (char *s = line, *end;; s = end) {
		double khz = strtod(s, &end);
		if (end == s)
			break;
		if (khz > top)
			top = khz;
	}
	return top / 1000;
}

/* "cpu MHz" lines in processor order; "processor : N" says which cpu. */
static int read_cpuinfo(struct cpufreq *cf, bool count_only)
{
	char path[4096];
	sysroot_path(path, sizeof path, "/proc/cpuinfo");
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	char line[512];
	int cpu = -1, n = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "processor", 9)) {
			char *c = strchr(line, ':');
			cpu = c ? atoi(c + 1) : -1;
		} else if (!strncmp(line, "cpu MHz", 7)) {
			char *c = strchr(line, ':');
			if (!c || cpu < 0)
				continue;
			double mhz = strtod(c + 1, NULL);
			if (count_only) {
				if (n < CPUFREQ_MAX_CPUS)
					cf->cpu[n] = cpu;
			} else {
				for (int i = 0; i < cf->ncpus; i++)
					if (cf->cpu[i] == cpu)
						cf->cur_mhz[i] = mhz;
			}
			n++;
		} else if (!strncmp(line, "model name", 10) && !cf->nominal_mhz) {
			double mhz = model_clock(line);
			if (mhz > 0) {
				cf->nominal_mhz = mhz;
				snprintf(cf->nominal_from, sizeof cf->nominal_from, "the model name");
			}
		}
	}
	fclose(f);
	if (count_only)
		cf->ncpus = n < CPUFREQ_MAX_CPUS ? n : CPUFREQ_MAX_CPUS;
	return n ? 0 : -ENOENT;
}

static void read_policy(struct cpufreq *cf)
{
	char p[128];
	uint64_t khz;
	int c0 = cf->cpu[0];
	snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", c0);
	if (sysroot_read_u64(p, &khz) == 0)
		cf->max_mhz = khz / 1000.0;
	snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_min_freq", c0);
	if (sysroot_read_u64(p, &khz) == 0)
		cf->min_mhz = khz / 1000.0;
	/* intel_pstate's and amd-pstate's cpuinfo_max_freq is the boost ceiling:
	 * base_frequency (intel_pstate) or ACPI CPPC's nominal_freq (MHz) is
	 * the nominal clock, per CPU because hybrid parts differ by core type. */
	const char *from0 = NULL;
	double model_mhz = -1; /* read once, where max_freq needs it */
	bool amd = false;
	snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", c0);
	sysroot_read_line(p, cf->driver, sizeof cf->driver);
	for (int i = 0; i < cf->ncpus; i++) {
		int c = cf->cpu[i];
		const char *from = NULL;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/base_frequency", c);
		if (sysroot_read_u64(p, &khz) == 0 && khz) {
			cf->nom_mhz[i] = khz / 1000.0;
			from = "base_frequency";
		}
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/acpi_cppc/nominal_freq", c);
		if (!from && sysroot_read_u64(p, &khz) == 0 && khz) {
			cf->nom_mhz[i] = (double)khz;
			from = "acpi_cppc nominal_freq";
		}
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", c);
		if (!from && sysroot_read_u64(p, &khz) == 0 && khz) {
			/* With boost on (the policy's own file, amd-pstate; else the
			 * global one, acpi-cpufreq) it is the boost ceiling, which a
			 * busy all-core load never holds: no nominal then. */
			uint64_t b;
			snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/boost", c);
			int rb = sysroot_read_u64(p, &b);
			if (rb < 0)
				rb = sysroot_read_u64("/sys/devices/system/cpu/cpufreq/boost", &b);
			cf->nom_mhz[i] = khz / 1000.0;
			cf->nom_ceiling[i] = rb == 0 && b;
			from = rb < 0 ? "cpuinfo_max_freq" : b ? "cpuinfo_max_freq, a boost ceiling"
							 : "cpuinfo_max_freq, boost off";
			double max = khz / 1000.0;
			if (model_mhz < 0)
				model_mhz = cpuinfo_model_clock(&amd);
			/* acpi-cpufreq on AMD: the boost P-states are not in _PSS, so
			 * P0 (the top of scaling_available_frequencies) is the base
			 * clock, boost on or off, and so is max_freq unless CPPC's
			 * highest/nominal ratio lifted it (Linux 5.11+: acpi_cppc/ is
			 * there then). An FX-8350's 4000, a 3020e's 1200 with boost on;
			 * a Ryzen 5 3600's 4714 over P0's 3600. */
			if (amd && !strcmp(cf->driver, "acpi-cpufreq")) {
				double p0 = available_top(c);
				snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/acpi_cppc", c);
				if (p0 <= 0 && !sysroot_exists(p))
					p0 = max;
				if (p0 > 0) {
					cf->nom_mhz[i] = p0;
					cf->nom_ceiling[i] = false;
					from = "acpi-cpufreq P0 (AMD: no boost P-state)";
					model_mhz = 0; /* P0 rules here, whatever the name says */
				}
			}
			/* A model name says the base clock ("@ 1.90GHz"): where
			 * max_freq is above it, max_freq is turbo's ceiling. acpi-cpufreq
			 * on Intel with turbo shows base + 1 MHz and a boost switch;
			 * intel_pstate without HWP (before Skylake, Bay Trail Atoms) has
			 * neither base_frequency nor a switch, and shows the turbo
			 * ceiling itself (an i5-4300U: 2900 for 1.90 GHz; an Atom
			 * Z3735F: 1833 for 1.33); VIA's "+" clocks list theirs (a Nano
			 * U2250@1300+MHz: 1600). Below it by a few MHz it is ACPI's
			 * rounding (3193 for 3.20 GHz), by more a firmware's cap: the
			 * base clock is still the model name's. Checked on real lscpu
			 * probes: tests/unit/test_lscpu_probes.c. */
			if (model_mhz > 0 && (cf->nom_ceiling[i] || fabs(max - model_mhz) >= 0.5)) {
				from = cf->nom_ceiling[i]	 ? "the model name (max_freq: a boost ceiling)"
				       : max > model_mhz ? "the model name (max_freq: a turbo ceiling)"
							 : "the model name (max_freq is below it)";
				cf->nom_mhz[i] = model_mhz;
				cf->nom_ceiling[i] = false;
			}
		}
		if (i == 0)
			from0 = from;
	}
	if (from0) {
		cf->nominal_mhz = cf->nom_mhz[0];
		cf->nominal_ceiling = cf->nom_ceiling[0];
		snprintf(cf->nominal_from, sizeof cf->nominal_from, "%s", from0);
	}
	snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c0);
	sysroot_read_line(p, cf->governor, sizeof cf->governor);
	uint64_t v;
	if (sysroot_read_u64("/sys/devices/system/cpu/cpufreq/boost", &v) == 0)
		snprintf(cf->boost, sizeof cf->boost, "%s", v ? "on" : "off");
	else if (sysroot_read_u64("/sys/devices/system/cpu/intel_pstate/no_turbo", &v) == 0)
		snprintf(cf->boost, sizeof cf->boost, "%s", v ? "off" : "on");
}

int cpufreq_open(struct cpufreq *cf)
{
	memset(cf, 0, sizeof *cf);
	if (list_cpus(cf) < 0 || cf->ncpus == 0) {
		/* No sysfs cpu list (odd container): count cpus from /proc/cpuinfo instead. */
		read_cpuinfo(cf, true);
	}
	for (int i = 0; i < CPUFREQ_MAX_CPUS; i++)
		cf->cur_mhz[i] = NAN;
	char p[128];
	snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/cpufreq", cf->ncpus ? cf->cpu[0] : 0);
	if (cf->ncpus && sysroot_exists(p)) {
		read_policy(cf);
		/* Linux 6.13's cpuinfo_avg_freq is the APERF/MPERF (or AMU) average
		 * over the last tick: the clock the CPU ran at, where scaling_cur_freq
		 * is on some drivers the requested one, and since 5.18 an estimate
		 * for an idle CPU. */
		char a[160];
		snprintf(a, sizeof a, "%s/cpuinfo_avg_freq", p);
		cf->avg_freq = sysroot_exists(a);
		/* A tree under KBENCH_SYSFS_ROOT is a copy on some file system:
		 * what its reads cost says nothing of this kernel's cpufreq
		 * driver, so it is not timed (unless a test brings a clock). */
		double (*clock)(void) = test_clock ? test_clock : sysroot()[0] ? NULL : now_ms;
		int rc = read_sysfs_round(cf); /* warms the dentries before timing */
		cf->read_ms = NAN;
		if (clock && rc == 0) {
			double t0 = clock();
			for (int k = 0; k < 3 && rc == 0; k++)
				rc = read_sysfs_round(cf);
			cf->read_ms = (clock() - t0) / 3;
		}
		if (rc == 0 && !(cf->read_ms > CPUFREQ_SLOW_MS)) {
			cf->source = CPUFREQ_SYSFS;
			cf->available = true;
			return 0;
		}
		if (rc == 0)
			snprintf(cf->why, sizeof cf->why,
				 "%s is slow here (%.1f ms for %d cores), so /proc/cpuinfo is read instead",
				 cf->avg_freq ? "cpuinfo_avg_freq" : "scaling_cur_freq", cf->read_ms, cf->ncpus);
		else
			snprintf(cf->why, sizeof cf->why, "scaling_cur_freq unreadable in %s",
				 p);
	} else {
		snprintf(cf->why, sizeof cf->why,
			 "no %.60s%.100s (no cpufreq driver: a VM?)", sysroot(), p);
	}
	int nc = cf->ncpus;
	if (read_cpuinfo(cf, nc == 0) == 0) {
		/* cpuinfo's cpus and the sysfs list agree on numbering. */
		read_cpuinfo(cf, false);
		cf->source = CPUFREQ_CPUINFO;
		cf->available = true;
		return 0;
	}
	cf->source = CPUFREQ_NONE;
	size_t l = strlen(cf->why);
	snprintf(cf->why + l, sizeof cf->why - l, "%sand no \"cpu MHz\" in /proc/cpuinfo",
		 l ? "; " : "");
	return 0;
}

int cpufreq_sample(struct cpufreq *cf)
{
	switch (cf->source) {
	case CPUFREQ_SYSFS:
		return read_sysfs_round(cf);
	case CPUFREQ_CPUINFO:
		return read_cpuinfo(cf, false);
	default:
		return -ENODEV;
	}
}

void cpufreq_close(struct cpufreq *cf)
{
	cf->available = false;
}

const char *cpufreq_source_name(enum cpufreq_source s)
{
	switch (s) {
	case CPUFREQ_SYSFS: return "cpufreq scaling_cur_freq";
	case CPUFREQ_CPUINFO: return "/proc/cpuinfo cpu MHz";
	default: return "none";
	}
}

static double fold(const struct cpufreq *cf, int how)
{
	double acc = NAN;
	int n = 0;
	for (int i = 0; i < cf->ncpus; i++) {
		double v = cf->cur_mhz[i];
		if (isnan(v))
			continue;
		if (n == 0)
			acc = v;
		else if (how == 0)
			acc += v;
		else if (how < 0 ? v < acc : v > acc)
			acc = v;
		n++;
	}
	return how == 0 && n ? acc / n : acc;
}

int cpufreq_index(const struct cpufreq *cf, int cpu)
{
	for (int i = 0; i < cf->ncpus; i++)
		if (cf->cpu[i] == cpu)
			return i;
	return -1;
}

int cpufreq_task_cpu(pid_t pid)
{
	char p[64], line[1024];
	snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
	int rc = sysroot_read_line(p, line, sizeof line);
	if (rc < 0)
		return rc;
	/* The name (field 2) may hold spaces and parentheses: count from the last ')'. */
	char *s = strrchr(line, ')');
	if (!s)
		return -EINVAL;
	s++;
	for (int field = 2; field < 39; field++) {
		s = strchr(s, ' ');
		if (!s)
			return -EINVAL;
		s++;
	}
	char *end;
	long cpu = strtol(s, &end, 10);
	return end == s || cpu < 0 ? -EINVAL : (int)cpu;
}

double cpufreq_on(const struct cpufreq *cf, const int *cpus, int n, double *nominal)
{
	double sum = 0, nsum = 0;
	int k = 0, nk = 0;
	for (int j = 0; j < n; j++) {
		int i = cpufreq_index(cf, cpus[j]);
		if (i < 0)
			continue;
		if (!isnan(cf->cur_mhz[i]))
			sum += cf->cur_mhz[i], k++;
		if (cf->nom_mhz[i] > 0 && !cf->nom_ceiling[i])
			nsum += cf->nom_mhz[i], nk++;
	}
	if (nominal)
		*nominal = nk ? nsum / nk : 0;
	return k ? sum / k : NAN;
}

double cpufreq_mean(const struct cpufreq *cf) { return fold(cf, 0); }
double cpufreq_min(const struct cpufreq *cf) { return fold(cf, -1); }
double cpufreq_max(const struct cpufreq *cf) { return fold(cf, 1); }
