/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Throughput as tasks grow: settings, peak, crossover and stop rule, the points a sample leaves, the AIM7-shaped table, the peak's change in a comparison. */
#include "scaling.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "compare.h"
#include "compare_plugin.h"
#include "run.h"
#include "settings.h"
#include "sysinfo.h"
#include "tests.h"
#include "workload.h"
#include "wrap.h"

int scaling_parse_tasks(const char *text, int *out, int *n, char *err, size_t errlen)
{
	*n = 0;
	const char *p = text;
	for (;;) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v < 1 || v > SCALING_MAX_TASKS || (*end && *end != ',')) {
			snprintf(err, errlen, "'%s' is not a list of task counts from 1 to %d (1,2,4)", text,
				 SCALING_MAX_TASKS);
			return -1;
		}
		if (*n == SCALING_MAX_STEPS) {
			snprintf(err, errlen, "'%s': at most %d task counts", text, SCALING_MAX_STEPS);
			return -1;
		}
		if (*n > 0 && v <= out[*n - 1]) {
			snprintf(err, errlen, "'%s': the task counts must grow (%ld after %d)", text, v,
				 out[*n - 1]);
			return -1;
		}
		out[(*n)++] = (int)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* ---- the settings (src/base/settings.h): the command line's rows and the run's params words ---- */

/* the list's count, then the list */
_Static_assert(offsetof(struct scaling_params, tasks) == offsetof(struct scaling_params, ntasks) + sizeof(int),
	       "tasks follows ntasks");

static int parse_tasks(const char *text, void *field, char *err, size_t errlen)
{
	int *f = field;
	return scaling_parse_tasks(text, f + 1, f, err, errlen);
}

/* the system has the pids for the most tasks */
static int check_tasks(const char *text, char *err, size_t errlen)
{
	int tasks[SCALING_MAX_STEPS], n;
	if (scaling_parse_tasks(text, tasks, &n, err, errlen) < 0)
		return -1;
	return scaling_check_tasks(tasks[n - 1], err, errlen);
}

static int check_max_tasks(const char *text, char *err, size_t errlen)
{
	return scaling_check_tasks(atoi(text), err, errlen);
}

#define AT(f) offsetof(struct scaling_params, f)
static const struct setting scaling_rows[] = {
	{ .name = "tasks", .kind = SET_TEXT, .arg = "LIST", .what = "task counts", .offset = AT(ntasks),
	  .parse = parse_tasks, .check = check_tasks,
	  .help = "scaling: run exactly these task counts, e.g. 1,2,4\n"
		  "(default 1, 2, 4 ... 8x the CPUs, stopping two steps past the peak)" },
	{ .name = "max-tasks", .kind = SET_INT, .arg = "N", .what = "a number of tasks",
	  .min = 1, .max = SCALING_MAX_TASKS, .offset = AT(max_tasks), .check = check_max_tasks,
	  .help = "scaling: double the tasks up to N (default 8x the CPUs)" },
	{ .name = "jobs", .kind = SET_INT, .arg = "N", .what = "a number of jobs",
	  .min = 1, .max = SCALING_MAX_JOBS, .def = SCALING_TEXT(SCALING_DEFAULT_JOBS), .offset = AT(jobs),
	  .help = "scaling: jobs each task does per step (default " SCALING_TEXT(SCALING_DEFAULT_JOBS) ")" },
};
#undef AT

const struct settings scaling_settings = {
	.rows = scaling_rows, .n = sizeof scaling_rows / sizeof scaling_rows[0],
	.size = sizeof(struct scaling_params),
};

int scaling_task_list(const struct scaling_params *p, int ncpus, int *out, int max)
{
	int n = 0;
	if (p->ntasks) {
		for (int i = 0; i < p->ntasks && n < max; i++)
			out[n++] = p->tasks[i];
		return n;
	}
	int top = p->max_tasks > 0 ? p->max_tasks : SCALING_CPU_FACTOR * (ncpus > 0 ? ncpus : 1);
	if (top > SCALING_MAX_TASKS)
		top = SCALING_MAX_TASKS;
	for (int t = 1; t < top && n < max - 1; t *= 2)
		out[n++] = t;
	if (n < max)
		out[n++] = top;
	return n;
}

