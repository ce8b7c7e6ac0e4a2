/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the thermal check's decision in src/families/thermal.c: the windows, the fall and its noise, the thermal evidence and its moment, and what each verdict says. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run.h"
#include "thermal_int.h"

#define N 60

static struct thermal_point pts[N + 10];

/* n samples of len seconds at rate 1000 (+-0.5% alternating), 50 °C, 2400 MHz, no throttling. */
static struct thermal_inputs calm(int n, double len)
{
	for (int k = 0; k < n; k++)
		pts[k] = (struct thermal_point){ .t = k * len, .len = len, .rate = k % 2 ? 1005 : 995,
						 .temp = 50, .mhz = 2400, .throttle = 0, .watts = NAN,
						 .others = 0 };
	return (struct thermal_inputs){ .n = n, .p = pts, .idle_temp_start = 40, .idle_temp_end = 40,
					.temp_limit = 100, .limit_name = "crit", .joules = NAN,
					.throttle_ms = NAN, .unit = "lps", .timebase = 1 };
}

/* No sensor at all: a VM. */
static struct thermal_inputs blind(int n, double len)
{
	struct thermal_inputs in = calm(n, len);
	for (int k = 0; k < n; k++)
		pts[k].temp = pts[k].mhz = pts[k].throttle = pts[k].others = NAN;
	in.idle_temp_start = in.idle_temp_end = NAN;
	in.temp_limit = 0;
	in.temp_why = "no hwmon chips";
	in.throttle_why = "no thermal_throttle counters";
	in.power_why = "no RAPL";
	return in;
}

static struct thermal_verdict decide(const struct thermal_inputs *in)
{
	struct thermal_verdict v;
	memset(&v, 0x55, sizeof v); /* nothing from before may leak through */
	thermal_decide(in, &v);
	return v;
}

static void a_flat_run_says_no_throttling(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2);
	struct thermal_verdict v = decide(&in);
	assert_int_equal(v.state, THERMAL_STEADY);
	assert_int_equal(v.fall, -1);
	assert_int_equal(v.event, -1);
	assert_false(v.counters || v.clock || v.heat);
	assert_true(v.any_sensor);
	assert_string_equal(v.headline, "steady");
	assert_non_null(strstr(v.thermal_line, "No throttling: no throttle counter moved"));
	assert_non_null(strstr(v.thermal_line, "hottest 50 °C (crit 100)"));
	assert_non_null(strstr(v.score_line, "Score held"));
	assert_true(fabs(v.sustained - 1) < 0.01);
	assert_string_equal(v.start_line, "");
	assert_string_equal(v.missing, "");
	/* a score that rose beyond its noise did not "hold": the start was held back */
	for (int k = N / 2; k < N; k++)
		pts[k].rate *= 1.5;
	v = decide(&in);
	assert_int_equal(v.fall, -1);
	assert_null(strstr(v.score_line, "Score held"));
	assert_non_null(strstr(v.score_line, "Score rose beyond its noise"));
	assert_non_null(strstr(v.score_line, "scored 150.0% of the first"));
}

/* The first minute is the reference, but never more than a third of the check. */
static void windows_are_a_minute_or_a_third(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2); /* 2 minutes: a minute is 30 samples, a third 20 */
	struct thermal_verdict v = decide(&in);
	assert_int_equal(v.ref_n, 20);
	assert_true(fabs(v.ref_seconds - 40) < 1e-9);
	in = calm(N, 0.5); /* 30 s: a third */
	assert_int_equal(decide(&in).ref_n, 20);
	in = calm(N, 10); /* 10 minutes: the first minute, 6 samples */
	v = decide(&in);
	assert_int_equal(v.ref_n, 6);
	assert_true(fabs(v.ref_seconds - 60) < 1e-9);
	assert_non_null(strstr(v.score_line, "the last minute scored"));
	in = calm(4, 2); /* at least 3 samples each */
	assert_int_equal(decide(&in).ref_n, 3);
	in = calm(2, 2);
	v = decide(&in);
	assert_int_equal(v.state, THERMAL_SHORT);
	assert_non_null(strstr(v.thermal_line, "Too short"));
}

