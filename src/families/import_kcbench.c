/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcbench's report ("Run 1 (-j 4): 250.84 seconds / 14.35 kernels/hour [P:378%]" and its header lines) as an imported kbuild run. */
#include "import_scan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "import.h"
#include "run.h"
#include "tests.h"

/* kcbench (Thorsten Leemhuis) prints a header, then one line per build:
 *
 *   Processor:           Intel(R) Core(TM) i5-3350P CPU @ 3.10GHz [4 CPUs]
 *   Cpufreq; Memory:     powersave [intel_pstate]; 7895 MiB
 *   Linux running:       5.6.2-125.vanilla.knurd.1.fc31.x86_64 [x86_64]
 *   Compiler:            gcc (GCC) 9.3.1 20200317 (Red Hat 9.3.1-1)
 *   Linux compiled:      4.19.0 [/home/thl/.cache/kcbench/linux-4.19/]
 *   Config; Environment: defconfig; CCACHE_DISABLE="1"
 *   Build command:       make vmlinux
 *   Filling caches:      This might take a while... Done
 *   Run 1 (-j 4):        288.16 seconds / 12.49 kernels/hour [P:384%, 24 maj. pagefaults]
 *
 * (older versions say "Compiler used:", print no "Filling caches:" line and
 * no [P:...]; its man page shows "sec /" for "seconds /"). A "Processor:"
 * line after builds starts another report: each report is one run. Each -j
 * becomes the kbuild point -jN holding the mean of that report's builds at
 * it (their sd kept beside it for the table, their CPU% as -jN cpu): as for
 * an imported kernbench log, its verdicts are n/a. */

#define KC_MAX_JOBS 32

struct kc_report {
	struct run *r;
	char compiled[96], config[48], compiler[96], command[96];
	int njobs;
	double jobs[KC_MAX_JOBS];
	double sum[KC_MAX_JOBS], sum2[KC_MAX_JOBS], cpu[KC_MAX_JOBS];
	int n[KC_MAX_JOBS], ncpu[KC_MAX_JOBS];
};

bool import_is_kcbench(const char *text, size_t len)
{
	const char *end = text + len;
	return import_find(text, end, "kernels/hour") && import_find(text, end, "Run ") && import_find(text, end, "(-j ");
}

/* The value after a header's label, when line [p, e) starts with it (after blanks). */
static bool header(const char *p, const char *e, const char *label, char *out, size_t size)
{
	p = import_skip_sp(p, e);
	size_t n = strlen(label);
	if ((size_t)(e - p) < n || strncmp(p, label, n))
		return false;
	import_trim_copy(out, size, import_skip_sp(p + n, e), e);
	return true;
}

/* Cuts a trailing " [...]" off s and returns what was in the brackets, or "". */
static const char *cut_bracket(char *s)
{
	size_t l = strlen(s);
	char *open = strrchr(s, '[');
	if (!l || s[l - 1] != ']' || !open)
		return "";
	s[l - 1] = '\0';
	*open = '\0';
	for (char *t = open; t > s && import_is_sp(t[-1]); t--)
		t[-1] = '\0';
	return open + 1;
}

/* "Run 3 (-j 6):  291.01 seconds / 12.37 kernels/hour [P:384%, 24 maj. pagefaults]" */
static bool build_line(const char *p, const char *e, double *jobs, double *secs, double *cpu)
{
	p = import_skip_sp(p, e);
	double k;
	const char *q;
	if ((size_t)(e - p) < 4 || strncmp(p, "Run ", 4) || !(q = import_scan_num(p + 4, e, &k)))
		return false;
	q = import_skip_sp(q, e);
	if ((size_t)(e - q) < 4 || strncmp(q, "(-j ", 4) || !(q = import_scan_num(q + 4, e, jobs)) ||
	    q >= e || *q != ')' || q + 1 >= e || q[1] != ':')
		return false;
	if (!(q = import_scan_num(import_skip_sp(q + 2, e), e, secs)))
		return false;
	q = import_skip_sp(q, e);
	if (!((size_t)(e - q) >= 3 && !strncmp(q, "sec", 3)) || !import_find(q, e, "kernels/hour"))
		return false;
	*cpu = NAN;
	const char *pc = import_find(q, e, "[P:");
	double v;
	if (pc && import_scan_num(pc + 3, e, &v))
		*cpu = v;
	return *jobs >= 1 && *jobs < 100000 && isfinite(*secs) && *secs > 0;
}

