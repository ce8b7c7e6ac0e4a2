/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of src/telemetry/counters.c: multiplex scaling, row states, derived ratios, event-name errors, and through a fake backend a kernel at perf_event_paranoid 2 and hybrid core-type PMUs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakesys.h"

#include "run.h"
#include "telemetry/counters.h"
#include "telemetry/telemetry.h"

static void scales_by_enabled_over_running(void **state)
{
	(void)state;
	struct counter_value v;
	counter_scale(1000, 2000, 500, &v); /* on the PMU a quarter of the time */
	assert_int_equal(v.state, COUNTER_VALUE);
	assert_true(fabs(v.value - 4000) < 1e-9);
	assert_true(fabs(v.mux - 0.25) < 1e-12);
	char buf[64];
	counter_format(buf, sizeof buf, &v);
	assert_string_equal(buf, "4000 (mux 25%)");
}

static void unmultiplexed_is_the_raw_count(void **state)
{
	(void)state;
	struct counter_value v;
	counter_scale(12345, 700, 700, &v);
	assert_int_equal(v.state, COUNTER_VALUE);
	assert_true(v.value == 12345);
	assert_true(v.mux == 1);
	char buf[64];
	counter_format(buf, sizeof buf, &v);
	assert_string_equal(buf, "12345");
}

static void never_scheduled_is_not_counted_not_zero(void **state)
{
	(void)state;
	struct counter_value v;
	counter_scale(0, 5000, 0, &v);
	assert_int_equal(v.state, COUNTER_NOT_COUNTED);
	assert_true(isnan(v.value));
	char buf[64];
	counter_format(buf, sizeof buf, &v);
	assert_string_equal(buf, "<not counted>");
}

static void ipc_without_cycles_is_na(void **state)
{
	(void)state;
	struct counter_value ins, cyc;
	counter_scale(2000, 10, 10, &ins);
	memset(&cyc, 0, sizeof cyc);
	cyc.state = COUNTER_NOT_SUPPORTED;
	assert_true(isnan(counter_ratio(&ins, &cyc)));
	assert_true(isnan(counter_ratio(&ins, NULL)));
	/* Zero cycles counted: still n/a, never inf. */
	counter_scale(0, 10, 10, &cyc);
	assert_true(isnan(counter_ratio(&ins, &cyc)));
	counter_scale(1000, 10, 10, &cyc);
	assert_true(fabs(counter_ratio(&ins, &cyc) - 2.0) < 1e-12);
}

static void errno_maps_to_perf_states(void **state)
{
	(void)state;
	assert_int_equal(counter_state_for_errno(ENOENT), COUNTER_NOT_SUPPORTED);
	assert_int_equal(counter_state_for_errno(EOPNOTSUPP), COUNTER_NOT_SUPPORTED);
	assert_int_equal(counter_state_for_errno(ENOSYS), COUNTER_NOT_SUPPORTED); /* qemu-user */
	assert_int_equal(counter_state_for_errno(EACCES), COUNTER_NO_PERMISSION);
	assert_int_equal(counter_state_for_errno(EPERM), COUNTER_NO_PERMISSION);
	assert_int_equal(counter_state_for_errno(EMFILE), COUNTER_ERROR);
}

static void default_set_names_perf_stat_rows(void **state)
{
	(void)state;
	struct counters c;
	char err[200] = "";
	assert_int_equal(counters_init(&c, NULL, err, sizeof err), 0);
	assert_int_equal(c.nevents, 9);
	assert_string_equal(c.ev[0].label, "cycles");
	assert_int_equal(c.ev[0].role, ROLE_CYCLES);
	assert_int_equal(counters_find(&c, ROLE_INSTRUCTIONS), 1);
	assert_int_equal(counters_find(&c, ROLE_TASK_CLOCK), 4);
	assert_string_equal(c.ev[7].label, "page-faults");
	assert_string_equal(c.ev[8].label, "ref-cycles");
	assert_int_equal(counters_find(&c, ROLE_REF_CYCLES), 8);
	counters_free(&c);
}

static void misspelled_event_is_named(void **state)
{
	(void)state;
	struct counters c;
	char err[200] = "";
	assert_int_equal(counters_init(&c, "perf::TASK-CLOCK,perf::CYCELS", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "'perf::CYCELS'"));
	assert_null(strchr(err, '\n'));
	err[0] = 0;
	assert_int_equal(counters_init(&c, "nosuchpmu::FOO", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "nosuchpmu::FOO"));
	assert_int_equal(counters_init(&c, " , ", err, sizeof err), -EINVAL);
}

