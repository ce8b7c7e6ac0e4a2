/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the sysfs telemetry sources against fixture trees: cpufreq, cpuinfo fallback, throttle counts, RAPL wraparound, others' CPU use, and the registry: every source says n/a and why. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakesys.h"

#include "procstat.h"
#include "run.h"

#include "telemetry/cpufreq.h"
#include "telemetry/others.h"
#include "telemetry/power.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"
#include "telemetry/telemetry.h"
#include "telemetry/throttle.h"

static int setup(void **state)
{
	(void)state;
	return fakesys_make("sys");
}

static int teardown(void **state)
{
	(void)state;
	return fakesys_remove();
}

static void sysroot_prefixes_paths(void **state)
{
	(void)state;
	char buf[512];
	assert_int_equal(sysroot_path(buf, sizeof buf, "/sys/x/%d", 3), 0);
	assert_true(strncmp(buf, fakesys_root, strlen(fakesys_root)) == 0);
	assert_string_equal(buf + strlen(fakesys_root), "/sys/x/3");
	fakesys_put("sys/num", "42\n");
	uint64_t v;
	assert_int_equal(sysroot_read_u64("/sys/num", &v), 0);
	assert_true(v == 42);
	fakesys_put("sys/bad", "x42\n");
	assert_int_equal(sysroot_read_u64("/sys/bad", &v), -EINVAL);
	assert_int_equal(sysroot_read_u64("/sys/none", &v), -ENOENT);
}

struct seen {
	int n, stop_at;
	char names[8][32];
};

static int note_name(const char *name, void *arg)
{
	struct seen *s = arg;
	if (s->n < 8)
		snprintf(s->names[s->n], sizeof s->names[0], "%s", name);
	s->n++;
	return s->n == s->stop_at ? 7 : 0;
}

static bool seen_has(const struct seen *s, const char *name)
{
	for (int i = 0; i < s->n && i < 8; i++)
		if (!strcmp(s->names[i], name))
			return true;
	return false;
}

/* The one directory walk: under the fake root, every entry but . and .., until told to stop. */
static void sysroot_dir_each_walks_the_root(void **state)
{
	(void)state;
	fakesys_put("sys/class/walk/zone0/type", "a\n");
	fakesys_put("sys/class/walk/zone1", "b\n");
	fakesys_put("sys/class/walk/.hidden", "c\n");
	struct seen s = { 0 };
	assert_int_equal(sysroot_dir_each("/sys/class/walk", note_name, &s), 0);
	assert_int_equal(s.n, 3);
	assert_true(seen_has(&s, "zone0") && seen_has(&s, "zone1") && seen_has(&s, ".hidden"));
	struct seen one = { .stop_at = 1 };
	assert_int_equal(sysroot_dir_each("/sys/class/walk", note_name, &one), 7);
	assert_int_equal(one.n, 1);
	struct seen none = { 0 };
	assert_int_equal(sysroot_dir_each("/sys/class/nowhere", note_name, &none), -ENOENT);
	assert_int_equal(none.n, 0);
	char dir[512];
	snprintf(dir, sizeof dir, "%s/sys/class/walk", fakesys_root);
	struct seen plain = { 0 };
	assert_int_equal(dir_each(dir, note_name, &plain), 0);
	assert_int_equal(plain.n, 3);
}

static void cpufreq_reads_sysfs_per_core(void **state)
{
	(void)state;
	for (int c = 0; c < 2; c++) {
		char p[128];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		fakesys_put(p, "%d\n", c ? 1200000 : 2400000);
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", c);
		fakesys_put(p, "2600000\n");
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		fakesys_put(p, "powersave\n");
	}
	fakesys_put("sys/devices/system/cpu/cpufreq/boost", "1\n");
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_true(cf.available);
	assert_int_equal(cf.source, CPUFREQ_SYSFS);
	assert_int_equal(cf.ncpus, 2);
	assert_true(cf.cur_mhz[0] == 2400 && cf.cur_mhz[1] == 1200);
	assert_true(cf.nominal_mhz == 2600);
	assert_string_equal(cf.governor, "powersave");
	assert_string_equal(cf.boost, "on");
	fakesys_put("sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "800000\n");
	assert_int_equal(cpufreq_sample(&cf), 0);
	assert_true(cpufreq_min(&cf) == 800);
	assert_true(cpufreq_max(&cf) == 2400);
	assert_true(cpufreq_mean(&cf) == 1600);
}

static void cpufreq_falls_back_to_cpuinfo(void **state)
{
	(void)state;
	/* A VM: cpus but no cpufreq directory. */
	fakesys_put("sys/devices/system/cpu/cpu0/online", "1\n");
	fakesys_put("sys/devices/system/cpu/cpu1/online", "1\n");
	fakesys_put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel(R) Atom(TM) CPU N270 @ 1.60GHz\n"
			    "cpu MHz\t\t: 800.000\n\nprocessor\t: 1\nmodel name\t: x\ncpu MHz\t\t: 1600.500\n");
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_true(cf.available);
	assert_int_equal(cf.source, CPUFREQ_CPUINFO);
	assert_non_null(strstr(cf.why, "cpufreq"));
	assert_int_equal(cf.ncpus, 2);
	assert_true(cf.cur_mhz[0] == 800);
	assert_true(fabs(cf.cur_mhz[1] - 1600.5) < 1e-9);
	assert_true(cf.nominal_mhz == 1600);
}

