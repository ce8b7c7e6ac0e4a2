/* Energy and power: RAPL package domains through powercap, else the battery's discharge power. */
#include "telemetry/power.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void open_rapl(struct power *pw, char *why, size_t whylen)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/class/powercap");
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(why, whylen, "no RAPL (%.60s missing: a VM?)", dir);
		return;
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
		return;
	if (denied)
		snprintf(why, whylen,
			 "RAPL energy_uj is readable by root only (since Linux 5.10, CVE-2020-8694): run as root");
	else if (!seen)
		snprintf(why, whylen, "no intel-rapl zones in %.100s", dir);
	else
		snprintf(why, whylen, "RAPL zones in %.100s could not be read", dir);
}

static void open_battery(struct power *pw)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/class/power_supply");
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[200], type[32] = "";
		snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/type", e->d_name);
		if (sysroot_read_line(p, type, sizeof type) < 0)
			continue;
		if (!strcmp(type, "Mains")) {
			uint64_t on;
			snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/online", e->d_name);
			if (sysroot_read_u64(p, &on) == 0)
				pw->ac_online = pw->ac_online == 1 ? 1 : (int)(on != 0);
		} else if (!strcmp(type, "Battery") && !pw->battery[0]) {
			snprintf(pw->battery, sizeof pw->battery, "%.31s", e->d_name);
		}
	}
	closedir(d);
}

/* power_now in µW, or current_now (µA) × voltage_now (µV). */
static double battery_watts(struct power *pw)
{
	char p[200], status[32] = "";
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/status", pw->battery);
	sysroot_read_line(p, status, sizeof status);
	pw->battery_discharging = !strcmp(status, "Discharging");
	uint64_t v, a;
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/power_now", pw->battery);
	if (sysroot_read_u64(p, &v) == 0)
		return v / 1e6;
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/current_now", pw->battery);
	if (sysroot_read_u64(p, &a) < 0)
		return NAN;
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/voltage_now", pw->battery);
	if (sysroot_read_u64(p, &v) < 0)
		return NAN;
	return (double)a * (double)v / 1e12;
}

int power_open(struct power *pw, double now)
{
	memset(pw, 0, sizeof *pw);
	pw->ac_online = -1;
	pw->watts = NAN;
	pw->last_t = now;
	char rapl_why[200] = "";
	open_rapl(pw, rapl_why, sizeof rapl_why);
	open_battery(pw);
	if (pw->ndomains) {
		int n = snprintf(pw->source, sizeof pw->source, "RAPL ");
		for (int i = 0; i < pw->ndomains && n < (int)sizeof pw->source; i++)
			n += snprintf(pw->source + n, sizeof pw->source - (size_t)n, "%s%s", i ? "+" : "",
				      pw->dom[i].name[0] ? pw->dom[i].name : pw->dom[i].dir);
		pw->available = true;
		return 0;
	}
	if (pw->battery[0] && !isnan(battery_watts(pw))) {
		/* Only while discharging is the battery's power the machine's draw. */
		snprintf(pw->source, sizeof pw->source, "battery %s", pw->battery);
		snprintf(pw->why, sizeof pw->why, "%.150s; battery power counts only while discharging",
			 rapl_why);
		pw->available = true;
		return 0;
	}
	snprintf(pw->why, sizeof pw->why, "%s; no battery",
		 rapl_why);
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
	double w = battery_watts(pw);
	if (isnan(w) || !pw->battery_discharging) {
		pw->watts = NAN;
		return 0;
	}
	pw->watts = w;
	if (dt > 0)
		pw->joules += w * dt;
	return 0;
}

int power_on_battery(struct power *pw)
{
	if (pw->ac_online == 0)
		return 1;
	if (pw->ac_online == -1 && pw->battery[0]) {
		battery_watts(pw);
		return pw->battery_discharging;
	}
	return 0;
}

void power_close(struct power *pw)
{
	pw->available = false;
}
