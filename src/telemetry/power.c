/* Energy and power: RAPL package domains through powercap, else perf's power PMU, else the system batteries' discharge power. */
#include "telemetry/power.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* ---- perf's power PMU: the same RAPL counters, allowed where energy_uj is root-only ---- */

static int real_pmu_open(uint32_t type, uint64_t config, int cpu)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	/* An uncore PMU counts per package: pid -1 and one CPU of the package (its cpumask). */
	long fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static int real_pmu_read(int fd, uint64_t *count)
{
	ssize_t n = read(fd, count, sizeof *count);
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof *count ? 0 : -EIO;
}

static void real_pmu_close(int fd)
{
	close(fd);
}

static const struct power_pmu_ops real_pmu = { real_pmu_open, real_pmu_read, real_pmu_close };
static const struct power_pmu_ops *pmu_ops = &real_pmu;

void power_set_pmu_ops(const struct power_pmu_ops *ops)
{
	pmu_ops = ops ? ops : &real_pmu;
}

/* "event=0x02" (the PMU's events/ file; the power PMU's format is event:0-7) into a config. */
static int parse_pmu_event(const char *s, uint64_t *config)
{
	const char *e = strstr(s, "event=");
	if (!e)
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(e + 6, &end, 0);
	if (errno || end == e + 6)
		return -EINVAL;
	*config = v;
	return 0;
}

/* The CPUs of a cpumask list ("0", "0,18", "0-1"), at most max. */
static int parse_cpulist(const char *s, int *cpu, int max)
{
	int n = 0;
	while (*s && n < max) {
		char *end;
		long a = strtol(s, &end, 10), b;
		if (end == s)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && n < max; c++)
			cpu[n++] = (int)c;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

#define PMU_DIR "/sys/bus/event_source/devices/power"

/* Opens power/energy-pkg on one CPU of each package. 0, or -errno with why (a sentence) and brief. */
static int open_pmu(struct power *pw, char *why, size_t whylen, char *brief, size_t brieflen)
{
	char line[128], unit[32] = "";
	uint64_t type, config;
	if (sysroot_read_u64(PMU_DIR "/type", &type) < 0) {
		snprintf(why, whylen, "no perf power PMU (%s)", PMU_DIR);
		snprintf(brief, brieflen, "no power PMU");
		return -ENOENT;
	}
	if (sysroot_read_line(PMU_DIR "/events/energy-pkg", line, sizeof line) < 0 ||
	    parse_pmu_event(line, &config) < 0) {
		snprintf(why, whylen, "the perf power PMU has no energy-pkg event");
		snprintf(brief, brieflen, "no energy-pkg");
		return -ENOENT;
	}
	char scale[64] = "";
	sysroot_read_line(PMU_DIR "/events/energy-pkg.scale", scale, sizeof scale);
	sysroot_read_line(PMU_DIR "/events/energy-pkg.unit", unit, sizeof unit);
	pw->pmu_scale = strtod(scale, NULL);
	if (!(pw->pmu_scale > 0) || strcmp(unit, "Joules")) {
		snprintf(why, whylen, "perf's energy-pkg has no usable scale/unit ('%.20s' '%.20s')", scale, unit);
		snprintf(brief, brieflen, "power PMU unusable");
		return -EINVAL;
	}
	int cpus[POWER_MAX_PMU_FDS] = { 0 }, ncpus = 1;
	if (sysroot_read_line(PMU_DIR "/cpumask", line, sizeof line) == 0) {
		ncpus = parse_cpulist(line, cpus, POWER_MAX_PMU_FDS);
		if (ncpus < 1) {
			cpus[0] = 0;
			ncpus = 1;
		}
	}
	for (int i = 0; i < ncpus; i++) {
		int fd = pmu_ops->open((uint32_t)type, config, cpus[i]);
		if (fd < 0 || pmu_ops->read(fd, &pw->pmu_last[pw->npmu]) < 0) {
			int e = fd < 0 ? fd : -EIO;
			if (fd >= 0)
				pmu_ops->close(fd);
			for (int k = 0; k < pw->npmu; k++)
				pmu_ops->close(pw->pmu_fd[k]);
			pw->npmu = 0;
			if (e == -EACCES || e == -EPERM) {
				uint64_t par = 0;
				bool have = sysroot_read_u64("/proc/sys/kernel/perf_event_paranoid", &par) == 0;
				char pv[24] = "?";
				if (have)
					snprintf(pv, sizeof pv, "%llu", (unsigned long long)par);
				/* A negative paranoid never refuses, so the value read is >= 0 here. */
				snprintf(why, whylen,
					 "perf's power PMU needs perf_event_paranoid <= 0 or CAP_PERFMON (paranoid is %s)",
					 pv);
				snprintf(brief, brieflen, "power PMU refused");
			} else {
				snprintf(why, whylen, "perf's power/energy-pkg could not be opened on cpu %d: %s",
					 cpus[i], strerror(-e));
				snprintf(brief, brieflen, "power PMU failed");
			}
			return e;
		}
		pw->pmu_fd[pw->npmu++] = fd;
	}
	return 0;
}

/* Joules since the previous read over every package's counter (64 bits: no wrap to handle). */
static double sample_pmu(struct power *pw)
{
	double j = 0;
	for (int i = 0; i < pw->npmu; i++) {
		uint64_t v;
		if (pmu_ops->read(pw->pmu_fd[i], &v) < 0)
			continue;
		if (v >= pw->pmu_last[i])
			j += (double)(v - pw->pmu_last[i]) * pw->pmu_scale;
		pw->pmu_last[i] = v;
	}
	return j;
}

/* Why there is no RAPL, in a sentence (why) and in a few words (brief). Returns 1 when root-only. */
static int open_rapl(struct power *pw, char *why, size_t whylen, char *brief, size_t brieflen)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/class/powercap");
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(why, whylen, "no RAPL (/sys/class/powercap missing: a VM?)");
		snprintf(brief, brieflen, "no RAPL");
		return 0;
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
		return 0;
	if (denied)
		snprintf(why, whylen, "RAPL energy_uj is readable by root only (since Linux 5.10, CVE-2020-8694)");
	else if (!seen)
		snprintf(why, whylen, "no intel-rapl zones in %.100s", dir);
	else
		snprintf(why, whylen, "RAPL zones in %.100s could not be read", dir);
	snprintf(brief, brieflen, "%s", denied ? "RAPL root-only" : !seen ? "no RAPL" : "RAPL unreadable");
	return denied > 0;
}