/* Counters, clock and heat at one moment: that sample is named, with every cause. */
static void throttling_names_its_moment_and_causes(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2);
	for (int k = 24; k < N; k++) {
		pts[k].throttle = 3;
		pts[k].mhz = 1200;
		pts[k].rate = 700;
		pts[k].temp = 96;
	}
	in.throttle_ms = 300;
	struct thermal_verdict v = decide(&in);
	assert_int_equal(v.state, THERMAL_THROTTLING);
	assert_int_equal(v.event, 24);
	assert_true(fabs(v.event_t - 48) < 1e-9);
	assert_int_equal(v.fall, 24);
	assert_true(v.counters && v.clock && v.heat);
	assert_string_equal(v.headline, "throttling since 0:48");
	assert_string_equal(v.cause,
			    "throttle counters moved (+3, 300 ms); clock 1200 MHz (was 2400); 96 °C near crit 100");
	assert_non_null(strstr(v.thermal_line, "Throttling from 0:48 (sample 25): throttle counters"));
	assert_non_null(strstr(v.score_line, "Score fell 30% from 0:48 (sample 25, at 96 °C 1200 MHz)"));
	assert_non_null(strstr(v.score_line, "as the CPU slowed itself"));
	assert_true(fabs(v.sustained - 0.7) < 0.01);
}

/* The counters alone are the kernel saying so; the clock alone (10% down) is the CPU slowing itself. */
static void each_kind_of_evidence_alone(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2);
	pts[40].throttle = 1;
	for (int k = 41; k < N; k++)
		pts[k].throttle = 1;
	struct thermal_verdict v = decide(&in);
	assert_int_equal(v.event, 40);
	assert_true(v.counters && !v.clock && !v.heat);
	assert_int_equal(v.fall, -1); /* the score held: said separately */
	assert_non_null(strstr(v.score_line, "Score held"));

	in = calm(N, 2);
	for (int k = 30; k < N; k++)
		pts[k].mhz = 2161; /* just above 90% of 2400 */
	assert_int_equal(decide(&in).event, -1);
	for (int k = 30; k < N; k++)
		pts[k].mhz = 2159;
	v = decide(&in);
	assert_int_equal(v.event, 30);
	assert_true(v.clock && !v.counters);
	assert_non_null(strstr(v.cause, "no throttle counter moved: a power or turbo limit"));

	in = calm(N, 2); /* hot, but nothing slowed: warming, not throttling */
	for (int k = 0; k < N; k++)
		pts[k].temp = 50 + k * 0.8;
	v = decide(&in);
	assert_int_equal(v.event, -1);
	assert_int_equal(v.state, THERMAL_WARMING);
	assert_non_null(strstr(v.headline, "warming"));
}

/* A fall must beat the noise (at least 3%) for three samples in a row. */
static void a_fall_is_three_samples_beyond_the_noise(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2);
	for (int k = 30; k < N; k++)
		pts[k].rate = 1000 * 0.975; /* 2.5%: within the 3% minimum */
	assert_int_equal(decide(&in).fall, -1);
	for (int k = 30; k < N; k++)
		pts[k].rate = 1000 * 0.96;
	struct thermal_verdict v = decide(&in);
	assert_int_equal(v.fall, 30);
	assert_true(fabs(v.fall_pct + 4) < 0.6);

	in = calm(N, 2); /* two low samples are a dip, not a fall */
	pts[20].rate = pts[21].rate = 500;
	assert_int_equal(decide(&in).fall, -1);
	pts[22].rate = 500;
	assert_int_equal(decide(&in).fall, 20);

	in = calm(N, 2); /* noisy first samples: the threshold widens (4 robust sds) */
	for (int k = 0; k < N; k++)
		pts[k].rate = k % 2 ? 1100 : 900;
	v = decide(&in);
	assert_true(v.noise > 0.3);
	for (int k = 30; k < N; k++)
		pts[k].rate = k % 2 ? 880 : 720;
	assert_int_equal(decide(&in).fall, -1);
}

/* Where a fall began: a noisy start widens the noise so that a halved score is
 * no fall, and a second step down is found; the fall is walked back to where
 * the samples came nearer the fallen level (CI: named at 0:16, began at 0:05). */
