/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The energy source: RAPL, perf's power PMU or the batteries (power.c) sampled while tests run, each test's energy and power, and what `kbench sensors` shows of them. */
#include "telemetry/power.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "telemetry/frame.h"
#include "telemetry/powercap.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"
#include "telemetry/throttle.h"
#include "workload.h"

/* ---- the source: series power, energy; summaries energy.J, power.W, score_per_W ---- */

struct energy_state {
	struct power pw;
	double joules0, t0; /* at the test's begin */
	double missed0;     /* the battery's uncounted seconds at the test's begin */
	char headline[48];  /* "n/a: no RAPL, no battery": the console's power field is half a line */
	struct powercap_watch pl; /* RAPL's power limits, and whether the package ran at one */
};

/* A limit's zone's energy so far: its RAPL domain's, or (one package) the
 * power PMU's; NAN where there is none (batteries draw for the whole machine). */
static double zone_joules(const char *zone, void *ctx)
{
	const struct power *pw = ctx;
	for (int i = 0; i < pw->ndomains; i++)
		if (!strcmp(pw->dom[i].dir, zone))
			return pw->dom[i].joules;
	if (pw->npmu == 1 && !strcmp(zone, "intel-rapl:0"))
		return pw->joules;
	return NAN;
}

static int energy_open(struct telemetry_slot *s, const struct telemetry_ctx *c, char *err, size_t errlen)
{
	struct energy_state *st = s->priv;
	power_open(&st->pw, wl_now());
	s->available = st->pw.available;
	if (s->available)
		snprintf(s->status, sizeof s->status, "%s", st->pw.source);
	else
		snprintf(s->status, sizeof s->status, "n/a: %s", st->pw.why);
	snprintf(st->headline, sizeof st->headline, "n/a: %s", st->pw.brief);
	powercap_watch_open(&st->pl);
	c->frame->watts = NAN;
	c->frame->power_source = s->available ? s->status : st->headline;
	return 0;
}

static void energy_sample(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct energy_state *st = s->priv;
	struct power *pw = &st->pw;
	if (!pw->available || power_sample(pw, wl_now()) != 0)
		return;
	c->frame->watts = pw->watts;
	c->frame->joules = pw->joules;
	powercap_watch_tick(&st->pl, c->now, zone_joules, pw);
	/* A battery that is not discharging measures nothing: the console says so, not just its name. */
	if (pw->nbatteries && !pw->ndomains && !pw->npmu) {
		if (isnan(pw->watts) && pw->unmeasured[0]) {
			snprintf(st->headline, sizeof st->headline, "n/a: %.42s", pw->unmeasured);
			c->frame->power_source = st->headline;
		} else if (isnan(pw->watts)) {
			snprintf(st->headline, sizeof st->headline, "n/a: %.20s not discharging", pw->battery);
			c->frame->power_source = st->headline;
		} else {
			c->frame->power_source = s->status;
		}
	}
	telemetry_push(c, "power", "W", pw->watts);
	telemetry_push(c, "energy", "J", pw->joules);
	if (!isnan(pw->watts))
		snprintf(s->reading, sizeof s->reading, "%.1f W", pw->watts);
}

/* The run's energy counts from here. */
static void energy_run_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct energy_state *st = s->priv;
	if (st->pw.available)
		power_sample(&st->pw, wl_now());
	st->pw.joules = 0;
	st->pl.n = 0; /* the power PMU's count restarts: history before it is another scale */
}

static void energy_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct energy_state *st = s->priv;
	if (st->pw.available)
		power_sample(&st->pw, wl_now());
	st->joules0 = st->pw.joules;
	st->missed0 = st->pw.missed_s;
	st->t0 = c->now;
	powercap_watch_test_begin(&st->pl);
}

/* The firmware's power limits: a package that averaged about its PL1 over
 * PL1's window, or its PL2 over a tick, was held by its power budget, which
 * is not throttling by heat: said apart (power.limit; the verdict's
 * power-limit state), never as "throttled". */
static void power_limit_end(struct energy_state *st, struct test_result *tr, struct throttle_inputs *in)
{
	const struct power *pw = &st->pw;
	if (!st->pl.nlim)
		return;
	if (!pw->ndomains && pw->npmu != 1) {
		test_summary_set(tr, "power.limit", 0, "n/a: the package's energy cannot be read here");
		return;
	}
	powercap_watch_evidence(&st->pl, in->power_limit_rapl, sizeof in->power_limit_rapl);
	char buf[KV_TEXT_MAX];
	snprintf(buf, sizeof buf, "reached: %s", in->power_limit_rapl);
	test_summary_set(tr, "power.limit", 0, in->power_limit_rapl[0] ? buf : "none reached");
}

