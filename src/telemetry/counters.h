/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-worker event counters: libpfm4 names the events, perf_event_open (behind a swappable backend) counts them on each worker and its children, on every core-type PMU of a hybrid CPU. */
#ifndef KBENCH_TELEMETRY_COUNTERS_H
#define KBENCH_TELEMETRY_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

#define COUNTERS_MAX_EVENTS 32
#define COUNTERS_MAX_PMUS 4 /* core-type PMUs: cpu_core + cpu_atom, big.LITTLE's two or three */

/* perf stat's row states: a value, or why there is none. */
enum counter_state {
	COUNTER_VALUE,
	COUNTER_NOT_SUPPORTED, /* libpfm4 or the kernel refuse it (no PMU, PMU absent) */
	COUNTER_NO_PERMISSION, /* EACCES/EPERM: perf_event_paranoid */
	COUNTER_NOT_COUNTED,   /* opened but never scheduled */
	COUNTER_ERROR,         /* anything else; why says what */
	COUNTER_UNOPENED,      /* not attached yet */
	COUNTER_USER_ONLY,     /* happens in the kernel: user-only counting cannot see it */
};

/* What derived metrics need an event for. */
enum counter_role {
	ROLE_OTHER,
	ROLE_CYCLES,
	ROLE_INSTRUCTIONS,
	ROLE_CACHE_MISSES,
	ROLE_BRANCH_MISSES,
	ROLE_BRANCHES,
	ROLE_TASK_CLOCK,
	ROLE_REF_CYCLES, /* reference cycles: the TSC's rate while not halted (Intel's fixed counter 2) */
};

struct counter_event {
	char name[96];  /* as the user wrote it */
	char label[48]; /* short row label: "cycles", or the name (cut to fit summary keys) */
	enum counter_role role;
	bool encoded;   /* libpfm4 gave an attr; false: state/why say why not */
	struct perf_event_attr attr;
	enum counter_state state; /* the event's own state when it cannot be opened at all */
	bool kernel_only; /* only the kernel does it (context switches, migrations) */
	bool per_pmu;     /* a generic hardware event: opened once per core-type PMU on a hybrid CPU */
	char why[160];
};

/* A core-type PMU of a hybrid CPU (/sys/bus/event_source/devices/NAME/type). */
struct counter_pmu {
	char name[40];
	uint32_t type;
};

/* One reading, scaled for multiplexing. */
struct counter_value {
	enum counter_state state;
	double value;      /* raw * enabled / running */
	uint64_t raw, enabled, running;
	double mux;        /* running / enabled: 1 = always counted */
	int err;           /* errno of a failed open */
	int npmus;         /* > 1: summed over core-type PMUs, share[] set */
	uint64_t pmu_running[COUNTERS_MAX_PMUS]; /* each PMU's time running */
	double share[COUNTERS_MAX_PMUS]; /* each PMU's part of the running time */
};

/* Adds a reading into a total (over samples or copies): counts, times and
 * each PMU's running time, the mux and shares recomputed. */
void counter_add(struct counter_value *sum, const struct counter_value *v);

/* The kernel face of the counters; tests swap in a fake that answers as
 * another kernel would (a hybrid one, one at perf_event_paranoid 2). */
struct counter_backend {
	const char *name;
	int (*paranoid)(void);  /* perf_event_paranoid; -99 unknown */
	bool (*privileged)(void); /* may count the kernel whatever paranoid says (root, CAP_PERFMON) */
	int (*open)(const struct perf_event_attr *a, pid_t pid); /* an fd, or -errno */
	int (*read)(int fd, uint64_t v[3]); /* raw, time enabled, time running: 0 or -errno */
	void (*enable)(int fd);
	void (*close)(int fd);
};

/* NULL: perf_event_open on this kernel. Takes effect at the next counters_init. */
void counters_use_backend(const struct counter_backend *b);

struct counters {
	int nevents;
	struct counter_event ev[COUNTERS_MAX_EVENTS];
	int ncopies;
	int *fd;                  /* [(copy * nevents + e) * nslots + pmu], -1 when not open */
	struct counter_value *val;/* latest reading, same shape */
	int paranoid;             /* /proc/sys/kernel/perf_event_paranoid, -99 unknown */
	bool user_only;           /* kernel space excluded (unprivileged with paranoid >= 2) */
	int npmus;                /* core-type PMUs (> 1 on a hybrid CPU), else 0 */
	struct counter_pmu pmu[COUNTERS_MAX_PMUS];
	int nslots;               /* fds per event and copy: npmus, at least 1 */
	const struct counter_backend *be;
};