static void a_fall_found_late_is_named_where_it_began(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2);
	for (int k = 0; k < 10; k++)
		pts[k].rate = k % 2 ? 1150 : 870;
	for (int k = 10; k < 40; k++)
		pts[k].rate = 500;
	for (int k = 40; k < N; k++)
		pts[k].rate = 350;
	struct thermal_verdict v = decide(&in);
	assert_true(v.noise > 0.5); /* 500 alone would be no fall */
	assert_int_equal(v.fall, 10);
	assert_true(fabs(v.fall_t - 20) < 1e-9);
	assert_true(fabs(v.fall_pct + 56.6) < 0.5); /* from 0:20 to the end, not from 1:20 */
	assert_non_null(strstr(v.score_line, "Score fell 57% from 0:20 (sample 11"));

	/* A sample back at the start level ends the walk: the fall began after it. */
	pts[25].rate = 1000;
	v = decide(&in);
	assert_int_equal(v.fall, 26);

	/* A gradual fall is not walked back over samples nearer the start level. */
	in = calm(N, 2);
	for (int k = 30; k < N; k++)
		pts[k].rate = 1000 * (1 - 0.02 * (k - 29));
	v = decide(&in);
	assert_true(v.fall >= 30 && v.fall <= 32);
}

/* The score fell, the sensors stayed level: background load, not heat. */
static void a_fall_without_thermal_evidence(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2);
	for (int k = 15; k < N; k++)
		pts[k].rate = 660;
	struct thermal_verdict v = decide(&in);
	assert_int_equal(v.state, THERMAL_FALLEN);
	assert_int_equal(v.fall, 15);
	assert_int_equal(v.event, -1);
	assert_non_null(strstr(v.thermal_line, "No throttling"));
	assert_non_null(strstr(v.score_line, "with no thermal evidence"));
	assert_non_null(strstr(v.score_line, "background load or another limit, not heat"));
	assert_string_equal(v.headline, "score fell 34% at 0:30, not heat");
	for (int k = 15; k < N; k++)
		pts[k].others = 1.0; /* and the others' CPU use says whose */
	v = decide(&in);
	assert_non_null(strstr(v.score_line, "other processes used 1.0 CPUs"));

	/* Evidence long after the fall does not explain it. */
	in = calm(N, 2);
	for (int k = 10; k < N; k++)
		pts[k].rate = 600;
	for (int k = 40; k < N; k++)
		pts[k].throttle = 2;
	v = decide(&in);
	assert_int_equal(v.fall, 10);
	assert_int_equal(v.event, 40);
	assert_non_null(strstr(v.score_line, "before any thermal evidence"));
}

/* No sensors (a VM): the score curve only, and what is missing, with why. */
static void no_sensors_says_what_is_missing(void **state)
{
	(void)state;
	struct thermal_inputs in = blind(N, 2);
	struct thermal_verdict v = decide(&in);
	assert_false(v.any_sensor);
	assert_int_equal(v.event, -1);
	assert_non_null(strstr(v.thermal_line, "nothing here could show it"));
	assert_non_null(strstr(v.missing, "temperature (no hwmon chips)"));
	assert_non_null(strstr(v.missing, "throttle counters (no thermal_throttle counters)"));
	assert_non_null(strstr(v.energy_line, "n/a (no RAPL)"));
	for (int k = 20; k < N; k++)
		pts[k].rate = 500;
	v = decide(&in);
	assert_int_equal(v.fall, 20);
	assert_non_null(strstr(v.score_line, "no sensor here can say whether heat caused it"));
	assert_string_equal(v.headline, "score fell 50% at 0:40, no sensors");

	/* A clock reading that never moves (a VM's /proc/cpuinfo) is no sensor either. */
	in = blind(N, 2);
	for (int k = 0; k < N; k++)
		pts[k].mhz = 2445;
	in.clock_fixed = true;
	v = decide(&in);
	assert_false(v.any_sensor);
	assert_non_null(strstr(v.missing, "a moving clock"));
	in.clock_fixed = false;
	assert_true(decide(&in).any_sensor);
}

