/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wake-up latency results: each phase's histograms into points, and the cyclictest-shaped and percentile tables. */
#include "latency.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "family.h"
#include "run.h"
#include "settings.h"
#include "stats.h"
#include "workload.h"

#define WL_MAX_HISTS_REPORT 32

const char *const timerlat_phase_names[TL_PHASES] = { "other", "other+burn", "fifo", "fifo+burn" };
/* at most 4 letters and "+burn": "desk+burn p99.9" fits the compare table's label */
const char *const ia_task_names[IA_TASKS] = { "audio", "video", "desk" };
const char *const ia_load_names[IA_LOADS] = { "", "+burn", "+io", "+read", "+mem", "+burn4" };
const char *const ia_load_words[IA_LOADS] = { "alone", "burn", "io", "read", "mem", "burn4" };

int lat_parse_names(const char *text, const char *const *names, int n, unsigned *mask, char *err,
		    size_t errlen)
{
	*mask = 0;
	if (!strcmp(text, "all")) {
		*mask = (1u << n) - 1;
		return 0;
	}
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, ",");
		int k = 0;
		while (k < n && (strlen(names[k]) != len || strncmp(names[k], p, len)))
			k++;
		if (k == n || len == 0) {
			int u = snprintf(err, errlen, "'%.*s' is not one of", (int)len, p);
			for (int i = 0; i < n && u >= 0 && (size_t)u < errlen; i++)
				u += snprintf(err + u, errlen - (size_t)u, "%s %s", i ? "," : "", names[i]);
			if (u >= 0 && (size_t)u < errlen)
				snprintf(err + u, errlen - (size_t)u, " or all");
			return -1;
		}
		if (*mask & (1u << k)) {
			snprintf(err, errlen, "'%s' is named twice", names[k]);
			return -1;
		}
		*mask |= 1u << k;
		p += len;
		if (*p == ',' && !*++p) {
			snprintf(err, errlen, "a list does not end with ','");
			return -1;
		}
	}
	if (!*mask) {
		snprintf(err, errlen, "an empty list");
		return -1;
	}
	return 0;
}

int lat_parse_fifo(const char *text)
{
	static const char *const w[] = { "on", "off", "only" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(text, w[i]))
			return i;
	return -1;
}

/* ---- the settings (src/base/settings.h): the command line's rows and the run's params words ---- */

static int parse_fifo(const char *text, void *field, char *err, size_t errlen)
{
	int f = lat_parse_fifo(text);
	if (f < 0) {
		snprintf(err, errlen, "'%.40s' is not on, off or only", text);
		return -1;
	}
	*(enum lat_fifo *)field = (enum lat_fifo)f;
	return 0;
}

static int parse_ia_tasks(const char *text, void *field, char *err, size_t errlen)
{
	return lat_parse_names(text, ia_task_names, IA_TASKS, field, err, errlen);
}

static int parse_ia_loads(const char *text, void *field, char *err, size_t errlen)
{
	return lat_parse_names(text, ia_load_words, IA_LOADS, field, err, errlen);
}

/* the memory hog needs memory to hog */
static int check_ia_loads(const char *text, char *err, size_t errlen)
{
	unsigned mask;
	if (lat_parse_names(text, ia_load_words, IA_LOADS, &mask, err, errlen) < 0)
		return -1;
	return (mask & (1u << IA_MEM)) && !lat_hog_bytes(err, errlen) ? -1 : 0;
}