/* ---- batteries: the system's only, the way UPower tells them from a mouse's or a phone's ---- */

static int read_s64(const char *path, int64_t *out)
{
	char buf[64], *end;
	int rc = sysroot_read_line(path, buf, sizeof buf);
	if (rc < 0)
		return rc;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*out = v;
	return 0;
}

static void add_name(char *list, size_t size, const char *name, const char *why)
{
	size_t n = strlen(list);
	snprintf(list + n, size - n, "%s%.40s (%s)", n ? ", " : "", name, why);
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
		char p[200], type[32] = "", scope[32] = "";
		snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/type", e->d_name);
		if (sysroot_read_line(p, type, sizeof type) < 0)
			continue;
		if (!strcmp(type, "Mains")) {
			uint64_t on;
			snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/online", e->d_name);
			if (sysroot_read_u64(p, &on) == 0)
				pw->ac_online = pw->ac_online == 1 ? 1 : (int)(on != 0);
			continue;
		}
		if (strcmp(type, "Battery"))
			continue;
		/* scope=Device is a peripheral's battery (a mouse, a headset): not what the machine draws from. */
		snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/scope", e->d_name);
		if (sysroot_read_line(p, scope, sizeof scope) == 0 && !strcmp(scope, "Device")) {
			add_name(pw->ignored, sizeof pw->ignored, e->d_name, "scope Device");
			continue;
		}
		/* An empty bay (a removable second battery) stays listed with present=0. */
		uint64_t present;
		snprintf(p, sizeof p, "/sys/class/power_supply/%.60s/present", e->d_name);
		if (sysroot_read_u64(p, &present) == 0 && !present) {
			add_name(pw->ignored, sizeof pw->ignored, e->d_name, "not present");
			continue;
		}
		if (pw->nbatteries < POWER_MAX_BATTERIES)
			snprintf(pw->bat[pw->nbatteries++], sizeof pw->bat[0], "%.31s", e->d_name);
	}
	closedir(d);
	/* readdir's order is the filesystem's: name them BAT0+BAT1 whatever it was. */
	for (int i = 1; i < pw->nbatteries; i++)
		for (int k = i; k > 0 && strcmp(pw->bat[k - 1], pw->bat[k]) > 0; k--) {
			char t[32];
			memcpy(t, pw->bat[k], sizeof t);
			memcpy(pw->bat[k], pw->bat[k - 1], sizeof t);
			memcpy(pw->bat[k - 1], t, sizeof t);
		}
	int n = 0;
	for (int i = 0; i < pw->nbatteries; i++)
		n += snprintf(pw->battery + n, sizeof pw->battery - (size_t)n, "%s%s", i ? "+" : "", pw->bat[i]);
}