/* perf stat's default set, in libpfm4 names, and ref-cycles: cycles over
 * ref-cycles is APERF/MPERF's ratio, the workers' effective clock (on Intel a
 * fixed counter, so it takes no general counter and multiplexes nothing). */
#define COUNTERS_DEFAULT \
	"perf::CYCLES,perf::INSTRUCTIONS,perf::CACHE-MISSES,perf::BRANCH-MISSES," \
	"perf::TASK-CLOCK,perf::CONTEXT-SWITCHES,perf::CPU-MIGRATIONS,perf::PAGE-FAULTS,perf::REF-CYCLES"

/* Names the events of a comma-separated list (NULL or "" = the default set).
 * An event libpfm4 knows but this machine lacks keeps its row as not
 * supported; a name libpfm4 does not know is an error: returns -EINVAL with
 * one sentence naming it in err. */
int counters_init(struct counters *c, const char *list, char *err, size_t errlen);
void counters_free(struct counters *c);

/* Opens every event on every pid, disabled, inherited by children. Failures
 * are per row states, never an error for the whole set. */
void counters_attach(struct counters *c, const pid_t *pids, int npids);
void counters_enable(struct counters *c);
/* Reads every open counter into val[]. */
void counters_read(struct counters *c);
/* Closes the fds (the last reading stays in val[]). */
void counters_detach(struct counters *c);

/* Opens each event once on this process to learn its state, then closes it. */
void counters_probe(struct counters *c, struct counter_value *out);

/* raw, time_enabled, time_running → the scaled value and its state. */
void counter_scale(uint64_t raw, uint64_t enabled, uint64_t running, struct counter_value *out);
/* The state an open() errno means. */
enum counter_state counter_state_for_errno(int err);
const char *counter_state_name(enum counter_state s);
/* "123456", "123456 (mux 62%)", "<not supported>", ... */
void counter_format(char *buf, size_t size, const struct counter_value *v);

/* The index of the event playing a role, or -1. */
int counters_find(const struct counters *c, enum counter_role role);
/* num/den when both are counted values and den > 0, else NAN (shown as n/a). */
double counter_ratio(const struct counter_value *num, const struct counter_value *den);

/* A core-type PMU's name: cpu_core, cpu_atom, ARM's armv7_ and armv8_ ones, Apple's apple_*_pmu. */
bool counters_is_core_pmu(const char *name);
/* The core-type PMUs in /sys/bus/event_source/devices (through the sysroot),
 * sorted by name. Returns how many (0 when none is there or it is unreadable). */
int counters_core_pmus(struct counter_pmu *out, int max);

/* A PMU the kernel registered (/sys/bus/event_source/devices/NAME). */
struct kernel_pmu {
	char name[64];
	int type;       /* its perf_event_attr.type; -1 unreadable */
	char cpus[64];  /* its "cpus" or "cpumask" file ("0-7"), "" when it has none */
	const char *what; /* what it counts, for the PMUs kbench knows; NULL otherwise */
};
/* The kernel's PMUs through the sysroot, sorted by name. Returns how many
 * (at most max), or -errno when the directory cannot be read. */
int counters_kernel_pmus(struct kernel_pmu *out, int max);

/* raw, enabled, running of one event on each core-type PMU → the sum: the
 * task ran on one core type at a time, so only the summed running time
 * below enabled is multiplexing; share[] is each PMU's part of it. */
void counter_sum_pmus(const uint64_t (*v)[3], int n, struct counter_value *out);

/* What user-only counting changes, one sentence; "" when it is not user-only. */
void counters_mode(const struct counters *c, char *buf, size_t size);

/* The sentence for a no-permission row: the paranoid value and the fix. */
void counters_permission_hint(const struct counters *c, char *buf, size_t size);

int counters_read_paranoid(void);

/* Starts libpfm4 once. Returns 0 or -ENODEV with a sentence. */
int counters_pfm_start(char *err, size_t errlen);

#endif
