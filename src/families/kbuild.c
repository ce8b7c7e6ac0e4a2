/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Build time (kbuild): its live state and length, the builds turned into points, the table (the tree: kbuild_tree.c; its settings: kbuild_settings.c). */
#include "kbuild.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"
#include "stats.h"
#include "sysinfo.h"
#include "workload.h"
#include "wrap.h"

bool kbuild_live_state(const struct wl_point *pts, int n, struct kbuild_live *out)
{
	memset(out, 0, sizeof *out);
	out->began = -1;
	bool any = false;
	for (int i = 0; i < n; i++) {
		if (pts[i].series == KB_UNITS) {
			any = true;
			out->units = (int)pts[i].v;
			out->objects = kbuild_objects(out->units);
		} else if (pts[i].series == KB_OBJECTS) {
			any = true;
			out->objects = (int)pts[i].v;
		} else if (pts[i].series == KB_BEGIN) {
			out->jobs = (int)pts[i].x;
			out->began = pts[i].v;
			out->cleaning = false;
		} else if (pts[i].series == KB_CLEAN) {
			out->cleaning = true;
			out->next = (int)pts[i].x;
		} else if (pts[i].series == KB_ELAPSED) {
			out->done++;
		}
	}
	return any;
}

bool kbuild_phase_common(int done, int nbuilds, bool cleaning, char *of, size_t oflen, char *buf,
			 size_t len)
{
	of[0] = '\0';
	if (nbuilds > 0)
		snprintf(of, oflen, " of %d", nbuilds);
	if (nbuilds > 0 && done >= nbuilds)
		snprintf(buf, len, "%d build%s done", done, done == 1 ? "" : "s");
	else if (cleaning)
		snprintf(buf, len, "cleaning for build %d%s", done + 1, of);
	else
		return false;
	return true;
}

void kbuild_live_text(const struct kbuild_live *kl, int nbuilds, char *buf, size_t len)
{
	char of[16];
	if (kbuild_phase_common(kl->done, nbuilds, kl->cleaning, of, sizeof of, buf, len))
		return;
	if (kl->jobs > 0)
		snprintf(buf, len, "build %d%s: -j%d", kl->done + 1, of, kl->jobs);
	else if (kl->jobs < 0 || kl->began < 0)
		snprintf(buf, len, "preparing");
	else
		snprintf(buf, len, "warm-up build");
}

double kbuild_sample_seconds(const void *settings, bool first, double length)
{
	int ncpus = sysinfo_ncpus();
	if (!settings)
		return 0;
	const struct kbuild_opts o = *(const struct kbuild_opts *)settings;
	if (o.source[0]) {
		/* Kernel mode: the first sample extracts (a tarball: 3 MB of it a
		 * second here, xz's pace), configures (kconfig's own programs
		 * built first: 25 s here) and builds once at -j CPUs, the host
		 * programs too; each build after make clean (a few seconds) and
		 * the settle. */
		double cpu = kbuild_kernel_cpu_seconds(o.config), s = 0;
		if (first) {
			struct stat st;
			if (kbuild_is_tarball(o.source) && stat(o.source, &st) == 0)
				s += (double)st.st_size / 3e6;
			s += 25 + cpu * 1.1 / ncpus;
		}
		for (int i = 0; i < o.njobs; i++)
			s += cpu / (o.jobs[i] < ncpus ? o.jobs[i] : ncpus) + 5;
		return s;
	}
	double cpu = (o.units + 1) * KBUILD_UNIT_CPU_SECONDS, s = first ? cpu / ncpus + 1 : 0;
	for (int i = 0; i < o.njobs; i++)
		s += cpu / (o.jobs[i] < ncpus ? o.jobs[i] : ncpus) + 0.5 +
		     (o.units >= KBUILD_UNITS_FULL ? 1.0 : 0.25);
	return s;
}

/* ---- the result ---- */

static const struct {
	const char *suffix, *unit;
	bool lower_better;
} fields[KB_NFIELDS] = {
	[KB_ELAPSED] = { "", "s", true },
	[KB_USER] = { " user", "s", true },
	[KB_SYS] = { " sys", "s", true },
	[KB_VCSW] = { " vcsw", "", true },
	[KB_IVCSW] = { " ivcsw", "", true },
	[KB_MAXRSS] = { " maxrss", "KiB", true },
};

/* Kernel mode's facts, "key=text" lines from the worker (kbuild_loop.c
 * writes them): each into the summary, "objects" and "source_bytes" with
 * their value. */