/* One battery's rate in W, signed as the driver gave it: power_now (µW), else current_now (µA) × voltage_now (µV). */
static int one_battery_watts(const char *bat, double *w)
{
	char p[200];
	int64_t v, a;
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/power_now", bat);
	if (read_s64(p, &v) == 0) {
		*w = (double)v / 1e6;
		return 0;
	}
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/current_now", bat);
	if (read_s64(p, &a) < 0)
		return -ENOENT;
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/voltage_now", bat);
	if (read_s64(p, &v) < 0)
		return -ENOENT;
	*w = (double)a * (double)llabs(v) / 1e12;
	return 0;
}

/* One battery's direction: its status, else (Unknown, or no status) the sign of its rate. The ABI lets
 * the current be negative while discharging; drivers that report it unsigned leave only the AC to tell. */
static enum battery_dir one_battery_dir(const char *bat, double w, int ac_online)
{
	char p[200], status[32] = "";
	snprintf(p, sizeof p, "/sys/class/power_supply/%s/status", bat);
	sysroot_read_line(p, status, sizeof status);
	if (!strcmp(status, "Discharging"))
		return BATTERY_DISCHARGING;
	if (!strcmp(status, "Charging"))
		return BATTERY_CHARGING;
	if (!strcmp(status, "Full") || !strcmp(status, "Not charging"))
		return BATTERY_IDLE;
	if (isnan(w))
		return BATTERY_UNKNOWN;
	if (w < 0)
		return BATTERY_DISCHARGING;
	if (w == 0)
		return BATTERY_IDLE;
	if (ac_online == 0)
		return BATTERY_DISCHARGING;
	if (ac_online == 1)
		return BATTERY_CHARGING;
	return BATTERY_UNKNOWN;
}

/* The machine's draw from its batteries: the sum over those discharging; NAN when none is, or none has a rate. */
static double battery_watts(struct power *pw, bool *any_rate)
{
	double sum = 0;
	int discharging = 0, charging = 0, idle = 0;
	*any_rate = false;
	for (int i = 0; i < pw->nbatteries; i++) {
		double w = NAN;
		if (one_battery_watts(pw->bat[i], &w) == 0)
			*any_rate = true;
		enum battery_dir dir = one_battery_dir(pw->bat[i], w, pw->ac_online);
		if (dir == BATTERY_DISCHARGING) {
			discharging++;
			if (!isnan(w))
				sum += fabs(w);
		} else if (dir == BATTERY_CHARGING) {
			charging++;
		} else if (dir == BATTERY_IDLE) {
			idle++;
		}
	}
	/* A second battery sits idle while the first discharges: the machine is still discharging. */
	pw->dir = discharging ? BATTERY_DISCHARGING : charging ? BATTERY_CHARGING : idle ? BATTERY_IDLE : BATTERY_UNKNOWN;
	pw->battery_discharging = discharging > 0;
	return discharging && *any_rate ? sum : NAN;
}

const char *power_battery_dir_name(enum battery_dir d)
{
	switch (d) {
	case BATTERY_DISCHARGING:
		return "discharging";
	case BATTERY_CHARGING:
		return "charging";
	case BATTERY_IDLE:
		return "idle: full or not charging";
	default:
		return "direction unknown";
	}
}