static void nothing_at_all_says_why(void **state)
{
	(void)state;
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_false(cf.available);
	assert_true(strlen(cf.why) > 10);
	struct throttle th;
	throttle_open(&th);
	assert_false(th.available);
	assert_non_null(strstr(th.why, "thermal_throttle"));
	struct power pw;
	power_open(&pw, 0);
	assert_false(pw.available);
	assert_non_null(strstr(pw.why, "RAPL"));
	assert_string_equal(pw.brief, "no RAPL, no battery");
}

/* The run screen's power field is half of 80 columns: the reason comes in a few words too. */
static void power_says_why_briefly(void **state)
{
	(void)state;
	fakesys_put("sys/class/powercap/intel-rapl:0/name", "package-0\n"); /* a zone without energy_uj */
	struct power pw;
	power_open(&pw, 0);
	assert_false(pw.available);
	assert_non_null(strstr(pw.why, "could not be read"));
	assert_string_equal(pw.brief, "RAPL unreadable, no battery");
	assert_true(strlen(pw.brief) + strlen("n/a: ") <= 32);
}

static void rapl_delta_handles_wraparound(void **state)
{
	(void)state;
	assert_true(rapl_delta(100, 250, 1000) == 150);
	assert_true(rapl_delta(900, 50, 1000) == 150); /* 900 -> 1000 -> 0 -> 50 */
	assert_true(rapl_delta(900, 50, 0) == 0);      /* unknown range: count nothing, not 2^64 */
	assert_true(rapl_delta(5, 5, 1000) == 0);
}

static void rapl_domain_accumulates_across_a_wrap(void **state)
{
	(void)state;
	fakesys_put("sys/class/powercap/intel-rapl:0/name", "package-0\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/max_energy_range_uj", "262143328850\n");
	fakesys_put("sys/class/powercap/intel-rapl:0/energy_uj", "262140000000\n");
	fakesys_put("sys/class/powercap/intel-rapl:0:0/name", "core\n"); /* a subzone: not added again */
	fakesys_put("sys/class/powercap/intel-rapl:0:0/energy_uj", "5\n");
	struct power pw;
	power_open(&pw, 10.0);
	assert_true(pw.available);
	assert_int_equal(pw.ndomains, 1);
	assert_non_null(strstr(pw.source, "package-0"));
	fakesys_put("sys/class/powercap/intel-rapl:0/energy_uj", "6671150\n"); /* wrapped: +3328850 +6671150 */
	assert_int_equal(power_sample(&pw, 12.0), 0);
	assert_true(fabs(pw.joules - 10.0) < 1e-6);
	assert_true(fabs(pw.watts - 5.0) < 1e-6);
}

static void battery_power_when_no_rapl(void **state)
{
	(void)state;
	fakesys_put("sys/class/power_supply/AC/type", "Mains\n");
	fakesys_put("sys/class/power_supply/AC/online", "0\n");
	fakesys_put("sys/class/power_supply/BAT0/type", "Battery\n");
	fakesys_put("sys/class/power_supply/BAT0/status", "Discharging\n");
	fakesys_put("sys/class/power_supply/BAT0/current_now", "1000000\n");
	fakesys_put("sys/class/power_supply/BAT0/voltage_now", "12000000\n");
	struct power pw;
	power_open(&pw, 0);
	assert_true(pw.available);
	assert_non_null(strstr(pw.source, "BAT0"));
	assert_true(power_on_battery(&pw));
	assert_int_equal(power_sample(&pw, 2.0), 0);
	assert_true(fabs(pw.watts - 12.0) < 1e-9);
	assert_true(fabs(pw.joules - 24.0) < 1e-9);
}