/* A PMU libpfm4 knows but this machine lacks: the row stays, not supported.
 * An AMD PMU on an Intel machine, an Intel one on an AMD machine: one of
 * the two is absent everywhere (a VM on a zen3 host has the zen3 one). */
static void absent_pmu_keeps_its_row(void **state)
{
	(void)state;
	static const char *const absent[][2] = {
#if defined(__aarch64__)
		/* libpfm4 for arm64 knows only ARM PMUs: a Cortex-A57 and a
		 * Neoverse N1, never in one machine */
		{ "perf::TASK-CLOCK,arm_ac57::INST_RETIRED", "arm_ac57" },
		{ "perf::TASK-CLOCK,arm_n1::INST_RETIRED", "arm_n1" },
#else
		{ "perf::TASK-CLOCK,amd64_fam19h_zen3::RETIRED_BRANCH_INSTRUCTIONS", "amd64_fam19h_zen3" },
		{ "perf::TASK-CLOCK,skl::BR_INST_RETIRED", "skl" },
#endif
	};
	for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
		struct counters c;
		char err[200] = "";
		int rc = counters_init(&c, absent[i][0], err, sizeof err);
		if (rc == 0 && c.ev[1].encoded) {
			counters_free(&c); /* this machine has that PMU: try the other */
			continue;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(c.nevents, 2);
		assert_int_equal(c.ev[1].state, COUNTER_NOT_SUPPORTED);
		assert_non_null(strstr(c.ev[1].why, absent[i][1]));
		counters_free(&c);
		return;
	}
	fail_msg("both PMUs of %s and %s are present: cannot be", absent[0][1], absent[1][1]);
}

/* Software counters work everywhere, a VM included: count this process. */
static void software_counters_count_this_process(void **state)
{
	(void)state;
	struct counters c;
	char err[200] = "";
	assert_int_equal(counters_init(&c, "perf::TASK-CLOCK,perf::PAGE-FAULTS", err, sizeof err), 0);
	pid_t self = getpid();
	counters_attach(&c, &self, 1);
	if (c.val[0].state == COUNTER_NO_PERMISSION) {
		counters_free(&c);
		skip();
	}
	/* No perf_event_open at all: a kernel without perf events, or qemu-user
	 * (ENOSYS), which does not emulate the call. */
	if (c.val[0].state == COUNTER_NOT_SUPPORTED && c.val[0].err == ENOSYS) {
		printf("perf_event_open: %s (qemu-user does not emulate it)\n", strerror(ENOSYS));
		counters_free(&c);
		skip();
	}
	counters_enable(&c);
	volatile double x = 0;
	for (int i = 0; i < 20000000; i++)
		x += i * 0.5;
	counters_read(&c);
	assert_int_equal(c.val[0].state, COUNTER_VALUE);
	assert_true(c.val[0].value > 1e6); /* more than a millisecond of task-clock */
	counters_free(&c);
}

/* ---- a fake kernel behind the counter backend ---- */

/* What the fake kernel is: its perf_event_paranoid, whether the caller is
 * privileged, and its core-type PMUs' types (0: one core type). Each open
 * event is a row of fk.ev; an fd is its index + 100. */
static struct {
	int paranoid;
	bool privileged;
	uint32_t core_type, atom_type;
	double user_cycles; /* user-only cycles per read; 0: 70% of 3 GHz */
	bool ref_cycles;    /* the PMU counts reference cycles (Intel's fixed counter 2); AMD, ARM: no */
	bool no_nominal;    /* run_one_test's tree has no base_frequency */
	int nev;
	struct perf_event_attr ev[256];
} fk;

static int fk_paranoid(void)
{
	return fk.paranoid;
}
static bool fk_privileged(void)
{
	return fk.privileged;
}