/* A number from a /proc/sys file, or -1. */
static long proc_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int scaling_check_tasks(int tasks, char *err, size_t errlen)
{
	/* each task and the program its fork+exec job runs, and room for the rest */
	long need = 2L * tasks + 32;
	struct rlimit rl;
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (long)rl.rlim_cur < need) {
		snprintf(err, errlen, "%d tasks need about %ld processes; this user may have %ld (ulimit -u)",
			 tasks, need, (long)rl.rlim_cur);
		return -1;
	}
	long pid_max = proc_long("/proc/sys/kernel/pid_max");
	if (pid_max > 0 && pid_max / 2 < need) {
		snprintf(err, errlen, "%d tasks need about %ld processes; kernel.pid_max is %ld", tasks,
			 need, pid_max);
		return -1;
	}
	long threads = proc_long("/proc/sys/kernel/threads-max");
	if (threads > 0 && threads / 2 < need) {
		snprintf(err, errlen, "%d tasks need about %ld processes; kernel.threads-max is %ld",
			 tasks, need, threads);
		return -1;
	}
	return 0;
}

int scaling_peak(const double *x, const double *v, int n, double margin)
{
	(void)x;
	int best = -1;
	for (int i = 0; i < n; i++)
		if (isfinite(v[i]) && (best < 0 || v[i] > v[best]))
			best = i;
	if (best < 0)
		return -1;
	for (int i = 0; i < best; i++)
		if (isfinite(v[i]) && v[i] >= v[best] * (1 - margin))
			return i;
	return best;
}

int scaling_crossover(const double *x, const double *v, int n, double margin)
{
	int pk = scaling_peak(x, v, n, margin);
	if (pk < 0)
		return -1;
	double top = v[pk];
	for (int i = 0; i < n; i++)
		top = isfinite(v[i]) && v[i] > top ? v[i] : top;
	for (int i = pk + 1; i < n; i++)
		if (isfinite(v[i]) && v[i] < top * (1 - margin))
			return i;
	return -1;
}

bool scaling_should_stop(const double *v, int n, double margin)
{
	if (n < 3)
		return false;
	double top = -INFINITY;
	for (int i = 0; i < n - 2; i++)
		top = v[i] > top ? v[i] : top;
	double line = top * (1 - margin);
	return v[n - 1] < line && v[n - 2] < line;
}

static void step_name(char *buf, size_t size, const char *what, int tasks)
{
	if (what)
		snprintf(buf, size, "%s %d", what, tasks);
	else
		snprintf(buf, size, "%d task%s", tasks, tasks == 1 ? "" : "s");
}

bool scaling_is(const struct test_result *t)
{
	const struct test_def *d = test_find(t->id);
	return d && d->collect == scaling_collect;
}

const struct test_result *scaling_find(const struct run_block *b)
{
	for (int i = 0; b && i < b->ntests; i++)
		if (scaling_is(&b->tests[i]))
			return &b->tests[i];
	return NULL;
}

int scaling_curve(const struct test_result *t, double *x, double *v, int max)
{
	int n = 0;
	for (int i = 0; i < t->npoints && n < max; i++) {
		const struct point *p = &t->points[i];
		if (!p->summary || strcmp(p->xunit, "tasks"))
			continue;
		x[n] = p->x;
		v[n++] = point_mean(p);
	}
	for (int i = 1; i < n; i++) /* in task order, whatever order samples reached them */
		for (int k = i; k > 0 && x[k] < x[k - 1]; k--) {
			double tx = x[k], tv = v[k];
			x[k] = x[k - 1], v[k] = v[k - 1];
			x[k - 1] = tx, v[k - 1] = tv;
		}
	return n;
}

/* The margin a curve's peak is read with: SCALING_MARGIN, or twice the
 * spread of the samples at the peak when that is wider. */
static double margin_of(const struct test_result *t, const double *x, const double *v, int n)
{
	double m = SCALING_MARGIN;
	int pk = scaling_peak(x, v, n, m);
	if (pk < 0)
		return m;
	char name[32];
	step_name(name, sizeof name, NULL, (int)x[pk]);
	const struct point *p = test_find_point(t, name);
	double s = p ? point_spread(p) : -1;
	return s > 0 && 2 * s > m ? 2 * s : m;
}

