/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Throttle evidence: Intel's thermal_throttle counters (thermal events, and power-limit events apart), the thermal framework's CPU cooling devices on every platform, and the throttle decision. */
#include "telemetry/throttle.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "telemetry/frame.h"
#include "telemetry/source.h"
#include "telemetry/sysroot.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void read_one(struct throttle_reading *r)
{
	char p[160];
	uint64_t v;
	const char *base = "/sys/devices/system/cpu";
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/core_throttle_count", base, r->cpu);
	r->has_core = sysroot_read_u64(p, &r->core_count) == 0;
	/* The time is only added when an episode ends: poll it as well as the count. */
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/core_throttle_total_time_ms", base, r->cpu);
	r->core_ms = sysroot_read_u64(p, &v) == 0 ? v : 0;
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/package_throttle_count", base, r->cpu);
	r->has_pkg = sysroot_read_u64(p, &r->pkg_count) == 0;
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/package_throttle_total_time_ms", base, r->cpu);
	r->pkg_ms = sysroot_read_u64(p, &v) == 0 ? v : 0;
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/core_power_limit_count", base, r->cpu);
	r->has_core_pl = sysroot_read_u64(p, &r->core_pl) == 0;
	snprintf(p, sizeof p, "%s/cpu%d/thermal_throttle/package_power_limit_count", base, r->cpu);
	r->has_pkg_pl = sysroot_read_u64(p, &r->pkg_pl) == 0;
}

/* Types from drivers/thermal and drivers/acpi: ACPI processor throttling ("Processor"), the cpufreq
 * cooling of device-tree boards ("cpufreq-cpu0", older "thermal-cpufreq-0"), idle injection
 * ("intel_powerclamp", "thermal-idle-0"). */
bool throttle_cooling_is_cpu(const char *type)
{
	static const char *const cpu[] = { "Processor", "cpufreq-", "thermal-cpufreq-", "intel_powerclamp",
					   "thermal-idle-", "cpuidle-" };
	for (size_t i = 0; i < sizeof cpu / sizeof cpu[0]; i++)
		if (!strncmp(type, cpu[i], strlen(cpu[i])))
			return true;
	return false;
}

static void read_cooling(struct cooling_dev *d)
{
	char p[128];
	snprintf(p, sizeof p, "/sys/class/thermal/cooling_device%d/cur_state", d->id);
	if (sysroot_read_u64(p, &d->cur_state) < 0)
		d->cur_state = 0;
	snprintf(p, sizeof p, "/sys/class/thermal/cooling_device%d/stats/total_trans", d->id);
	d->has_trans = sysroot_read_u64(p, &d->trans) == 0;
}

static int by_id(const void *a, const void *b)
{
	return ((const struct cooling_dev *)a)->id - ((const struct cooling_dev *)b)->id;
}

static void open_cooling(struct throttle *th)
{
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/class/thermal");
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) && th->ncool < THROTTLE_MAX_COOLING) {
		int id;
		char tail, p[128];
		if (sscanf(e->d_name, "cooling_device%d%c", &id, &tail) != 1)
			continue;
		struct cooling_dev *c = &th->cool[th->ncool];
		memset(c, 0, sizeof *c);
		c->id = id;
		snprintf(p, sizeof p, "/sys/class/thermal/cooling_device%d/type", id);
		if (sysroot_read_line(p, c->type, sizeof c->type) < 0 || !throttle_cooling_is_cpu(c->type))
			continue;
		snprintf(p, sizeof p, "/sys/class/thermal/cooling_device%d/max_state", id);
		sysroot_read_u64(p, &c->max_state);
		read_cooling(c);
		c->trans0 = c->trans;
		th->ncool++;
	}
	closedir(d);
	qsort(th->cool, (size_t)th->ncool, sizeof th->cool[0], by_id);
}

uint64_t throttle_cooling_state(const struct throttle *th, const char **type)
{
	uint64_t m = 0;
	if (type)
		*type = "";
	for (int i = 0; i < th->ncool; i++)
		if (th->cool[i].cur_state > m) {
			m = th->cool[i].cur_state;
			if (type)
				*type = th->cool[i].type;
		}
	return m;
}