/* As kernel/events/core.c: counting the kernel needs paranoid < 2 or privilege. */
static int fk_open(const struct perf_event_attr *a, pid_t pid)
{
	(void)pid;
	if (!a->exclude_kernel && fk.paranoid >= 2 && !fk.privileged)
		return -EACCES;
	uint32_t ext = (uint32_t)(a->config >> 32);
	if (ext && ext != fk.core_type && ext != fk.atom_type)
		return -ENOENT;
	if (a->type == PERF_TYPE_HARDWARE && (uint32_t)a->config == PERF_COUNT_HW_REF_CPU_CYCLES && !fk.ref_cycles)
		return -ENOENT; /* as x86/amd and arm_pmu answer for an event they do not map */
	if (fk.nev == 256)
		return -EMFILE;
	fk.ev[fk.nev] = *a;
	return 100 + fk.nev++;
}

/* One sample of 1 s of task time: 0.3 s on the kernel's side, 0.6 s on
 * P-cores and 0.4 s on E-cores of a hybrid CPU, at 3 GHz. */
static int fk_read(int fd, uint64_t v[3])
{
	const struct perf_event_attr *a = &fk.ev[fd - 100];
	uint64_t ns = 1000000000ULL;
	v[1] = ns;
	v[2] = ns;
	if (a->type == PERF_TYPE_SOFTWARE) {
		if (a->config == PERF_COUNT_SW_TASK_CLOCK)
			v[0] = ns;
		else if (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES)
			v[0] = a->exclude_kernel ? 0 : 40101; /* the scheduler runs in the kernel */
		else if (a->config == PERF_COUNT_SW_CPU_MIGRATIONS)
			v[0] = a->exclude_kernel ? 0 : 3;
		else
			v[0] = 100;
		return 0;
	}
	double cycles = a->exclude_kernel ? (fk.user_cycles ? fk.user_cycles : 2.1e9) : 3e9;
	/* Reference cycles tick at the TSC's 4 GHz (the tree's base_frequency)
	 * while the core runs: the clock was 3 GHz, 75% of it. */
	if ((uint32_t)a->config == PERF_COUNT_HW_REF_CPU_CYCLES)
		cycles = cycles / 0.75;
	uint32_t ext = (uint32_t)(a->config >> 32);
	if (fk.core_type) {
		/* A hybrid kernel counts an event only on its PMU's cores; a
		 * plain one lands on the P-cores' PMU. */
		double share = ext == fk.atom_type ? 0.4 : 0.6;
		/* rounded, not cut: on i686 (x87) 3e9 * 0.6 is a hair under 1.8e9 */
		v[0] = (uint64_t)llround(cycles * share);
		v[2] = (uint64_t)llround(ns * share);
	} else {
		v[0] = (uint64_t)cycles;
	}
	return 0;
}

static void fk_enable(int fd)
{
	(void)fd;
}
static void fk_close(int fd)
{
	(void)fd;
}

static const struct counter_backend fake_backend = {
	.name = "fake",
	.paranoid = fk_paranoid,
	.privileged = fk_privileged,
	.open = fk_open,
	.read = fk_read,
	.enable = fk_enable,
	.close = fk_close,
};

static int fake_setup(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof fk);
	if (fakesys_make("ctr") < 0)
		return -1;
	counters_use_backend(&fake_backend);
	return 0;
}

static int fake_teardown(void **state)
{
	(void)state;
	counters_use_backend(NULL);
	return fakesys_remove();
}

/* Called between the sample's begin and end (a worker's life), or NULL. */
static void (*mid_sample)(void);

/* One test of one sample, with a cpufreq tree saying the nominal clock is
 * 4 GHz, through the sampler as the runner drives it. Returns the run. */
static struct run *run_one_test(const char *events)
{
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "4000000\n");
	fakesys_put("sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "%s\n", fk.no_nominal ? "0" : "4000000");
	struct telemetry_opts o = { .events = events, .interval = 0.5 };
	bool usage;
	char err[240];
	struct telemetry *t = telemetry_new(&o, &usage, err, sizeof err);
	assert_non_null(t);
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 1);
	struct test_result *tr =
		run_block_add_test(b, "pipe", "Pipe Throughput", "lps", 1, 12440, "system");
	struct sample *sm = test_add_sample(tr, 1);
	(void)sm;
	tr->status = TEST_DONE;
	pid_t pid = 4242;
	struct runner_listener l = telemetry_listener(t);
	struct runner_event ev = { .run = r, .block = 0, .test = 0, .ncopies = 1, .pids = &pid };
	static const enum runner_event_kind kinds[] = { EV_RUN_BEGIN,	 EV_TEST_BEGIN, EV_SAMPLE_READY,
							EV_SAMPLE_BEGIN, EV_SAMPLE_END, EV_TEST_END,
							EV_RUN_END };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		ev.kind = kinds[i];
		ev.now = (double)i;
		if (kinds[i] == EV_SAMPLE_END && mid_sample)
			mid_sample();
		l.on_event(l.ctx, &ev);
	}
	telemetry_free(t);
	mid_sample = NULL;
	return r;
}

