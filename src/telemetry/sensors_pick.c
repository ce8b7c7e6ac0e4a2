/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The headline CPU temperature's rules, as the drivers document them: which input of which chip (coretemp's package, k10temp's Tdie/Tctl/Tccd, an ARM zone's twin, acpitz last) and which of its limits counts. */
#include "telemetry/sensors.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "telemetry/thermal_zone.h"

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* The rules read the kernel's labels (klabel): a user's sensors.conf may rename what is shown. */
/* coretemp's package sensor: "Package id N", "Physical id N" before Linux 3.15 (a probe of 3.14). */
static bool is_pkg(const struct temp_input *t)
{
	return !strcmp(t->prefix, "coretemp") && (starts(t->klabel, "Package id ") || starts(t->klabel, "Physical id "));
}
static bool is_tdie(const struct temp_input *t) { return t->zone < 0 && !strcmp(t->klabel, "Tdie"); }
static bool is_tctl(const struct temp_input *t) { return t->zone < 0 && !strcmp(t->klabel, "Tctl"); }
/* k10temp before Zen (families 10h-16h) has one unlabelled input, the CPU's, with its HTC limit as crit. */
static bool is_k10_old(const struct temp_input *t)
{
	return !strcmp(t->prefix, "k10temp") && !strcmp(t->klabel, "temp1");
}
static bool is_core(const struct temp_input *t)
{
	return t->zone < 0 &&
	       (starts(t->klabel, "Tccd") || (!strcmp(t->prefix, "coretemp") && starts(t->klabel, "Core ")));
}
/* Baikal-M's SDK PVT driver (compatible "baikal,pvt") registers each of the die's PVT sensors
 * under its platform device's name, the device-tree node's: "pvt@2a060000". */
static bool is_pvt_node(const char *p)
{
	if (!starts(p, "pvt@") || !p[4])
		return false;
	return strspn(p + 4, "0123456789abcdef") == strlen(p + 4);
}
/* Drivers whose every temperature input is the CPU's own die or core diode
 * (Documentation/hwmon/k8temp.rst, via-cputemp.c, bt1-pvt.rst: its hwmon name is "pvt"). */
static bool is_cpu_driver(const struct temp_input *t)
{
	static const char *const drivers[] = { "k8temp", "via_cputemp", "pvt", "bt1-pvt" };
	for (size_t i = 0; i < sizeof drivers / sizeof drivers[0] && t->zone < 0; i++)
		if (!strcmp(t->prefix, drivers[i]))
			return true;
	return t->zone < 0 && is_pvt_node(t->prefix);
}
/* Thermal zones exported as hwmon take the zone type as name ('-' made '_'); sensors.c marks a
 * twin whose zone is bound to the CPUs' cooling (cpu_bound), so a zone named otherwise (RK3588's
 * bigcore0_thermal) counts by what it cools. Without the zone to ask (a dump or a probe of hwmon
 * alone), the names device trees give CPU zones: cpu, cpu0, soc, with or without "_thermal"
 * (Armbian's RK3399 calls its zone "cpu"). */
bool sensors_is_soc(const struct temp_input *t)
{
	if (t->zone >= 0)
		return false;
	if (t->cpu_bound)
		return true;
	const char *p = t->prefix;
	if (!starts(p, "cpu") && !starts(p, "soc"))
		return false;
	p += 3;
	while (*p >= '0' && *p <= '9')
		p++;
	return !*p || !strcmp(p, "_thermal");
}
/* An ARM SoC's own die sensor, where no zone says more (the cores are on that die): X-Gene's
 * "SoC Temperature" (apm-xgene-hwmon.c), Allwinner's touchscreen ADC's (sun4i-ts.c), the
 * Raspberry Pi's SoC sensor (bcm2835_thermal.c, bcm2711_thermal.c), and what a board's System
 * Control Processor reports of the SoC (scpi-hwmon.c: Amlogic's "aml_thermal"; its GPU's not). */
static bool is_soc_die(const struct temp_input *t)
{
	static const char *const drivers[] = { "apm_xgene", "sun4i_ts", "bcm2835_thermal", "bcm2711_thermal" };
	if (t->zone >= 0)
		return false;
	if (!strcmp(t->prefix, "scpi_sensors"))
		return !strcasestr(t->klabel, "gpu");
	for (size_t i = 0; i < sizeof drivers / sizeof drivers[0]; i++)
		if (!strcmp(t->prefix, drivers[i]))
			return true;
	return false;
}
/* A monitor chip's input its driver says is wired to the CPU (Documentation/hwmon/sysfs-interface.rst,
 * tempN_type: 1 CPU diode, 5 AMD AMDSI, 6 Intel PECI): a Super I/O board of a CPU kbench has no
 * driver for (a Pentium 4 on a w83627ehf). */
static bool is_cpu_diode(const struct temp_input *t)
{
	return t->zone < 0 && (t->sensor_type == 1 || t->sensor_type == 5 || t->sensor_type == 6);
}
static bool is_acpi(const struct temp_input *t) { return t->zone < 0 && !strcmp(t->prefix, "acpitz"); }
/* A thermal zone (no hwmon twin needed): ARM boards whose zones are not exported as hwmon, x86_pkg_temp. */
static bool is_zone_cpu(const struct temp_input *t)
{
	return t->zone >= 0 && (t->cpu_bound || thermal_zone_is_cpu(t->klabel));
}
static bool is_zone_acpi(const struct temp_input *t) { return t->zone >= 0 && !strcmp(t->klabel, "acpitz"); }

struct rule {
	bool (*match)(const struct temp_input *);
	const char *note;
	bool low_trust;
};

/* k10temp.rst: Tctl is the control temperature; where it differs from the die's (a fixed offset on a
 * few early Zen models) the driver exports Tdie too, which the rule before it takes. So a Tctl picked
 * here is the die's temperature: no offset note. */
