/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build under load (buildload): the loads' table, its settings, refusal checks, points and the live state (contest's table: buildload_table.c). */
#include "buildload.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "kbuild.h"
#include "run.h"
#include "settings.h"
#include "sysinfo.h"
#include "workload.h"

const struct buildload_load_def buildload_loads[BL_NLOADS] = {
	[BL_NO_LOAD] = { "no_load", "the build alone (page cache flushed first)", "-", true },
	[BL_CACHERUN] = { "cacherun", "the build again, cache warm (no flush)", "-", false },
	[BL_PROCESS] = { "process_load", "4 x CPUs processes pass a token round a pipe ring", "laps",
			 true },
	[BL_CTAR] = { "ctar_load", "archive the build tree's sources, again and again", "archives",
		      false, true },
	[BL_XTAR] = { "xtar_load", "extract an archive of the tree, again and again", "extractions",
		      false, true },
	[BL_IO] = { "io_load", "write a file of min(RAM, 1/4 of free disk), again and again", "MiB",
		    true, true },
	[BL_READ] = { "read_load", "read a file (at most 1 GiB) again and again, its pages dropped", "MiB",
		      false, true },
	[BL_LIST] = { "list_load", "walk /usr and lstat every entry, again and again", "dirs", false },
	[BL_MEM] = { "mem_load", "touch every page of 80% of RAM, again and again", "MiB", true, false,
		     true },
};

int buildload_find_load(const char *id)
{
	if (!strcmp(id, "noload"))
		return BL_NO_LOAD;
	for (int i = 0; i < BL_NLOADS; i++)
		if (!strcmp(buildload_loads[i].id, id))
			return i;
	return -1;
}

int buildload_parse_loads(const char *text, int *loads, int *n, char *err, size_t errlen)
{
	int k = 0;
	for (const char *p = text;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char id[32];
		int i = -1;
		if (len > 0 && len < sizeof id) {
			memcpy(id, p, len);
			id[len] = '\0';
			i = buildload_find_load(id);
		}
		if (i < 0) {
			snprintf(err, errlen,
				 "load '%.*s': want no_load, cacherun, process_load, ctar_load, xtar_load, "
				 "io_load, read_load, list_load or mem_load",
				 (int)(len > 40 ? 40 : len), p);
			return -1;
		}
		bool dup = false;
		for (int j = 0; j < k; j++)
			dup = dup || loads[j] == i;
		if (!dup)
			loads[k++] = i;
		if (!e)
			break;
		p = e + 1;
	}
	*n = k;
	return 0;
}

/* ---- the settings (src/base/settings.h): the command line's rows and the run's params words ---- */

/* kbuild's tree (the full one, quick too) and the first of its -j values */
static int parse_tree(const char *text, void *field, char *err, size_t errlen)
{
	return kbuild_parse_tree(text, field, err, errlen);
}

static int parse_first_jobs(const char *text, void *field, char *err, size_t errlen)
{
	int jobs[KBUILD_MAX_JOBS], n;
	if (kbuild_parse_jobs(text, jobs, &n, err, errlen) < 0)
		return -1;
	*(int *)field = jobs[0];
	return 0;
}

/* the list's count, then the list */
_Static_assert(offsetof(struct buildload_opts, loads) == offsetof(struct buildload_opts, nloads) + sizeof(int),
	       "loads follows nloads");

static int parse_loads(const char *text, void *field, char *err, size_t errlen)
{
	int *f = field;
	return buildload_parse_loads(text, f + 1, f, err, errlen);
}