static const struct kv *summary(const struct run *r, const char *key)
{
	return test_summary_get(&r->blocks[0].tests[0], key);
}

/* perf_event_paranoid 2, not root: the events are opened user-only; the
 * scheduler's counts are n/a, not 0; there is no GHz and no "clock fell". */
static void paranoid2_user_only_stores_no_false_zero(void **state)
{
	(void)state;
	fk.paranoid = 2;
	struct run *r = run_one_test("perf::CYCLES,perf::TASK-CLOCK,perf::CONTEXT-SWITCHES,perf::CPU-"
				     "MIGRATIONS");
	const struct kv *cs = summary(r, "counter.context-switches");
	assert_non_null(cs);
	assert_false(cs->has_value);
	assert_non_null(strstr(cs->text, "user-only"));
	const struct kv *mig = summary(r, "counter.cpu-migrations");
	assert_non_null(mig);
	assert_false(mig->has_value);
	const struct kv *cy = summary(r, "counter.cycles");
	assert_true(cy && cy->has_value && fabs(cy->value - 2.1e9) < 2); /* user cycles are still counted */
	const struct kv *ghz = summary(r, "ghz");
	assert_true(ghz && !ghz->has_value);
	assert_non_null(strstr(ghz->text, "user-only"));
	const struct kv *mode = summary(r, "counters.mode");
	assert_true(mode && strstr(mode->text, "perf_event_paranoid 2"));
	const struct kv *thr = summary(r, "throttle.evidence");
	assert_non_null(thr);
	assert_null(strstr(thr->text, "workers"));
	assert_non_null(strstr(r->meta.meters, "counters: user-only (perf_event_paranoid 2)"));
	assert_non_null(strstr(r->meta.meters, "freq: cpufreq scaling_cur_freq; "));
	char line[1024] = "";
	FILE *f = fmemopen(line, sizeof line - 1, "w");
	telemetry_print_test_line(f, &r->blocks[0].tests[0]);
	fclose(f);
	assert_non_null(strstr(line, "GHz n/a, "));
	assert_non_null(strstr(line, "\n    counters: user-only (perf_event_paranoid 2): no kernel time"));
	run_free(r);
}

/* A worker that sleeps 200 times (200 voluntary switches), spins for 0.3 s
 * of user time, and is reaped, as the runner does. */
static void a_worker_lives(void)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		volatile double x = 0;
		for (int i = 0; i < 200; i++) {
			usleep(200);
			for (int k = 0; k < 20000; k++)
				x += k;
		}
		struct rusage ru;
		do {
			for (int k = 0; k < 100000; k++)
				x += k;
			getrusage(RUSAGE_SELF, &ru);
		} while (ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec < 300000);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

/* At paranoid 2 the context switches of the workers the runner reaped come
 * from getrusage, and say so; migrations have no such source and stay n/a. */
static void paranoid2_switches_from_getrusage(void **state)
{
	(void)state;
	fk.paranoid = 2;
	mid_sample = a_worker_lives;
	struct run *r = run_one_test("perf::TASK-CLOCK,perf::CONTEXT-SWITCHES,perf::CPU-MIGRATIONS");
	const struct kv *cs = summary(r, "counter.context-switches");
	assert_true(cs && cs->has_value);
	assert_true(cs->value >= 200);
	const struct kv *from = summary(r, "counter.context-switches.from");
	assert_true(from && strstr(from->text, "getrusage"));
	const struct kv *mig = summary(r, "counter.cpu-migrations");
	assert_true(mig && !mig->has_value);
	run_free(r);
}

/* At paranoid 2 the GHz is user cycles over the workers' user CPU time, said
 * so, and never "clock fell" evidence: 0.1 GHz against a 4 GHz nominal. */