static void throttle_counts_packages_once(void **state)
{
	(void)state;
	/* Two packages of two cpus each; every cpu of a package shows the package counter. */
	for (int c = 0; c < 4; c++) {
		char p[160];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		fakesys_put(p, "%d\n", c / 2);
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count", c);
		fakesys_put(p, "10\n");
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count", c);
		fakesys_put(p, "100\n");
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_total_time_ms", c);
		fakesys_put(p, "1000\n");
	}
	struct throttle th;
	throttle_open(&th);
	assert_true(th.available);
	assert_int_equal(th.ncpus, 4);
	assert_int_equal(throttle_sample(&th), 0);
	assert_true(throttle_events(&th.total) == 0);
	for (int c = 0; c < 4; c++) {
		char p[160];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count", c);
		fakesys_put(p, "%d\n", c == 1 ? 13 : 10);
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count", c);
		fakesys_put(p, "%d\n", c < 2 ? 102 : 100);
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_total_time_ms", c);
		fakesys_put(p, "%d\n", c < 2 ? 1250 : 1000);
	}
	assert_int_equal(throttle_sample(&th), 0);
	assert_true(th.total.core_events == 3);
	assert_true(th.total.pkg_events == 2); /* not 4: package 0 has two cpus */
	assert_true(th.total.pkg_ms == 250);
	assert_true(throttle_events(&th.total) == 5);
	assert_true(throttle_ms(&th.total) == 250);
}

static void throttle_counter_going_back_counts_nothing(void **state)
{
	(void)state;
	struct throttle_reading base = { .cpu = 0, .package_id = 0, .has_core = true, .core_count = 50 };
	struct throttle_reading cur = base;
	cur.core_count = 2; /* cpu went offline and came back */
	struct throttle_totals t;
	throttle_account(&base, &cur, 1, &t);
	assert_true(t.core_events == 0);
}

static void others_busy_is_proc_stat_minus_our_own(void **state)
{
	(void)state;
	/* user nice system idle iowait irq softirq steal: idle and iowait are not busy; steal is. */
	assert_float_equal(procstat_busy("cpu  100 5 50 1000 20 3 7 11 0 0", 100), 1.76, 1e-9);
	assert_float_equal(procstat_busy("cpu  100 0 50 1000", 100), 1.5, 1e-9); /* an old kernel */
	assert_true(procstat_busy("cpu0 100 5 50 1000 20 3 7 11 0 0", 100) < 0);
	assert_true(procstat_busy("intr 12345", 100) < 0);
	struct others_snap a = { .ok = true, .t = 10, .busy_s = 100, .own_s = 4 };
	struct others_snap b = { .ok = true, .t = 12, .busy_s = 103, .own_s = 5 };
	assert_float_equal(others_cpu(&a, &b), 1.0, 1e-9); /* 3 s busy, 1 s ours, in 2 s */
	b.busy_s = 100.9; /* tick rounding: our rusage counted more than /proc/stat saw */
	assert_float_equal(others_cpu(&a, &b), 0, 0);
	b.ok = false;
	assert_true(isnan(others_cpu(&a, &b)));
	b = a;
	assert_true(isnan(others_cpu(&a, &b))); /* no time passed */
}

static void others_snapshot_reads_the_fixture(void **state)
{
	(void)state;
	struct others_snap s;
	assert_true(others_snap(&s) < 0); /* no proc/stat in the tree: nothing to say */
	assert_false(s.ok);
	fakesys_put("proc/stat", "cpu  %d 0 %d 5000 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\n", 200, 100);
	assert_int_equal(others_snap(&s), 0);
	assert_true(s.ok);
	assert_float_equal(s.busy_s, 300.0 / sysconf(_SC_CLK_TCK), 1e-9);
	assert_true(s.own_s >= 0 && s.t > 0);
}

/* The registry: every source has the face the sampler, the preflight and kbench sensors rely on. */
static void every_source_is_registered_with_a_face(void **state)
{
	(void)state;
	int n = 0;
	for (; telemetry_sources[n]; n++) {
		const struct telemetry_source *s = telemetry_sources[n];
		assert_non_null(s->name);
		assert_non_null(s->what);
		assert_non_null(s->open);
		for (int j = 0; j < n; j++)
			assert_string_not_equal(s->name, telemetry_sources[j]->name);
	}
	assert_in_range(n, 5, TELEMETRY_MAX_SOURCES);
	assert_string_equal(telemetry_sources[0]->name, "freq"); /* the -v line's order */
}