#define AT(f) offsetof(struct buildload_opts, f)
static const struct setting buildload_rows[] = {
	{ .name = "loads", .kind = SET_TEXT, .arg = "LIST", .what = "a list of loads", .offset = AT(nloads),
	  .parse = parse_loads,
	  .help = "buildload: the loads, e.g. no_load,io_load (default all nine; --quick:\n"
		  "no_load, process_load, io_load, mem_load)" },
	{ .name = "hog", .kind = SET_INT, .arg = "PCT", .what = "a percent of RAM", .min = 1, .max = 95,
	  .def = BUILDLOAD_TEXT(BUILDLOAD_HOG_DEFAULT), .offset = AT(hog_pct),
	  .help = "buildload: the memory hog's share of RAM (default " BUILDLOAD_TEXT(BUILDLOAD_HOG_DEFAULT) ")" },
	/* kbuild's settings, read for the build under the loads (kbuild's rows are the options) */
	{ .name = "tree", .kind = SET_TEXT, .arg = "SIZE", .what = "a tree size", .def = "full",
	  .offset = AT(units), .parse = parse_tree, .help = "buildload: kbuild's --tree" },
	{ .name = "make-jobs", .kind = SET_TEXT, .arg = "N,N,...", .what = "a list of -j values",
	  .offset = AT(jobs), .parse = parse_first_jobs, .help = "buildload: the first of kbuild's --make-jobs" },
};
#undef AT

/* -j twice the CPUs; every load, a quick run's the quick set */
static void defaults(void *s, const struct settings_env *env)
{
	struct buildload_opts *o = s;
	o->jobs = 2 * env->ncpus;
	for (int i = 0; i < BL_NLOADS; i++)
		if (!env->quick || buildload_loads[i].quick)
			o->loads[o->nloads++] = i;
}

const struct settings buildload_settings = {
	.rows = buildload_rows,
	.n = sizeof buildload_rows / sizeof buildload_rows[0],
	.size = sizeof(struct buildload_opts),
	.defaults = defaults,
};

/* ---- what a load may use ---- */

