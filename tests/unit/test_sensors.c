/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the headline CPU temperature choice in src/telemetry/sensors.c, from fixture lists of inputs: per-driver rules, thermal zones, the user's labels. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "telemetry/sensors.h"
#include "telemetry/thermal_zone.h"

struct row {
	const char *prefix, *label;
	double value, crit;
};

static int load(struct temp_input *in, const struct row *rows, int n)
{
	memset(in, 0, sizeof(*in) * (size_t)n);
	for (int i = 0; i < n; i++) {
		snprintf(in[i].prefix, sizeof in[i].prefix, "%s", rows[i].prefix);
		snprintf(in[i].chip, sizeof in[i].chip, "%s-virtual-0", rows[i].prefix);
		snprintf(in[i].label, sizeof in[i].label, "%s", rows[i].label);
		snprintf(in[i].klabel, sizeof in[i].klabel, "%s", rows[i].label);
		in[i].zone = -1;
		in[i].value = rows[i].value;
		in[i].crit = rows[i].crit;
	}
	return n;
}

static double pick(const struct row *rows, int n, const char *override, struct temp_pick *p)
{
	struct temp_input in[16];
	load(in, rows, n);
	char err[200];
	assert_int_equal(sensors_pick_cpu(in, n, override, p, err, sizeof err), 0);
	return sensors_pick_value(in, p, NULL, NULL);
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void coretemp_packages_give_their_max(void **state)
{
	(void)state;
	const struct row r[] = {
		{ "acpitz", "temp1", 40, 0 },       { "coretemp", "Core 0", 70, 100 },
		{ "coretemp", "Package id 0", 60, 100 }, { "coretemp", "Package id 1", 64, 100 },
		{ "coretemp", "Core 1", 75, 100 },
	};
	struct temp_pick p;
	assert_true(pick(r, N(r), NULL, &p) == 64);
	assert_int_equal(p.n, 2);
	assert_non_null(strstr(p.source, "Package id"));
	/* before Linux 3.15 coretemp named the package "Physical id N" */
	const struct row old[] = { { "coretemp", "Core 0", 36, 100 }, { "coretemp", "Physical id 0", 33, 100 } };
	assert_true(pick(old, N(old), NULL, &p) == 33);
	assert_string_equal(p.source, "coretemp Physical id 0");
}

static void tdie_beats_tctl_in_either_order(void **state)
{
	(void)state;
	/* k10temp lists Tctl first; zenpower lists Tdie first. The label decides. */
	const struct row k10[] = { { "k10temp", "Tctl", 75, 0 }, { "k10temp", "Tdie", 65, 0 },
				   { "k10temp", "Tccd1", 80, 0 } };
	const struct row zen[] = { { "zenpower", "Tdie", 66, 0 }, { "zenpower", "Tctl", 76, 0 } };
	struct temp_pick p;
	assert_true(pick(k10, N(k10), NULL, &p) == 65);
	assert_string_equal(p.source, "k10temp Tdie");
	assert_true(pick(zen, N(zen), NULL, &p) == 66);
	assert_string_equal(p.source, "zenpower Tdie");
}

/* k10temp exports Tdie beside Tctl only where Tctl carries an offset: Tctl alone is the die's. */
static void tctl_alone_is_the_die(void **state)
{
	(void)state;
	const struct row r[] = { { "k10temp", "Tctl", 55, 0 }, { "k10temp", "Tccd1", 50, 0 } };
	struct temp_pick p;
	assert_true(pick(r, N(r), NULL, &p) == 55);
	assert_string_equal(p.source, "k10temp Tctl");
}

/* k10temp's temp1_max is 70 °C on every model, a constant of the driver: not a limit (a busy Ryzen passes it). */
static void k10temp_max_is_not_a_limit(void **state)
{
	(void)state;
	const struct row r[] = { { "k10temp", "Tctl", 63.2, 0 }, { "k10temp", "Tccd1", 60, 0 } };
	struct temp_input in[2];
	load(in, r, 2);
	in[0].max = 70;
	in[0].max_constant = true;
	struct temp_pick p;
	char err[200];
	assert_int_equal(sensors_pick_cpu(in, 2, NULL, &p, err, sizeof err), 0);
	double lim = -1;
	const char *name;
	/* within a rounding: on i686 (x87) the literal is a long double, the value a double */
	assert_true(fabs(sensors_pick_value(in, &p, &lim, &name) - 63.2) < 1e-9);
	assert_true(lim == 0);
	/* Before Zen: one unlabelled k10temp input, the CPU's, its HTC threshold the limit. */
	const struct row old[] = { { "acpitz", "temp1", 40, 0 }, { "k10temp", "temp1", 55, 90 } };
	load(in, old, 2);
	in[1].max = 70;
	in[1].max_constant = true;
	assert_int_equal(sensors_pick_cpu(in, 2, NULL, &p, err, sizeof err), 0);
	assert_string_equal(p.source, "k10temp temp1");
	assert_true(sensors_pick_value(in, &p, &lim, &name) == 55);
	assert_true(lim == 90);
	/* coretemp's max is a real threshold where it has no crit. */
	const struct row c[] = { { "coretemp", "Package id 0", 60, 0 } };
	load(in, c, 1);
	in[0].max = 86;
	assert_int_equal(sensors_pick_cpu(in, 1, NULL, &p, err, sizeof err), 0);
	sensors_pick_value(in, &p, &lim, &name);
	assert_true(lim == 86);
	assert_string_equal(name, "max");
}

/* A board with thermal zones only: the CPU's zone, its passive trip point the limit; acpitz zones last. */
static void cpu_zone_with_trip_points(void **state)
{
	(void)state;
	const struct row r[] = { { "thermal_zone0", "acpitz", 40, 0 }, { "thermal_zone1", "gpu-thermal", 70, 0 },
				 { "thermal_zone2", "cpu-big0-thermal", 55, 0 },
				 { "thermal_zone3", "cpu-little-thermal", 50, 0 } };
	struct temp_input in[4];
	load(in, r, 4);
	for (int i = 0; i < 4; i++)
		in[i].zone = i;
	in[2].max = 85; /* passive */
	in[2].crit = 110;
	in[3].crit = 105;
	struct temp_pick p;
	char err[200];
	assert_int_equal(sensors_pick_cpu(in, 4, NULL, &p, err, sizeof err), 0);
	assert_int_equal(p.n, 2);
	double lim;
	const char *name;
	assert_true(sensors_pick_value(in, &p, &lim, &name) == 55);
	assert_true(lim == 85);
	assert_string_equal(name, "passive");
	/* An x86 netbook whose only CPU sensor is x86_pkg_temp beats an acpitz hwmon chip. */
	const struct row x[] = { { "acpitz", "temp1", 30, 0 }, { "thermal_zone1", "x86_pkg_temp", 52, 0 } };
	load(in, x, 2);
	in[1].zone = 1;
	assert_int_equal(sensors_pick_cpu(in, 2, NULL, &p, err, sizeof err), 0);
	assert_string_equal(p.source, "thermal_zone1 x86_pkg_temp");
	/* Only an acpitz zone: taken, with low trust. */
	load(in, r, 1);
	in[0].zone = 0;
	assert_int_equal(sensors_pick_cpu(in, 1, NULL, &p, err, sizeof err), 0);
	assert_true(p.low_trust);
}

/* A user's sensors.conf renames what is shown; the rules still read the kernel's labels. */
static void user_label_keeps_the_rules(void **state)
{
	(void)state;
	const struct row r[] = { { "coretemp", "Core 0", 50, 100 }, { "coretemp", "Package id 0", 60, 100 } };
	struct temp_input in[2];
	load(in, r, 2);
	snprintf(in[1].label, sizeof in[1].label, "CPU package");
	struct temp_pick p;
	char err[200];
	assert_int_equal(sensors_pick_cpu(in, 2, NULL, &p, err, sizeof err), 0);
	assert_string_equal(p.source, "coretemp CPU package");
	assert_int_equal(sensors_pick_cpu(in, 2, "coretemp:Package id 0", &p, err, sizeof err), 0);
	assert_int_equal(sensors_pick_cpu(in, 2, "coretemp:cpu package", &p, err, sizeof err), 0);
}

static void tccd_or_cores_give_their_max(void **state)
{
	(void)state;
	const struct row ccd[] = { { "k10temp", "Tccd1", 50, 0 }, { "k10temp", "Tccd2", 58, 0 } };
	/* An old Atom netbook: coretemp with cores only. */
	const struct row atom[] = { { "acpitz", "temp1", 30, 0 }, { "coretemp", "Core 0", 47, 90 },
				    { "coretemp", "Core 1", 52, 90 } };
	struct temp_pick p;
	assert_true(pick(ccd, N(ccd), NULL, &p) == 58);
	assert_true(pick(atom, N(atom), NULL, &p) == 52);
	assert_non_null(strstr(p.source, "coretemp Core"));
	assert_false(p.low_trust);
}

static void arm_zones_then_acpitz(void **state)
{
	(void)state;
	const struct row arm[] = { { "acpitz", "temp1", 30, 0 }, { "gpu_thermal", "temp1", 60, 0 },
				   { "cpu_thermal", "temp1", 48, 0 } };
	const struct row acpi[] = { { "nvme", "Composite", 40, 0 }, { "acpitz", "temp1", 44, 0 },
				    { "acpitz", "temp2", 46, 0 } };
	struct temp_pick p;
	assert_true(pick(arm, N(arm), NULL, &p) == 48);
	assert_string_equal(p.source, "cpu_thermal temp1");
	assert_true(pick(acpi, N(acpi), NULL, &p) == 46);
	assert_true(p.low_trust);
}

static void invalid_readings_are_passed_over(void **state)
{
	(void)state;
	/* A package sensor stuck at 0 or 127 is broken: fall to the next rule, never sum. */
	const struct row r[] = { { "coretemp", "Package id 0", 0.5, 100 }, { "coretemp", "Core 0", 127, 100 },
				 { "coretemp", "Core 1", 51, 100 } };
	struct temp_pick p;
	assert_true(pick(r, N(r), NULL, &p) == 51);
	assert_int_equal(p.n, 1);
	struct temp_input in[3];
	load(in, r, 3);
	assert_true(sensors_valid(51));
	assert_false(sensors_valid(1));
	assert_false(sensors_valid(127));
}

static void nothing_known_says_so(void **state)
{
	(void)state;
	const struct row r[] = { { "nvme", "Composite", 40, 0 }, { "amdgpu", "edge", 50, 0 } };
	struct temp_input in[2];
	load(in, r, 2);
	struct temp_pick p;
	char err[200] = "";
	assert_int_equal(sensors_pick_cpu(in, 2, NULL, &p, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "--sensor"));
	assert_int_equal(sensors_pick_cpu(in, 0, NULL, &p, err, sizeof err), -ENOENT);
}

static void override_by_chip_and_label(void **state)
{
	(void)state;
	const struct row r[] = { { "k10temp", "Tctl", 75, 95 }, { "k10temp", "Tdie", 65, 0 },
				 { "nvme", "Composite", 40, 80 } };
	struct temp_pick p;
	assert_true(pick(r, N(r), "nvme:Composite", &p) == 40);
	assert_true(p.user);
	struct temp_input in[3];
	load(in, r, 3);
	char err[200] = "";
	assert_int_equal(sensors_pick_cpu(in, 3, "k10temp:Tfoo", &p, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "k10temp:Tfoo"));
	assert_int_equal(sensors_pick_cpu(in, 3, "k10temp", &p, err, sizeof err), -EINVAL);
}

/* The headline's value from rows, with its limit and the limit's name. */
static double pick_limit(const struct row *rows, int n, double *lim, const char **name)
{
	struct temp_input in[16];
	load(in, rows, n);
	struct temp_pick p;
	char err[200];
	assert_int_equal(sensors_pick_cpu(in, n, NULL, &p, err, sizeof err), 0);
	return sensors_pick_value(in, &p, lim, name);
}

static void tdie_borrows_the_chips_limit(void **state)
{
	(void)state;
	const struct row r[] = { { "k10temp", "Tctl", 75, 95 }, { "k10temp", "Tdie", 65, 0 } };
	double lim;
	const char *name;
	assert_true(pick_limit(r, N(r), &lim, &name) == 65);
	assert_true(lim == 95);
	assert_string_equal(name, "crit");
}

/* Drivers whose every input is the CPU's: headlined before any ACPI zone (probes: a VIA Nano
 * netbook, an Athlon 64 desktop, a Baikal board). */
static void cpu_drivers_beat_acpitz(void **state)
{
	(void)state;
	const struct row via[] = { { "acpitz", "temp1", 68, 95 }, { "via_cputemp", "Core 0", 69, 0 } };
	const struct row k8[] = { { "radeon", "temp1", 26, 120 }, { "k8temp", "Core0 Temp", 41, 0 },
				  { "acpitz", "temp1", 45, 0 }, { "k8temp", "Core1 Temp", 36, 0 } };
	const struct row pvt[] = { { "acpitz", "temp1", 30, 0 }, { "pvt", "temp1", 52, 0 } };
	/* Baikal-M's SDK driver names each PVT sensor by its device-tree node (a RED OS 5.4 probe) */
	const struct row node[] = { { "nvme", "Composite", 40, 85 }, { "pvt@2a060000", "temp1", 23.4, 0 },
				    { "pvt@a200000", "temp1", 25.9, 0 }, { "pvt@c200000", "temp1", 25.4, 0 } };
	const struct row other[] = { { "pvtx", "temp1", 50, 0 }, { "pvt@", "temp1", 51, 0 } };
	struct temp_pick p;
	assert_true(pick(via, N(via), NULL, &p) == 69);
	assert_string_equal(p.source, "via_cputemp Core 0");
	assert_false(p.low_trust);
	assert_true(pick(k8, N(k8), NULL, &p) == 41);
	assert_int_equal(p.n, 2);
	assert_true(pick(pvt, N(pvt), NULL, &p) == 52);
	assert_true(fabs(pick(node, N(node), NULL, &p) - 25.9) < 1e-9);
	assert_int_equal(p.n, 3);
	/* not the driver's names: no headline */
	struct temp_input in[2];
	char err[200];
	load(in, other, N(other));
	assert_int_equal(sensors_pick_cpu(in, N(other), NULL, &p, err, sizeof err), -ENOENT);
}

/* An ARM SoC's die sensor (X-Gene, Allwinner A20) when no zone names the CPU; a zone or twin
 * bound to the CPUs' cooling counts whatever it is called (RK3588's bigcore0_thermal). */
static void soc_die_and_bound_zones(void **state)
{
	(void)state;
	const struct row xg[] = { { "apm_xgene", "SoC Temperature", 60, 0 } };
	struct temp_pick p;
	assert_true(pick(xg, N(xg), NULL, &p) == 60);
	/* Armbian's RK3399 zone "cpu", an Amlogic board's SCP (its GPU input is not the CPU's) */
	const struct row arm[] = { { "gpu", "temp1", 48, 0 }, { "lm75", "temp1", 34, 0 }, { "cpu", "temp1", 50.6, 0 } };
	assert_true(fabs(pick(arm, N(arm), NULL, &p) - 50.6) < 1e-9);
	const struct row scp[] = { { "scpi_sensors", "gpu", 55, 0 }, { "scpi_sensors", "aml_thermal", 50, 0 } };
	assert_true(pick(scp, N(scp), NULL, &p) == 50);
	assert_int_equal(p.n, 1);
	const struct row rk[] = { { "package_thermal", "temp1", 40, 0 }, { "gpu_thermal", "temp1", 45, 0 },
				  { "bigcore0_thermal", "temp1", 51, 0 }, { "littlecore_thermal", "temp1", 47, 0 } };
	struct temp_input in[4];
	load(in, rk, 4);
	char err[200] = "";
	assert_int_equal(sensors_pick_cpu(in, 4, NULL, &p, err, sizeof err), -ENOENT);
	in[2].cpu_bound = in[3].cpu_bound = true;
	assert_int_equal(sensors_pick_cpu(in, 4, NULL, &p, err, sizeof err), 0);
	assert_true(sensors_pick_value(in, &p, NULL, NULL) == 51);
	assert_int_equal(p.n, 2);
	/* a zone (no hwmon twin) bound to cpufreq cooling, named by its SoC's device tree */
	in[0].zone = 3;
	snprintf(in[0].klabel, sizeof in[0].klabel, "imx_thermal_zone");
	in[2].cpu_bound = in[3].cpu_bound = false;
	in[0].cpu_bound = true;
	assert_int_equal(sensors_pick_cpu(in, 4, NULL, &p, err, sizeof err), 0);
	assert_true(sensors_pick_value(in, &p, NULL, NULL) == 40);
	assert_true(thermal_cdev_is_cpu("cpufreq-cpu4") && thermal_cdev_is_cpu("thermal-cpufreq-0"));
	assert_false(thermal_cdev_is_cpu("Processor") || thermal_cdev_is_cpu("devfreq-ff9a0000.gpu"));
}

/* A Super I/O input whose driver says it is wired to the CPU's diode (tempN_type 1) beats ACPI's
 * zone; its other inputs (thermistors on the board) do not count. */
static void cpu_diode_inputs(void **state)
{
	(void)state;
	const struct row r[] = { { "acpitz", "temp1", 40, 0 }, { "w83627ehf", "temp1", 42, 0 },
				 { "w83627ehf", "temp2", 64.5, 0 }, { "w83627ehf", "temp3", 65.5, 0 } };
	struct temp_input in[4];
	load(in, r, 4);
	in[1].sensor_type = in[3].sensor_type = 4; /* thermistor */
	in[2].sensor_type = 1;                     /* CPU diode */
	struct temp_pick p;
	char err[200];
	assert_int_equal(sensors_pick_cpu(in, 4, NULL, &p, err, sizeof err), 0);
	assert_true(sensors_pick_value(in, &p, NULL, NULL) == 64.5);
	assert_false(p.low_trust);
	assert_non_null(strstr(p.source, "w83627ehf temp2"));
	in[2].sensor_type = 4;
	assert_int_equal(sensors_pick_cpu(in, 4, NULL, &p, err, sizeof err), 0);
	assert_true(p.low_trust); /* acpitz then */
}

/* The limit shown is the hottest input's own: an ACPI zone's second input does not lend its
 * crit to the first (a probe read 27.8 °C "crit 20.8 °C"), and no limit below 40 °C means one. */
static void limit_is_the_hottest_inputs(void **state)
{
	(void)state;
	const struct row r[] = { { "acpitz", "temp1", 27.8, 0 }, { "acpitz", "temp2", 25, 90 } };
	double lim = -1;
	const char *name;
	assert_true(fabs(pick_limit(r, N(r), &lim, &name) - 27.8) < 1e-9);
	assert_true(lim == 0);
	assert_false(sensors_valid_limit(20.8));
	assert_false(sensors_valid_limit(226.8));
	assert_true(sensors_valid_limit(95));
}

/* A label longer than its field is cut between characters, never inside one. */
static void utf8_labels_cut_whole(void **state)
{
	(void)state;
	char buf[48];
	const char *ru = "ТемператураЦентральногоПроцессора"; /* 33 letters, 2 bytes each */
	sensors_copy_label(buf, sizeof buf, ru);
	assert_int_equal(strlen(buf), 46); /* 23 letters: 47 would split the 24th */
	assert_int_equal(strncmp(buf, ru, 46), 0);
	sensors_copy_label(buf, 6, "a€b"); /* € is 3 bytes: all 5 fit in 6 */
	assert_string_equal(buf, "a€b");
	sensors_copy_label(buf, 5, "a€b");
	assert_string_equal(buf, "a€");
	sensors_copy_label(buf, 4, "a€b");
	assert_string_equal(buf, "a");
	sensors_copy_label(buf, sizeof buf, "Core 0");
	assert_string_equal(buf, "Core 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(coretemp_packages_give_their_max),
		cmocka_unit_test(tdie_beats_tctl_in_either_order),
		cmocka_unit_test(tctl_alone_is_the_die),
		cmocka_unit_test(k10temp_max_is_not_a_limit),
		cmocka_unit_test(cpu_zone_with_trip_points),
		cmocka_unit_test(user_label_keeps_the_rules),
		cmocka_unit_test(tccd_or_cores_give_their_max),
		cmocka_unit_test(arm_zones_then_acpitz),
		cmocka_unit_test(invalid_readings_are_passed_over),
		cmocka_unit_test(nothing_known_says_so),
		cmocka_unit_test(override_by_chip_and_label),
		cmocka_unit_test(tdie_borrows_the_chips_limit),
		cmocka_unit_test(cpu_drivers_beat_acpitz),
		cmocka_unit_test(soc_die_and_bound_zones),
		cmocka_unit_test(limit_is_the_hottest_inputs),
		cmocka_unit_test(utf8_labels_cut_whole),
		cmocka_unit_test(cpu_diode_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