static void energy_and_work_per_joule(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(10, 2);
	for (int k = 0; k < 10; k++)
		pts[k].rate = 1000;
	in.joules = 100; /* 20 s at 5 W, 20000 loops */
	struct thermal_verdict v = decide(&in);
	assert_true(fabs(v.per_joule - 200) < 1e-9);
	assert_true(fabs(v.watts - 5) < 1e-9);
	assert_string_equal(v.energy_line, "Energy: 100 J over 0:20 (mean 5.0 W): 200 loops per joule.");
	in.timebase = 60; /* lpm: a sample of 2 s at 1000 lpm is 33.3 loops */
	in.unit = "lpm";
	assert_true(fabs(decide(&in).per_joule - 1000 * 20 / 60.0 / 100) < 1e-9);
}

static void a_warm_or_cooling_start_is_said(void **state)
{
	(void)state;
	struct thermal_inputs in = calm(N, 2);
	in.idle_temp_start = in.idle_temp_end = 81; /* within 20 °C of crit 100 */
	struct thermal_verdict v = decide(&in);
	assert_true(v.warm_start);
	assert_non_null(strstr(v.start_line, "already warm at the start (81 °C idle, crit 100)"));
	in.idle_temp_start = in.idle_temp_end = 79;
	assert_false(decide(&in).warm_start);
	in.idle_temp_start = 70;
	in.idle_temp_end = 60;
	v = decide(&in);
	assert_true(v.cooling_start);
	assert_non_null(strstr(v.start_line, "still cooling"));
	assert_null(strstr(v.start_line, "battery"));
	in.on_battery = true;
	v = decide(&in);
	assert_non_null(strstr(v.start_line, "still cooling"));
	assert_non_null(strstr(v.start_line, "On battery: the firmware's power limits"));
	/* an idle baseline that cooled and then held steady started the load settled */
	in.on_battery = false;
	in.idle_steady = true;
	v = decide(&in);
	assert_false(v.cooling_start);
	assert_null(strstr(v.start_line, "still cooling"));
}

/* A temperature series at 2 Hz from run time 100: f(seconds into the idle). */
static struct series *idle_temps(struct run *r, double (*f)(double), double seconds)
{
	struct series *s = run_series(r, "temp.cpu", "C");
	for (double x = 0; x <= seconds; x += 0.5)
		series_push(s, 100 + x, f(x));
	return s;
}
static double cools_then_holds(double x) { return x < 10 ? 60 - x : 50 + 0.5 * ((int)(x * 2) % 2); }
static double whole_degrees(double x) { return 45 + ((int)(x * 2) % 3 == 0); }
static double keeps_cooling(double x) { return 60 - 0.3 * x; }

/* The idle baseline ends once the temperature is steady, not while it falls,
 * never before THERMAL_IDLE_MIN, and at once with no temperature to wait for. */
static void idle_baseline_ends_when_steady(void **state)
{
	(void)state;
	char why[120];
	assert_false(thermal_idle_settled(NULL, 100, 104, why, sizeof why));
	assert_true(thermal_idle_settled(NULL, 100, 105.5, why, sizeof why));
	assert_non_null(strstr(why, "no temperature"));

	struct run *r = run_new();
	const struct series *s = idle_temps(r, cools_then_holds, 30);
	assert_false(thermal_idle_settled(s, 100, 115, why, sizeof why)); /* the fall is in the window */
	assert_true(thermal_idle_settled(s, 100, 121, why, sizeof why));
	assert_non_null(strstr(why, "steady (50.0-50.5 °C over 10 s)"));
	run_free(r);

	r = run_new();
	s = idle_temps(r, whole_degrees, 30); /* a sensor of whole degrees flickers by one */
	assert_false(thermal_idle_settled(s, 100, 108, why, sizeof why)); /* not 10 s of readings yet */
	assert_true(thermal_idle_settled(s, 100, 110, why, sizeof why));
	run_free(r);

	r = run_new();
	s = idle_temps(r, keeps_cooling, 30); /* 3 °C in 10 s: never steady */
	for (double now = 105; now <= 130; now += 1)
		assert_false(thermal_idle_settled(s, 100, now, why, sizeof why));
	run_free(r);
}