int power_open(struct power *pw, double now)
{
	memset(pw, 0, sizeof *pw);
	pw->ac_online = -1;
	pw->watts = NAN;
	pw->last_t = now;
	char rapl_why[200] = "", rapl_brief[24] = "";
	int root_only = open_rapl(pw, rapl_why, sizeof rapl_why, rapl_brief, sizeof rapl_brief);
	open_battery(pw);
	if (pw->ndomains) {
		int n = snprintf(pw->source, sizeof pw->source, "RAPL ");
		for (int i = 0; i < pw->ndomains && n < (int)sizeof pw->source; i++)
			n += snprintf(pw->source + n, sizeof pw->source - (size_t)n, "%s%s", i ? "+" : "",
				      pw->dom[i].name[0] ? pw->dom[i].name : pw->dom[i].dir);
		pw->available = true;
		return 0;
	}
	/* Where powercap is root-only (or missing), perf's power PMU reads the same counters. */
	char pmu_why[160] = "", pmu_brief[24] = "";
	int prc = open_pmu(pw, pmu_why, sizeof pmu_why, pmu_brief, sizeof pmu_brief);
	if (prc == 0) {
		snprintf(pw->source, sizeof pw->source, "perf power/energy-pkg");
		snprintf(pw->why, sizeof pw->why, "%.150s: read through perf's power PMU", rapl_why);
		pw->available = true;
		return 0;
	}
	char why[240];
	/* The PMU's reason matters where it exists, or where powercap is root-only (what to do instead). */
	if (root_only || prc != -ENOENT)
		snprintf(why, sizeof why, "%.100s; %.130s", rapl_why, pmu_why);
	else
		snprintf(why, sizeof why, "%.200s", rapl_why);
	const char *brief = rapl_brief;
	bool any_rate = false;
	if (pw->nbatteries) {
		battery_watts(pw, &any_rate);
		if (any_rate) {
			/* Only while discharging is the batteries' power the machine's draw. */
			snprintf(pw->source, sizeof pw->source, "battery %s", pw->battery);
			snprintf(pw->why, sizeof pw->why, "%.170s; battery power counts only while discharging", why);
			pw->available = true;
			return 0;
		}
	}
	snprintf(pw->why, sizeof pw->why, "%.200s; %s", why,
		 pw->nbatteries ? "the battery reports no power or current" : "no battery");
	snprintf(pw->brief, sizeof pw->brief, "%s, %s", brief, pw->nbatteries ? "no battery rate" : "no battery");
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
	if (pw->npmu) {
		double j = sample_pmu(pw);
		pw->joules += j;
		pw->watts = dt > 0 ? j / dt : NAN;
		return 0;
	}
	bool any_rate;
	double w = battery_watts(pw, &any_rate);
	if (isnan(w)) {
		/* Charging, full or unknown: this interval's energy is not the machine's draw, and not counted. */
		pw->watts = NAN;
		if (dt > 0)
			pw->missed_s += dt;
		return 0;
	}
	pw->watts = w;
	if (dt > 0) {
		pw->joules += w * dt;
		pw->integrated_s += dt;
	}
	return 0;
}

int power_on_battery(struct power *pw)
{
	if (pw->ac_online == 0)
		return 1;
	if (pw->ac_online == -1 && pw->nbatteries) {
		bool any_rate;
		battery_watts(pw, &any_rate);
		return pw->battery_discharging;
	}
	return 0;
}

void power_close(struct power *pw)
{
	for (int i = 0; i < pw->npmu; i++)
		pmu_ops->close(pw->pmu_fd[i]);
	pw->npmu = 0;
	pw->available = false;
}

/* ---- the source: series power, energy; summaries energy.J, power.W, score_per_W ---- */

struct energy_state {
	struct power pw;
	double joules0, t0; /* at the test's begin */
	double missed0;     /* the battery's uncounted seconds at the test's begin */
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
	/* A battery that is not discharging measures nothing: the console says so, not just its name. */
	if (pw->nbatteries && !pw->ndomains && !pw->npmu) {
		if (isnan(pw->watts)) {
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
}

static void energy_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct energy_state *st = s->priv;
	if (st->pw.available)
		power_sample(&st->pw, wl_now());
	st->joules0 = st->pw.joules;
	st->missed0 = st->pw.missed_s;
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
	double missed = pw->missed_s - st->missed0;
	if (pw->nbatteries && !pw->ndomains && !pw->npmu && missed > 0) {
		/* Part of the test was not integrated (charging, full, on AC): its sum is not the test's energy. */
		char buf[120];
		snprintf(buf, sizeof buf, "n/a: battery %s for %.1f of %.1f s (energy counts only while discharging)",
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
	if (pw->nbatteries) {
		bool any_rate;
		double w = battery_watts(pw, &any_rate);
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
