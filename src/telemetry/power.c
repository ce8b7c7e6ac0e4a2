/* Energy and power: RAPL package domains through powercap, else the battery's discharge power. */
#include "telemetry/power.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "telemetry/frame.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"
#include "telemetry/throttle.h"
#include "workload.h"

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

/* Why there is no RAPL, in a sentence (why) and in a few words (brief). */
static void open_rapl(struct power *pw, char *why, size_t whylen, char *brief, size_t brieflen)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/class/powercap");
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(why, whylen, "no RAPL (%.60s missing: a VM?)", dir);
		snprintf(brief, brieflen, "no RAPL");
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
	snprintf(brief, brieflen, "%s", denied ? "RAPL root-only" : !seen ? "no RAPL" : "RAPL unreadable");
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
	char rapl_why[200] = "", rapl_brief[24] = "";
	open_rapl(pw, rapl_why, sizeof rapl_why, rapl_brief, sizeof rapl_brief);
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
	snprintf(pw->brief, sizeof pw->brief, "%s, no battery", rapl_brief);
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

/* ---- the source: series power, energy; summaries energy.J, power.W, score_per_W ---- */

struct energy_state {
	struct power pw;
	double joules0, t0; /* at the test's begin */
	char headline[48];  /* "n/a: no RAPL, no battery": the console's power field is half a line */
};

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
}

static void energy_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct energy_state *st = s->priv;
	if (st->pw.available)
		power_sample(&st->pw, wl_now());
	st->joules0 = st->pw.joules;
	st->t0 = c->now;
}

static void energy_test_end(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
			    struct throttle_inputs *in)
{
	struct energy_state *st = s->priv;
	struct power *pw = &st->pw;
	if (!pw->available) {
		char buf[96];
		snprintf(buf, sizeof buf, "%.95s", s->status);
		test_summary_set(tr, "energy.J", 0, buf);
		return;
	}
	power_sample(pw, wl_now());
	double j = pw->joules - st->joules0, dt = c->now - st->t0;
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
	if (pw->battery[0])
		fprintf(f, "  battery: %s%s\n", pw->battery, power_on_battery(pw) ? " (discharging)" : "");
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
