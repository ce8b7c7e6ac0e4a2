/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the energy source against fixture trees: which batteries are the system's, their direction and sum, energy only while discharging, and perf's power PMU through a fake backend. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakesys.h"

#include "telemetry/power.h"
#include "telemetry/powercap.h"
#include "telemetry/throttle.h"

/* A battery as power_supply shows it; NULL leaves a file out. */
static void battery(const char *name, const char *scope, const char *present, const char *status,
		    const char *power_now, const char *current_now, const char *voltage_now)
{
	char p[200];
	const char *file[] = { "scope", "present", "status", "power_now", "current_now", "voltage_now" };
	const char *val[] = { scope, present, status, power_now, current_now, voltage_now };
	snprintf(p, sizeof p, "sys/class/power_supply/%s/type", name);
	fakesys_put(p, "Battery\n");
	for (int i = 0; i < 6; i++) {
		if (!val[i])
			continue;
		snprintf(p, sizeof p, "sys/class/power_supply/%s/%s", name, file[i]);
		fakesys_put(p, "%s\n", val[i]);
	}
}

static void ac(int online)
{
	fakesys_put("sys/class/power_supply/AC/type", "Mains\n");
	fakesys_put("sys/class/power_supply/AC/online", "%d\n", online);
}

static int setup(void **state)
{
	(void)state;
	if (fakesys_make("power") < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (fakesys_remove() < 0)
		return -1;
	power_set_pmu_ops(NULL);
	return 0;
}

/* A laptop on AC with a wireless mouse: the mouse's battery (scope Device) is not the machine's. */
static void mouse_battery_is_not_the_system_battery(void **state)
{
	(void)state;
	ac(1);
	battery("hidpp_battery_0", "Device", "1", "Discharging", NULL, NULL, "3900000");
	struct power pw;
	power_open(&pw, 0);
	assert_int_equal(pw.nbatteries, 0);
	assert_string_equal(pw.battery, "");
	assert_false(pw.available);
	assert_string_equal(pw.brief, "no RAPL, no battery");
	assert_non_null(strstr(pw.ignored, "hidpp_battery_0 (scope Device)"));
	assert_int_equal(power_on_battery(&pw), 0);
}

/* An empty second bay keeps its power_supply entry with present=0. */
static void absent_battery_is_skipped(void **state)
{
	(void)state;
	battery("BAT1", NULL, "0", "Unknown", NULL, "0", "0");
	battery("BAT0", "System", "1", "Discharging", "9000000", NULL, NULL);
	struct power pw;
	power_open(&pw, 0);
	assert_true(pw.available);
	assert_string_equal(pw.source, "battery BAT0");
	assert_non_null(strstr(pw.ignored, "BAT1 (not present)"));
}

/* The ABI allows current_now < 0 while discharging (ACPI reports it so on recent kernels). */
static void negative_current_is_discharging(void **state)
{
	(void)state;
	battery("BAT0", NULL, "1", "Discharging", NULL, "-1000000", "12000000");
	struct power pw;
	power_open(&pw, 0);
	assert_true(pw.available);
	assert_string_equal(pw.source, "battery BAT0");
	assert_int_equal(power_sample(&pw, 2.0), 0);
	assert_true(fabs(pw.watts - 12.0) < 1e-9);
	assert_true(fabs(pw.joules - 24.0) < 1e-9);
	assert_true(fabs(pw.integrated_s - 2.0) < 1e-9);
}

/* Status Unknown: the sign of the current decides; a positive one with the AC offline is a discharge too. */
static void unknown_status_uses_the_sign(void **state)
{
	(void)state;
	battery("BAT0", NULL, "1", "Unknown", NULL, "-500000", "12000000");
	struct power pw;
	power_open(&pw, 0);
	assert_int_equal(power_sample(&pw, 1.0), 0);
	assert_int_equal(pw.dir, BATTERY_DISCHARGING);
	assert_true(fabs(pw.watts - 6.0) < 1e-9);
	fakesys_put("sys/class/power_supply/BAT0/current_now", "500000\n");
	ac(1);
	power_open(&pw, 0);
	assert_int_equal(power_sample(&pw, 1.0), 0);
	assert_int_equal(pw.dir, BATTERY_CHARGING);
	assert_true(isnan(pw.watts));
	assert_true(pw.joules == 0);
	fakesys_put("sys/class/power_supply/AC/online", "0\n");
	power_open(&pw, 0);
	assert_int_equal(power_sample(&pw, 1.0), 0);
	assert_int_equal(pw.dir, BATTERY_DISCHARGING);
	assert_true(fabs(pw.watts - 6.0) < 1e-9);
}

/* BAT0 + BAT1 (ThinkPads): the machine's draw is the sum over the discharging ones. */
static void two_batteries_are_summed(void **state)
{
	(void)state;
	ac(0);
	battery("BAT1", "System", "1", "Discharging", "7000000", NULL, NULL);
	battery("BAT0", "System", "1", "Discharging", "5000000", NULL, NULL);
	struct power pw;
	power_open(&pw, 0);
	assert_string_equal(pw.source, "battery BAT0+BAT1");
	assert_int_equal(power_sample(&pw, 2.0), 0);
	assert_true(fabs(pw.watts - 12.0) < 1e-9);
	assert_true(fabs(pw.joules - 24.0) < 1e-9);
	/* One runs empty and idles: the other still carries the machine. */
	fakesys_put("sys/class/power_supply/BAT0/status", "Not charging\n");
	assert_int_equal(power_sample(&pw, 3.0), 0);
	assert_int_equal(pw.dir, BATTERY_DISCHARGING);
	assert_true(fabs(pw.watts - 7.0) < 1e-9);
}

/* A sample at t seconds that measured nothing: no watts, no joules, the time kept as missed. */
static void sample_measures_nothing(struct power *pw, double t)
{
	assert_int_equal(power_sample(pw, t), 0);
	assert_true(isnan(pw->watts));
	assert_true(pw->joules == 0 && pw->integrated_s == 0);
	assert_true(fabs(pw->missed_s - t) < 1e-9);
}

/* Charging or full: no energy is counted for that time, and the time is kept as missed. */
static void no_energy_unless_discharging(void **state)
{
	(void)state;
	ac(1);
	battery("BAT0", NULL, "1", "Charging", "20000000", NULL, NULL);
	struct power pw;
	power_open(&pw, 0);
	assert_true(pw.available);
	assert_int_equal(power_on_battery(&pw), 0);
	sample_measures_nothing(&pw, 2.0);
}

/* Firmware that fills no rate writes power_now 0 while discharging: no measurement, never 0 W and
 * 0 J; the why is kept. current_now x voltage_now is taken where it gives a rate. */
static void zero_rate_while_discharging_is_none(void **state)
{
	(void)state;
	ac(0);
	battery("BAT0", NULL, "1", "Discharging", "0", NULL, NULL);
	struct power pw;
	power_open(&pw, 0);
	assert_true(pw.available);
	assert_string_equal(pw.source, "battery BAT0");
	sample_measures_nothing(&pw, 2.0);
	assert_non_null(strstr(pw.unmeasured, "BAT0 reports 0 W while discharging"));
	battery("BAT0", NULL, "1", "Discharging", "0", "-1500000", "12000000");
	assert_int_equal(power_sample(&pw, 3.0), 0);
	assert_true(fabs(pw.watts - 18) < 1e-9);
	assert_string_equal(pw.unmeasured, "");
}

/* A weak USB-C charger: AC (type USB) online and the battery discharging: the battery gives the
 * charger's shortfall, not what the machine draws. */
static void weak_charger_shortfall_is_not_the_draw(void **state)
{
	(void)state;
	fakesys_put("sys/class/power_supply/ucsi-source-psy-USBC000:001/type", "USB\n");
	fakesys_put("sys/class/power_supply/ucsi-source-psy-USBC000:001/online", "1\n");
	battery("BAT0", "System", "1", "Discharging", "6000000", NULL, NULL);
	struct power pw;
	power_open(&pw, 0);
	assert_int_equal(pw.ac_online, 1);
	sample_measures_nothing(&pw, 1.0);
	assert_non_null(strstr(pw.unmeasured, "charger too weak"));
	/* the charger unplugged: the battery's rate is the draw again */
	fakesys_put("sys/class/power_supply/ucsi-source-psy-USBC000:001/online", "0\n");
	power_open(&pw, 0);
	assert_int_equal(power_sample(&pw, 1.0), 0);
	assert_true(pw.watts == 6);
}

/* ---- perf's power PMU through a fake backend ---- */

static uint64_t fake_count[4];
static int fake_err;
static int fake_opened, fake_closed, fake_cpu_seen[4];
static uint32_t fake_type;
static uint64_t fake_config;

static int fake_open(uint32_t type, uint64_t config, int cpu)
{
	if (fake_err)
		return fake_err;
	fake_type = type;
	fake_config = config;
	fake_cpu_seen[fake_opened] = cpu;
	return 100 + fake_opened++;
}

static int fake_read(int fd, uint64_t *count)
{
	*count = fake_count[fd - 100];
	return 0;
}

static void fake_close(int fd)
{
	(void)fd;
	fake_closed++;
}

static const struct power_pmu_ops fake_pmu = { fake_open, fake_read, fake_close };

static void power_pmu(const char *cpumask)
{
	fakesys_put("sys/bus/event_source/devices/power/type", "24\n");
	fakesys_put("sys/bus/event_source/devices/power/cpumask", "%s\n", cpumask);
	fakesys_put("sys/bus/event_source/devices/power/events/energy-pkg", "event=0x02\n");
	fakesys_put("sys/bus/event_source/devices/power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
	fakesys_put("sys/bus/event_source/devices/power/events/energy-pkg.unit", "Joules\n");
	memset(fake_count, 0, sizeof fake_count);
	fake_err = fake_opened = fake_closed = 0;
	power_set_pmu_ops(&fake_pmu);
}

/* No readable powercap: energy-pkg on one CPU of each package, scaled to joules and summed. */
static void power_pmu_when_no_powercap(void **state)
{
	(void)state;
	power_pmu("0,4");
	struct power pw;
	power_open(&pw, 10.0);
	assert_true(pw.available);
	assert_string_equal(pw.source, "perf power/energy-pkg");
	assert_int_equal(pw.npmu, 2);
	assert_int_equal(fake_type, 24);
	assert_true(fake_config == 2);
	assert_int_equal(fake_cpu_seen[0], 0);
	assert_int_equal(fake_cpu_seen[1], 4);
	fake_count[0] = 4294967296ull * 3; /* 2^32 counts of 2^-32 J: 3 J */
	fake_count[1] = 4294967296ull * 7;
	assert_int_equal(power_sample(&pw, 12.0), 0);
	assert_true(fabs(pw.joules - 10.0) < 1e-6);
	assert_true(fabs(pw.watts - 5.0) < 1e-6);
	power_close(&pw);
	assert_int_equal(fake_closed, 2);
}

/* Refused (paranoid > 0 without CAP_PERFMON) and root-only RAPL: both reasons, the paranoid value read. */
static void power_pmu_refused_says_what_it_needs(void **state)
{
	(void)state;
	power_pmu("0");
	fake_err = -EACCES;
	fakesys_put("proc/sys/kernel/perf_event_paranoid", "2\n");
	struct power pw;
	power_open(&pw, 0);
	assert_false(pw.available);
	assert_non_null(strstr(pw.why, "perf_event_paranoid <= 0 or CAP_PERFMON (paranoid is 2)"));
	assert_string_equal(pw.brief, "no RAPL, no battery");
	assert_null(strstr(pw.why, "chmod"));
}

/* RAPL through powercap stays first where it can be read. */
static void powercap_before_the_pmu(void **state)
{
	(void)state;
	power_pmu("0");
	fakesys_put("sys/class/powercap/intel-rapl:0/name", "package-0\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/max_energy_range_uj", "262143328850\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/energy_uj", "1000\n");
	struct power pw;
	power_open(&pw, 0);
	assert_string_equal(pw.source, "RAPL package-0");
	assert_int_equal(fake_opened, 0);
}

/* ---- RAPL's power limits (powercap constraints) ---- */

static void rapl_limits(void)
{
	fakesys_put("sys/class/powercap/intel-rapl:0/name", "package-0\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_0_name", "long_term\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_0_power_limit_uw", "15000000\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_0_time_window_us", "27983872\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_1_name", "short_term\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_1_power_limit_uw", "44000000\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_1_time_window_us", "2440\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_2_name", "peak_power\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/constraint_2_power_limit_uw", "123000000\n");
	/* psys with its limit unset (0): no limit; a subzone's are not the package's */
	fakesys_put("sys/class/powercap/intel-rapl:1/name", "psys\n");
	fakesys_put("sys/class/powercap/intel-rapl:1/constraint_0_name", "long_term\n");
	fakesys_put("sys/class/powercap/intel-rapl:1/constraint_0_power_limit_uw", "0\n");
	fakesys_put("sys/class/powercap/intel-rapl:0:0/constraint_0_name", "long_term\n");
	fakesys_put("sys/class/powercap/intel-rapl:0:0/constraint_0_power_limit_uw", "9000000\n");
}

static void powercap_limits_are_read(void **state)
{
	(void)state;
	rapl_limits();
	struct powercap_limit l[8];
	assert_int_equal(powercap_limits(l, 8), 3);
	assert_string_equal(l[0].zone, "intel-rapl:0");
	assert_string_equal(l[0].zone_name, "package-0");
	assert_string_equal(powercap_limit_label(&l[0]), "PL1");
	assert_true(l[0].watts == 15 && fabs(l[0].window_s - 27.983872) < 1e-9);
	assert_string_equal(powercap_limit_label(&l[1]), "PL2");
	assert_true(l[1].watts == 44 && fabs(l[1].window_s - 0.00244) < 1e-12);
	assert_string_equal(powercap_limit_label(&l[2]), "PL4");
	assert_true(l[2].window_s == 0);
}

/* The package at 14.8 W for 40 s of 0.5 s ticks: PL1 (15 W over 28 s) is
 * reached once 28 s are behind; PL2 (44 W) is not; PL4 has no window. */
static double tick_w;
static double fake_zone(const char *zone, void *ctx)
{
	double *j = ctx;
	return strcmp(zone, "intel-rapl:0") ? NAN : *j;
}

static void pl1_reached_over_its_window(void **state)
{
	(void)state;
	rapl_limits();
	struct powercap_watch *w = calloc(1, sizeof *w);
	powercap_watch_open(w);
	assert_int_equal(w->nlim, 3);
	powercap_watch_test_begin(w);
	double j = 0;
	char ev[160];
	tick_w = 14.8;
	for (int i = 0; i <= 80; i++) {
		if (i == 40) { /* 20 s: PL1's window is not behind yet, nothing decided */
			powercap_watch_evidence(w, ev, sizeof ev);
			assert_string_equal(ev, "");
		}
		powercap_watch_tick(w, i * 0.5, fake_zone, &j);
		j += tick_w * 0.5;
	}
	powercap_watch_evidence(w, ev, sizeof ev);
	assert_string_equal(ev, "package-0 PL1 15.0 W: 14.8 W over 28.0 s");
	/* the verdict: a power-limit state, not throttling */
	struct throttle_inputs in = throttle_inputs_none();
	snprintf(in.power_limit_rapl, sizeof in.power_limit_rapl, "%s", ev);
	struct throttle_verdict v;
	throttle_decide(&in, &v);
	assert_true(v.power_limit);
	assert_false(v.throttled);
	/* at 10 W nothing is reached (a fresh history: PL1's average carries
	 * the 14.8 W stretch into the next 28 s, as the firmware's does) */
	powercap_watch_open(w);
	powercap_watch_test_begin(w);
	tick_w = 10;
	for (int i = 0; i <= 160; i++) {
		powercap_watch_tick(w, i * 0.5, fake_zone, &j);
		j += tick_w * 0.5;
	}
	powercap_watch_evidence(w, ev, sizeof ev);
	assert_string_equal(ev, "");
	free(w);
}

/* PL2's window (2.44 ms) is shorter than a tick: a tick averaging 43 W was at PL2 within it. */
static void pl2_reached_within_a_tick(void **state)
{
	(void)state;
	struct powercap_limit pl2 = { .zone = "intel-rapl:0", .zone_name = "package-0", .idx = 1,
				      .name = "short_term", .watts = 44, .window_s = 0.00244 };
	double t[3] = { 0, 0.5, 1.0 }, j[3] = { 0, 10, 31.5 }, w, span;
	assert_true(powercap_reached(&pl2, t, j, 3, &w, &span));
	assert_true(fabs(w - 43) < 1e-9 && span == 0.5);
	j[2] = 25; /* 30 W: no */
	assert_false(powercap_reached(&pl2, t, j, 3, &w, &span));
	/* an unknown energy decides nothing */
	j[2] = NAN;
	assert_false(powercap_reached(&pl2, t, j, 3, &w, &span));
	/* PL1's 28 s over 1 s of history: nothing decided */
	struct powercap_limit pl1 = pl2;
	pl1.watts = 15, pl1.window_s = 28;
	j[2] = 31.5;
	assert_false(powercap_reached(&pl1, t, j, 3, &w, &span));
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(mouse_battery_is_not_the_system_battery),
		T(absent_battery_is_skipped),
		T(zero_rate_while_discharging_is_none),
		T(weak_charger_shortfall_is_not_the_draw),
		T(negative_current_is_discharging),
		T(unknown_status_uses_the_sign),
		T(two_batteries_are_summed),
		T(no_energy_unless_discharging),
		T(power_pmu_when_no_powercap),
		T(power_pmu_refused_says_what_it_needs),
		T(powercap_before_the_pmu),
		T(powercap_limits_are_read),
		T(pl1_reached_over_its_window),
		T(pl2_reached_within_a_tick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