void scaling_collect(struct test_result *t, const struct worker_slot *slots, int copies,
		     const void *settings)
{
	const struct scaling_params *sp = settings;
	if (sp)
		test_summary_set(t, "jobs", sp->jobs, NULL);
	if (copies < 1)
		return;
	/* copy 0 runs the tasks (the workload says why) */
	const struct worker_slot *s = &slots[0];
	int np = atomic_load_explicit(&s->npoints, memory_order_acquire);
	double sx[SCALING_MAX_STEPS] = { 0 }, sv[SCALING_MAX_STEPS] = { 0 };
	int n = 0;
	for (int i = 0; i < np && i < WL_MAX_POINTS; i++) {
		const struct wl_point *w = &s->points[i];
		char name[32];
		int tasks = (int)w->x;
		switch (w->series) {
		case SCALING_JPM:
			step_name(name, sizeof name, NULL, tasks);
			point_push(test_point(t, name, w->x, "tasks", "jobs/min", false, true), w->v);
			if (n < SCALING_MAX_STEPS)
				sx[n] = w->x, sv[n++] = w->v;
			break;
		case SCALING_REAL:
			step_name(name, sizeof name, "real", tasks);
			point_push(test_point(t, name, w->x, "tasks", "s", true, false), w->v);
			break;
		case SCALING_CPU:
			step_name(name, sizeof name, "cpu", tasks);
			point_push(test_point(t, name, w->x, "tasks", "s", true, false), w->v);
			break;
		default: break;
		}
	}
	/* This sample's peak: its highest jobs/min, as a headline of its own. */
	int pk = scaling_peak(sx, sv, n, SCALING_MARGIN);
	if (pk >= 0) {
		double top = sv[pk];
		for (int i = 0; i < n; i++)
			top = sv[i] > top ? sv[i] : top;
		/* x 0: the peak is compared by its jobs/min wherever it lies (its
		 * task count is the summary's peak.tasks, named by the compare footer) */
		point_push(test_point(t, "peak", 0, "", "jobs/min", false, true), top);
	}
	/* The peak stays after the steps: a count a later sample reached first
	 * ("16 tasks" when the first sample stopped at 8) is added after it, and
	 * the report, the results and compare list the points in this order. */
	for (int i = 0; i + 1 < t->npoints; i++)
		if (!strcmp(t->points[i].name, "peak")) {
			struct point pk = t->points[i];
			memmove(&t->points[i], &t->points[i + 1], (size_t)(t->npoints - i - 1) * sizeof pk);
			t->points[t->npoints - 1] = pk;
			break;
		}
	/* The peak and crossover of the mean curve so far. */
	double x[SCALING_MAX_STEPS], v[SCALING_MAX_STEPS];
	int m = scaling_curve(t, x, v, SCALING_MAX_STEPS);
	double margin = margin_of(t, x, v, m);
	int p = scaling_peak(x, v, m, margin), c = scaling_crossover(x, v, m, margin);
	if (p >= 0)
		test_summary_set(t, "peak.tasks", x[p], NULL);
	test_summary_set(t, "crossover.tasks", c >= 0 ? x[c] : 0, NULL);
	test_summary_set(t, "margin", margin, NULL);
	if (m)
		test_summary_set(t, "tasks.max", x[m - 1], NULL);
}

static double mean_of(const struct test_result *t, const char *what, int tasks)
{
	char name[32];
	step_name(name, sizeof name, what, tasks);
	const struct point *p = test_find_point(t, name);
	return p ? point_mean(p) : NAN;
}

static void secs_cell(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %9.2f", v);
	else
		fprintf(f, " %9s", "-");
}

/* "peak 4 tasks, 2345 jobs/min; crossover at 16 tasks (more than 5% below the peak)" */
static void peak_line(FILE *f, const struct test_result *t, const double *x, const double *v, int n)
{
	const struct kv *pk = test_summary_get(t, "peak.tasks");
	const struct kv *cx = test_summary_get(t, "crossover.tasks");
	const struct kv *mg = test_summary_get(t, "margin");
	const struct point *pp = test_find_point(t, "peak");
	double margin = mg ? mg->value : SCALING_MARGIN;
	if (!pk || !pp)
		return;
	/* each sentence wrapped to 79 columns, as the rest of the report */
	char line[300];
	snprintf(line, sizeof line, "Peak: %.0f tasks, %.1f jobs/min (the first step within %.0f%% of the highest).",
		 pk->value, point_mean(pp), margin * 100);
	fputs("  ", f);
	print_wrapped(f, line, 2, 4, 79);
	if (cx && cx->value > 0)
		snprintf(line, sizeof line, "Crossover: %.0f tasks, the first step past the peak more than %.0f%% below "
					    "it: from there each added task makes the whole slower.",
			 cx->value, margin * 100);
	else
		snprintf(line, sizeof line, "Crossover: none up to %.0f tasks (throughput stayed within %.0f%% of the "
					    "peak).",
			 n ? x[n - 1] : 0, margin * 100);
	fputs("  ", f);
	print_wrapped(f, line, 2, 4, 79);
	(void)v;
}