static uint64_t meminfo_kib(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[160];
	size_t n = strlen(key);
	uint64_t v = 0;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtoull(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static bool env_kib(const char *name, uint64_t *v)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return false;
	*v = strtoull(s, NULL, 10);
	return true;
}

static void fmt_kib(char *buf, size_t len, uint64_t kib)
{
	if (kib >= 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", kib / 1048576.0);
	else
		snprintf(buf, len, "%.0f MiB", kib / 1024.0);
}

bool buildload_check_load(int load, const struct buildload_opts *o, const char *dir,
			  uint64_t *size_kib, uint64_t *need_kib, uint64_t *have_kib, char *why,
			  size_t whylen)
{
	const struct buildload_load_def *d = &buildload_loads[load];
	uint64_t ram = meminfo_kib("MemTotal");
	*size_kib = *need_kib = *have_kib = 0;
	char a[32], b[32];
	if (d->memory) {
		uint64_t have;
		if (!env_kib("KBENCH_MEM_AVAILABLE_KIB", &have))
			have = meminfo_kib("MemAvailable") + meminfo_kib("SwapFree");
		*size_kib = ram * (uint64_t)o->hog_pct / 100;
		*need_kib = *size_kib + (uint64_t)(256 + 128 * (o->jobs < 64 ? o->jobs : 64)) * 1024;
		*have_kib = have;
		if (*need_kib > have) {
			fmt_kib(a, sizeof a, *need_kib);
			fmt_kib(b, sizeof b, have);
			snprintf(why, whylen,
				 "%s refused: %d%% of RAM and the build need %s, only %s of memory and swap "
				 "is available",
				 d->id, o->hog_pct, a, b);
			return false;
		}
	}
	if (d->disk) {
		uint64_t free_kib;
		struct statvfs sv;
		if (!env_kib("KBENCH_DISK_FREE_KIB", &free_kib))
			free_kib = statvfs(dir, &sv) == 0 ? (uint64_t)sv.f_bavail * sv.f_frsize / 1024 : 0;
		*have_kib = free_kib;
		*need_kib = BUILDLOAD_DISK_MIN_KIB;
		uint64_t quarter = free_kib / 4;
		*size_kib = ram && ram < quarter ? ram : quarter;
		if (load == BL_READ && *size_kib > BUILDLOAD_READ_MAX_KIB)
			*size_kib = BUILDLOAD_READ_MAX_KIB;
		if (free_kib < BUILDLOAD_DISK_MIN_KIB) {
			fmt_kib(a, sizeof a, free_kib);
			fmt_kib(b, sizeof b, BUILDLOAD_DISK_MIN_KIB);
			snprintf(why, whylen, "%s refused: %s free in %s, it needs %s", d->id, a, dir, b);
			return false;
		}
	}
	return true;
}

/* ---- estimates ---- */

struct test_noise buildload_noise(const struct test_def *t, const char *point)
{
	static const char *const compound[] = { " loads", " lcpu", " ratio" };
	size_t n = strlen(point);
	for (size_t i = 0; i < sizeof compound / sizeof compound[0]; i++) {
		size_t k = strlen(compound[i]);
		if (n >= k && !strcmp(point + n - k, compound[i]))
			return (struct test_noise){ t->noise.full * M_SQRT2, t->noise.quick * M_SQRT2 };
	}
	return t->noise;
}

double buildload_sample_seconds(const void *settings, bool first, double length)
{
	int ncpus = sysinfo_ncpus();
	if (!settings)
		return 0;
	const struct buildload_opts o = *(const struct buildload_opts *)settings;
	double build = (o.units + 1) * KBUILD_UNIT_CPU_SECONDS / (o.jobs < ncpus ? o.jobs : ncpus);
	double s = first ? build + 1 : 0;
	for (int i = 0; i < o.nloads; i++) {
		s += build + 1.5 + (o.loads[i] == BL_NO_LOAD || o.loads[i] == BL_CACHERUN
					    ? 0
					    : BUILDLOAD_LEAD_SECONDS);
		if (o.loads[i] == BL_READ)
			s += 8; /* its file, written before the lead */
		if (o.loads[i] == BL_MEM)
			s += 4; /* the hog's first touch of its pages */
	}
	return s;
}

/* ---- the result ---- */

double buildload_ratio(double time, double no_load_time)
{
	if (!isfinite(time) || !isfinite(no_load_time) || no_load_time <= 0)
		return NAN;
	return time / no_load_time;
}

void buildload_point_name(char *buf, size_t len, int load, const char *suffix)
{
	snprintf(buf, len, "%s%s", buildload_loads[load].id, suffix);
}

void buildload_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		       const void *settings)
{
	(void)copies; /* one copy: the build uses the CPUs itself */
	double tm[BL_NLOADS], us[BL_NLOADS], sy[BL_NLOADS], ld[BL_NLOADS], lc[BL_NLOADS];
	for (int i = 0; i < BL_NLOADS; i++)
		tm[i] = us[i] = sy[i] = ld[i] = lc[i] = NAN;
	int units = 0;
	int n = atomic_load_explicit(&slots[0].npoints, memory_order_acquire);
	for (int k = 0; k < n && k < WL_MAX_POINTS; k++) {
		const struct wl_point *p = &slots[0].points[k];
		int i = (int)p->x;
		if (p->series == KB_UNITS) {
			units = (int)p->v;
			continue;
		}
		if (i < 0 || i >= BL_NLOADS)
			continue;
		char key[64], text[96];
		switch (p->series) {
		case KB_ELAPSED: tm[i] = p->v; break;
		case KB_USER: us[i] = p->v; break;
		case KB_SYS: sy[i] = p->v; break;
		case BLS_LOADS: ld[i] = p->v; break;
		case BLS_LCPU: lc[i] = p->v; break;
		case BLS_REFUSED: {
			char a[32], b[32];
			double have = NAN;
			for (int j = k + 1; j < n && j < WL_MAX_POINTS; j++)
				if (slots[0].points[j].series == BLS_HAVE && (int)slots[0].points[j].x == i)
					have = slots[0].points[j].v;
			fmt_kib(a, sizeof a, (uint64_t)p->v);
			fmt_kib(b, sizeof b, isfinite(have) ? (uint64_t)have : 0);
			snprintf(key, sizeof key, "refused %s", buildload_loads[i].id);
			snprintf(text, sizeof text, "%s refused: needs %s %s, %s there", buildload_loads[i].id,
				 a, buildload_loads[i].memory ? "of memory and swap" : "free on disk", b);
			test_summary_set(t, key, p->v, text);
			break;
		}
		case BLS_FLUSH:
			if (p->v != 0 && !test_summary_get(t, "note")) {
				snprintf(text, sizeof text, "page cache not flushed before the loads (%s)",
					 p->v < 0 ? "KBENCH_BUILDLOAD_FLUSH=0" : strerror((int)p->v));
				test_summary_set(t, "note", p->v, text);
			}
			break;
		default: break;
		}
	}
	for (int i = 0; i < BL_NLOADS; i++) {
		if (!isfinite(tm[i]))
			continue; /* refused, or cut short: no time */
		char pn[32];
		buildload_point_name(pn, sizeof pn, i, "");
		point_push(test_point(t, pn, i, "", "s", true, true), tm[i]);
		if (isfinite(us[i]) && isfinite(sy[i]) && tm[i] > 0) {
			buildload_point_name(pn, sizeof pn, i, " cpu");
			point_push(test_point(t, pn, i, "", "%", false, false), 100 * (us[i] + sy[i]) / tm[i]);
		}
		if (isfinite(ld[i])) {
			buildload_point_name(pn, sizeof pn, i, " loads");
			point_push(test_point(t, pn, i, "", buildload_loads[i].unit, false, false), ld[i]);
		}
		if (isfinite(lc[i]) && tm[i] > 0) {
			buildload_point_name(pn, sizeof pn, i, " lcpu");
			point_push(test_point(t, pn, i, "", "%", true, false), 100 * lc[i] / tm[i]);
		}
		double r = buildload_ratio(tm[i], tm[BL_NO_LOAD]);
		if (isfinite(r)) {
			buildload_point_name(pn, sizeof pn, i, " ratio");
			point_push(test_point(t, pn, i, "", "", true, false), r);
		}
	}
	const struct buildload_opts *o = settings;
	if (o) {
		if (units <= 0)
			units = o->units;
		test_summary_set(t, "jobs", o->jobs, NULL);
	}
	if (units > 0 && !test_summary_get(t, "build tree")) {
		char text[96];
		snprintf(text, sizeof text, "%d units, %d objects, hash %016llx", units,
			 kbuild_objects(units), (unsigned long long)kbuild_tree_hash(units));
		test_summary_set(t, "build tree", units, text);
		test_summary_set(t, "flags", 0, KBUILD_CFLAGS);
	}
}

bool buildload_live_state(const struct wl_point *pts, int n, struct buildload_live *out)
{
	memset(out, 0, sizeof *out);
	out->load = out->build = -1;
	out->began = out->load_began = -1;
	bool any = false, mine = false;
	for (int i = 0; i < n; i++) {
		switch (pts[i].series) {
		case KB_UNITS:
			any = true;
			out->units = (int)pts[i].v;
			out->objects = kbuild_objects(out->units);
			break;
		case KB_BEGIN:
			out->build = (int)pts[i].x - 1;
			out->began = pts[i].v;
			out->cleaning = 0;
			break;
		case KB_CLEAN: out->cleaning = (int)pts[i].x; break;
		case KB_ELAPSED: out->done++; break;
		case BLS_LOAD_BEGIN:
			out->load = (int)pts[i].x;
			out->load_began = pts[i].v;
			out->cleaning = 0;
			break;
		case BLS_REFUSED:
			out->cleaning = 0;
			out->refused++;
			break;
		default: break;
		}
		mine = mine || (pts[i].series >= BLS_LOADS && pts[i].series <= BLS_START);
	}
	return any && mine;
}

void buildload_live_text(const struct buildload_live *bl, int nloads, char *buf, size_t len)
{
	char of[16];
	/* a refused load makes no build: "build 3 of 3" after one of 4 was refused */
	int nbuilds = nloads > bl->refused ? nloads - bl->refused : 0;
	if (kbuild_phase_common(bl->done, nbuilds, bl->cleaning, of, sizeof of, buf, len))
		return;
	if (bl->load < 0 && bl->began < 0)
		snprintf(buf, len, "preparing");
	else if (bl->load < 0)
		snprintf(buf, len, "warm-up build");
	else
		snprintf(buf, len, "%s: build %d%s", buildload_loads[bl->load].id, bl->done + 1, of);
}
