/* `kbench sensors` and `kbench events`: what this machine offers for telemetry, the way sensors and perf list show it. */
#include "commands.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "options.h"
#include "telemetry/counters.h"
#include "telemetry/cpufreq.h"
#include "telemetry/power.h"
#include "telemetry/sensors.h"
#include "telemetry/throttle.h"

static void print_freq(void)
{
	struct cpufreq cf;
	cpufreq_open(&cf);
	printf("CPU frequency\n");
	if (!cf.available) {
		printf("  n/a: %s\n", cf.why);
		return;
	}
	printf("  source: %s%s%s%s\n", cpufreq_source_name(cf.source), cf.why[0] ? " (" : "", cf.why,
	       cf.why[0] ? ")" : "");
	cpufreq_sample(&cf);
	for (int i = 0; i < cf.ncpus; i++) {
		if (isnan(cf.cur_mhz[i]))
			printf("  cpu%-3d n/a\n", cf.cpu[i]);
		else
			printf("  cpu%-3d %7.0f MHz\n", cf.cpu[i], cf.cur_mhz[i]);
	}
	if (cf.min_mhz > 0 || cf.max_mhz > 0)
		printf("  range: %.0f-%.0f MHz\n", cf.min_mhz, cf.max_mhz);
	if (cf.nominal_mhz > 0)
		printf("  nominal: %.0f MHz (from %s)\n", cf.nominal_mhz, cf.nominal_from);
	else
		printf("  nominal: n/a (no cpufreq limits and no clock in the model name)\n");
	printf("  governor: %s\n", cf.governor[0] ? cf.governor : "n/a");
	printf("  boost: %s\n", cf.boost[0] ? cf.boost : "n/a");
	if (cf.source == CPUFREQ_SYSFS)
		printf("  read cost: %.3f ms for all cores\n", cf.read_ms);
}

static int print_temps(const char *override)
{
	struct temp_sensors ts;
	char err[240] = "";
	if (sensors_open(&ts, override, err, sizeof err) < 0)
		return usage_error("%s", err);
	printf("\nTemperature (libsensors)\n");
	if (!ts.available) {
		printf("  n/a: %s\n", ts.why);
		return 0;
	}
	for (int i = 0; i < ts.n; i++) {
		const struct temp_input *t = &ts.in[i];
		char v[24], lim[48] = "";
		if (sensors_valid(t->value))
			snprintf(v, sizeof v, "%6.1f °C", t->value);
		else if (isnan(t->value))
			snprintf(v, sizeof v, "%9s", "n/a");
		else
			snprintf(v, sizeof v, "%6.1f ?? (invalid)", t->value);
		if (t->crit > 0)
			snprintf(lim, sizeof lim, "  (crit %.1f °C)", t->crit);
		else if (t->max > 0)
			snprintf(lim, sizeof lim, "  (max %.1f °C)", t->max);
		bool picked = false;
		for (int k = 0; k < ts.pick.n && ts.has_pick; k++)
			picked |= ts.pick.idx[k] == i;
		printf("  %c %-24s %-16s %s%s\n", picked ? '*' : ' ', t->chip, t->label, v, lim);
	}
	if (ts.has_pick) {
		printf("  headline CPU temperature: ");
		if (isnan(ts.value))
			printf("n/a");
		else
			printf("%.1f °C", ts.value);
		printf(" from %s", ts.pick.source);
		if (ts.limit > 0)
			printf(", %s %.1f °C", ts.limit_name, ts.limit);
		printf("\n");
	} else {
		printf("  headline CPU temperature: n/a: %s\n", ts.why);
	}
	sensors_close(&ts);
	return 0;
}

static void print_throttle(void)
{
	struct throttle th;
	throttle_open(&th);
	printf("\nThrottling\n");
	if (!th.available) {
		printf("  n/a: %s\n", th.why);
		return;
	}
	for (int i = 0; i < th.ncpus; i++) {
		const struct throttle_reading *r = &th.base[i];
		printf("  cpu%-3d package %d:", r->cpu, r->package_id);
		if (r->has_core)
			printf(" core %llu times, %llu ms;", (unsigned long long)r->core_count,
			       (unsigned long long)r->core_ms);
		if (r->has_pkg)
			printf(" package %llu times, %llu ms", (unsigned long long)r->pkg_count,
			       (unsigned long long)r->pkg_ms);
		printf("\n");
	}
}

static void print_power(void)
{
	struct power pw;
	power_open(&pw, 0);
	printf("\nEnergy and power\n");
	if (!pw.available) {
		printf("  n/a: %s\n", pw.why);
	} else {
		printf("  source: %s\n", pw.source);
		for (int i = 0; i < pw.ndomains; i++)
			printf("  %-14s %-12s energy %.3f J (wraps at %.3f J)\n", pw.dom[i].dir,
			       pw.dom[i].name, pw.dom[i].last_uj / 1e6, pw.dom[i].max_range_uj / 1e6);
		if (pw.why[0])
			printf("  (%s)\n", pw.why);
	}
	if (pw.battery[0])
		printf("  battery: %s%s\n", pw.battery, power_on_battery(&pw) ? " (discharging)" : "");
	printf("  AC adapter: %s\n", pw.ac_online < 0 ? "n/a" : pw.ac_online ? "online" : "offline");
}