static const struct rule rules[] = {
	{ is_pkg, "", false },
	{ is_tdie, "", false },
	{ is_tctl, "", false },
	{ is_k10_old, "", false },
	{ is_core, "", false },
	{ is_cpu_driver, "", false },
	{ sensors_is_soc, "", false },
	{ is_zone_cpu, "", false },
	{ is_soc_die, "", false },
	{ is_cpu_diode, " (the board's CPU diode input)", false },
	{ is_acpi, " (low trust: an ACPI zone, often not the CPU)", true },
	{ is_zone_acpi, " (low trust: an ACPI zone, often not the CPU)", true },
};

/* One input's limit and its name: crit (coretemp's TjMax, k10temp's HTC threshold), else max, never
 * k10temp's max (a constant of the driver, 70 °C, that any busy Ryzen passes); for a zone its passive
 * trip point (where it starts slowing the CPU), else its critical one. 0 when none. */
static double input_limit(const struct temp_input *t, const char **name)
{
	if (t->zone >= 0) {
		*name = t->max > 0 ? "passive" : "crit";
		return t->max > 0 ? t->max : t->crit;
	}
	if (t->crit > 0) {
		*name = "crit";
		return t->crit;
	}
	*name = "max";
	return t->max_constant ? 0 : t->max;
}

/* k10temp gives crit on Tctl only: Tdie and Tccd borrow the chip's lowest limit. No other chip
 * lends one input's limit to another (an ACPI zone's inputs watch different places). */
static void borrow_limit(const struct temp_input *in, int n, struct temp_pick *p)
{
	const char *chip = in[p->idx[0]].chip, *prefix = in[p->idx[0]].prefix;
	if (strcmp(prefix, "k10temp") && strcmp(prefix, "zenpower") && !p->user)
		return;
	for (int i = 0; i < n; i++) {
		if (strcmp(in[i].chip, chip))
			continue;
		const char *ln;
		double l = input_limit(&in[i], &ln);
		if (l > 0 && (p->chip_limit == 0 || l < p->chip_limit)) {
			p->chip_limit = l;
			snprintf(p->chip_limit_name, sizeof p->chip_limit_name, "%s", ln);
		}
	}
}

static void describe(const struct temp_input *in, struct temp_pick *p, const char *note)
{
	const struct temp_input *a = &in[p->idx[0]];
	if (p->n == 1)
		snprintf(p->source, sizeof p->source, "%s %s%s", a->prefix, a->label, note);
	else
		snprintf(p->source, sizeof p->source, "%s %s +%d more (max)%s", a->prefix, a->label,
			 p->n - 1, note);
}

int sensors_pick_cpu(const struct temp_input *in, int n, const char *override, struct temp_pick *out,
		     char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (override && *override) {
		const char *colon = strchr(override, ':');
		if (!colon || colon == override || !colon[1]) {
			snprintf(err, errlen, "--sensor wants CHIP:LABEL (e.g. k10temp:Tdie), not '%s'",
				 override);
			return -EINVAL;
		}
		size_t cl = (size_t)(colon - override);
		for (int i = 0; i < n; i++) {
			bool chip = (strlen(in[i].prefix) == cl && !strncmp(in[i].prefix, override, cl)) ||
				    (strlen(in[i].chip) == cl && !strncmp(in[i].chip, override, cl));
			if (chip && (!strcasecmp(in[i].label, colon + 1) || !strcasecmp(in[i].klabel, colon + 1))) {
				out->idx[out->n++] = i;
				out->user = true;
				describe(in, out, " (--sensor)");
				borrow_limit(in, n, out);
				return 0;
			}
		}
		snprintf(err, errlen, "--sensor %s: no such temperature input here (kbench sensors lists them)",
			 override);
		return -ENOENT;
	}
	for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
		for (int i = 0; i < n && out->n < SENSORS_PICK_MAX; i++)
			if (rules[r].match(&in[i]) && sensors_valid(in[i].value))
				out->idx[out->n++] = i;
		if (out->n) {
			out->low_trust = rules[r].low_trust;
			describe(in, out, rules[r].note);
			borrow_limit(in, n, out);
			return 0;
		}
	}
	if (n)
		snprintf(err, errlen, "none of the %d temperature inputs is a known CPU sensor "
			 "(coretemp, k10temp/zenpower, cpu_thermal, a CPU thermal zone, acpitz); use --sensor CHIP:LABEL", n);
	else
		snprintf(err, errlen, "no temperature inputs");
	return -ENOENT;
}

/* The headline's limit is the hottest input's own (several inputs at one reading: the lowest of
 * theirs), never one input's limit beside another's reading. */
double sensors_pick_value(const struct temp_input *in, const struct temp_pick *p, double *limit,
			  const char **limit_name)
{
	double v = NAN, lim = 0;
	const char *ln = "";
	for (int k = 0; k < p->n; k++) {
		const struct temp_input *t = &in[p->idx[k]];
		if (!sensors_valid(t->value) || (!isnan(v) && t->value < v))
			continue;
		const char *name;
		double l = input_limit(t, &name);
		if (isnan(v) || t->value > v)
			lim = 0, ln = "";
		v = t->value;
		if (l > 0 && (lim == 0 || l < lim)) {
			lim = l;
			ln = name;
		}
	}
	/* A zone twin's passive trip comes before the critical one the hwmon twin shows. */
	if (p->chip_limit > 0 && (lim == 0 || !strcmp(p->chip_limit_name, "passive"))) {
		lim = p->chip_limit;
		ln = p->chip_limit_name;
	}
	if (limit)
		*limit = lim;
	if (limit_name)
		*limit_name = ln;
	return v;
}