static void finish(struct src *s, struct kc_report *k, const char *name)
{
	if (!k->r)
		return;
	if (!k->njobs) {
		run_free(k->r);
		k->r = NULL;
		return;
	}
	const struct test_def *d = test_find("kbuild");
	struct run_block *b = run_add_block(k->r, 1);
	struct test_result *t = run_block_add_test(b, d->id, d->label, d->unit, d->timebase,
						   d->baseline, d->category);
	t->kind = RESULT_POINTS;
	t->status = TEST_IMPORTED;
	t->nsamples = 0;
	char tree[96];
	snprintf(tree, sizeof tree, "Linux %.40s%s%.30s (kcbench)", k->compiled[0] ? k->compiled : "?",
		 k->config[0] ? ", " : "", k->config);
	test_summary_set(t, "tree", 0, tree);
	if (k->compiler[0])
		test_summary_set(t, "compiler", 0, k->compiler);
	if (k->config[0])
		test_summary_set(t, "config", 0, k->config);
	if (k->compiled[0])
		test_summary_set(t, "kernel_version", 0, k->compiled);
	if (k->command[0])
		test_summary_set(t, "build_command", 0, k->command);
	for (int j = 0; j < k->njobs; j++) {
		char pn[32], key[48];
		int x = (int)k->jobs[j];
		snprintf(pn, sizeof pn, "-j%d", x);
		double mean = k->sum[j] / k->n[j];
		point_push(test_point(t, pn, x, "jobs", "s", true, true), mean);
		if (k->n[j] > 1) {
			double var = (k->sum2[j] - k->sum[j] * k->sum[j] / k->n[j]) / (k->n[j] - 1);
			snprintf(key, sizeof key, "sd %s", pn);
			test_summary_set(t, key, sqrt(var > 0 ? var : 0), NULL);
		}
		snprintf(key, sizeof key, "builds %s", pn);
		test_summary_set(t, key, k->n[j], NULL);
		if (k->ncpu[j]) {
			snprintf(pn, sizeof pn, "-j%d cpu", x);
			point_push(test_point(t, pn, x, "jobs", "%", false, false), k->cpu[j] / k->ncpu[j]);
		}
	}
	import_finish_run(s, k->r, name);
	k->r = NULL;
}

void import_kcbench(struct src *s, const char *name)
{
	const char *end = s->text + s->len;
	struct kc_report k = { 0 };
	bool had_builds = false;
	for (int li = 0; li < s->nlines; li++) {
		const char *p = s->text + s->lines[li];
		const char *e = li + 1 < s->nlines ? s->text + s->lines[li + 1] : end;
		while (e > p && (e[-1] == '\n' || import_is_sp(e[-1])))
			e--;
		char v[160];
		double jobs, secs, cpu;
		if (header(p, e, "Processor:", v, sizeof v)) {
			if (had_builds)
				finish(s, &k, name);
			if (k.r)
				run_free(k.r);
			memset(&k, 0, sizeof k);
			had_builds = false;
			k.r = import_new_run(s, name);
			const char *cpus = cut_bracket(v); /* "[4 CPUs]", "[10 threads]" */
			double n;
			if (import_scan_num(cpus, cpus + strlen(cpus), &n) && n >= 1 && n < 100000)
				k.r->meta.ncpus = (int)n;
			snprintf(k.r->meta.cpu_model, sizeof k.r->meta.cpu_model, "%s", v);
			continue;
		}
		if (!k.r && build_line(p, e, &jobs, &secs, &cpu)) /* a report pasted without its header */
			k.r = import_new_run(s, name);
		if (!k.r)
			continue;
		if (header(p, e, "Linux running:", v, sizeof v)) {
			const char *arch = cut_bracket(v);
			snprintf(k.r->meta.kernel_release, sizeof k.r->meta.kernel_release, "%s", v);
			snprintf(k.r->meta.machine, sizeof k.r->meta.machine, "%s", arch);
		} else if (header(p, e, "Compiler used:", v, sizeof v) || header(p, e, "Compiler:", v, sizeof v)) {
			snprintf(k.compiler, sizeof k.compiler, "%s", v);
		} else if (header(p, e, "Linux compiled:", v, sizeof v)) {
			cut_bracket(v); /* the source's path on the machine that built it */
			snprintf(k.compiled, sizeof k.compiled, "%s", v);
		} else if (header(p, e, "Config; Environment:", v, sizeof v)) {
			v[strcspn(v, ";")] = '\0';
			import_trim_copy(k.config, sizeof k.config, v, v + strlen(v));
		} else if (header(p, e, "Build command:", v, sizeof v)) {
			snprintf(k.command, sizeof k.command, "%s", v);
		} else if (build_line(p, e, &jobs, &secs, &cpu)) {
			int j = 0;
			while (j < k.njobs && k.jobs[j] != jobs)
				j++;
			if (j == k.njobs) {
				if (k.njobs == KC_MAX_JOBS) {
					import_warn(s, s->lines[li], "more than %d -j values in one kcbench report; ignored",
						    KC_MAX_JOBS);
					continue;
				}
				k.jobs[k.njobs++] = jobs;
			}
			k.sum[j] += secs;
			k.sum2[j] += secs * secs;
			k.n[j]++;
			if (isfinite(cpu)) {
				k.cpu[j] += cpu;
				k.ncpu[j]++;
			}
			had_builds = true;
		} else {
			const char *q = import_skip_sp(p, e);
			if ((size_t)(e - q) > 4 && !strncmp(q, "Run ", 4) && import_find(q, e, "(-j "))
				import_warn(s, s->lines[li], "a kcbench build line without its time; ignored");
		}
	}
	finish(s, &k, name);
	if (k.r)
		run_free(k.r);
}