#define AT(f) offsetof(struct lat_params, f)
static const struct setting lat_rows[] = {
	{ .name = "period-us", .kind = SET_INT, .arg = "US", .what = "microseconds",
	  .min = 50, .max = 100000, .def = "1000", .offset = AT(period_us),
	  .help = "timerlat: the timer's period in microseconds (default 1000)" },
	{ .name = "fifo", .kind = SET_TEXT, .arg = "on|off|only", .what = "on, off or only", .def = "on",
	  .offset = AT(fifo), .parse = parse_fifo, .choices = "on off only",
	  .help = "timerlat: SCHED_FIFO phases too (on, when permitted), none (off),\n"
		  "or only them (only: the test fails without the permission)" },
	{ .name = "messages", .kind = SET_INT, .arg = "N", .what = "a number of message threads",
	  .min = 1, .max = LAT_MAX_MESSAGES, .def = "1", .offset = AT(messages),
	  .help = "wakelat: message threads, each with its own workers (default 1)" },
	{ .name = "workers", .kind = SET_INT, .arg = "N", .what = "a number of workers",
	  .min = 1, .max = LAT_MAX_WORKERS, .offset = AT(workers),
	  .help = "wakelat: workers per message thread (default 2 per CPU)" },
	{ .name = "work-us", .kind = SET_INT, .arg = "US", .what = "microseconds",
	  .min = 0, .max = 100000, .def = "20", .offset = AT(work_us),
	  .help = "wakelat: a worker's work per request in microseconds (default 20)" },
	{ .name = "ia-tasks", .kind = SET_TEXT, .arg = "LIST", .what = "a list of tasks", .def = "all",
	  .offset = AT(tasks), .parse = parse_ia_tasks, .choices = "audio video desk all",
	  .help = "interactive: the tasks, of audio,video,desk or all (default all)" },
	{ .name = "ia-loads", .kind = SET_TEXT, .arg = "LIST", .what = "a list of loads",
	  .def = "alone,burn,io,burn4", .offset = AT(loads), .parse = parse_ia_loads,
	  .check = check_ia_loads, .choices = "alone burn io read mem burn4 all",
	  .help = "interactive: the background loads, of alone,burn,io,read,mem,burn4\n"
		  "or all (default alone,burn,io,burn4)" },
};
#undef AT

const struct settings lat_settings = {
	.rows = lat_rows, .n = sizeof lat_rows / sizeof lat_rows[0], .size = sizeof(struct lat_params),
};

void lat_params_of(const char *params, struct lat_params *lp)
{
	char err[200];
	/* workers 0: 2 per CPU, when the run starts (no computed defaults) */
	if (test_settings_fill(&lat_settings, params, false, lp, err, sizeof err) < 0)
		test_settings_fill(&lat_settings, NULL, false, lp, err, sizeof err);
}

/* A number from /proc/meminfo in bytes, or 0. */
static unsigned long long meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[160];
	unsigned long long kib = 0;
	size_t n = strlen(key);
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			kib = strtoull(line + n + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return kib * 1024;
}

unsigned long long lat_hog_bytes(char *err, size_t errlen)
{
	unsigned long long total = meminfo("MemTotal"), avail = meminfo("MemAvailable");
	if (!total || !avail) {
		snprintf(err, errlen, "the memory hog needs MemTotal and MemAvailable from /proc/meminfo");
		return 0;
	}
	unsigned long long want = total / 4;
	if (want > 2ULL << 30)
		want = 2ULL << 30;
	if (avail < want + total / 8) {
		snprintf(err, errlen, "the memory hog would touch %llu MiB with %llu MiB of %llu MiB available: "
			 "not enough to keep an eighth free (it does not wake the OOM killer)",
			 want >> 20, avail >> 20, total >> 20);
		return 0;
	}
	return want;
}

static void mask_words(char *buf, size_t len, unsigned mask, const char *const *names, int n)
{
	size_t u = 0;
	buf[0] = 0;
	for (int i = 0; i < n && u < len; i++)
		if (mask & (1u << i))
			u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? "," : "", names[i]);
}

void lat_settings_text(const struct test_def *d, const struct lat_params *p, char *buf, size_t len)
{
	static const char *const fifo[] = { "on", "off", "only" };
	buf[0] = 0;
	if (d && d->collect == timerlat_collect) {
		snprintf(buf, len, "period %d us, SCHED_FIFO %s", p->period_us, fifo[p->fifo]);
	} else if (d && d->collect == wakelat_collect) {
		char w[32];
		if (p->workers)
			snprintf(w, sizeof w, "%d workers each", p->workers);
		else
			snprintf(w, sizeof w, "2 workers per CPU each");
		snprintf(buf, len, "%d message thread%s, %s, %d us of work", p->messages,
			 p->messages == 1 ? "" : "s", w, p->work_us);
	} else if (d && d->collect == interactive_collect) {
		char t[64], l[96];
		mask_words(t, sizeof t, p->tasks, ia_task_names, IA_TASKS);
		mask_words(l, sizeof l, p->loads, ia_load_words, IA_LOADS);
		snprintf(buf, len, "tasks %s; loads %s", t, l);
	}
}