/* An empty tree: every sysfs source is n/a and says why, in the frame and in print_sources. */
static void missing_sources_say_why(void **state)
{
	(void)state;
	struct telemetry_opts o = { 0 };
	bool usage;
	char err[240];
	struct telemetry *t = telemetry_new(&o, &usage, err, sizeof err);
	assert_non_null(t);
	const struct telemetry_frame *f = telemetry_latest(t);
	int n = 0;
	while (telemetry_sources[n])
		n++;
	assert_int_equal(f->nsources, n);
	for (int i = 0; i < f->nsources; i++) {
		const struct telemetry_slot *s = &f->sources[i];
		assert_ptr_equal(s->src, telemetry_sources[i]);
		if (!s->available)
			assert_true(strncmp(s->status, "n/a: ", 5) == 0 && strlen(s->status) > 10);
	}
	assert_true(strncmp(f->freq_source, "n/a: no ", 8) == 0);
	assert_string_equal(f->power_source, "n/a: no RAPL, no battery"); /* half a line on the run screen */
	/* what the preflight says of each missing source: "<what>: <status>" */
	char text[2048] = "";
	for (int i = 0; i < f->nsources; i++)
		if (!f->sources[i].available)
			snprintf(text + strlen(text), sizeof text - strlen(text), "%s: %s\n",
				 f->sources[i].src->what, f->sources[i].status);
	assert_non_null(strstr(text, "CPU frequency: n/a: no "));
	assert_non_null(strstr(text, "throttle counters: n/a: no thermal_throttle counters: cannot list "));
	assert_non_null(strstr(text, "energy: n/a: no RAPL (")); /* the full sentence here */
	assert_non_null(strstr(text, "other processes' CPU use: n/a: cannot read "));
	telemetry_free(t);
}


/* /proc/PID/stat of a task on `cpu`, its name holding spaces and a ')'. */
static void put_stat(int pid, int cpu)
{
	char rel[64], line[512] = "";
	snprintf(rel, sizeof rel, "proc/%d/stat", pid);
	snprintf(line, sizeof line, "%d (kbench) w) R 1", pid);
	for (int field = 5; field <= 38; field++)
		snprintf(line + strlen(line), sizeof line - strlen(line), " %d", field * 10);
	snprintf(line + strlen(line), sizeof line - strlen(line), " %d 0 0 0\n", cpu);
	fakesys_put(rel, "%s", line);
}

/* The sampler as a run opens it, counting task-clock, sampling every half second. */
static struct telemetry *new_sampler(void)
{
	struct telemetry_opts o = { .events = "perf::TASK-CLOCK", .interval = 0.5 };
	bool usage;
	char err[240];
	struct telemetry *t = telemetry_new(&o, &usage, err, sizeof err);
	assert_non_null(t);
	return t;
}

/* One test of one sample of one copy (pid 4242), a tick while it runs, through the sampler. */
static struct run *run_one_sample(void)
{
	struct telemetry *t = new_sampler();
	struct run *r = run_new();
	struct test_result *tr = run_block_add_test(run_add_block(r, 1), "dhry2reg", "Dhrystone", "lps", 1, 116700, "cpu");
	test_add_sample(tr, 1);
	tr->status = TEST_DONE;
	pid_t pid = 4242;
	struct runner_listener l = telemetry_listener(t);
	struct runner_event ev = { .run = r, .ncopies = 1, .pids = &pid };
	static const enum runner_event_kind kinds[] = { EV_RUN_BEGIN, EV_TEST_BEGIN, EV_SAMPLE_READY, EV_SAMPLE_BEGIN,
							EV_TICK, EV_SAMPLE_END, EV_TEST_END, EV_RUN_END };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		ev.kind = kinds[i];
		ev.now = (double)i;
		l.on_event(l.ctx, &ev);
	}
	telemetry_free(t);
	return r;
}

/* Three idle CPUs report 3 GHz estimates, the worker's CPU runs at 1.2 GHz:
 * the busy clock is the worker's CPU's, and its nominal is its core type's
 * (a hybrid part: P-cores 3 GHz, E-cores 2 GHz), not cpu0's. */
static void busy_clock_is_the_workers_cpu(void **state)
{
	(void)state;
	for (int c = 0; c < 4; c++) {
		char p[128];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		fakesys_put(p, "%d\n", c == 3 ? 1200000 : 3000000);
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/base_frequency", c);
		fakesys_put(p, "%d\n", c < 2 ? 3000000 : 2000000);
	}
	put_stat(4242, 3);
	assert_int_equal(cpufreq_task_cpu(4242), 3);
	assert_true(cpufreq_task_cpu(4243) < 0);
	struct run *r = run_one_sample();
	const struct test_result *tr = &r->blocks[0].tests[0];
	const struct kv *fmin = test_summary_get(tr, "freq.min"), *nom = test_summary_get(tr, "freq.nominal");
	assert_true(fmin && fmin->has_value);
	assert_true(fmin->value == 1200);
	assert_true(nom && nom->has_value && nom->value == 2000);
	const struct kv *how = test_summary_get(tr, "freq.method");
	assert_true(how && strstr(how->text, "scaling_cur_freq") && strstr(how->text, "workers' CPUs"));
	run_free(r);
}

