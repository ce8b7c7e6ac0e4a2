/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Energy and power: RAPL package domains through powercap, else perf's power PMU, else the system batteries' discharge power (battery.c). */
#include "telemetry/power.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "telemetry/sysroot.h"

uint64_t rapl_delta(uint64_t prev, uint64_t cur, uint64_t max_range)
{
	if (cur >= prev)
		return cur - prev;
	if (max_range == 0 || prev > max_range)
		return 0; /* cannot tell how far it wrapped: count nothing rather than garbage */
	/* The counter runs 0..max_range and restarts at 0. */
	return (max_range - prev) + cur;
}

static int read_rapl(struct rapl_domain *d, uint64_t *uj)
{
	char p[160];
	snprintf(p, sizeof p, "/sys/class/powercap/%s/energy_uj", d->dir);
	return sysroot_read_u64(p, uj);
}

/* ---- perf's power PMU: the same RAPL counters, allowed where energy_uj is root-only ---- */

static int real_pmu_open(uint32_t type, uint64_t config, int cpu)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	/* An uncore PMU counts per package: pid -1 and one CPU of the package (its cpumask). */
	long fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static int real_pmu_read(int fd, uint64_t *count)
{
	ssize_t n = read(fd, count, sizeof *count);
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof *count ? 0 : -EIO;
}

static void real_pmu_close(int fd)
{
	close(fd);
}

static const struct power_pmu_ops real_pmu = { real_pmu_open, real_pmu_read, real_pmu_close };
static const struct power_pmu_ops *pmu_ops = &real_pmu;

void power_set_pmu_ops(const struct power_pmu_ops *ops)
{
	pmu_ops = ops ? ops : &real_pmu;
}

/* "event=0x02" (the PMU's events/ file; the power PMU's format is event:0-7) into a config. */
static int parse_pmu_event(const char *s, uint64_t *config)
{
	const char *e = strstr(s, "event=");
	if (!e)
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(e + 6, &end, 0);
	if (errno || end == e + 6)
		return -EINVAL;
	*config = v;
	return 0;
}

