/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory latency's result: sizes, caches from sysfs, plateaus and steps from the curve, the copies' points into the run, the pasteable table. */
#include "memlat.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "family.h"
#include "run.h"
#include "settings.h"
#include "stats.h"
#include "telemetry/sysroot.h"
#include "tests.h"
#include "workload.h"
#include "wrap.h"

int memlat_read_caches(struct memlat_caches *c)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < 16 && c->n < 4; i++) {
		char path[128], type[32], size[32];
		uint64_t level;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (sysroot_read_line(path, type, sizeof type) < 0)
			break;
		if (strcmp(type, "Data") != 0 && strcmp(type, "Unified") != 0)
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (sysroot_read_u64(path, &level) < 0)
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (sysroot_read_line(path, size, sizeof size) < 0)
			continue;
		char *end;
		unsigned long long v = strtoull(size, &end, 10);
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		if (!v)
			continue;
		c->level[c->n] = (int)level;
		c->size[c->n] = v;
		c->n++;
	}
	/* index order is level order on every kernel seen; make sure */
	for (int i = 1; i < c->n; i++)
		for (int k = i; k > 0 && c->level[k] < c->level[k - 1]; k--) {
			int l = c->level[k];
			uint64_t s = c->size[k];
			c->level[k] = c->level[k - 1], c->size[k] = c->size[k - 1];
			c->level[k - 1] = l, c->size[k - 1] = s;
		}
	return c->n ? 0 : -ENOENT;
}

static int max_freq(const char *name, void *arg)
{
	double *mhz = arg;
	char path[128];
	uint64_t khz;
	if (strncmp(name, "policy", 6))
		return 0;
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpufreq/%s/cpuinfo_max_freq", name);
	if (sysroot_read_u64(path, &khz) == 0 && khz / 1000.0 > *mhz)
		*mhz = khz / 1000.0;
	return 0;
}