uint64_t throttle_cooling_trans(const struct throttle *th)
{
	uint64_t n = 0;
	for (int i = 0; i < th->ncool; i++)
		if (th->cool[i].has_trans && th->cool[i].trans >= th->cool[i].trans0)
			n += th->cool[i].trans - th->cool[i].trans0;
	return n;
}

int throttle_open(struct throttle *th)
{
	memset(th, 0, sizeof *th);
	open_cooling(th);
	char dir[4096];
	sysroot_path(dir, sizeof dir, "/sys/devices/system/cpu");
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(th->why, sizeof th->why, "no thermal_throttle counters: cannot list %.120s: %s%s", dir,
			 strerror(errno), th->ncool ? "" : "; no CPU cooling devices");
		th->available = th->ncool > 0;
		return 0;
	}
	int cpus[THROTTLE_MAX_CPUS], n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < THROTTLE_MAX_CPUS) {
		char *end;
		if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]))
			continue;
		long c = strtol(e->d_name + 3, &end, 10);
		if (!*end)
			cpus[n++] = (int)c;
	}
	closedir(d);
	qsort(cpus, (size_t)n, sizeof cpus[0], cmp_int);
	int have = 0;
	for (int i = 0; i < n; i++) {
		struct throttle_reading *r = &th->base[i];
		r->cpu = cpus[i];
		char p[160];
		uint64_t pkg;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", r->cpu);
		r->package_id = sysroot_read_u64(p, &pkg) == 0 ? (int)pkg : -1;
		read_one(r);
		have += r->has_core || r->has_pkg;
		th->power_limit |= r->has_core_pl || r->has_pkg_pl;
	}
	th->ncpus = n;
	memcpy(th->cur, th->base, sizeof th->base);
	th->counters = have > 0;
	th->available = th->counters || th->ncool > 0;
	if (!have && th->ncool)
		snprintf(th->why, sizeof th->why, "no thermal_throttle counters (Intel only): the CPU cooling devices (%d) are the evidence",
			 th->ncool);
	else if (!have)
		/* AMD, ARM and VMs have no counters; a cooling device would still show the kernel slowing the CPU. */
		snprintf(th->why, sizeof th->why,
			 "nothing here can show throttling: no thermal_throttle counters (Intel only; "
			 "not on AMD, ARM or in VMs) and no CPU cooling devices in /sys/class/thermal");
	return 0;
}

void throttle_account(const struct throttle_reading *base, const struct throttle_reading *cur, int n,
		      struct throttle_totals *out)
{
	memset(out, 0, sizeof *out);
#define DELTA(a, b) ((b) >= (a) ? (b) - (a) : 0)
	for (int i = 0; i < n; i++) {
		if (cur[i].has_core) {
			out->core_events += DELTA(base[i].core_count, cur[i].core_count);
			out->core_ms += DELTA(base[i].core_ms, cur[i].core_ms);
		}
		if (!cur[i].has_pkg)
			continue;
		/* Every cpu of a package shows the same package counter: count it once. */
		bool seen = false;
		for (int j = 0; j < i && cur[i].package_id >= 0; j++)
			if (cur[j].has_pkg && cur[j].package_id == cur[i].package_id)
				seen = true;
		if (seen)
			continue;
		out->pkg_events += DELTA(base[i].pkg_count, cur[i].pkg_count);
		uint64_t ms = DELTA(base[i].pkg_ms, cur[i].pkg_ms);
		out->pkg_ms += ms;
	}
	for (int i = 0; i < n; i++) {
		if (cur[i].has_core_pl)
			out->power_limit_events += DELTA(base[i].core_pl, cur[i].core_pl);
		if (!cur[i].has_pkg_pl)
			continue;
		bool seen = false;
		for (int j = 0; j < i && cur[i].package_id >= 0; j++)
			if (cur[j].has_pkg_pl && cur[j].package_id == cur[i].package_id)
				seen = true;
		if (!seen)
			out->power_limit_events += DELTA(base[i].pkg_pl, cur[i].pkg_pl);
	}
#undef DELTA
}

int throttle_sample(struct throttle *th)
{
	if (!th->available)
		return -ENODEV;
	for (int i = 0; i < th->ncool; i++)
		read_cooling(&th->cool[i]);
	if (!th->counters)
		return 0;
	for (int i = 0; i < th->ncpus; i++)
		read_one(&th->cur[i]);
	throttle_account(th->base, th->cur, th->ncpus, &th->total);
	return 0;
}