static void times_are_minutes_and_seconds(void **state)
{
	(void)state;
	char b[16];
	thermal_fmt_time(b, sizeof b, 252);
	assert_string_equal(b, "4:12");
	thermal_fmt_time(b, sizeof b, 6.6);
	assert_string_equal(b, "0:07");
	thermal_fmt_time(b, sizeof b, 3723);
	assert_string_equal(b, "1:02:03");
	thermal_fmt_time(b, sizeof b, NAN);
	assert_string_equal(b, "0:00");
}

/* A stored check: 6 samples of 1 s from run time 10 (2 copies), after an idle baseline
 * from 0 to 10; series every 0.25 s; the throttle counter steps at 12.1 (early in the 3rd sample). */
static struct run *stored_check(void)
{
	struct run *r = run_new();
	r->meta.mode = &thermal_mode;
	struct run_block *b = run_add_block(r, 2);
	struct test_result *t = run_block_add_test(b, "dhry2reg", "Dhrystone 2", "lps", 1, 116700, "system");
	t->status = TEST_DONE;
	for (int k = 0; k < 6; k++) {
		struct sample *s = test_add_sample(t, 2);
		s->start = 10 + k;
		s->count[0] = s->count[1] = 500;
		s->elapsed[0] = s->elapsed[1] = 1;
	}
	for (double x = 0; x <= 16.01; x += 0.25) {
		series_push(run_series(r, "temp.cpu", "C"), x, x < 10 ? 50 - x : 40 + x);
		if (x >= 10)
			series_push(run_series(r, "freq.busy", "MHz"), x, 2400);
		series_push(run_series(r, "throttle.events", "count"), x, x >= 12.1 ? 7 : 5);
		series_push(run_series(r, "energy", "J"), x, x * 10);
	}
	test_summary_set(t, "temp.limit", 100, NULL);
	test_summary_set(t, "energy.J", 60, NULL);
	return r;
}

/* The samples' sensor readings come from their own time window, the idle baseline from before. */
static void inputs_from_a_stored_run(void **state)
{
	(void)state;
	struct run *r = stored_check();
	struct thermal_inputs in;
	struct thermal_point *p = thermal_inputs_of(r, -1, INFINITY, &in);
	assert_non_null(p);
	assert_int_equal(in.n, 6);
	assert_true(fabs(p[0].t) < 1e-9 && fabs(p[5].t - 5) < 1e-9);
	assert_true(fabs(p[0].rate - 1000) < 1e-9); /* 2 x 500 in 1 s */
	assert_true(fabs(p[0].temp - 50.5) < 1e-9); /* 40 + the mean of 10..11 */
	assert_true(fabs(p[1].throttle) < 1e-9);    /* the step at 12.1 is not the 2nd sample's */
	assert_true(fabs(p[2].throttle - 2) < 1e-9);
	assert_true(fabs(in.idle_temp_start - 50) < 1e-9 && fabs(in.idle_temp_end - 40.25) < 1e-9);
	assert_true(fabs(in.joules - 60) < 1e-9);
	assert_true(fabs(in.temp_limit - 100) < 1e-9);
	assert_null(in.power_why);
	free(p);
	/* a replay's reveal: 3 samples, the series up to run time 12.05 */
	p = thermal_inputs_of(r, 3, 12.05, &in);
	assert_int_equal(in.n, 3);
	assert_true(fabs(p[2].throttle) < 1e-9);
	free(p);
	/* the verdict goes into the run: summary facts and a score series, one point per sample */
	thermal_finish(r);
	const struct test_result *t = thermal_test(r);
	const struct kv *kv = test_summary_get(t, "thermal.event_t");
	assert_non_null(kv);
	assert_true(fabs(kv->value - 2) < 1e-9);
	assert_string_equal(test_summary_get(t, "thermal.verdict")->text, "throttling since 0:02");
	assert_true(fabs(test_summary_get(t, "thermal.throttle_events")->value - 2) < 1e-9);
	const struct series *sc = NULL;
	for (int i = 0; i < r->nseries; i++)
		if (!strcmp(r->series[i].name, "score"))
			sc = &r->series[i];
	assert_non_null(sc);
	assert_int_equal(sc->n, 6);
	assert_true(fabs(sc->t[0] - 11) < 1e-9 && fabs(sc->v[0] - 1000) < 1e-9);
	thermal_finish(r); /* made again, not doubled */
	assert_int_equal(sc->n, 6);
	/* not a thermal run: nothing */
	r->meta.mode = &run_mode_full;
	assert_null(thermal_inputs_of(r, -1, INFINITY, &in));
	assert_false(thermal_is(r));
	run_free(r);
}