double memlat_clock_ceiling(void)
{
	double mhz = 0;
	sysroot_dir_each("/sys/devices/system/cpu/cpufreq", max_freq, &mhz);
	if (mhz == 0) { /* kernels and trees without policyN directories */
		uint64_t khz;
		if (sysroot_read_u64("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &khz) == 0)
			mhz = khz / 1000.0;
	}
	return mhz;
}

void memlat_default_sizes(const struct memlat_caches *c, struct memlat_sizes *s)
{
	uint64_t llc = c->n ? c->size[c->n - 1] : 8ULL << 20, max = 8ULL << 20;
	while (max < 4 * llc && max < MEMLAT_MAX_SIZE)
		max <<= 1;
	s->min = MEMLAT_MIN_SIZE;
	s->max = max;
	s->per_doubling = 8;
	s->huge = false;
	/* Bounded by time too: a 480 MiB L3 (a server's, a VM's view of its host's) made 2 GiB, ten
	 * minutes a run. Halved until a sweep at the row's budget fits; the report then says the
	 * range stopped short of the last cache. */
	while (s->max > 8ULL << 20 &&
	       memlat_sweep_seconds(s, c, MEMLAT_SWEEP_BUDGET) > MEMLAT_SWEEP_MAX_SECONDS)
		s->max >>= 1;
}

static int parse_size(const char *p, const char **end, uint64_t *out)
{
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	char *e;
	double v = strtod(p, &e);
	if (errno || e == p || v < 0)
		return -1;
	double mul = 1;
	switch (toupper((unsigned char)*e)) {
	case 'K': mul = 1024.0; e++; break;
	case 'M': mul = 1048576.0; e++; break;
	case 'G': mul = 1073741824.0; e++; break;
	default: break;
	}
	if (mul > 1 && (!strncmp(e, "iB", 2) || !strncmp(e, "ib", 2)))
		e += 2;
	else if (*e == 'B' || *e == 'b')
		e++;
	v *= mul;
	if (v > 1e18)
		return -1;
	*out = (uint64_t)v;
	*end = e;
	return 0;
}

int memlat_parse_sizes(const char *text, struct memlat_sizes *s, char *err, size_t errlen)
{
	const char *p = text, *e;
	uint64_t min, max, per = (uint64_t)s->per_doubling;
	if (parse_size(p, &e, &min) || *e != ':' || parse_size(e + 1, &e, &max) ||
	    (*e == ':' && (!isdigit((unsigned char)e[1]) || (per = strtoull(e + 1, (char **)&e, 10), 0))) ||
	    *e) {
		snprintf(err, errlen, "sizes '%.40s': want MIN:MAX[:POINTS PER DOUBLING], e.g. 512:128M:8",
			 text);
		return -1;
	}
	if (min < MEMLAT_MIN_SIZE || max > MEMLAT_MAX_SIZE || min > max) {
		snprintf(err, errlen, "sizes '%.40s': want %d B <= MIN <= MAX <= " MEMLAT_MAX_SIZE_TEXT, text,
			 MEMLAT_MIN_SIZE);
		return -1;
	}
	if (per < 1 || per > MEMLAT_MAX_PER_DOUBLING) {
		snprintf(err, errlen, "sizes '%.40s': from 1 to %d points per doubling", text,
			 MEMLAT_MAX_PER_DOUBLING);
		return -1;
	}
	double n = log2((double)max / (double)min) * (double)per + 1;
	if (n > MEMLAT_MAX_SIZES) {
		snprintf(err, errlen, "sizes '%.40s' make %.0f points per chain (at most %d)", text, n,
			 MEMLAT_MAX_SIZES);
		return -1;
	}
	s->min = min;
	s->max = max;
	s->per_doubling = (int)per;
	return 0;
}

/* ---- the settings (src/base/settings.h): the command line's rows and the run's params words ---- */

static int parse_sizes(const char *text, void *field, char *err, size_t errlen)
{
	struct memlat_sizes *s = field;
	if (s->per_doubling < 1) /* a value checked alone: N's default */
		s->per_doubling = 8;
	return memlat_parse_sizes(text, s, err, errlen);
}

/* each copy maps MAX: more than half the memory would swap or wake the OOM killer */
static int check_sizes(const char *text, char *err, size_t errlen)
{
	struct memlat_sizes s = { .per_doubling = 8 };
	if (memlat_parse_sizes(text, &s, err, errlen) < 0)
		return -1;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	if (pages > 0 && psize > 0 && s.max > (uint64_t)pages * (uint64_t)psize / 2) {
		snprintf(err, errlen, "MAX %s is more than half of this machine's memory (%ld MiB)",
			 strchr(text, ':') + 1, (long)((uint64_t)pages * (uint64_t)psize >> 20));
		return -1;
	}
	return 0;
}

static const struct setting memlat_rows[] = {
	{ .name = "sizes", .kind = SET_TEXT, .arg = "MIN:MAX[:N]", .what = "a size range", .offset = 0,
	  .parse = parse_sizes, .check = check_sizes,
	  .help = "memlat: working sets from MIN to MAX bytes (K, M, G), N per doubling\n"
		  "(default 512:4x the last cache:8)" },
	{ .name = "huge", .kind = SET_FLAG, .offset = offsetof(struct memlat_sizes, huge),
	  .help = "memlat: ask for transparent huge pages (default: 4 KiB pages)" },
};

/* the sizes' default follows this machine's caches */
static void defaults(void *s, const struct settings_env *env)
{
	(void)env;
	struct memlat_caches c;
	memlat_read_caches(&c);
	memlat_default_sizes(&c, s);
}

const struct settings memlat_settings = {
	.rows = memlat_rows,
	.n = sizeof memlat_rows / sizeof memlat_rows[0],
	.size = sizeof(struct memlat_sizes),
	.defaults = defaults,
};

int memlat_size_list(const struct memlat_sizes *s, uint64_t *out, int max)
{
	int n = 0;
	for (int k = 0; n < max; k++) {
		double v = (double)s->min * pow(2.0, (double)k / s->per_doubling);
		uint64_t b = ((uint64_t)(v + MEMLAT_LINE / 2) / MEMLAT_LINE) * MEMLAT_LINE;
		if (b > s->max)
			b = s->max / MEMLAT_LINE * MEMLAT_LINE;
		if (b < MEMLAT_LINE)
			b = MEMLAT_LINE;
		if (!n || b > out[n - 1])
			out[n++] = b;
		if (b >= s->max / MEMLAT_LINE * MEMLAT_LINE)
			break;
	}
	return n;
}

/* A load's latency in ns where size falls among the caches (8 MiB of last
 * level when sysfs says none, as the default sizes assume): a random
 * chain's; a forward one is prefetched. Typical cores, not this one. */
static double guess_ns(const struct memlat_caches *c, uint64_t size, bool random)
{
	static const double level_ns[] = { 1.5, 4.5, 15, 40 };
	static const struct memlat_caches none = { 1, { 3 }, { 8ULL << 20 } };
	if (!c->n)
		c = &none;
	/* A last cache reported past 32 MiB is shared by many cores (a server's, or a VM's view of
	 * its host's: 508 MiB here read 102 ns at 22 MiB): past 32 MiB a walk meets memory's latency. */
	if (size > 32ULL << 20)
		return random ? 100 : 5;
	for (int i = 0; i < c->n && i < 4; i++)
		if (size <= c->size[i])
			return random ? level_ns[c->n == 1 ? 2 : i] : 1.5;
	return random ? 100 : 5;
}

/* The walks' counts are the workload's (memlat_loop.c): at least
 * 3 timed walks a point, at most 200, each 1 ms at least. */
double memlat_sweep_seconds(const struct memlat_sizes *s, const struct memlat_caches *c, double budget)
{
	uint64_t sizes[MEMLAT_MAX_SIZES];
	int n = memlat_size_list(s, sizes, MEMLAT_MAX_SIZES);
	if (n < 1)
		return budget;
	double per_point = budget / (2.0 * n);
	double total = 0.05 + (double)sizes[n - 1] * 0.2e-9; /* the clock; every page faulted in */
	for (int i = 0; i < n; i++) {
		double lines = (double)(sizes[i] / MEMLAT_LINE);
		for (int random = 0; random < 2; random++) {
			double walk = lines * guess_ns(c, sizes[i], random) * 1e-9;
			double window = walk > 0.001 ? walk : 0.001;
			double timed = per_point < 3 * window ? 3 * window : per_point > 200 * window ? 200 * window
												: per_point;
			/* built (a random chain's links land on random lines: a miss each), walked untimed, timed */
			double built = random ? walk + lines * 10e-9 : lines * 2e-9;
			total += built + walk + timed;
		}
	}
	return total;
}

double memlat_sample_seconds(const void *settings, bool first, double length)
{
	(void)first;
	/* the caches once per sizes and length, not every frame of the console */
	static struct memlat_sizes key;
	static double key_length = -1, est;
	struct memlat_sizes sz;
	char err[200];
	if (settings)
		sz = *(const struct memlat_sizes *)settings;
	else /* params that do not fill: the defaults' sweep */
		test_settings_fill(&memlat_settings, NULL, false, &sz, err, sizeof err);
	if (key_length != length || key.min != sz.min || key.max != sz.max || key.per_doubling != sz.per_doubling) {
		struct memlat_caches caches;
		memlat_read_caches(&caches);
		est = memlat_sweep_seconds(&sz, &caches, length);
		key = sz;
		key_length = length;
	}
	return est;
}

int memlat_plateau_sizes(const struct memlat_caches *c, double largest, const char *names[5],
			 double at[5])
{
	static const char *const level_names[] = { "L1", "L2", "L3", "L4" };
	int n = 0;
	for (int i = 0; i < c->n && i < 4; i++) {
		names[n] = level_names[i];
		at[n] = i == 0 ? (double)c->size[0] / 2 : sqrt((double)c->size[i - 1] * (double)c->size[i]);
		n++;
	}
	double mem = c->n ? 4.0 * (double)c->size[c->n - 1] : largest;
	names[n] = "mem";
	at[n] = mem < largest ? mem : largest;
	return n + 1;
}

double memlat_plateau_value(const double *x, const double *v, int n, double at)
{
	if (n < 1 || !(at > 0))
		return NAN;
	int best = 0;
	for (int i = 1; i < n; i++)
		if (fabs(log2(x[i] / at)) < fabs(log2(x[best] / at)))
			best = i;
	if (fabs(log2(x[best] / at)) > 1)
		return NAN;
	double w[3];
	int k = 0;
	for (int i = best - 1; i <= best + 1; i++)
		if (i >= 0 && i < n && isfinite(v[i]))
			w[k++] = v[i];
	if (!k)
		return NAN;
	return stats_median(w, k);
}

static double med3(const double *v, int n, int i)
{
	if (i <= 0 || i >= n - 1)
		return v[i];
	double a = v[i - 1], b = v[i], c = v[i + 1];
	return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

double memlat_find_step(const double *x, const double *v, int n, double lo_at, double lo,
			double hi_at, double hi)
{
	if (!(lo > 0) || !(hi > lo))
		return NAN;
	double mid = sqrt(lo * hi), steepest = 0, at = NAN;
	for (int i = 0; i + 1 < n; i++) {
		/* the rise from size i to size i + 1, both between the two plateaus */
		if (x[i] < lo_at || x[i + 1] > hi_at || !(v[i] > 0))
			continue;
		/* risen for good: the next three sizes (as many as there are) past
		 * the middle, so a walk or two another process disturbed is no step */
		bool up = true;
		for (int k = i + 1; k < i + 4 && k < n; k++)
			up = up && v[k] >= mid;
		/* on the curve's running median of three: one odd size bends nothing */
		double d = log(med3(v, n, i + 1) / med3(v, n, i));
		if (up && d > steepest) {
			steepest = d;
			/* the middle of the two sizes the curve rose between: a grid point would
			 * put a sharp rise at one end or the other, a point early or late by how
			 * ties fell (a 48 KiB L1 that overflowed between 41.5 and 45.3 KiB read
			 * as 41.5 KiB, two points early, or as 45.3) */
			at = sqrt(x[i] * x[i + 1]);
		}
	}
	return at;
}

/* The first point at or past from_at where the curve's running median of three reaches level
 * and stays there for the next two; -1 where it never does. */
static int first_rise(const double *x, const double *v, int n, double from_at, double level)
{
	if (!(level > 0))
		return -1;
	for (int i = 0; i + 2 < n; i++)
		if (x[i] >= from_at && med3(v, n, i) >= level && med3(v, n, i + 1) >= level &&
		    med3(v, n, i + 2) >= level)
			return i;
	return -1;
}

/* The curve this many times above a level's latency for good has left the level (the least
 * rise from one cache to the next seen: 2.2x, a Zen 5 VM's L2 to its L3). */
#define MEMLAT_LEFT_LEVEL 1.5
/* A level's plateau read this many times above the curve a doubling past the previous step:
 * the level ended before the point its plateau is read at (its size in effect is not sysfs's). */
#define MEMLAT_EARLY_RISE 2.0

void memlat_find_steps(const struct memlat_caches *c, const double *x, const double *v, int n,
		       double step[4], bool early[4])
{
	for (int i = 0; i < 4; i++) {
		step[i] = NAN;
		early[i] = false;
	}
	if (n < 3 || !c->n)
		return;
	const char *names[5];
	double at[5];
	int np = memlat_plateau_sizes(c, x[n - 1], names, at);
	for (int i = 0; i + 1 < np && i < 4; i++) {
		double lo_at = at[i], hi_at = at[i + 1];
		/* A level's plateau is read between the previous cache and its own size. A cache that
		 * is smaller in effect than sysfs says (a VM's share of its host's L3, a partitioned
		 * one) has ended before that point: the curve there is the next level's, well above
		 * its level a doubling past the previous step. Its step lies between the two. */
		if (i > 0 && isfinite(step[i - 1]) && 4 * step[i - 1] <= lo_at) {
			double e_at = 2 * step[i - 1];
			double e = memlat_plateau_value(x, v, n, e_at), l = memlat_plateau_value(x, v, n, lo_at);
			double s = l > MEMLAT_EARLY_RISE * e ? memlat_find_step(x, v, n, e_at, e, lo_at, l) : NAN;
			if (isfinite(s)) {
				step[i] = s;
				early[i] = true;
				continue;
			}
		}
		/* Where a next cache lies between this one and memory, the window ends before that
		 * cache's own rise: the steepest rise in it would be that one (the next plateau, read
		 * where sysfs puts it, can lie past the next cache's end in effect). A cache overflows
		 * near its size, not past four times it; and the window ends two points after the
		 * curve first rises for good to MEMLAT_LEFT_LEVEL times this level's latency (the
		 * next cache's step comes after that; a TLB's rise within a level is far less, a
		 * page's entry serving 32 loads of the chain). */
		double lo = memlat_plateau_value(x, v, n, lo_at);
		if (i + 2 < np) {
			if (hi_at > 4.0 * (double)c->size[i])
				hi_at = 4.0 * (double)c->size[i];
			int j = first_rise(x, v, n, lo_at, MEMLAT_LEFT_LEVEL * lo);
			if (j >= 0 && x[j < n - 2 ? j + 2 : n - 1] < hi_at)
				hi_at = x[j < n - 2 ? j + 2 : n - 1];
		}
		step[i] = memlat_find_step(x, v, n, lo_at, lo, hi_at, memlat_plateau_value(x, v, n, hi_at));
	}
}

void memlat_fmt_size(char *buf, size_t size, double b)
{
	if (b >= 1 << 30)
		snprintf(buf, size, "%.3g GiB", b / (1 << 30));
	else if (b >= 1 << 20)
		snprintf(buf, size, "%.3g MiB", b / (1 << 20));
	else if (b >= 1 << 10)
		snprintf(buf, size, "%.3g KiB", b / (1 << 10));
	else
		snprintf(buf, size, "%.0f B", b);
}

static const char *const chain_names[] = { [MEMLAT_FWD] = "fwd", [MEMLAT_RND] = "rnd" };

/* The caches the plateaus are read against: the run's own (summary), else this machine's. */
static void caches_of(struct test_result *t, struct memlat_caches *c)
{
	memset(c, 0, sizeof *c);
	for (int i = 1; i <= 4; i++) {
		char key[32];
		snprintf(key, sizeof key, "cache.L%d", i);
		const struct kv *kv = test_summary_get(t, key);
		if (kv && kv->value > 0) {
			c->level[c->n] = i;
			c->size[c->n++] = (uint64_t)kv->value;
		}
	}
	if (c->n)
		return;
	memlat_read_caches(c);
	for (int i = 0; i < c->n; i++) {
		char key[32];
		snprintf(key, sizeof key, "cache.L%d", c->level[i]);
		test_summary_set(t, key, (double)c->size[i], NULL);
	}
}

/* One chain's curve, every size measured so far: the mean over samples. */
static int curve_of(const struct test_result *t, const char *chain, double *x, double *v, int max)
{
	int n = 0;
	size_t cl = strlen(chain);
	for (int i = 0; i < t->npoints && n < max; i++) {
		const struct point *p = &t->points[i];
		if (p->summary || strncmp(p->name, chain, cl) != 0 || p->name[cl] != ' ')
			continue;
		x[n] = p->x;
		v[n] = point_mean(p);
		n++;
	}
	/* in size order (the points are, unless a later sample reached further) */
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && x[k] < x[k - 1]; k--) {
			double tx = x[k], tv = v[k];
			x[k] = x[k - 1], v[k] = v[k - 1];
			x[k - 1] = tx, v[k - 1] = tv;
		}
	return n;
}

void memlat_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		    const void *settings)
{
	struct memlat_caches c;
	caches_of(t, &c);
	const struct memlat_sizes *sz = settings;
	if (sz) {
		test_summary_set(t, "sizes.min", (double)sz->min, NULL);
		test_summary_set(t, "sizes.max", (double)sz->max, NULL);
	}
	if (sz)
		test_summary_set(t, "pages", 0,
				 sz->huge ? "huge pages asked (MADV_HUGEPAGE)"
					  : "4 KiB pages (MADV_NOHUGEPAGE)");
	/* This sample's points: the mean over the copies that reached each one. */
	double sx[2][MEMLAT_MAX_SIZES], sv[2][MEMLAT_MAX_SIZES];
	int sn[2] = { 0, 0 };
	double clock = 0;
	int nclock = 0;
	for (int ch = MEMLAT_FWD; ch <= MEMLAT_RND; ch++) {
		/* copy 0's sizes are every copy's sizes */
		int n0 = copies > 0 ? atomic_load_explicit(&slots[0].npoints, memory_order_acquire) : 0;
		for (int i = 0; i < n0 && i < WL_MAX_POINTS; i++) {
			const struct wl_point *p = &slots[0].points[i];
			if (p->series != ch || sn[ch] >= MEMLAT_MAX_SIZES)
				continue;
			double sum = 0;
			int k = 0;
			for (int cp = 0; cp < copies; cp++) {
				int nc = atomic_load_explicit(&slots[cp].npoints, memory_order_acquire);
				for (int j = 0; j < nc && j < WL_MAX_POINTS; j++)
					if (slots[cp].points[j].series == ch && slots[cp].points[j].x == p->x) {
						sum += slots[cp].points[j].v;
						k++;
						break;
					}
			}
			sx[ch][sn[ch]] = p->x;
			sv[ch][sn[ch]] = sum / k;
			sn[ch]++;
		}
	}
	for (int cp = 0; cp < copies; cp++) {
		int nc = atomic_load_explicit(&slots[cp].npoints, memory_order_acquire);
		for (int j = 0; j < nc && j < WL_MAX_POINTS; j++)
			if (slots[cp].points[j].series == MEMLAT_CLOCK) {
				clock += slots[cp].points[j].v;
				nclock++;
			} else if (slots[cp].points[j].series == MEMLAT_CEILING && slots[cp].points[j].v > 0) {
				test_summary_set(t, "clock.ceiling", slots[cp].points[j].v, NULL);
			}
	}
	/* how much of copy 0's buffer the kernel put in huge pages */
	int n0 = copies > 0 ? atomic_load_explicit(&slots[0].npoints, memory_order_acquire) : 0;
	for (int j = 0; j < n0 && j < WL_MAX_POINTS; j++)
		if (slots[0].points[j].series == MEMLAT_HUGE && slots[0].points[j].v >= 0) {
			test_summary_set(t, "huge_bytes", slots[0].points[j].v, NULL);
			test_summary_set(t, "buffer_bytes", slots[0].points[j].x, NULL);
		}
	if (nclock) {
		struct point *p = test_point(t, "clock", 0, "", "MHz", false, true);
		point_push(p, clock / nclock);
	}
	for (int ch = MEMLAT_FWD; ch <= MEMLAT_RND; ch++)
		for (int i = 0; i < sn[ch]; i++) {
			char name[32];
			snprintf(name, sizeof name, "%s %.0f", chain_names[ch], sx[ch][i]);
			point_push(test_point(t, name, sx[ch][i], "B", "ns", true, false), sv[ch][i]);
		}
	/* The plateaus of this sample's curves, read where the caches say. */
	const char *names[5];
	double at[5];
	for (int ch = MEMLAT_FWD; ch <= MEMLAT_RND; ch++) {
		if (!sn[ch])
			continue;
		int np = memlat_plateau_sizes(&c, sx[ch][sn[ch] - 1], names, at);
		for (int i = 0; i < np; i++) {
			/* a cut-short sample that has not reached a plateau has no value for it */
			if (at[i] > sx[ch][sn[ch] - 1] * 1.0001)
				continue;
			double v = memlat_plateau_value(sx[ch], sv[ch], sn[ch], at[i]);
			if (!isfinite(v))
				continue;
			char name[32];
			snprintf(name, sizeof name, "%s %s", chain_names[ch], names[i]);
			point_push(test_point(t, name, at[i], "B", "ns", true, true), v);
		}
	}
	/* Where the random chain's curve (mean over the samples so far) steps up. */
	double x[MEMLAT_MAX_SIZES], v[MEMLAT_MAX_SIZES];
	int n = curve_of(t, "rnd", x, v, MEMLAT_MAX_SIZES);
	double step[4];
	bool early[4];
	memlat_find_steps(&c, x, v, n, step, early);
	for (int i = 0; i < c.n && i < 4; i++) {
		char key[32];
		snprintf(key, sizeof key, "step.L%d", i + 1);
		if (isfinite(step[i]))
			test_summary_set(t, key, step[i], NULL);
		/* the mean curve of more samples may say otherwise: the flag follows the latest (0) */
		snprintf(key, sizeof key, "smaller.L%d", i + 1);
		if (isfinite(step[i]) && early[i])
			test_summary_set(t, key, step[i], NULL); /* a value alone: the run file keeps it */
		else if (test_summary_get(t, key))
			test_summary_set(t, key, 0, NULL);
	}
}

/* A plateau's mean over the samples, NAN when the test lacks it. */
static double plateau(const struct test_result *t, const char *name)
{
	const struct point *p = test_find_point(t, name);
	return p ? point_mean(p) : NAN;
}

/* Slack over cpufreq's ceiling before the estimate is called wrong: the ceiling is a request's
 * top, and a timer's granularity moves a 1 ms window by a few percent. */
#define MEMLAT_CEILING_SLACK 1.10

double memlat_clock(const struct test_result *t)
{
	double mhz = plateau(t, "clock");
	const struct kv *ceil = test_summary_get(t, "clock.ceiling");
	return ceil && ceil->value > 0 && mhz > ceil->value * MEMLAT_CEILING_SLACK ? NAN : mhz;
}

void memlat_print_notes(FILE *f, const struct test_result *t)
{
	double mhz = memlat_clock(t);
	char line[512];
	const struct kv *ceil = test_summary_get(t, "clock.ceiling");
	if (!isfinite(mhz) && isfinite(plateau(t, "clock"))) {
		/* a core that ran the chain faster than an add a cycle: no clock, no cycles */
		snprintf(line, sizeof line, "CPU clock: n/a: the chain of dependent adds read %.0f MHz, above "
			 "cpufreq's ceiling of %.0f MHz (this core ran more than one add a cycle)",
			 plateau(t, "clock"), ceil ? ceil->value : 0);
		fputs("  ", f);
		print_wrapped(f, line, 2, 4, 79);
	} else if (isfinite(mhz)) {
		double l1 = plateau(t, "rnd L1");
		fprintf(f, "  CPU clock %.0f MHz (a chain of dependent adds", mhz);
		if (ceil)
			fprintf(f, "; cpufreq's ceiling %.0f", ceil->value);
		fputc(')', f);
		if (isfinite(l1))
			fprintf(f, ": an L1 load takes %.1f cycles", l1 * mhz / 1000);
		fputc('\n', f);
	}
	/* each note a sentence, wrapped to 80 columns as the report's tables are; a machine
	 * whose sysfs names no caches (qemu's arm64 virt board, some ARM boards) has no steps
	 * to note, and still its clock and pages */
	int u = snprintf(line, sizeof line, "Steps of the random chain:");
	for (int i = 1; i <= 4 && u > 0 && (size_t)u < sizeof line; i++) {
		char key[32], at[24], sys[24];
		snprintf(key, sizeof key, "cache.L%d", i);
		const struct kv *c = test_summary_get(t, key);
		if (!c)
			break;
		snprintf(key, sizeof key, "step.L%d", i);
		const struct kv *s = test_summary_get(t, key);
		memlat_fmt_size(sys, sizeof sys, c->value);
		if (s)
			memlat_fmt_size(at, sizeof at, s->value);
		else
			snprintf(at, sizeof at, "none seen");
		snprintf(key, sizeof key, "smaller.L%d", i);
		const struct kv *sm = test_summary_get(t, key);
		/* its plateau is read where sysfs puts it (the same size in every run, so runs
		 * compare), past the end the curve shows: say so beside the figure */
		char past[80] = "";
		snprintf(key, sizeof key, "rnd L%d", i);
		const struct point *pl = test_find_point(t, key);
		if (sm && sm->value > 0 && pl && s && pl->x > s->value) {
			char px[24];
			memlat_fmt_size(px, sizeof px, pl->x);
			snprintf(past, sizeof past, "; its plateau, read at %s, is past that", px);
		}
		u += snprintf(line + u, sizeof line - (size_t)u, "%s L%d at %s (sysfs %s%s%s)", i > 1 ? ";" : "", i,
			      at, sys,
			      sm && sm->value > 0 ? ": smaller in effect, a VM's share of its host's cache or "
						    "a partitioned one" : "", past);
	}
	if (test_summary_get(t, "cache.L1")) {
		fputs("  ", f);
		print_wrapped(f, line, 2, 4, 79);
	}
	const struct kv *lo = test_summary_get(t, "sizes.min"), *hi = test_summary_get(t, "sizes.max");
	if (lo && hi) {
		char a[24], b[24], llc[24];
		memlat_fmt_size(a, sizeof a, lo->value);
		memlat_fmt_size(b, sizeof b, hi->value);
		u = snprintf(line, sizeof line, "Sizes: %s to %s", a, b);
		const struct kv *last = NULL, *smaller = NULL;
		for (int i = 4; i >= 1 && !last; i--) {
			char key[16];
			snprintf(key, sizeof key, "cache.L%d", i);
			last = test_summary_get(t, key);
			snprintf(key, sizeof key, "smaller.L%d", i);
			smaller = test_summary_get(t, key);
		}
		/* a last cache that ends early in the curve: past that end is main memory */
		if (last && !(smaller && smaller->value > 0) && hi->value < 2 * last->value && u > 0 &&
		    (size_t)u < sizeof line) {
			memlat_fmt_size(llc, sizeof llc, last->value);
			snprintf(line + u, sizeof line - (size_t)u,
				 ", not past the last cache (%s): its \"mem\" is that cache, not main memory "
				 "(the default range stops where a sweep would take over %.0f s; --sizes sets it)",
				 llc, MEMLAT_SWEEP_MAX_SECONDS);
		}
		fputs("  ", f);
		print_wrapped(f, line, 2, 4, 79);
	}
	const struct kv *pg = test_summary_get(t, "pages");
	const struct kv *hb = test_summary_get(t, "huge_bytes"), *bb = test_summary_get(t, "buffer_bytes");
	if (pg) {
		u = snprintf(line, sizeof line, "Pages: %s", pg->text);
		if (hb && bb && bb->value > 0 && u > 0 && (size_t)u < sizeof line) {
			char h[24], b[24];
			memlat_fmt_size(h, sizeof h, hb->value);
			memlat_fmt_size(b, sizeof b, bb->value);
			snprintf(line + u, sizeof line - (size_t)u, "; %s of the %s buffer in huge pages", h, b);
		}
		fputs("  ", f);
		print_wrapped(f, line, 2, 4, 79);
	}
}

static void cell(FILE *f, int width, double v, int prec)
{
	if (isfinite(v))
		fprintf(f, " %*.*f", width, prec, v);
	else
		fprintf(f, " %*s", width, "-");
}

void memlat_print_table(FILE *f, const struct run *r)
{
	bool any = false;
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			if (t->kind != RESULT_POINTS || !test_find_point(t, "clock") ||
			    !test_has_result(t) || test_result_family(t) != &family_memlat)
				continue; /* its own family's results: a point's name is no family's mark */
			if (!any) {
				fprintf(f, "Memory latencies in nanoseconds - smaller is better\n"
					   "    (kbench memlat: the fastest of many dependent-load walks; not lmbench)\n");
				fprintf(f, "------------------------------------------------------------------"
					   "-----------\n");
				fprintf(f, "%-9s %-13s %5s %7s %7s %7s %9s %-10s\n", "Host", "OS", "Mhz",
					"L1 $", "L2 $", "L3 $", "Main mem", "Rand mem");
				fprintf(f, "--------- ------------- ----- ------- ------- ------- --------- "
					   "----------\n");
				any = true;
			}
			char os[32];
			snprintf(os, sizeof os, "%s %s", r->meta.os[0] ? "Linux" : "", r->meta.kernel_release);
			fprintf(f, "%-9.9s %-13.13s", r->meta.hostname, os + (os[0] == ' '));
			double mhz = memlat_clock(t);
			if (isfinite(mhz))
				fprintf(f, " %5.0f", mhz);
			else
				fprintf(f, " %5s", "-");
			/* The cache columns and "Main mem" from the forward chain (lmbench's
			 * lat_mem_rd walks a stride, as it does); "Rand mem" from the
			 * random chain, what a load nobody predicted waits. */
			cell(f, 7, plateau(t, "fwd L1"), 3);
			cell(f, 7, plateau(t, "fwd L2"), 3);
			cell(f, 7, plateau(t, "fwd L3"), 3);
			cell(f, 9, plateau(t, "fwd mem"), 2);
			cell(f, 10, plateau(t, "rnd mem"), 2);
			if (bl->copies > 1)
				fprintf(f, "  (%d copies)", bl->copies);
			fputc('\n', f);
		}
	}
	if (any)
		fputc('\n', f);
}
