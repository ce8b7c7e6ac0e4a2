/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench events`: the counter events libpfm4 knows here and whether the defaults open, the way perf list shows them. */
#include "commands.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "options.h"
#include "telemetry/counters.h"
#include "telemetry/sysroot.h"

extern const struct opt_command cmd_events_entry;

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

static int events_exec(int argc, char **argv)
{
	struct opt_parsed op;
	int rc = opts_parse(&cmd_events_entry, argc, argv, &op);
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

	/* The kernel's own list, which libpfm4's may not match (a new CPU, a
	 * hybrid part's per-core-type PMUs, RAPL's power PMU). */
	static struct kernel_pmu kp[128];
	int nk = counters_kernel_pmus(kp, 128);
	if (nk < 0)
		printf("\nKernel PMUs: n/a: cannot read %s/sys/bus/event_source/devices: %s\n", sysroot(),
		       strerror(-nk));
	else
		printf("\nKernel PMUs (/sys/bus/event_source/devices):\n");
	int ncore = 0;
	for (int i = 0; i < nk; i++) {
		char type[16];
		snprintf(type, sizeof type, kp[i].type >= 0 ? "type %d" : "type ?", kp[i].type);
		printf("  %-18s %-8s %-10s %s\n", kp[i].name, type, kp[i].cpus[0] ? kp[i].cpus : "-",
		       kp[i].what ? kp[i].what : "");
		ncore += counters_is_core_pmu(kp[i].name);
	}
	if (ncore > 1)
		printf("  %d core types: hardware events are opened on each and summed\n", ncore);

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
		else if (v[e].state == COUNTER_USER_ONLY)
			why = c.ev[e].attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES
				      ? "runs: getrusage" /* the workers' own, in a run */
				      : "kernel-only";
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

const struct opt_command cmd_events_entry = {
	.name = "events", .args = "[PATTERN]", .about = "the counter events libpfm4 knows here, and which can be opened",
	.text = "The PMUs libpfm4 detects and their events (name and description), PATTERN\n"
		"matching PMU::EVENT without case; then the PMUs the kernel registered\n"
		"(/sys/bus/event_source/devices: a hybrid CPU's core types, RAPL's power PMU)\n"
		"and whether each default event opens here.\n"
		"Use the names with 'kbench run --events LIST'.",
	.exec = events_exec,
};
