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
#include "telemetry/counters.h"
#include "telemetry/cpufreq.h"
#include "telemetry/others.h"
#include "telemetry/power.h"
#include "telemetry/sensors.h"
#include "telemetry/sysroot.h"
#include "telemetry/throttle.h"

__attribute__((format(printf, 3, 4)))
static void finding(struct run *run, FILE *out, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	run_add_note(run, "preflight: %s", buf);
	if (out)
		fprintf(out, "preflight: %s\n", buf);
}

/* How long the preflight watches the rest of the machine before the run. */
#define OTHERS_WINDOW 0.5

void preflight_check(struct run *run, FILE *out)
{
	/* The other checks take a few milliseconds; the window for what other
	 * processes use runs beside them and is then waited out. */
	struct others_snap o0;
	others_snap(&o0);
	struct cpufreq cf;
	cpufreq_open(&cf);
	if (cf.source != CPUFREQ_SYSFS)
		finding(run, out, "CPU frequency: %s%s", cf.source == CPUFREQ_CPUINFO ? "from /proc/cpuinfo: " : "n/a: ", cf.why);
	if (cf.governor[0] && strcmp(cf.governor, "performance"))
		finding(run, out, "governor is '%s', not 'performance': the clock ramps during the run "
			"(fix: sudo cpupower frequency-set -g performance)", cf.governor);
	if (!strcmp(cf.boost, "on"))
		finding(run, out, "turbo/boost is on: the clock depends on temperature and the score with it "
			"(fix: %s)",
			sysroot_exists("/sys/devices/system/cpu/intel_pstate/no_turbo")
				? "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"
				: "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost");

	struct power pw;
	power_open(&pw, 0);
	if (power_on_battery(&pw))
		finding(run, out, "running on battery: firmware may cap the clock (fix: plug in the charger)");
	if (!pw.available)
		finding(run, out, "energy: n/a: %s", pw.why);

	struct throttle th;
	throttle_open(&th);
	if (!th.available)
		finding(run, out, "throttle counters: n/a: %s", th.why);

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
			finding(run, out, "%d of %d counters refused: %s", denied, c.nevents, hint);
		} else if (geteuid() != 0 && c.paranoid >= 2) {
			finding(run, out, "perf_event_paranoid is %d: counters count user space only "
				"(fix: sudo sysctl kernel.perf_event_paranoid=1)", c.paranoid);
		}
		if (unsupported) {
			char list[200] = "";
			size_t l = 0;
			for (int e = 0; e < c.nevents && l < sizeof list; e++)
				if (v[e].state == COUNTER_NOT_SUPPORTED)
					l += snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", c.ev[e].label);
			finding(run, out, "counters not supported here (no hardware PMU: a VM?): %s", list);
		}
		/* The watchdog pins one hardware counter on every cpu: fewer left, more multiplexing. */
		uint64_t nmi;
		int hw = counters_find(&c, ROLE_CYCLES);
		if (sysroot_read_u64("/proc/sys/kernel/nmi_watchdog", &nmi) == 0 && nmi && hw >= 0 &&
		    v[hw].state == COUNTER_VALUE)
			finding(run, out, "the NMI watchdog holds a hardware counter "
				"(fix: sudo sysctl kernel.nmi_watchdog=0)");
		(void)ok;
		counters_free(&c);
	} else {
		finding(run, out, "counters: n/a: %s", err);
	}


	struct temp_sensors ts;
	sensors_open(&ts, NULL, err, sizeof err);
	if (!ts.has_pick) {
		finding(run, out, "CPU temperature: n/a: %s", ts.why);
	} else {
		if (ts.pick.low_trust || ts.pick.offset)
			finding(run, out, "CPU temperature comes from %s", ts.pick.source);
		double warm = ts.limit > 0 ? ts.limit - 25 : 70;
		if (!isnan(ts.value) && ts.value >= warm)
			finding(run, out, "CPU is at %.1f °C, still warm (from a previous run?): results start "
				"throttle-prone (fix: wait, or run with --cooldown)", ts.value);
	}
	sensors_close(&ts);

	/* Not the load average: it decays over a minute, so a run started right
	 * after another one always looked busy. What others used just now. */
	struct others_snap o1;
	others_snap(&o1);
	double left = OTHERS_WINDOW - (o1.t - o0.t);
	if (left > 0) {
		struct timespec nap = { 0, (long)(left * 1e9) };
		nanosleep(&nap, NULL);
		others_snap(&o1);
	}
	double busy = others_cpu(&o0, &o1);
	if (!isnan(busy) && busy >= OTHERS_BUSY_CPU)
		finding(run, out, "busy: other processes used %.2f CPU in the half second before the run and "
			"will share the CPUs with the workers (fix: stop them; 'top' shows which)", busy);
}