static void paranoid2_ghz_from_user_time_is_no_evidence(void **state)
{
	(void)state;
	fk.paranoid = 2;
	mid_sample = a_worker_lives;
	fk.user_cycles = 3e7; /* 0.3 s of user time at 0.1 GHz */
	struct run *r = run_one_test("perf::CYCLES,perf::TASK-CLOCK");
	const struct kv *ghz = summary(r, "ghz"), *from = summary(r, "ghz.from");
	assert_true(ghz && ghz->has_value);
	assert_true(ghz->value > 0.02 && ghz->value < 0.11); /* 3e7 cycles over >= 0.3 s */
	assert_true(from && strstr(from->text, "user CPU time"));
	const struct kv *thr = summary(r, "throttle.evidence");
	assert_true(thr && !strstr(thr->text, "workers"));
	run_free(r);
}

/* The same kernel for a privileged user (fakesys_root, CAP_PERFMON): everything counted. */
static void privileged_counts_the_kernel_too(void **state)
{
	(void)state;
	fk.paranoid = 2;
	fk.privileged = true;
	struct run *r = run_one_test("perf::CYCLES,perf::TASK-CLOCK,perf::CONTEXT-SWITCHES");
	const struct kv *cs = summary(r, "counter.context-switches");
	assert_true(cs && cs->has_value && cs->value == 40101);
	const struct kv *ghz = summary(r, "ghz");
	assert_true(ghz && ghz->has_value && fabs(ghz->value - 3.0) < 1e-9);
	assert_null(summary(r, "counters.mode"));
	run_free(r);
}

/* A hybrid CPU (cpu_core + cpu_atom): cycles opened on both PMUs and summed,
 * each PMU's share stored, and no "mux" for the core type it was not on. */
static void hybrid_pmus_are_summed_not_multiplexed(void **state)
{
	(void)state;
	fk.paranoid = -1;
	fk.core_type = 8;
	fk.atom_type = 10;
	fakesys_put("sys/bus/event_source/devices/cpu_core/type", "8\n");
	fakesys_put("sys/bus/event_source/devices/cpu_atom/type", "10\n");
	fakesys_put("sys/bus/event_source/devices/software/type", "1\n");
	struct run *r = run_one_test("perf::CYCLES,perf::TASK-CLOCK");
	const struct kv *cy = summary(r, "counter.cycles");
	assert_true(cy && cy->has_value);
	assert_true(fabs(cy->value - 3e9) < 1);
	assert_null(summary(r, "counter.cycles.mux"));
	assert_non_null(strstr(r->meta.meters, "counters: user and kernel on cpu_atom+cpu_core"));
	const struct kv *pc = summary(r, "counter.cycles.cpu_core"), *ac = summary(r, "counter.cycles.cpu_"
										      "atom");
	assert_true(pc && pc->has_value && fabs(pc->value - 60) < 1e-6);
	assert_true(ac && ac->has_value && fabs(ac->value - 40) < 1e-6);
	const struct kv *ghz = summary(r, "ghz");
	assert_true(ghz && ghz->has_value && fabs(ghz->value - 3.0) < 1e-6);
	char line[1024] = "";
	FILE *f = fmemopen(line, sizeof line - 1, "w");
	telemetry_print_test_line(f, &r->blocks[0].tests[0]);
	fclose(f);
	assert_non_null(strstr(line, "\n    cycles ran on: cpu_atom 40%, cpu_core 60%\n"));
	run_free(r);
}

/* cycles / ref-cycles x the rate ref-cycles tick at (cpu0's base_frequency,
 * 4 GHz here) is the workers' effective clock, turbostat's Bzy_MHz: 3 GHz. */