void throttle_close(struct throttle *th)
{
	th->available = false;
}

/* ---- the decision ---- */

/* Appends to out->evidence; a full buffer keeps what fitted (and *l says it overflowed). */
__attribute__((format(printf, 3, 4)))
static void say(struct throttle_verdict *out, size_t *l, const char *fmt, ...)
{
	size_t size = sizeof out->evidence;
	if (*l >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out->evidence + *l, size - *l, fmt, ap);
	va_end(ap);
	*l += n > 0 ? (size_t)n : 0;
}

/* Pearson correlation of rate against temperature over the samples that have both. */
static double correlation(const double *x, const double *y, int n)
{
	double mx = 0, my = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]) && !isnan(y[i]))
			mx += x[i], my += y[i], k++;
	mx /= k;
	my /= k;
	double sxy = 0, sxx = 0, syy = 0;
	for (int i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]))
			continue;
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
}

void throttle_decide(const struct throttle_inputs *in, struct throttle_verdict *out)
{
	memset(out, 0, sizeof *out);
	size_t l = 0;
	if (in->events > 0 || in->ms > 0) {
		out->counters = true;
		say(out, &l, "throttled %llux (%llu ms); ", (unsigned long long)in->events,
		    (unsigned long long)in->ms);
	}
	if (in->cooling_state > 0 || in->cooling_trans > 0) {
		out->cooling = true;
		if (in->cooling_state > 0)
			say(out, &l, "cooling %s state %llu; ", in->cooling_type ? in->cooling_type : "",
			    (unsigned long long)in->cooling_state);
		else
			say(out, &l, "cooling changed state %llux; ", (unsigned long long)in->cooling_trans);
	}
	out->power_limit = in->power_limit_events > 0 || in->power_limit_rapl[0];
	double nominal = in->nominal_mhz, low = THROTTLE_CLOCK_SHARE * nominal;
	if (nominal > 0 && !isnan(in->ghz) && in->ghz * 1000 < low) {
		out->clock = true;
		say(out, &l, "workers %.2f of %.2f GHz; ", in->ghz, nominal / 1000);
	} else if (nominal > 0 && !isnan(in->busy_min_mhz) && in->busy_min_mhz < low) {
		out->clock = true;
		say(out, &l, "clock %.0f of %.0f MHz; ", in->busy_min_mhz, nominal);
	}
	if (in->temp_limit > 0 && !isnan(in->temp_max) && in->temp_max >= in->temp_limit - THROTTLE_HEAT_MARGIN) {
		out->heat = true;
		say(out, &l, "%.0f °C near %s %.0f; ", in->temp_max, in->limit_name ? in->limit_name : "",
		    in->temp_limit);
	}
	/* The samples with both a rate and a temperature. */
	const double *rate = in->rate, *temp = in->sample_temp;
	int n = 0;
	double lo = NAN, hi = NAN, tlo = NAN, thi = NAN; /* fmin and fmax pass over a NAN */
	for (int s = 0; rate && temp && s < in->nsamples; s++) {
		if (isnan(rate[s]) || isnan(temp[s]))
			continue;
		lo = fmin(lo, rate[s]);
		hi = fmax(hi, rate[s]);
		tlo = fmin(tlo, temp[s]);
		thi = fmax(thi, temp[s]);
		n++;
	}
	/* "fell by more than 3 %" decided exactly, so i686's x87 and SSE or NEON
	 * agree: hi - lo is exact in double wherever it is near 3 % of hi, and
	 * its products by 100 and 3 are exact in long double. (hi - lo) / hi >
	 * 0.03 read a fall of exactly 3 % as more on i686. */
	if (n >= 3 && hi > 0 && (long double)(hi - lo) * 100 > (long double)hi * 3 && thi - tlo >= 3 &&
	    correlation(rate, temp, in->nsamples) < -0.7) {
		out->score = true;
		say(out, &l, "score -%.0f%% as +%.0f °C; ", (hi - lo) / hi * 100, thi - tlo);
	}
	if (l >= 2 && l < sizeof out->evidence)
		out->evidence[l - 2] = '\0'; /* the last "; " */
	out->throttled = out->counters || out->cooling || (out->clock && (out->heat || out->score)) || (out->heat && out->score);
}