/* One event to the listener, of test `test`, its visit and sample as given. */
static void send(const struct runner_listener *l, struct runner_event *ev, enum runner_event_kind kind, int test,
		 int visit, int sample)
{
	ev->kind = kind;
	ev->test = test;
	ev->visit = visit;
	ev->sample = sample;
	ev->now += 1;
	l->on_event(l->ctx, ev);
}

/* A visit of test `test`: its begin, one sample (a tick while it runs), its end. */
static void visit(const struct runner_listener *l, struct runner_event *ev, struct run *r, int test, int visit_no)
{
	test_add_sample(&r->blocks[0].tests[test], 1);
	send(l, ev, EV_TEST_BEGIN, test, visit_no, visit_no);
	send(l, ev, EV_SAMPLE_READY, test, visit_no, visit_no);
	send(l, ev, EV_SAMPLE_BEGIN, test, visit_no, visit_no);
	send(l, ev, EV_TICK, test, visit_no, visit_no);
	send(l, ev, EV_SAMPLE_END, test, visit_no, visit_no);
	send(l, ev, EV_TEST_END, test, visit_no, visit_no);
}

/* A run in rounds (runner.h): test A's visits surround test B's, and what the sources
 * measured in A's second visit joins its first by what each summary is (the lowest clock
 * stays the lowest, the mean is of both), never B's (issue 37). */
static void visits_in_rounds_join_their_own_test(void **state)
{
	(void)state;
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1200000\n");
	fakesys_put("sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000\n");
	struct telemetry *t = new_sampler();
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	run_block_add_test(b, "dhry2reg", "Dhrystone", "lps", 1, 116700, "system");
	run_block_add_test(b, "pipe", "Pipe", "lps", 1, 12440, "system");
	pid_t pid = 4242;
	struct runner_listener l = telemetry_listener(t);
	struct runner_event ev = { .run = r, .ncopies = 1, .pids = &pid };
	send(&l, &ev, EV_RUN_BEGIN, 0, 0, 0);
	put_stat(4242, 0); /* A's first visit at 1200 MHz */
	visit(&l, &ev, r, 0, 0);
	put_stat(4242, 1); /* B's, and A's second, at 3000 */
	visit(&l, &ev, r, 1, 0);
	visit(&l, &ev, r, 0, 1);
	send(&l, &ev, EV_RUN_END, 0, 0, 0);
	telemetry_free(t);
	const struct test_result *a = &b->tests[0], *p = &b->tests[1];
	assert_true(test_summary_get(a, "freq.min")->value == 1200);
	assert_true(test_summary_get(a, "freq.max")->value == 3000);
	assert_true(fabs(test_summary_get(a, "freq.mean")->value - 2100) < 1e-9);
	assert_true(test_summary_get(p, "freq.min")->value == 3000);
	assert_true(test_summary_get(p, "freq.mean")->value == 3000);
	/* each sample's clock under its own key, from its own visit */
	assert_true(test_summary_get(a, "sample.1.freq")->value == 1200);
	assert_true(test_summary_get(a, "sample.2.freq")->value == 3000);
	run_free(r);
}

/* Two CPUs whose cpufreq says the clock now and the top clock (kHz). */
static void two_cpus_at(long cur_khz, long max_khz)
{
	for (int c = 0; c < 2; c++) {
		char p[128];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		fakesys_put(p, "%ld\n", cur_khz);
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", c);
		fakesys_put(p, "%ld\n", max_khz);
	}
}

/* Linux 6.13's cpuinfo_avg_freq (APERF/MPERF) is read where it exists,
 * scaling_cur_freq where it fails (an idle CPU); ACPI CPPC's nominal_freq is
 * the nominal before cpuinfo_max_freq, which alone is only a boost ceiling. */