static void kernel_facts(struct test_result *t, const char *facts)
{
	char buf[sizeof ((struct worker_slot *)0)->facts];
	snprintf(buf, sizeof buf, "%s", facts);
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (!eq || eq == line)
			continue;
		*eq = '\0';
		const char *v = eq + 1;
		if (!strcmp(line, "objects") || !strcmp(line, "source_bytes"))
			test_summary_set(t, line, strtod(v, NULL), NULL);
		else
			test_summary_set(t, line, 0, v);
	}
	const struct kv *ver = test_summary_get(t, "kernel_version"),
			*cfg = test_summary_get(t, "config"), *obj = test_summary_get(t, "objects");
	if (ver && cfg) {
		/* copies: a new key moves the summary (realloc) */
		char text[96], config[20];
		double objects = obj ? obj->value : 0;
		snprintf(config, sizeof config, "%.16s", cfg->text);
		snprintf(text, sizeof text, "Linux %.30s, %s, %.0f objects", ver->text, config, objects);
		test_summary_set(t, "tree", objects, text);
		snprintf(text, sizeof text, "the kernel's own (%s)", config);
		test_summary_set(t, "flags", 0, text);
		/* the run's own label says what was built, not the table's generated tree */
		snprintf(t->label, sizeof t->label, "Build time (make, kernel tree)");
	}
}

void kbuild_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		    const void *settings)
{
	/* Each copy's builds in the order they ran; copies (-c 2: two builds at
	 * once, each its own tree) averaged per -j. */
	int units = 0;
	double sum[KBUILD_MAX_JOBS][KB_NFIELDS] = { { 0 } };
	int njob[KBUILD_MAX_JOBS][KB_NFIELDS] = { { 0 } };
	double jx[KBUILD_MAX_JOBS];
	int nj = 0;
	for (int c = 0; c < copies; c++) {
		int n = atomic_load_explicit(&slots[c].npoints, memory_order_acquire);
		for (int i = 0; i < n && i < WL_MAX_POINTS; i++) {
			const struct wl_point *p = &slots[c].points[i];
			if (p->series == KB_UNITS) {
				units = (int)p->v;
				continue;
			}
			if (p->series < 0 || p->series >= KB_NFIELDS)
				continue;
			int j = 0;
			while (j < nj && jx[j] != p->x)
				j++;
			if (j == nj) {
				if (nj == KBUILD_MAX_JOBS)
					continue;
				jx[nj++] = p->x;
			}
			sum[j][p->series] += p->v;
			njob[j][p->series]++;
		}
	}
	for (int j = 0; j < nj; j++) {
		if (!njob[j][KB_ELAPSED])
			continue; /* a build cut short has no time */
		char name[32];
		snprintf(name, sizeof name, "-j%.0f", jx[j]);
		double el = sum[j][KB_ELAPSED] / njob[j][KB_ELAPSED];
		for (int f = 0; f < KB_NFIELDS; f++) {
			if (!njob[j][f])
				continue;
			char pn[32];
			snprintf(pn, sizeof pn, "%s%s", name, fields[f].suffix);
			point_push(test_point(t, pn, jx[j], "jobs", fields[f].unit, fields[f].lower_better,
					      f == KB_ELAPSED),
				   sum[j][f] / njob[j][f]);
		}
		/* CPU%: what make and the compilers used of one CPU, as time(1) prints it */
		if (njob[j][KB_USER] && njob[j][KB_SYS] && el > 0) {
			char pn[32];
			snprintf(pn, sizeof pn, "%s cpu", name);
			point_push(test_point(t, pn, jx[j], "jobs", "%", false, false),
				   100 * (sum[j][KB_USER] / njob[j][KB_USER] + sum[j][KB_SYS] / njob[j][KB_SYS]) / el);
		}
	}
	/* kernel mode: what the worker found (the version, the compiler, the objects) */
	for (int c = 0; c < copies && units == 0; c++)
		kernel_facts(t, slots[c].facts);
	if (units > 0) {
		char text[96];
		snprintf(text, sizeof text, "%d units, %d objects, hash %016llx", units,
			 kbuild_objects(units), (unsigned long long)kbuild_tree_hash(units));
		test_summary_set(t, "tree", units, text);
		test_summary_set(t, "flags", 0, KBUILD_CFLAGS);
	}
	const struct kbuild_opts *o = settings;
	if (o) {
		char text[96] = "";
		for (int i = 0; i < o->njobs; i++)
			snprintf(text + strlen(text), sizeof text - strlen(text), "%s%d", i ? "," : "",
				 o->jobs[i]);
		if (!test_summary_get(t, "jobs"))
			test_summary_set(t, "jobs", 0, text);
	}
}