/* ---- the source: series throttle.events, throttle.ms; summaries throttle.events, throttle.ms ---- */

struct throttle_state {
	struct throttle th;
	uint64_t events0, ms0, pl0, trans0; /* at the test's begin */
	uint64_t cool_max;                  /* the highest cooling state seen in the test */
	const char *cool_type;
};

static int throttle_src_open(struct telemetry_slot *s, const struct telemetry_ctx *c, char *err, size_t errlen)
{
	struct throttle_state *st = s->priv;
	throttle_open(&st->th);
	s->available = st->th.available;
	if (st->th.counters)
		snprintf(s->status, sizeof s->status, "thermal_throttle counters of %d cpus%s", st->th.ncpus,
			 st->th.ncool ? ", CPU cooling devices" : "");
	else if (s->available)
		snprintf(s->status, sizeof s->status, "%d CPU cooling devices (no thermal_throttle counters)",
			 st->th.ncool);
	else
		snprintf(s->status, sizeof s->status, "n/a: %s", st->th.why);
	st->cool_type = "";
	/* Where nothing can show throttling, the console says n/a, not "none seen". */
	c->frame->throttle_source = s->status;
	return 0;
}

static void throttle_src_sample(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct throttle_state *st = s->priv;
	struct telemetry_frame *f = c->frame;
	if (!st->th.available || throttle_sample(&st->th) != 0)
		return;
	const char *ctype;
	uint64_t cstate = throttle_cooling_state(&st->th, &ctype), trans = throttle_cooling_trans(&st->th);
	if (st->th.ncool) {
		telemetry_push(c, "throttle.cooling", "state", (double)cstate);
		if (c->in_test && cstate > st->cool_max) {
			st->cool_max = cstate;
			st->cool_type = ctype;
		}
	}
	f->throttle_evidence[0] = '\0'; /* no evidence: empty */
	f->throttled = false;
	if (st->th.counters) {
		f->throttle_events = throttle_events(&st->th.total);
		uint64_t ms = throttle_ms(&st->th.total);
		telemetry_push(c, "throttle.events", "count", (double)f->throttle_events);
		telemetry_push(c, "throttle.ms", "ms", (double)ms);
		if (st->th.power_limit)
			telemetry_push(c, "throttle.power_limit", "count", (double)st->th.total.power_limit_events);
		f->throttled = c->in_test && (f->throttle_events > st->events0 || ms > st->ms0);
		if (f->throttled)
			snprintf(f->throttle_evidence, sizeof f->throttle_evidence, "throttled %llux this test",
				 (unsigned long long)(f->throttle_events - st->events0));
		snprintf(s->reading, sizeof s->reading, "%llu events, %llu ms", (unsigned long long)f->throttle_events,
			 (unsigned long long)ms);
	} else {
		snprintf(s->reading, sizeof s->reading, "cooling state %llu", (unsigned long long)cstate);
	}
	if (c->in_test && !f->throttled && (cstate > 0 || trans > st->trans0)) {
		f->throttled = true;
		if (cstate > 0)
			snprintf(f->throttle_evidence, sizeof f->throttle_evidence, "cooling %s at state %llu", ctype,
				 (unsigned long long)cstate);
		else
			snprintf(f->throttle_evidence, sizeof f->throttle_evidence, "cooling changed state %llux this test",
				 (unsigned long long)(trans - st->trans0));
	}
}

static void throttle_src_test_begin(struct telemetry_slot *s, const struct telemetry_ctx *c)
{
	struct throttle_state *st = s->priv;
	if (st->th.available)
		throttle_sample(&st->th);
	st->events0 = throttle_events(&st->th.total);
	st->ms0 = throttle_ms(&st->th.total);
	st->pl0 = st->th.total.power_limit_events;
	st->trans0 = throttle_cooling_trans(&st->th);
	st->cool_max = throttle_cooling_state(&st->th, &st->cool_type);
}