static void energy_test_end(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
			    struct throttle_inputs *in)
{
	struct energy_state *st = s->priv;
	struct power *pw = &st->pw;
	power_limit_end(st, tr, in);
	if (!pw->available) {
		char buf[KV_TEXT_MAX];
		snprintf(buf, sizeof buf, "%s", s->status);
		test_summary_set(tr, "energy.J", 0, buf);
		return;
	}
	power_sample(pw, wl_now());
	double j = pw->joules - st->joules0, dt = c->now - st->t0;
	double missed = pw->missed_s - st->missed0;
	if (pw->nbatteries && !pw->ndomains && !pw->npmu && missed > 0) {
		/* Part of the test was not integrated (charging, full, on AC): its sum is not the test's energy. */
		char buf[KV_TEXT_MAX];
		if (pw->unmeasured[0])
			snprintf(buf, sizeof buf, "n/a: battery %s for %.1f of %.1f s", pw->unmeasured, missed, dt);
		else
			snprintf(buf, sizeof buf,
				 "n/a: battery %s for %.1f of %.1f s (energy counts only while discharging)",
				 pw->dir == BATTERY_DISCHARGING ? "not discharging" : power_battery_dir_name(pw->dir),
				 missed, dt);
		test_summary_set(tr, "energy.J", 0, buf);
		return;
	}
	test_summary_set(tr, "energy.J", j, NULL);
	if (dt > 0 && j > 0) {
		test_summary_set(tr, "power.W", j / dt, NULL);
		if (tr->status == TEST_DONE && tr->score > 0)
			test_summary_set(tr, "score_per_W", tr->score / (j / dt), NULL);
	}
}

static void energy_test_line(const struct test_result *tr, char *buf, size_t size)
{
	char v[48];
	telemetry_fmt_kv(v, sizeof v, test_summary_get(tr, "energy.J"), "%.1f J");
	snprintf(buf, size, "energy %s", v);
}

static void energy_show(struct telemetry_slot *s, FILE *f)
{
	struct energy_state *st = s->priv;
	struct power *pw = &st->pw;
	if (!pw->available) {
		fprintf(f, "  n/a: %s\n", pw->why);
	} else {
		fprintf(f, "  source: %s\n", pw->source);
		for (int i = 0; i < pw->ndomains; i++)
			fprintf(f, "  %-14s %-12s energy %.3f J (wraps at %.3f J)\n", pw->dom[i].dir,
				pw->dom[i].name, pw->dom[i].last_uj / 1e6, pw->dom[i].max_range_uj / 1e6);
		if (pw->why[0])
			fprintf(f, "  (%s)\n", pw->why);
	}
	/* The limits are world-readable where energy_uj is not: shown either way. */
	if (st->pl.nlim || sysroot_exists("/sys/class/powercap/intel-rapl:0"))
		powercap_show(&st->pl, f);
	if (pw->nbatteries) {
		bool any_rate;
		double w = power_battery_watts(pw, &any_rate);
		fprintf(f, "  battery: %s (%s", pw->battery, power_battery_dir_name(pw->dir));
		if (!isnan(w))
			fprintf(f, ", %.1f W", w);
		fprintf(f, ")\n");
	} else {
		fprintf(f, "  battery: none\n");
	}
	if (pw->ignored[0])
		fprintf(f, "  not the system's battery: %s\n", pw->ignored);
	fprintf(f, "  AC adapter: %s\n", pw->ac_online < 0 ? "n/a" : pw->ac_online ? "online" : "offline");
}

static void energy_preflight(struct telemetry_slot *s, struct run *run, FILE *out)
{
	struct energy_state *st = s->priv;
	if (power_on_battery(&st->pw))
		telemetry_finding(run, out, "running on battery: firmware may cap the clock (fix: plug in the charger)");
}

static void energy_close(struct telemetry_slot *s)
{
	struct energy_state *st = s->priv;
	power_close(&st->pw);
}

const struct telemetry_source energy_source = {
	.name = "energy",
	.what = "energy",
	.title = "Energy and power",
	.size = sizeof(struct energy_state),
	.open = energy_open,
	.sample = energy_sample,
	.close = energy_close,
	.run_begin = energy_run_begin,
	.test_begin = energy_test_begin,
	.test_end = energy_test_end,
	.test_line = energy_test_line,
	.show = energy_show,
	.preflight = energy_preflight,
};