void lat_timerlat_label(int period_us, char *buf, size_t len)
{
	if (period_us % 1000 == 0)
		snprintf(buf, len, "Timer wake-up latency (%d ms, absolute)", period_us / 1000);
	else
		snprintf(buf, len, "Timer wake-up latency (%d us, absolute)", period_us);
}

void lat_label_result(struct test_result *t)
{
	const struct kv *st = test_summary_get(t, "settings");
	int us;
	if (!strcmp(t->id, "timerlat") && st && sscanf(st->text, "period %d us", &us) == 1 && us > 0)
		lat_timerlat_label(us, t->label, sizeof t->label);
}

/* The percentiles each phase reports, in order: x is the percentile. */
static const struct {
	const char *suffix;
	double q;
	enum point_stat stat;
} pcts[] = { { "p50", 0.50, POINT_P50 }, { "p99", 0.99, POINT_P99 }, { "p99.9", 0.999, POINT_P999 },
	     { "max", 1.0, POINT_MAX } };

void lat_describe(struct test_result *t)
{
	lat_label_result(t);
	/* "PHASE p99" (x in %) and "PHASE mean" describe the phase's distribution */
	for (int i = 0; i < t->npoints; i++) {
		struct point *p = &t->points[i];
		const char *last = strrchr(p->name, ' ');
		if (!last)
			continue;
		p->stat = !strcmp(last + 1, "mean") && !p->xunit[0] ? POINT_MEAN : POINT_VALUE;
		for (size_t k = 0; k < sizeof pcts / sizeof pcts[0] && !strcmp(p->xunit, "%"); k++)
			if (!strcmp(last + 1, pcts[k].suffix))
				p->stat = pcts[k].stat;
		if (p->stat != POINT_VALUE)
			snprintf(p->dist, sizeof p->dist, "%.*s", (int)(last - p->name), p->name);
	}
	for (int i = 0; i < t->nsummary; i++)
		if (!strcmp(t->summary[i].key, "note"))
			t->summary[i].role = KV_NOTE;
}

static void phase_points(struct test_result *t, const char *name, const struct lat_hist *h)
{
	char pn[32];
	hist_set_push(test_hist_set(t, name), h);
	for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
		snprintf(pn, sizeof pn, "%s %s", name, pcts[i].suffix);
		point_push(test_point(t, pn, pcts[i].q * 100, "%", "us", true, true),
			   lathist_quantile(h, pcts[i].q) / 1e3);
	}
	snprintf(pn, sizeof pn, "%s mean", name);
	point_push(test_point(t, pn, 0, "", "us", true, true), lathist_mean(h) / 1e3);
	if (h->met + h->missed) {
		snprintf(pn, sizeof pn, "%s met", name);
		point_push(test_point(t, pn, 0, "", "%", false, true), lathist_met_pct(h));
	}
}

/* Phase p of every copy that reached it, merged; false when none did. */
static bool merged(const struct worker_slot *slots, int copies, int p, struct lat_hist *out)
{
	bool any = false;
	lathist_init(out);
	for (int c = 0; c < copies; c++)
		if (atomic_load_explicit(&slots[c].nhists, memory_order_acquire) > p) {
			lathist_merge(out, &slots[c].hists[p]);
			any = true;
		}
	return any && out->n > 0;
}

static bool slot_value(const struct worker_slot *slots, int copies, int series, double *x, double *v)
{
	for (int c = 0; c < copies; c++) {
		int n = atomic_load_explicit(&slots[c].npoints, memory_order_acquire);
		for (int j = 0; j < n && j < WL_MAX_POINTS; j++)
			if (slots[c].points[j].series == series) {
				if (x)
					*x = slots[c].points[j].x;
				*v = slots[c].points[j].v;
				return true;
			}
	}
	return false;
}

/* The run's settings of a test (the runner's filled struct; NULL: the defaults), into
 * lp and its summary. */
static void settings_summary(struct test_result *t, const struct test_def *d, const void *settings,
			     struct lat_params *lp)
{
	char text[160];
	if (settings)
		*lp = *(const struct lat_params *)settings;
	else
		lat_params_of(NULL, lp);
	lat_settings_text(d, lp, text, sizeof text);
	test_summary_set(t, "settings", 0, text);
	lat_label_result(t);
}