static void avg_freq_and_cppc_nominal(void **state)
{
	(void)state;
	two_cpus_at(3500000, 4700000);
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_avg_freq", "2100000\n");
	fakesys_put("sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_avg_freq", "busy\n"); /* unreadable: EAGAIN */
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_true(cf.available && cf.avg_freq);
	assert_true(cf.cur_mhz[0] == 2100 && cf.cur_mhz[1] == 3500);
	/* No boost control here: the top clock there is, as before. */
	assert_true(cf.nominal_mhz == 4700 && !cf.nominal_ceiling);
	assert_string_equal(cf.nominal_from, "cpuinfo_max_freq");
	/* Boost on (acpi-cpufreq's global switch): a ceiling, not a nominal. */
	fakesys_put("sys/devices/system/cpu/cpufreq/boost", "1\n");
	cpufreq_open(&cf);
	assert_true(cf.nominal_mhz == 4700 && cf.nominal_ceiling);
	assert_string_equal(cf.nominal_from, "cpuinfo_max_freq, a boost ceiling");
	/* amd-pstate's per-policy switch wins over the global one. */
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/boost", "0\n");
	cpufreq_open(&cf);
	assert_true(!cf.nominal_ceiling && cf.nom_ceiling[1]);
	assert_string_equal(cf.nominal_from, "cpuinfo_max_freq, boost off");
	fakesys_put("sys/devices/system/cpu/cpu0/acpi_cppc/nominal_freq", "3800\n");
	cpufreq_open(&cf);
	assert_true(cf.nominal_mhz == 3800 && !cf.nominal_ceiling);
	assert_string_equal(cf.nominal_from, "acpi_cppc nominal_freq");
	assert_true(cf.nom_mhz[1] == 4700 && cf.nom_ceiling[1]);
	int cpus[] = { 0, 1 };
	double nom;
	assert_true(cpufreq_on(&cf, cpus, 2, &nom) == 2800);
	assert_true(nom == 3800); /* cpu1's ceiling is no nominal */
	assert_true(cpufreq_on(&cf, cpus + 1, 1, &nom) == 3500 && nom == 0);
}

/* A machine with more CPUs than any cap: every one is read, the workers' CPU (the last) too. */
static void cpufreq_reads_every_cpu_of_a_big_machine(void **state)
{
	(void)state;
	for (int c = 0; c < 300; c++) {
		char p[128];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		fakesys_put(p, "%d\n", c == 299 ? 3100000 : 1000000);
	}
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_int_equal(cf.source, CPUFREQ_SYSFS);
	assert_int_equal(cf.ncpus, 300);
	int last[] = { 299 };
	assert_true(cpufreq_on(&cf, last, 1, NULL) == 3100);
}

/* acpi-cpufreq on an Intel laptop with turbo: cpuinfo_max_freq is the turbo
 * P-state (base + 1 MHz) and boost is on, so it is a ceiling; the model name's
 * "@ 2.60GHz" is the nominal clock. A model name without one leaves the ceiling. */
static void intel_acpi_cpufreq_takes_the_model_name(void **state)
{
	(void)state;
	two_cpus_at(2400000, 2601000);
	fakesys_put("sys/devices/system/cpu/cpufreq/boost", "1\n");
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "acpi-cpufreq\n");
	fakesys_put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel(R) Core(TM) i7-6600U CPU @ 2.60GHz\n"
			    "cpu MHz\t\t: 2400.000\n\nprocessor\t: 1\n"
			    "model name\t: Intel(R) Core(TM) i7-6600U CPU @ 2.60GHz\ncpu MHz\t\t: 2400.000\n");
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_int_equal(cf.source, CPUFREQ_SYSFS);
	assert_true(cf.nominal_mhz == 2600 && !cf.nominal_ceiling);
	assert_true(cf.nom_mhz[1] == 2600 && !cf.nom_ceiling[1]);
	assert_string_equal(cf.nominal_from, "the model name (max_freq: a boost ceiling)");
	int cpus[] = { 0 };
	double nom;
	assert_true(cpufreq_on(&cf, cpus, 1, &nom) == 2400 && nom == 2600);
	/* an AMD model name names no clock: the ceiling stays a ceiling */
	fakesys_put("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD Ryzen 7 5800U with Radeon Graphics\n"
			    "processor\t: 1\nmodel name\t: AMD Ryzen 7 5800U with Radeon Graphics\n");
	cpufreq_open(&cf);
	assert_true(cf.nominal_mhz == 2601 && cf.nominal_ceiling);
	assert_string_equal(cf.nominal_from, "cpuinfo_max_freq, a boost ceiling");
}

/* acpi-cpufreq on AMD: the boost P-states are not in _PSS, so its P0 (the top of
 * scaling_available_frequencies) is the base clock even with boost on, and is
 * cpuinfo_max_freq unless CPPC's highest/nominal ratio (Linux 5.11+) lifts that
 * past it. Real probes: an FX-8350 and a Ryzen 5 3020e show 4000 and 1200 with
 * "Frequency boost: enabled", their base clocks (tests/fixtures/probes/lscpu). */