static void throttle_src_test_end(struct telemetry_slot *s, const struct telemetry_ctx *c, struct test_result *tr,
				  struct throttle_inputs *in)
{
	struct throttle_state *st = s->priv;
	struct throttle *th = &st->th;
	char buf[KV_TEXT_MAX];
	if (!th->available) {
		snprintf(buf, sizeof buf, "n/a: %s", th->why);
		test_summary_set(tr, "throttle.events", 0, buf);
		return;
	}
	throttle_sample(th);
	if (th->ncool) {
		const char *ctype;
		uint64_t now = throttle_cooling_state(th, &ctype);
		if (now > st->cool_max) {
			st->cool_max = now;
			st->cool_type = ctype;
		}
		in->cooling_state = st->cool_max;
		in->cooling_type = st->cool_type;
		in->cooling_trans = throttle_cooling_trans(th) - st->trans0;
		test_summary_set(tr, "throttle.cooling", (double)st->cool_max, NULL);
	}
	if (!th->counters) {
		test_summary_set(tr, "throttle.events", 0, "n/a: no thermal_throttle counters (Intel only)");
		return;
	}
	in->events = throttle_events(&th->total) - st->events0;
	in->ms = throttle_ms(&th->total) - st->ms0;
	test_summary_set(tr, "throttle.events", (double)in->events, NULL);
	test_summary_set(tr, "throttle.ms", (double)in->ms, NULL);
	if (th->power_limit) {
		in->power_limit_events = th->total.power_limit_events - st->pl0;
		test_summary_set(tr, "throttle.power_limit", (double)in->power_limit_events, NULL);
	}
}

static void throttle_src_test_line(const struct test_result *tr, char *buf, size_t size)
{
	char v[48];
	const struct kv *cool = test_summary_get(tr, "throttle.cooling");
	telemetry_fmt_kv(v, sizeof v, test_summary_get(tr, "throttle.events"), "%.0f");
	if (cool && !strncmp(v, "n/a", 3)) {
		telemetry_fmt_kv(v, sizeof v, cool, "%.0f");
		snprintf(buf, size, "cooling state max %s", v);
		return;
	}
	snprintf(buf, size, "throttle %s", v);
}

static void throttle_src_show(struct telemetry_slot *s, FILE *f)
{
	struct throttle_state *st = s->priv;
	if (!st->th.available) {
		fprintf(f, "  n/a: %s\n", st->th.why);
		return;
	}
	for (int i = 0; i < st->th.ncool; i++) {
		const struct cooling_dev *d = &st->th.cool[i];
		fprintf(f, "  cooling_device%-3d %-20s state %llu of %llu", d->id, d->type,
			(unsigned long long)d->cur_state, (unsigned long long)d->max_state);
		if (d->has_trans)
			fprintf(f, ", %llu changes so far", (unsigned long long)d->trans);
		fprintf(f, "\n");
	}
	if (!st->th.counters) {
		fprintf(f, "  (%s)\n", st->th.why);
		return;
	}
	for (int i = 0; i < st->th.ncpus; i++) {
		const struct throttle_reading *r = &st->th.base[i];
		fprintf(f, "  cpu%-3d package %d:", r->cpu, r->package_id);
		if (r->has_core)
			fprintf(f, " core %llu times, %llu ms;", (unsigned long long)r->core_count,
				(unsigned long long)r->core_ms);
		if (r->has_pkg)
			fprintf(f, " package %llu times, %llu ms", (unsigned long long)r->pkg_count,
				(unsigned long long)r->pkg_ms);
		if (r->has_core_pl || r->has_pkg_pl)
			fprintf(f, "; power limit %llu (not heat)", (unsigned long long)(r->core_pl + r->pkg_pl));
		fprintf(f, "\n");
	}
}

static void throttle_src_close(struct telemetry_slot *s)
{
	struct throttle_state *st = s->priv;
	throttle_close(&st->th);
}

const struct telemetry_source throttle_source = {
	.name = "throttle",
	.what = "throttle counters",
	.title = "Throttling",
	.size = sizeof(struct throttle_state),
	.open = throttle_src_open,
	.sample = throttle_src_sample,
	.close = throttle_src_close,
	.test_begin = throttle_src_test_begin,
	.test_end = throttle_src_test_end,
	.test_line = throttle_src_test_line,
	.show = throttle_src_show,
};