int ia_phase_list(const struct lat_params *p, int *task, int *load, int max)
{
	int n = 0;
	for (int k = 0; k < IA_TASKS; k++)
		for (int l = 0; l < IA_LOADS; l++)
			if ((p->tasks & (1u << k)) && (p->loads & (1u << l)) && n < max) {
				task[n] = k;
				load[n++] = l;
			}
	return n;
}

/* "video+burn4": a phase's name (static storage). */
static const char *ia_phase_name(int task, int load)
{
	static char names[IA_TASKS][IA_LOADS][24];
	if (!names[task][load][0])
		snprintf(names[task][load], sizeof names[task][load], "%s%s", ia_task_names[task],
			 ia_load_names[load]);
	return names[task][load];
}

void timerlat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		      const void *settings)
{
	struct lat_params lp;
	settings_summary(t, test_find("timerlat"), settings, &lp);
	struct lat_hist h;
	for (int p = 0; p < TL_PHASES; p++)
		if (merged(slots, copies, p, &h))
			phase_points(t, timerlat_phase_names[p], &h);
	double v;
	if (slot_value(slots, copies, LAT_FIFO_DENIED, NULL, &v)) {
		char text[96];
		snprintf(text, sizeof text, "SCHED_FIFO not permitted (%s): needs root or CAP_SYS_NICE",
			 strerror((int)v));
		test_summary_set(t, "note", 0, text);
	} else if (lp.fifo != LAT_FIFO_OFF && slot_value(slots, copies, LAT_CPU, NULL, &v)) {
		test_summary_set(t, "fifo", 0, "SCHED_FIFO priority 1 measured");
	}
	if (slot_value(slots, copies, LAT_CPU, NULL, &v))
		test_summary_set(t, "cpu", v, NULL);
	if (slot_value(slots, copies, LAT_DMA, NULL, &v)) {
		char text[160];
		if (v == 0)
			snprintf(text, sizeof text, "C-states held (cpu_dma_latency 0, as cyclictest), timer slack 1 ns");
		else
			snprintf(text, sizeof text, "C-states not held (cpu_dma_latency: %.24s): idle exits count", strerror((int)v));
		test_summary_set(t, "cstates", v, text);
	}
}

void wakelat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		     const void *settings)
{
	struct lat_params lp;
	settings_summary(t, test_find("wakelat"), settings, &lp);
	struct lat_hist h;
	if (merged(slots, copies, 0, &h))
		phase_points(t, "wake", &h);
	double sum = 0, x, v;
	int n = 0;
	for (int c = 0; c < copies; c++)
		if (slot_value(slots + c, 1, LAT_RPS, NULL, &v))
			sum += v, n++;
	if (n)
		point_push(test_point(t, "wake rps", 0, "", "req/s", false, true), sum);
	if (slot_value(slots, copies, LAT_WORKERS, &x, &v)) {
		test_summary_set(t, "workers", v, NULL);
		test_summary_set(t, "messages", x, NULL);
	}
}

void interactive_collect(struct test_result *t, const struct worker_slot *slots, int copies,
			 const void *settings)
{
	struct lat_params lp;
	settings_summary(t, test_find("interactive"), settings, &lp);
	struct lat_hist h;
	int task[IA_TASKS * IA_LOADS], load[IA_TASKS * IA_LOADS];
	int n = ia_phase_list(&lp, task, load, IA_TASKS * IA_LOADS);
	for (int k = 0; k < n; k++)
		if (merged(slots, copies, k, &h))
			phase_points(t, ia_phase_name(task[k], load[k]), &h);
	double v;
	if (slot_value(slots, copies, LAT_READ_MODE, NULL, &v))
		test_summary_set(t, "reader", v, v == IA_READ_DIRECT ? "the reader reads with O_DIRECT (from the disk, past the page cache)"
						 : v == IA_READ_FADVISE ? "the reader reads through the page cache, dropping its file after each pass"
									: "the reader's file is on tmpfs: it reads from memory, not from a disk");
	double bytes = 0;
	for (int c = 0; c < copies; c++)
		if (slot_value(slots + c, 1, LAT_HOG_BYTES, NULL, &v))
			bytes += v;
	if (bytes > 0)
		test_summary_set(t, "hog_bytes", bytes, NULL);
}