static void amd_acpi_cpufreq_p0_is_the_base_clock(void **state)
{
	(void)state;
	two_cpus_at(1400000, 4000000);
	fakesys_put("sys/devices/system/cpu/cpufreq/boost", "1\n");
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "acpi-cpufreq\n");
	fakesys_put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
			    "model name\t: AMD FX(tm)-8350 Eight-Core Processor\n");
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_true(cf.nominal_mhz == 4000 && !cf.nominal_ceiling);
	assert_string_equal(cf.nominal_from, "acpi-cpufreq P0 (AMD: no boost P-state)");
	/* CPPC's boost ratio on top of P0 (a Ryzen 5 3600's 4714 MHz): P0 from the table */
	two_cpus_at(2200000, 4714453);
	fakesys_put("sys/devices/system/cpu/cpu0/acpi_cppc/highest_perf", "216\n");
	fakesys_put("sys/devices/system/cpu/cpu1/acpi_cppc/highest_perf", "216\n");
	cpufreq_open(&cf);
	assert_true(fabs(cf.nominal_mhz - 4714.453) < 1e-9 && cf.nominal_ceiling); /* no table: it cannot tell */
	for (int c = 0; c < 2; c++) {
		char p[128];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_available_frequencies", c);
		fakesys_put(p, "3600000 2800000 2200000 \n");
	}
	cpufreq_open(&cf);
	assert_true(cf.nominal_mhz == 3600 && !cf.nominal_ceiling && cf.nom_mhz[1] == 3600);
	/* Intel's P0 is the turbo P-state (base + 1 MHz): a model name without a clock leaves the ceiling */
	fakesys_put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
			    "model name\t: 12th Gen Intel(R) Core(TM) i5-1235U\n");
	cpufreq_open(&cf);
	assert_true(cf.nominal_ceiling);
	/* amd-pstate's max is the boost ceiling; its nominal is CPPC's, not a P-state */
	fakesys_put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
			    "model name\t: AMD Ryzen 5 3600 6-Core Processor\n");
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "amd-pstate\n");
	cpufreq_open(&cf);
	assert_true(cf.nominal_ceiling);
}

/* Model names that say the clock as VIA's do: "U2250@1300+MHz" (1.3 GHz, the "+"
 * an overclock to cpufreq's 1600), "U3300@1200MHz", "U4200 @ 1.0+ GHz"; a
 * name's bare "6300MHz" (a C7-M probe at 1600 MHz) is no "@" clock, never taken. */
static void model_name_clock_in_mhz_and_with_a_plus(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		long max_khz;
		double want;
	} rows[] = {
		{ "VIA Nano processor U2250@1300+MHz", 1600000, 1300 },
		{ "VIA Nano U3300@1200MHz", 1200000, 1200 },
		{ "VIA Eden X2 U4200 @ 1.0+ GHz", 1000000, 1000 },
		{ "VIA C7-M Processor 6300MHz", 1600000, 1600 },
		{ "Intel(R) Atom(TM) CPU  Z3735F @ 1.33GHz", 1832600, 1330 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		two_cpus_at(800000, rows[i].max_khz);
		fakesys_put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: CentaurHauls\nmodel name\t: %s\n",
			    rows[i].name);
		struct cpufreq cf;
		cpufreq_open(&cf);
		if (cf.nominal_mhz != rows[i].want || cf.nominal_ceiling)
			print_message("%s: %.1f MHz (%s)\n", rows[i].name, cf.nominal_mhz, cf.nominal_from);
		assert_true(cf.nominal_mhz == rows[i].want && !cf.nominal_ceiling);
	}
}

/* An AMD desktop with boost on and no CPPC nominal: an all-core clock at 64%
 * of the boost ceiling is no "clock fell" evidence; the ceiling is kept as
 * freq.ceiling, not freq.nominal. */
static void a_boost_ceiling_is_no_nominal(void **state)
{
	(void)state;
	two_cpus_at(3000000, 4700000);
	fakesys_put("sys/devices/system/cpu/cpufreq/boost", "1\n");
	put_stat(4242, 1);
	struct run *r = run_one_sample();
	const struct test_result *tr = &r->blocks[0].tests[0];
	assert_null(test_summary_get(tr, "freq.nominal"));
	const struct kv *ceil = test_summary_get(tr, "freq.ceiling");
	assert_true(ceil && ceil->has_value && ceil->value == 4700);
	const struct kv *ev = test_summary_get(tr, "throttle.evidence");
	assert_true(ev && !strcmp(ev->text, "none"));
	run_free(r);
}

/* cpufreq's slow rule, on a tree with both sysfs files and /proc/cpuinfo that
 * differ, timed by a clock the test moves: each call is `fake_step` ms on. */
static double fake_ms, fake_step;
static double fake_clock(void)
{
	return fake_ms += fake_step;
}