static void effective_clock_from_cycles_and_ref_cycles(void **state)
{
	(void)state;
	fk.paranoid = -1;
	fk.ref_cycles = true;
	struct run *r = run_one_test("perf::CYCLES,perf::TASK-CLOCK,perf::REF-CYCLES");
	const struct kv *eff = summary(r, "freq.effective"), *from = summary(r, "freq.effective_from");
	assert_true(eff && eff->has_value && fabs(eff->value - 3000) < 1e-6);
	assert_true(from && !strcmp(from->text, "perf cycles / ref-cycles x 4000 MHz (base_frequency)"));
	run_free(r);
	/* User-only at paranoid 2: both counts lose the kernel's share alike, the ratio holds. */
	fk.paranoid = 2;
	r = run_one_test("perf::CYCLES,perf::TASK-CLOCK,perf::REF-CYCLES");
	eff = summary(r, "freq.effective"), from = summary(r, "freq.effective_from");
	assert_true(eff && eff->has_value && fabs(eff->value - 3000) < 1e-6);
	assert_true(from && strstr(from->text, ", user time only"));
	run_free(r);
	/* A hybrid CPU: both summed over cpu_core and cpu_atom. */
	fk.paranoid = -1;
	fk.core_type = 8;
	fk.atom_type = 10;
	fakesys_put("sys/bus/event_source/devices/cpu_core/type", "8\n");
	fakesys_put("sys/bus/event_source/devices/cpu_atom/type", "10\n");
	r = run_one_test("perf::CYCLES,perf::REF-CYCLES");
	eff = summary(r, "freq.effective");
	assert_true(eff && eff->has_value && fabs(eff->value - 3000) < 1e-3);
	run_free(r);
}

/* Where the PMU has no reference cycles (AMD, ARM) or none at all (a VM), or
 * they were not asked for: n/a with the reason, no number. */
static void effective_clock_na_says_why(void **state)
{
	(void)state;
	fk.paranoid = -1;
	struct run *r = run_one_test(NULL); /* the default set, ref-cycles in it */
	const struct kv *rc = summary(r, "counter.ref-cycles"), *eff = summary(r, "freq.effective");
	assert_true(rc && !rc->has_value && !strcmp(rc->text, "not supported"));
	assert_true(eff && !eff->has_value && !strcmp(eff->text, "n/a: ref-cycles not supported"));
	assert_null(summary(r, "freq.effective_from"));
	run_free(r);
	r = run_one_test("perf::CYCLES,perf::TASK-CLOCK");
	eff = summary(r, "freq.effective");
	assert_true(eff && !eff->has_value && strstr(eff->text, "needs cycles and ref-cycles"));
	run_free(r);
	/* Counted, but no nominal to scale by (cpufreq gone, no clock in the model name). */
	fk.ref_cycles = true;
	fk.no_nominal = true;
	r = run_one_test("perf::CYCLES,perf::REF-CYCLES");
	eff = summary(r, "freq.effective");
	assert_true(eff && !eff->has_value && strstr(eff->text, "no nominal clock"));
	run_free(r);
}

static void core_pmus_listed_from_sysfs(void **state)
{
	(void)state;
	fakesys_put("sys/bus/event_source/devices/armv8_cortex_a76/type", "9\n");
	fakesys_put("sys/bus/event_source/devices/armv8_cortex_a55/type", "8\n");
	fakesys_put("sys/bus/event_source/devices/breakpoint/type", "5\n");
	struct counter_pmu p[COUNTERS_MAX_PMUS];
	assert_int_equal(counters_core_pmus(p, COUNTERS_MAX_PMUS), 2);
	assert_string_equal(p[0].name, "armv8_cortex_a55");
	assert_int_equal(p[0].type, 8);
	assert_string_equal(p[1].name, "armv8_cortex_a76");
	assert_false(counters_is_core_pmu("software"));
	assert_true(counters_is_core_pmu("apple_firestorm_pmu"));
	assert_false(counters_is_core_pmu("apple_pmu"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scales_by_enabled_over_running),
		cmocka_unit_test(unmultiplexed_is_the_raw_count),
		cmocka_unit_test(never_scheduled_is_not_counted_not_zero),
		cmocka_unit_test(ipc_without_cycles_is_na),
		cmocka_unit_test(errno_maps_to_perf_states),
		cmocka_unit_test(default_set_names_perf_stat_rows),
		cmocka_unit_test(misspelled_event_is_named),
		cmocka_unit_test(absent_pmu_keeps_its_row),
		cmocka_unit_test(software_counters_count_this_process),
		cmocka_unit_test_setup_teardown(paranoid2_user_only_stores_no_false_zero, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(paranoid2_switches_from_getrusage, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(paranoid2_ghz_from_user_time_is_no_evidence, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(privileged_counts_the_kernel_too, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(hybrid_pmus_are_summed_not_multiplexed, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(core_pmus_listed_from_sysfs, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(effective_clock_from_cycles_and_ref_cycles, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(effective_clock_na_says_why, fake_setup, fake_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
