/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system batteries, the way UPower tells them from a mouse's or a phone's: which count, which way their charge goes, and what they draw. */
#include "telemetry/power.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/sysroot.h"

static int read_s64(const char *path, int64_t *out)
{
	char buf[64], *end;
	int rc = sysroot_read_line(path, buf, sizeof buf);
	if (rc < 0)
		return rc;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*out = v;
	return 0;
}

static void add_name(char *list, size_t size, const char *name, const char *why)
{
	size_t n = strlen(list);
	snprintf(list + n, size - n, "%s%.40s (%s)", n ? ", " : "", name, why);
}

/* One power supply: the mains' state, or a battery the machine draws from. */
static int add_supply(const char *name, void *arg)
{
	struct power *pw = arg;
	if (name[0] == '.')
		return 0;
	char p[200], type[32] = "", scope[32] = "";
	snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/type", name);
	if (sysroot_read_line(p, type, sizeof type) < 0)
		return 0;
	/* USB (a USB-C port's ucsi or cros_usbpd supply) feeds the machine as Mains does; a
	 * peripheral's (scope Device) does not. */
	snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/scope", name);
	bool device = sysroot_read_line(p, scope, sizeof scope) == 0 && !strcmp(scope, "Device");
	if (!strcmp(type, "Mains") || (!strcmp(type, "USB") && !device)) {
		uint64_t on;
		snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/online", name);
		if (sysroot_read_u64(p, &on) == 0)
			pw->ac_online = pw->ac_online == 1 ? 1 : (int)(on != 0);
		return 0;
	}
	if (strcmp(type, "Battery"))
		return 0;
	/* scope=Device is a peripheral's battery (a mouse, a headset): not what the machine draws from. */
	if (device) {
		add_name(pw->ignored, sizeof pw->ignored, name, "scope Device");
		return 0;
	}
	/* An empty bay (a removable second battery) stays listed with present=0. */
	uint64_t present;
	snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/present", name);
	if (sysroot_read_u64(p, &present) == 0 && !present) {
		add_name(pw->ignored, sizeof pw->ignored, name, "not present");
		return 0;
	}
	if (pw->nbatteries < POWER_MAX_BATTERIES)
		snprintf(pw->bat[pw->nbatteries++], sizeof pw->bat[0], "%.31s", name);
	return 0;
}

void power_battery_open(struct power *pw)
{
	if (sysroot_dir_each("/sys/class/power_supply", add_supply, pw) < 0)
		return;
	/* readdir's order is the filesystem's: name them BAT0+BAT1 whatever it was. */
	for (int i = 1; i < pw->nbatteries; i++)
		for (int k = i; k > 0 && strcmp(pw->bat[k - 1], pw->bat[k]) > 0; k--) {
			char t[32];
			memcpy(t, pw->bat[k], sizeof t);
			memcpy(pw->bat[k], pw->bat[k - 1], sizeof t);
			memcpy(pw->bat[k - 1], t, sizeof t);
		}
	int n = 0;
	for (int i = 0; i < pw->nbatteries; i++)
		n += snprintf(pw->battery + n, sizeof pw->battery - (size_t)n, "%s%s", i ? "+" : "", pw->bat[i]);
}

/* One battery's rate in W, signed as the driver gave it: power_now (µW), else current_now (µA) ×
 * voltage_now (µV). A rate of 0 is -ENODATA: firmware that fills no rate writes 0, and a machine
 * that runs draws something, so 0 while discharging is a measurement never made. */
static int one_battery_watts(const char *bat, double *w)
{
	char p[200];
	int64_t v, a;
	bool zero = false;
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/power_now", bat);
	if (read_s64(p, &v) == 0) {
		if (v) {
			*w = (double)v / 1e6;
			return 0;
		}
		zero = true;
	}
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/current_now", bat);
	if (read_s64(p, &a) < 0)
		return zero ? -ENODATA : -ENOENT;
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/voltage_now", bat);
	if (read_s64(p, &v) < 0)
		return zero ? -ENODATA : -ENOENT;
	*w = (double)a * (double)llabs(v) / 1e12;
	return *w != 0 ? 0 : -ENODATA;
}

