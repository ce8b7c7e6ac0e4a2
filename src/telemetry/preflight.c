/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The preflight: what would make this run's numbers untrustworthy, each with the command that fixes it. */
#include "telemetry/telemetry.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "settings.h"
#include "telemetry/counters.h"
#include "telemetry/others.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"

/* How long the preflight watches the rest of the machine before the run. */
#define OTHERS_WINDOW 0.5

void preflight_check(struct run *run, FILE *out)
{
	/* The other checks take a few milliseconds; the window for what other
	 * processes use runs beside them and is then waited out. */
	struct others_snap o0;
	others_snap(&o0);
	/* Every source: its own findings (a governor, a battery, a warm CPU), then n/a and why when missing. */
	struct telemetry_opts none = { 0 };
	struct telemetry_frame frame;
	memset(&frame, 0, sizeof frame);
	struct telemetry_ctx ctx = { .opts = &none, .test_id = "?", .frame = &frame };
	for (int i = 0; telemetry_sources[i]; i++) {
		struct telemetry_slot s;
		char err[240];
		if (telemetry_slot_open(&s, telemetry_sources[i], &ctx, err, sizeof err) < 0) {
			telemetry_finding(run, out, "%s: %s", telemetry_sources[i]->what, err);
			continue;
		}
		if (s.src->preflight)
			s.src->preflight(&s, run, out);
		if (!s.available)
			telemetry_finding(run, out, "%s: %s", s.src->what, s.status);
		telemetry_slot_close(&s);
	}

	struct counters c;
	char err[200];
	if (counters_init(&c, NULL, err, sizeof err) == 0) {
		struct counter_value v[COUNTERS_MAX_EVENTS];
		counters_probe(&c, v);
		int denied = 0, unsupported = 0, ok = 0;
		for (int e = 0; e < c.nevents; e++) {
			denied += v[e].state == COUNTER_NO_PERMISSION;
			unsupported += v[e].state == COUNTER_NOT_SUPPORTED;
			ok += v[e].state == COUNTER_VALUE;
		}
		if (denied) {
			char hint[200];
			counters_permission_hint(&c, hint, sizeof hint);
			telemetry_finding(run, out, "%d of %d counters refused: %s", denied, c.nevents, hint);
		} else if (c.user_only) {
			telemetry_finding(run, out, "perf_event_paranoid is %d: counters count user space only: GHz "
					  "and context switches from getrusage, migrations n/a "
					  "(fix: sudo sysctl kernel.perf_event_paranoid=1)", c.paranoid);
		}
		if (unsupported) {
			char list[200] = "";
			size_t l = 0;
			for (int e = 0; e < c.nevents && l < sizeof list; e++)
				if (v[e].state == COUNTER_NOT_SUPPORTED)
					l += snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", c.ev[e].label);
			telemetry_finding(run, out, "counters not supported here (no hardware PMU: a VM?): %s", list);
		}
		/* The watchdog pins one hardware counter on every cpu: fewer left, more multiplexing. */
		uint64_t nmi;
		int hw = counters_find(&c, ROLE_CYCLES);
		if (sysroot_read_u64("/proc/sys/kernel/nmi_watchdog", &nmi) == 0 && nmi && hw >= 0 &&
		    v[hw].state == COUNTER_VALUE)
			telemetry_finding(run, out, "the NMI watchdog holds a hardware counter "
					  "(fix: sudo sysctl kernel.nmi_watchdog=0)");
		(void)ok;
		counters_free(&c);
	} else {
		telemetry_finding(run, out, "counters: n/a: %s", err);
	}

	/* Not the load average: it decays over a minute, so a run started right
	 * after another one always looked busy. What others used just now. */
	struct others_snap o1;
	others_snap(&o1);
	/* $KBENCH_PREFLIGHT_WINDOW (0 to 5 s): kbench's own tests shorten it where nothing
	 * they check hangs on the finding, since every run waits it out. */
	double window = settings_env_seconds("KBENCH_PREFLIGHT_WINDOW", OTHERS_WINDOW, 0, 5);
	double left = window - (o1.t - o0.t);
	if (left > 0) {
		struct timespec nap = { 0, (long)(left * 1e9) };
		nanosleep(&nap, NULL);
		others_snap(&o1);
	}
	double busy = others_cpu(&o0, &o1);
	char span[32] = "half second";
	if (window != OTHERS_WINDOW)
		snprintf(span, sizeof span, "%.2g s", o1.t - o0.t);
	if (!isnan(busy) && busy >= OTHERS_BUSY_CPU)
		telemetry_finding(run, out, "busy: other processes used %.2f CPU in the %s before the run and "
				  "will share the CPUs with the workers (fix: stop them; 'top' shows which)", busy, span);
}