struct test_noise latency_noise(const struct test_def *t, const char *point)
{
	static const struct {
		const char *suffix;
		struct test_noise floor;
	} floors[] = {
		{ " p99.9", { 0.50, 0.80 } }, { " p99", { 0.25, 0.40 } }, { " max", { 1.00, 1.50 } },
		{ " mean", { 0.15, 0.25 } },  { " met", { 0.05, 0.10 } }, { "rps", { 0.05, 0.10 } },
	};
	size_t n = strlen(point);
	for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++) {
		size_t k = strlen(floors[i].suffix);
		if (n >= k && !strcmp(point + n - k, floors[i].suffix))
			return floors[i].floor;
	}
	return t->noise; /* p50 */
}

int latency_phases(const struct test_def *d, const char *params, const char **names, int max)
{
	static const char *const wake[] = { "wake" };
	int n = 0;
	if (d && d->collect == timerlat_collect) {
		for (; n < TL_PHASES && n < max; n++)
			names[n] = timerlat_phase_names[n];
	} else if (d && d->collect == wakelat_collect) {
		for (; n < 1 && n < max; n++)
			names[n] = wake[n];
	} else if (d && d->collect == interactive_collect) {
		struct lat_params lp;
		int task[IA_TASKS * IA_LOADS], load[IA_TASKS * IA_LOADS];
		lat_params_of(params, &lp);
		int k = ia_phase_list(&lp, task, load, IA_TASKS * IA_LOADS);
		for (; n < k && n < max; n++)
			names[n] = ia_phase_name(task[n], load[n]);
	}
	return n;
}

int latency_is(const struct test_result *t)
{
	/* its own family's results: another family may keep histograms too */
	return t->nhists > 0 && test_result_family(t) == &family_latency;
}