/* The clock steps down at 0:28 from 2400 to 1900 MHz and holds there, the
 * score with it, at 62 °C of crit 100, with no throttle counter moved: the
 * firmware's turbo time window ran out. That is not throttling. */
static struct thermal_inputs turbo_run(void)
{
	struct thermal_inputs in = calm(N, 2);
	for (int k = 14; k < N; k++) {
		pts[k].mhz = 1900 + (k % 2) * 20; /* steady, within a few MHz */
		pts[k].rate = 800 + (k % 2) * 4;
		pts[k].temp = 62;
	}
	return in;
}

static void a_spent_turbo_budget_is_not_throttling(void **state)
{
	(void)state;
	struct thermal_inputs in = turbo_run();
	struct thermal_verdict v = decide(&in);
	assert_int_equal(v.state, THERMAL_TURBO);
	assert_int_equal(v.event, 14);
	assert_true(v.clock && !v.counters && !v.heat);
	assert_string_equal(v.headline, "turbo budget spent at 0:28: 1900 MHz sustained");
	assert_non_null(strstr(v.thermal_line, "No throttling: the turbo budget ran out at 0:28 (sample 15): "
					       "the clock fell from 2400 to a steady 1900 MHz with the CPU at 62 °C "
					       "(crit 100) and no throttle counter moved"));
	assert_null(strstr(v.thermal_line, "Throttling"));
	assert_non_null(strstr(v.score_line, "as the turbo budget ran out"));

	/* A clock that saws up and down is the CPU throttling itself. */
	in = turbo_run();
	for (int k = 14; k < N; k++)
		pts[k].mhz = k % 2 ? 2000 : 1800;
	assert_int_equal(decide(&in).state, THERMAL_THROTTLING);
	/* Heat near the limit: throttling. */
	in = turbo_run();
	for (int k = 14; k < N; k++)
		pts[k].temp = 97;
	assert_int_equal(decide(&in).state, THERMAL_THROTTLING);
	/* A throttle counter moved: throttling. */
	in = turbo_run();
	for (int k = 30; k < N; k++)
		pts[k].throttle = 2;
	assert_int_equal(decide(&in).state, THERMAL_THROTTLING);
	/* No temperature at all: heat cannot be ruled out. */
	in = turbo_run();
	for (int k = 0; k < N; k++)
		pts[k].temp = NAN;
	in.idle_temp_start = in.idle_temp_end = NAN;
	assert_int_equal(decide(&in).state, THERMAL_THROTTLING);
	/* Slow from the first sample: no budget was seen being spent. */
	in = turbo_run();
	for (int k = 0; k < N; k++)
		pts[k].mhz = 1900;
	assert_true(decide(&in).state != THERMAL_TURBO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_flat_run_says_no_throttling),
		cmocka_unit_test(windows_are_a_minute_or_a_third),
		cmocka_unit_test(throttling_names_its_moment_and_causes),
		cmocka_unit_test(each_kind_of_evidence_alone),
		cmocka_unit_test(a_fall_is_three_samples_beyond_the_noise),
		cmocka_unit_test(a_fall_found_late_is_named_where_it_began),
		cmocka_unit_test(a_fall_without_thermal_evidence),
		cmocka_unit_test(no_sensors_says_what_is_missing),
		cmocka_unit_test(energy_and_work_per_joule),
		cmocka_unit_test(a_warm_or_cooling_start_is_said),
		cmocka_unit_test(idle_baseline_ends_when_steady),
		cmocka_unit_test(times_are_minutes_and_seconds),
		cmocka_unit_test(inputs_from_a_stored_run),
		cmocka_unit_test(a_spent_turbo_budget_is_not_throttling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