/* Mean and sd of a point's values; NAN when it has none. */
static void mean_sd(const struct point *p, double *mean, double *sd)
{
	double s = 0, s2 = 0;
	int n = 0;
	for (int i = 0; p && i < p->n; i++)
		if (isfinite(p->v[i])) {
			s += p->v[i];
			s2 += p->v[i] * p->v[i];
			n++;
		}
	*mean = n ? s / n : NAN;
	*sd = n > 1 ? sqrt(fmax(0, (s2 - s * s / n) / (n - 1))) : NAN;
}

static const struct point *field(const struct test_result *t, const char *jname, const char *suffix)
{
	char pn[40];
	snprintf(pn, sizeof pn, "%s%s", jname, suffix);
	return test_find_point(t, pn);
}

static void cell(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

bool kbuild_print_test(FILE *f, const struct test_result *t)
{
	const struct kv *tree = test_summary_get(t, "tree");
	if (t->kind != RESULT_POINTS || !tree || !test_has_result(t))
		return false;
	const struct kv *cc = test_summary_get(t, "compiler");
	bool imported = t->status == TEST_IMPORTED;
	/* a kernel's build (kernel mode, an imported kernbench or kcbench report): not the generated tree */
	bool kernel = test_summary_get(t, "config") || strstr(tree->text, "kernel");
	fprintf(f, "%s: %s%s\n", kernel ? "Build time (make, kernel tree)" : t->label, tree->text,
		t->status == TEST_DONE || imported ? "" : " (cut short: finished builds kept)");
	const struct kv *src = test_summary_get(t, "source");
	if (imported)
		fprintf(f, "  imported: the means (sd) a %s report gives, the builds behind them not\n",
			strstr(tree->text, "kcbench") ? "kcbench" : "kernbench");
	else {
		char how[600];
		if (src)
			snprintf(how, sizeof how, "%s; from %s; make -j N O=<scratch>, the kernel's own flags",
				 cc ? cc->text : "gcc", src->text);
		else
			snprintf(how, sizeof how, "%s; make -j N, CFLAGS %s", cc ? cc->text : "cc", KBUILD_CFLAGS);
		fputs("  ", f);
		print_wrapped(f, how, 2, 4, 79);
	}
	/* 79 columns, as UnixBench's report */
	fprintf(f, "  %-5s %15s %7s %7s %5s %7s %8s %7s %8s\n", "", "Elapsed Time", "User", "System",
		"CPU%", "Ctx vol", "Ctx inv", "MaxRSS", "Builds/h");
	for (int k = 0; k < t->npoints; k++) {
		const struct point *p = &t->points[k];
		if (!p->summary)
			continue;
		double m, sd, u, sy, cpu, vc, ic, rss, x;
		mean_sd(p, &m, &sd);
		mean_sd(field(t, p->name, " user"), &u, &x);
		mean_sd(field(t, p->name, " sys"), &sy, &x);
		mean_sd(field(t, p->name, " cpu"), &cpu, &x);
		mean_sd(field(t, p->name, " vcsw"), &vc, &x);
		mean_sd(field(t, p->name, " ivcsw"), &ic, &x);
		mean_sd(field(t, p->name, " maxrss"), &rss, &x);
		char el[32], key[48];
		snprintf(key, sizeof key, "sd %s", p->name);
		const struct kv *ksd = test_summary_get(t, key); /* imported: the sd the log states */
		if (!isfinite(sd) && ksd)
			sd = ksd->value;
		if (isfinite(sd))
			snprintf(el, sizeof el, "%.2f (%.2f)", m, sd);
		else
			snprintf(el, sizeof el, "%.2f", m);
		char cu[16], cs[16], cc2[16], cv[16], ci[16], cr[16];
		cell(cu, sizeof cu, "%.2f", u);
		cell(cs, sizeof cs, "%.2f", sy);
		cell(cc2, sizeof cc2, "%.0f", cpu);
		cell(cv, sizeof cv, "%.0f", vc);
		cell(ci, sizeof ci, "%.0f", ic);
		cell(cr, sizeof cr, "%.0fMB", rss / 1024);
		fprintf(f, "  %-5s %15s %7s %7s %5s %7s %8s %7s %8.1f\n", p->name, el, cu, cs, cc2, cv, ci,
			cr, m > 0 ? 3600 / m : NAN);
		double csw, x2;
		mean_sd(field(t, p->name, " csw"), &csw, &x2);
		if (isfinite(csw))
			fprintf(f, "  %-5s context switches (voluntary and not) %.0f\n", "", csw);
	}
	if (!imported) {
		char note[200];
		snprintf(note, sizeof note,
			 "Elapsed: mean (sd) in s of %d timed build%s per -j after one untimed warm-up; "
			 "lower is better.", t->nsamples, t->nsamples == 1 ? "" : "s");
		fputs("  ", f);
		print_wrapped(f, note, 2, 2, 79);
	}
	return true;
}