static void two_cpus_both_ways(void)
{
	for (int c = 0; c < 2; c++) {
		char p[128];
		snprintf(p, sizeof p, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		fakesys_put(p, "%d\n", c ? 1200000 : 2400000);
	}
	fakesys_put("proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 2399.812\n\nprocessor\t: 1\ncpu MHz\t\t: 1199.500\n");
}

/* A sysfs round over 2 ms (scaling_cur_freq IPIs each core on some CPUs)
 * falls back to /proc/cpuinfo, and says so with what the round cost. */
static void cpufreq_slow_read_falls_back_and_says_so(void **state)
{
	(void)state;
	two_cpus_both_ways();
	fake_ms = 0, fake_step = 3 * 2.5; /* three rounds between the two calls: 2.5 ms each */
	cpufreq_set_clock(fake_clock);
	struct cpufreq cf;
	cpufreq_open(&cf);
	cpufreq_set_clock(NULL);
	assert_true(cf.available);
	assert_int_equal(cf.source, CPUFREQ_CPUINFO);
	assert_true(fabs(cf.read_ms - 2.5) < 1e-9);
	assert_non_null(strstr(cf.why, "scaling_cur_freq is slow here (2.5 ms for 2 cores)"));
	assert_non_null(strstr(cf.why, "/proc/cpuinfo is read instead"));
	/* within 1e-9, not ==: on i686 (x87) the literal is a long double */
	assert_true(fabs(cf.cur_mhz[0] - 2399.812) < 1e-9 && cf.cur_mhz[1] == 1199.5);
	assert_int_equal(cpufreq_sample(&cf), 0);
	assert_true(fabs(cf.cur_mhz[0] - 2399.812) < 1e-9);
}

/* A round within the limit (2 ms exactly included) stays on sysfs. */
static void cpufreq_fast_read_stays_on_sysfs(void **state)
{
	(void)state;
	two_cpus_both_ways();
	fake_ms = 0, fake_step = 3 * CPUFREQ_SLOW_MS;
	cpufreq_set_clock(fake_clock);
	struct cpufreq cf;
	cpufreq_open(&cf);
	cpufreq_set_clock(NULL);
	assert_int_equal(cf.source, CPUFREQ_SYSFS);
	assert_true(cf.read_ms == CPUFREQ_SLOW_MS);
	assert_string_equal(cf.why, "");
	assert_true(cf.cur_mhz[0] == 2400 && cf.cur_mhz[1] == 1200);
}

/* A tree under KBENCH_SYSFS_ROOT (a fixture, an extracted dump) is not timed:
 * its files' cost is not a kernel's, so a loaded machine cannot turn the
 * tree's clock into /proc/cpuinfo's, and kbench sensors says it was not timed. */
static void cpufreq_fixture_tree_is_not_timed(void **state)
{
	(void)state;
	two_cpus_both_ways();
	struct cpufreq cf;
	cpufreq_open(&cf);
	assert_int_equal(cf.source, CPUFREQ_SYSFS);
	assert_true(isnan(cf.read_ms));
	char *text = NULL, err[200];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(telemetry_show_sources(f, NULL, err, sizeof err), 0);
	fclose(f);
	assert_non_null(strstr(text, "  source: cpufreq scaling_cur_freq\n"));
	assert_non_null(strstr(text, "  read cost: not timed (a tree under KBENCH_SYSFS_ROOT"));
	free(text);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(sysroot_prefixes_paths),
		T(sysroot_dir_each_walks_the_root),
		T(cpufreq_reads_sysfs_per_core),
		T(cpufreq_falls_back_to_cpuinfo),
		T(nothing_at_all_says_why),
		T(power_says_why_briefly),
		T(rapl_delta_handles_wraparound),
		T(rapl_domain_accumulates_across_a_wrap),
		T(battery_power_when_no_rapl),
		T(throttle_counts_packages_once),
		T(throttle_counter_going_back_counts_nothing),
		T(others_busy_is_proc_stat_minus_our_own),
		T(others_snapshot_reads_the_fixture),
		T(every_source_is_registered_with_a_face),
		T(missing_sources_say_why),
		T(busy_clock_is_the_workers_cpu),
		T(visits_in_rounds_join_their_own_test),
		T(avg_freq_and_cppc_nominal),
		T(a_boost_ceiling_is_no_nominal),
		T(intel_acpi_cpufreq_takes_the_model_name),
		T(amd_acpi_cpufreq_p0_is_the_base_clock),
		T(model_name_clock_in_mhz_and_with_a_plus),
		T(cpufreq_reads_every_cpu_of_a_big_machine),
		T(cpufreq_slow_read_falls_back_and_says_so),
		T(cpufreq_fast_read_stays_on_sysfs),
		T(cpufreq_fixture_tree_is_not_timed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