void latency_fmt4(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (!isfinite(v))
		snprintf(buf, len, "--");
	else if (a < 9999.5)
		snprintf(buf, len, "%.0f", v);
	else if (a < 999.5e3)
		snprintf(buf, len, "%.0fk", v / 1e3);
	else if (a < 9.95e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (a < 999.5e6)
		snprintf(buf, len, "%.0fM", v / 1e6);
	else if (a < 999.5e9)
		snprintf(buf, len, "%.0fG", v / 1e9);
	else /* 11 days: an interval over samples that disagree beyond reason */
		snprintf(buf, len, "huge");
}

/* A point's mean over the samples and its 95% interval's half width (t
 * distribution over the samples); NAN half width below two samples. */
static double point_ci(const struct test_result *t, const char *name, double *half)
{
	const struct point *p = test_find_point(t, name);
	*half = NAN;
	if (!p)
		return NAN;
	double v[64];
	int k = 0;
	for (int i = 0; i < p->n && k < 64; i++)
		if (isfinite(p->v[i]))
			v[k++] = p->v[i];
	if (k >= 2)
		*half = stats_t_quantile(0.975, k - 1) * stats_stddev(v, k) / sqrt(k);
	return k ? stats_mean(v, k) : NAN;
}

static void print_test(FILE *f, const struct test_result *t, int copies)
{
	char what[160];
	snprintf(what, sizeof what, "latency in microseconds, %d cop%s, %d sample%s%s", copies,
		 copies == 1 ? "y" : "ies", t->nsamples, t->nsamples == 1 ? "" : "s",
		 t->status == TEST_DONE ? "" : " (cut short: finished samples kept)");
	/* 80 columns: a long title puts what follows it on a line of its own */
	if (strlen(t->label) + 2 + strlen(what) <= 80)
		fprintf(f, "\n%s: %s\n", t->label, what);
	else
		fprintf(f, "\n%s:\n  %s\n", t->label, what);
	/* cyclictest's line per thread: every sample's events together */
	for (int i = 0; i < t->nhists; i++) {
		const struct hist_set *hs = &t->hists[i];
		struct lat_hist all;
		lathist_init(&all);
		for (int k = 0; k < hs->n; k++)
			lathist_merge(&all, &hs->h[k]);
		if (!all.n)
			continue;
		const struct lat_hist *last = &hs->h[hs->n - 1];
		fprintf(f, "T:%2d %-13s C:%9llu Min:%7.0f Act:%7.0f Avg:%7.0f Max:%8.0f\n", i, hs->name,
			(unsigned long long)all.n, (double)all.min / 1e3, (double)last->last / 1e3,
			lathist_mean(&all) / 1e3, (double)all.max / 1e3);
	}
	/* the percentile table: cells first, so each column is as wide as its
	 * widest; a number in at most 4 characters (2375, 13k, 125k, 1.2M) so
	 * that six "m+-h" columns and the phase fit 80 columns */
	enum { NCOL = 6 };
	static const char *const sfx[NCOL] = { "p50", "p99", "p99.9", "max", "mean", "met" };
	char cell[WL_MAX_HISTS_REPORT][NCOL][32];
	int w[NCOL], nrow = t->nhists < WL_MAX_HISTS_REPORT ? t->nhists : WL_MAX_HISTS_REPORT;
	int wname = (int)strlen("phase");
	bool any_met = false;
	for (int k = 0; k < NCOL; k++)
		w[k] = (int)strlen(sfx[k]);
	for (int i = 0; i < nrow; i++) {
		if ((int)strlen(t->hists[i].name) > wname)
			wname = (int)strlen(t->hists[i].name);
		for (int k = 0; k < NCOL; k++) {
			char pn[48], a[8], b[8];
			double half;
			snprintf(pn, sizeof pn, "%s %s", t->hists[i].name, sfx[k]);
			double m = point_ci(t, pn, &half);
			if (k == 5) { /* a share: 100.0, and an interval past 100 points says no more than 100 */
				snprintf(a, sizeof a, "%.1f", m);
				snprintf(b, sizeof b, half < 9.95 ? "%.1f" : "%.0f", half > 100 ? 100 : half);
			} else {
				latency_fmt4(a, sizeof a, m);
				latency_fmt4(b, sizeof b, half);
			}
			if (!isfinite(m))
				snprintf(cell[i][k], sizeof cell[i][k], "%s", "--");
			else if (isfinite(half))
				snprintf(cell[i][k], sizeof cell[i][k], "%s+-%s", a, b);
			else
				snprintf(cell[i][k], sizeof cell[i][k], "%s", a);
			any_met |= k == 5 && isfinite(m);
			if ((int)strlen(cell[i][k]) > w[k])
				w[k] = (int)strlen(cell[i][k]);
		}
	}
	int ncol = any_met ? NCOL : NCOL - 1;
	fprintf(f, "  %-*s", wname, "phase");
	for (int k = 0; k < ncol; k++)
		fprintf(f, " %*s", w[k], sfx[k]);
	fputc('\n', f);
	for (int i = 0; i < nrow; i++) {
		fprintf(f, "  %-*s", wname, t->hists[i].name);
		for (int k = 0; k < ncol; k++)
			fprintf(f, " %*s", w[k], cell[i][k]);
		fputc('\n', f);
	}
	fprintf(f, "  (us%s; +- the 95%% interval over the samples)\n", any_met ? "; met: % of deadlines met" : "");
	const struct kv *st = test_summary_get(t, "settings");
	if (st && st->text[0])
		fprintf(f, "  Settings: %s.\n", st->text);
	const struct kv *rd = test_summary_get(t, "reader");
	if (rd && rd->text[0])
		fprintf(f, "  Note: %s.\n", rd->text);
	const struct kv *hog = test_summary_get(t, "hog_bytes");
	if (hog && hog->value > 0)
		fprintf(f, "  Note: the memory hog touched %.0f MiB, a byte a page, over and over.\n", hog->value / 1048576);
	const struct kv *n = test_summary_get(t, "note");
	if (n && n->text[0])
		fprintf(f, "  Note: %s.\n", n->text);
	const struct kv *cs = test_summary_get(t, "cstates");
	if (cs && cs->text[0])
		fprintf(f, "  Note: %s.\n", cs->text);
	const struct point *rps = test_find_point(t, "wake rps");
	if (rps) {
		double half, m = point_ci(t, "wake rps", &half);
		fprintf(f, "  Requests per second: %.0f", m);
		if (isfinite(half))
			fprintf(f, " +- %.0f", half);
		const struct kv *w = test_summary_get(t, "workers"), *ms = test_summary_get(t, "messages");
		double nm = ms && ms->value >= 1 ? ms->value : 1;
		if (w)
			fprintf(f, " (%.0f workers, %.0f message thread%s)", w->value, nm, nm == 1 ? "" : "s");
		fputc('\n', f);
	}
}

void latency_print_tables(FILE *f, const struct run *r)
{
	for (int b = 0; b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests; i++)
			if (latency_is(&r->blocks[b].tests[i]))
				print_test(f, &r->blocks[b].tests[i], r->blocks[b].copies);
}
