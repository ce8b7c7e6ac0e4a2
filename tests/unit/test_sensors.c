/* Tests of the headline CPU temperature choice in src/telemetry/sensors.c, from fixture lists of inputs. */
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
	assert_false(p.offset);
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

static void tctl_alone_is_marked_offset(void **state)
{
	(void)state;
	const struct row r[] = { { "k10temp", "Tctl", 55, 0 }, { "k10temp", "Tccd1", 50, 0 } };
	struct temp_pick p;
	assert_true(pick(r, N(r), NULL, &p) == 55);
	assert_true(p.offset);
	assert_non_null(strstr(p.source, "offset"));
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

static void tdie_borrows_the_chips_limit(void **state)
{
	(void)state;
	const struct row r[] = { { "k10temp", "Tctl", 75, 95 }, { "k10temp", "Tdie", 65, 0 } };
	struct temp_input in[2];
	load(in, r, 2);
	struct temp_pick p;
	char err[200];
	assert_int_equal(sensors_pick_cpu(in, 2, NULL, &p, err, sizeof err), 0);
	double lim;
	const char *name;
	assert_true(sensors_pick_value(in, &p, &lim, &name) == 65);
	assert_true(lim == 95);
	assert_string_equal(name, "crit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(coretemp_packages_give_their_max),
		cmocka_unit_test(tdie_beats_tctl_in_either_order),
		cmocka_unit_test(tctl_alone_is_marked_offset),
		cmocka_unit_test(tccd_or_cores_give_their_max),
		cmocka_unit_test(arm_zones_then_acpitz),
		cmocka_unit_test(invalid_readings_are_passed_over),
		cmocka_unit_test(nothing_known_says_so),
		cmocka_unit_test(override_by_chip_and_label),
		cmocka_unit_test(tdie_borrows_the_chips_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