/* One battery's direction: its status, else (Unknown, or no status) the sign of its rate. The ABI lets
 * the current be negative while discharging; drivers that report it unsigned leave only the AC to tell. */
static enum battery_dir one_battery_dir(const char *bat, double w, int ac_online)
{
	char p[200], status[32] = "";
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/status", bat);
	sysroot_read_line(p, status, sizeof status);
	if (!strcmp(status, "Discharging"))
		return BATTERY_DISCHARGING;
	if (!strcmp(status, "Charging"))
		return BATTERY_CHARGING;
	if (!strcmp(status, "Full") || !strcmp(status, "Not charging"))
		return BATTERY_IDLE;
	if (isnan(w))
		return BATTERY_UNKNOWN;
	if (w < 0)
		return BATTERY_DISCHARGING;
	if (w == 0)
		return BATTERY_IDLE;
	if (ac_online == 0)
		return BATTERY_DISCHARGING;
	if (ac_online == 1)
		return BATTERY_CHARGING;
	return BATTERY_UNKNOWN;
}

/* The machine's draw from its batteries: the sum over those discharging; NAN when none is, none
 * has a rate, or what they give is not the draw (pw->unmeasured says why). */
double power_battery_watts(struct power *pw, bool *any_rate)
{
	double sum = 0;
	int discharging = 0, charging = 0, idle = 0;
	*any_rate = false;
	pw->unmeasured[0] = '\0';
	for (int i = 0; i < pw->nbatteries; i++) {
		double w = NAN;
		int rc = one_battery_watts(pw->bat[i], &w);
		if (rc == 0 || rc == -ENODATA)
			*any_rate = true;
		if (rc < 0)
			w = NAN;
		enum battery_dir dir = one_battery_dir(pw->bat[i], w, pw->ac_online);
		if (dir == BATTERY_DISCHARGING) {
			discharging++;
			if (!isnan(w))
				sum += fabs(w);
			else if (rc == -ENODATA && !pw->unmeasured[0])
				snprintf(pw->unmeasured, sizeof pw->unmeasured,
					 "%.31s reports 0 W while discharging (no rate from its firmware)", pw->bat[i]);
		} else if (dir == BATTERY_CHARGING) {
			charging++;
		} else if (dir == BATTERY_IDLE) {
			idle++;
		}
	}
	/* A second battery sits idle while the first discharges: the machine is still discharging. */
	pw->dir = discharging ? BATTERY_DISCHARGING : charging ? BATTERY_CHARGING : idle ? BATTERY_IDLE : BATTERY_UNKNOWN;
	pw->battery_discharging = discharging > 0;
	/* On a charger too weak for the load (a 15 W USB-C charger under a 30 W run) the battery gives
	 * only what the charger does not: its rate is the shortfall, not the machine's draw. */
	if (discharging && pw->ac_online == 1 && !pw->unmeasured[0])
		snprintf(pw->unmeasured, sizeof pw->unmeasured,
			 "on a charger too weak for the load (its shortfall, not the draw)");
	return discharging && *any_rate && !pw->unmeasured[0] ? sum : NAN;
}

const char *power_battery_dir_name(enum battery_dir d)
{
	switch (d) {
	case BATTERY_DISCHARGING:
		return "discharging";
	case BATTERY_CHARGING:
		return "charging";
	case BATTERY_IDLE:
		return "idle: full or not charging";
	default:
		return "direction unknown";
	}
}

int power_on_battery(struct power *pw)
{
	if (pw->ac_online == 0)
		return 1;
	if (pw->ac_online == -1 && pw->nbatteries) {
		bool any_rate;
		power_battery_watts(pw, &any_rate);
		return pw->battery_discharging;
	}
	return 0;
}