bool scaling_print_table(FILE *f, const struct test_result *t)
{
	if (t->kind != RESULT_POINTS || !scaling_is(t))
		return false;
	double x[SCALING_MAX_STEPS], v[SCALING_MAX_STEPS];
	int n = scaling_curve(t, x, v, SCALING_MAX_STEPS);
	const struct kv *jobs = test_summary_get(t, "jobs");
	char title[400];
	snprintf(title, sizeof title, "%s: %d task counts, %.0f jobs per task, mean of %d sample%s%s", t->label, n,
		 jobs ? jobs->value : 0, t->nsamples, t->nsamples == 1 ? "" : "s",
		 t->status == TEST_DONE ? "" : " (cut short: finished points kept)");
	print_wrapped(f, title, 0, 2, 79);
	fprintf(f, "  %5s %10s %9s %9s %9s %6s\n", "Tasks", "Jobs/min", "Real", "CPU", "JPM/task", "+-");
	for (int i = 0; i < n; i++) {
		int tasks = (int)x[i];
		char sd[16] = "---", name[32];
		step_name(name, sizeof name, NULL, tasks);
		const struct point *p = test_find_point(t, name);
		double spread = p ? point_spread(p) : -1;
		if (spread >= 0)
			snprintf(sd, sizeof sd, "%.1f%%", spread * 100);
		fprintf(f, "  %5d %10.1f", tasks, v[i]);
		secs_cell(f, mean_of(t, "real", tasks));
		secs_cell(f, mean_of(t, "cpu", tasks));
		fprintf(f, " %9.1f %6s\n", v[i] / tasks, sd);
	}
	fputs("  (Jobs/min: higher is better; Real and CPU: seconds per step, lower is better)\n", f);
	peak_line(f, t, x, v, n);
	return true;
}

/* The peak of the first run on a side that has one: tasks and jobs/min. */
static bool side_peak(const struct run *const *r, int n, int copies, double *tasks, double *jpm)
{
	double sum = 0, tsum = 0;
	int k = 0;
	for (int i = 0; i < n; i++) {
		const struct test_result *t = scaling_find(run_find_block(r[i], copies));
		const struct point *p = t && test_has_result(t) ? test_find_point(t, "peak") : NULL;
		const struct kv *pk = t ? test_summary_get(t, "peak.tasks") : NULL;
		if (!p || !pk)
			continue;
		sum += point_mean(p);
		tsum += pk->value;
		k++;
	}
	if (!k)
		return false;
	*jpm = sum / k;
	*tasks = tsum / k;
	return true;
}

void scaling_compare_footer(struct compare *c, const struct run *const *a, int na,
			    const struct run *const *b, int nb)
{
	for (int k = 0; k < c->nblocks; k++) {
		int copies = c->blocks[k].copies;
		double ta, ja, tb, jb;
		if (!side_peak(a, na, copies, &ta, &ja) || !side_peak(b, nb, copies, &tb, &jb))
			continue;
		const char *verdict = "";
		for (int i = 0; i < c->blocks[k].nrows; i++)
			if (!strcmp(strchr(c->blocks[k].rows[i].id, ':') ? strchr(c->blocks[k].rows[i].id, ':') : "",
				    ":peak") &&
			    c->blocks[k].rows[i].point)
				verdict = compare_verdict_name(c->blocks[k].rows[i].verdict);
		char moved[64];
		if (lround(ta) == lround(tb))
			snprintf(moved, sizeof moved, "at %.0f tasks on both", ta);
		else
			snprintf(moved, sizeof moved, "%.0f -> %.0f tasks", ta, tb);
		compare_push_footer(c, "Throughput as tasks grow%s: peak %s, %+.0f%% jobs/min (%.0f -> %.0f; %s).",
				    c->nblocks > 1 ? (copies == 1 ? " (1 copy)" : " (more copies)") : "", moved,
				    (jb / ja - 1) * 100, ja, jb, verdict[0] ? verdict : "no verdict");
	}
}