int cmd_sensors(int argc, char **argv)
{
	struct opt_parsed p;
	int rc = opts_parse(opts_command("sensors"), argc, argv, &p);
	if (rc >= 0)
		return rc;
	const char *override = NULL;
	for (int k = 0; k < p.n; k++)
		if (p.item[k].def->id == O_SENSOR)
			override = p.item[k].arg;
	if (p.noperands)
		rc = usage_error("sensors: unexpected argument '%s' (try 'kbench sensors --help')",
				 p.operand[0]);
	opts_free(&p);
	if (rc >= 0)
		return rc;
	print_freq();
	rc = print_temps(override);
	if (rc)
		return rc;
	print_throttle();
	print_power();
	printf("\nCounters: see 'kbench events'\n");
	return 0;
}

static bool matches(const char *pattern, const char *pmu, const char *event)
{
	if (!pattern)
		return true;
	char full[256];
	snprintf(full, sizeof full, "%s::%s", pmu, event);
	return strcasestr(full, pattern) != NULL;
}

int events_each(void (*fn)(const struct pmu_event *e, void *arg), void *arg)
{
	int pmus = 0;
	pfm_pmu_t p;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t pinfo;
		memset(&pinfo, 0, sizeof pinfo);
		pinfo.size = sizeof pinfo;
		if (pfm_get_pmu_info(p, &pinfo) != PFM_SUCCESS || !pinfo.is_present)
			continue;
		pmus++;
		for (int idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			pfm_event_info_t info;
			memset(&info, 0, sizeof info);
			info.size = sizeof info;
			if (pfm_get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS)
				continue;
			struct pmu_event e = { pinfo.name, pinfo.desc ? pinfo.desc : "", pinfo.nevents,
					       info.name, info.desc ? info.desc : "" };
			fn(&e, arg);
		}
	}
	return pmus;
}

struct events_shown {
	const char *pattern;
	const char *last_pmu; /* the PMU whose header is printed */
	int shown;
};

static void show_event(const struct pmu_event *e, void *arg)
{
	struct events_shown *es = arg;
	if (!matches(es->pattern, e->pmu, e->name))
		return;
	if (es->last_pmu != e->pmu) {
		printf("%s: %s (%d events)\n", e->pmu, e->pmu_desc, e->pmu_events);
		es->last_pmu = e->pmu;
	}
	printf("  %s::%s\n      %s\n", e->pmu, e->name, e->desc);
	es->shown++;
}

int cmd_events(int argc, char **argv)
{
	struct opt_parsed op;
	int rc = opts_parse(opts_command("events"), argc, argv, &op);
	if (rc >= 0)
		return rc;
	const char *pattern = op.noperands ? op.operand[0] : NULL;
	if (op.noperands > 1)
		rc = usage_error("events: one PATTERN at most (try 'kbench events --help')");
	opts_free(&op);
	if (rc >= 0)
		return rc;
	char err[240];
	if (counters_pfm_start(err, sizeof err) < 0)
		return runtime_error("%s", err);
	struct events_shown es = { .pattern = pattern };
	int pmus = events_each(show_event, &es);
	int shown = es.shown;
	if (!pmus)
		printf("libpfm4 detects no PMU here\n");
	else if (!shown)
		printf("no event matches '%s'\n", pattern ? pattern : "");

	struct counters c;
	if (counters_init(&c, NULL, err, sizeof err) < 0)
		return runtime_error("%s", err);
	struct counter_value v[COUNTERS_MAX_EVENTS];
	counters_probe(&c, v);
	char hint[200];
	counters_permission_hint(&c, hint, sizeof hint);
	printf("\nDefault events on this machine (perf_event_paranoid %d%s):\n", c.paranoid,
	       c.user_only ? ", user space only" : "");
	for (int e = 0; e < c.nevents; e++) {
		const char *why = "";
		if (v[e].state == COUNTER_NO_PERMISSION)
			why = hint;
		else if (v[e].state == COUNTER_NOT_SUPPORTED)
			why = "the kernel has no such counter here (no hardware PMU: a VM?)";
		else if (v[e].state != COUNTER_VALUE)
			why = strerror(v[e].err);
		printf("  %-18s %-22s %s%s%s\n", c.ev[e].label, c.ev[e].name,
		       v[e].state == COUNTER_VALUE ? "can be counted" : counter_state_name(v[e].state),
		       why[0] ? ": " : "", why);
	}
	counters_free(&c);
	return 0;
}