/* The CPUs of a cpumask list ("0", "0,18", "0-1"), at most max. */
static int parse_cpulist(const char *s, int *cpu, int max)
{
	int n = 0;
	while (*s && n < max) {
		char *end;
		long a = strtol(s, &end, 10), b;
		if (end == s)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && n < max; c++)
			cpu[n++] = (int)c;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

#define PMU_DIR "/sys/bus/event_source/devices/power"

/* Opens power/energy-pkg on one CPU of each package. 0, or -errno with why (a sentence) and brief. */
static int open_pmu(struct power *pw, char *why, size_t whylen, char *brief, size_t brieflen)
{
	char line[128], unit[32] = "";
	uint64_t type, config;
	if (sysroot_read_u64(PMU_DIR "/type", &type) < 0) {
		snprintf(why, whylen, "no perf power PMU (%s)", PMU_DIR);
		snprintf(brief, brieflen, "no power PMU");
		return -ENOENT;
	}
	if (sysroot_read_line(PMU_DIR "/events/energy-pkg", line, sizeof line) < 0 ||
	    parse_pmu_event(line, &config) < 0) {
		snprintf(why, whylen, "the perf power PMU has no energy-pkg event");
		snprintf(brief, brieflen, "no energy-pkg");
		return -ENOENT;
	}
	char scale[64] = "";
	sysroot_read_line(PMU_DIR "/events/energy-pkg.scale", scale, sizeof scale);
	sysroot_read_line(PMU_DIR "/events/energy-pkg.unit", unit, sizeof unit);
	pw->pmu_scale = strtod(scale, NULL);
	if (!(pw->pmu_scale > 0) || strcmp(unit, "Joules")) {
		snprintf(why, whylen, "perf's energy-pkg has no usable scale/unit ('%.20s' '%.20s')", scale, unit);
		snprintf(brief, brieflen, "power PMU unusable");
		return -EINVAL;
	}
	int cpus[POWER_MAX_PMU_FDS] = { 0 }, ncpus = 1;
	if (sysroot_read_line(PMU_DIR "/cpumask", line, sizeof line) == 0) {
		ncpus = parse_cpulist(line, cpus, POWER_MAX_PMU_FDS);
		if (ncpus < 1) {
			cpus[0] = 0;
			ncpus = 1;
		}
	}
	for (int i = 0; i < ncpus; i++) {
		int fd = pmu_ops->open((uint32_t)type, config, cpus[i]);
		if (fd < 0 || pmu_ops->read(fd, &pw->pmu_last[pw->npmu]) < 0) {
			int e = fd < 0 ? fd : -EIO;
			if (fd >= 0)
				pmu_ops->close(fd);
			for (int k = 0; k < pw->npmu; k++)
				pmu_ops->close(pw->pmu_fd[k]);
			pw->npmu = 0;
			if (e == -EACCES || e == -EPERM) {
				uint64_t par = 0;
				bool have = sysroot_read_u64("/proc/sys/kernel/perf_event_paranoid", &par) == 0;
				char pv[24] = "?";
				if (have)
					snprintf(pv, sizeof pv, "%llu", (unsigned long long)par);
				/* A negative paranoid never refuses, so the value read is >= 0 here. */
				snprintf(why, whylen,
					 "perf's power PMU needs perf_event_paranoid <= 0 or CAP_PERFMON (paranoid is %s)",
					 pv);
				snprintf(brief, brieflen, "power PMU refused");
			} else {
				snprintf(why, whylen, "perf's power/energy-pkg could not be opened on cpu %d: %s",
					 cpus[i], strerror(-e));
				snprintf(brief, brieflen, "power PMU failed");
			}
			return e;
		}
		pw->pmu_fd[pw->npmu++] = fd;
	}
	return 0;
}

/* Joules since the previous read over every package's counter (64 bits: no wrap to handle). */
static double sample_pmu(struct power *pw)
{
	double j = 0;
	for (int i = 0; i < pw->npmu; i++) {
		uint64_t v;
		if (pmu_ops->read(pw->pmu_fd[i], &v) < 0)
			continue;
		if (v >= pw->pmu_last[i])
			j += (double)(v - pw->pmu_last[i]) * pw->pmu_scale;
		pw->pmu_last[i] = v;
	}
	return j;
}

/* Why there is no RAPL, in a sentence (why) and in a few words (brief). Returns 1 when root-only. */
static int open_rapl(struct power *pw, char *why, size_t whylen, char *brief, size_t brieflen)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/class/powercap");
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(why, whylen, "no RAPL (/sys/class/powercap missing: a VM?)");
		snprintf(brief, brieflen, "no RAPL");
		return 0;
	}
	struct dirent *e;
	int denied = 0, seen = 0;
	struct rapl_domain psys = { 0 };
	bool have_psys = false;
	while ((e = readdir(d))) {
		/* Top-level zones only ("intel-rapl:0"): subzones (":0:0") are inside them. */
		if (strncmp(e->d_name, "intel-rapl:", 11) || strchr(e->d_name + 11, ':'))
			continue;
		seen++;
		struct rapl_domain dom = { 0 };
		snprintf(dom.dir, sizeof dom.dir, "%.60s", e->d_name);
		char p[160];
		snprintf(p, sizeof p, "/sys/class/powercap/%s/name", dom.dir);
		sysroot_read_line(p, dom.name, sizeof dom.name);
		snprintf(p, sizeof p, "/sys/class/powercap/%s/max_energy_range_uj", dom.dir);
		sysroot_read_u64(p, &dom.max_range_uj);
		int rc = read_rapl(&dom, &dom.last_uj);
		if (rc == -EACCES || rc == -EPERM) {
			denied++;
			continue;
		}
		if (rc < 0)
			continue;
		/* psys is the whole platform and contains the packages: never add both. */
		if (!strcmp(dom.name, "psys")) {
			psys = dom;
			have_psys = true;
		} else if (pw->ndomains < POWER_MAX_DOMAINS) {
			pw->dom[pw->ndomains++] = dom;
		}
	}
	closedir(d);
	if (!pw->ndomains && have_psys)
		pw->dom[pw->ndomains++] = psys;
	if (pw->ndomains)
		return 0;
	if (denied)
		snprintf(why, whylen, "RAPL energy_uj is readable by root only (since Linux 5.10, CVE-2020-8694)");
	else if (!seen)
		snprintf(why, whylen, "no intel-rapl zones in %.100s", dir);
	else
		snprintf(why, whylen, "RAPL zones in %.100s could not be read", dir);
	snprintf(brief, brieflen, "%s", denied ? "RAPL root-only" : !seen ? "no RAPL" : "RAPL unreadable");
	return denied > 0;
}


int power_open(struct power *pw, double now)
{
	memset(pw, 0, sizeof *pw);
	pw->ac_online = -1;
	pw->watts = NAN;
	pw->last_t = now;
	char rapl_why[200] = "", rapl_brief[24] = "";
	int root_only = open_rapl(pw, rapl_why, sizeof rapl_why, rapl_brief, sizeof rapl_brief);
	power_battery_open(pw);
	if (pw->ndomains) {
		int n = snprintf(pw->source, sizeof pw->source, "RAPL ");
		for (int i = 0; i < pw->ndomains && n < (int)sizeof pw->source; i++)
			n += snprintf(pw->source + n, sizeof pw->source - (size_t)n, "%s%s", i ? "+" : "",
				      pw->dom[i].name[0] ? pw->dom[i].name : pw->dom[i].dir);
		pw->available = true;
		return 0;
	}
	/* Where powercap is root-only (or missing), perf's power PMU reads the same counters. */
	char pmu_why[160] = "", pmu_brief[24] = "";
	int prc = open_pmu(pw, pmu_why, sizeof pmu_why, pmu_brief, sizeof pmu_brief);
	if (prc == 0) {
		snprintf(pw->source, sizeof pw->source, "perf power/energy-pkg");
		snprintf(pw->why, sizeof pw->why, "%.150s: read through perf's power PMU", rapl_why);
		pw->available = true;
		return 0;
	}
	char why[240];
	/* The PMU's reason matters where it exists, or where powercap is root-only (what to do instead). */
	if (root_only || prc != -ENOENT)
		snprintf(why, sizeof why, "%.100s; %.130s", rapl_why, pmu_why);
	else
		snprintf(why, sizeof why, "%.200s", rapl_why);
	const char *brief = rapl_brief;
	bool any_rate = false;
	if (pw->nbatteries) {
		power_battery_watts(pw, &any_rate);
		if (any_rate) {
			/* Only while discharging is the batteries' power the machine's draw. */
			snprintf(pw->source, sizeof pw->source, "battery %s", pw->battery);
			snprintf(pw->why, sizeof pw->why, "%.170s; battery power counts only while discharging", why);
			pw->available = true;
			return 0;
		}
	}
	snprintf(pw->why, sizeof pw->why, "%.200s; %s", why,
		 pw->nbatteries ? "the battery reports no power or current" : "no battery");
	snprintf(pw->brief, sizeof pw->brief, "%s, %s", brief, pw->nbatteries ? "no battery rate" : "no battery");
	return 0;
}

int power_sample(struct power *pw, double now)
{
	if (!pw->available)
		return -ENODEV;
	double dt = now - pw->last_t;
	pw->last_t = now;
	if (pw->ndomains) {
		double j = 0;
		for (int i = 0; i < pw->ndomains; i++) {
			struct rapl_domain *d = &pw->dom[i];
			uint64_t uj;
			if (read_rapl(d, &uj) < 0)
				continue;
			double dj = rapl_delta(d->last_uj, uj, d->max_range_uj) / 1e6;
			d->last_uj = uj;
			d->joules += dj;
			j += dj;
		}
		pw->joules += j;
		pw->watts = dt > 0 ? j / dt : NAN;
		return 0;
	}
	if (pw->npmu) {
		double j = sample_pmu(pw);
		pw->joules += j;
		pw->watts = dt > 0 ? j / dt : NAN;
		return 0;
	}
	bool any_rate;
	double w = power_battery_watts(pw, &any_rate);
	if (isnan(w)) {
		/* Charging, full or unknown: this interval's energy is not the machine's draw, and not counted. */
		pw->watts = NAN;
		if (dt > 0)
			pw->missed_s += dt;
		return 0;
	}
	pw->watts = w;
	if (dt > 0) {
		pw->joules += w * dt;
		pw->integrated_s += dt;
	}
	return 0;
}

void power_close(struct power *pw)
{
	for (int i = 0; i < pw->npmu; i++)
		pmu_ops->close(pw->pmu_fd[i]);
	pw->npmu = 0;
	pw->available = false;
}
