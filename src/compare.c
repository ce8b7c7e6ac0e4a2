/* The comparison of two sides (runs or groups of runs): rows, honest intervals, verdicts, and their renderings. */
#include "compare.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "run.h"
#include "score.h"
#include "stats.h"
#include "telemetry/others.h"
#include "tests.h"

#define MAX_MORE_RUNS 30 /* beyond this, "more runs" is not a useful answer */

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_FASTER: return "faster";
	case VERDICT_SLOWER: return "slower";
	case VERDICT_SAME: return "no significant change";
	case VERDICT_NA: break;
	}
	return "n/a";
}

/* What one side knows about one test (or the index) in one block. */
struct side_vals {
	int nall;        /* runs with a value */
	double *all;     /* log score per run: what the table shows */
	int k;           /* runs that can be judged: not busy, not throttled */
	double *logs;    /* their log scores */
	double within;   /* mean over those runs of the within-run variance of the log score */
	double extra;    /* mean over them of what their own evidence adds (drift) */
	bool samples;    /* every run has samples (not an import) */
	double drift;    /* largest trend (log units), 0 none */
	bool drifted;
	bool busy, throttled;
	double freq;     /* mean busy MHz over the runs that know it; NAN unknown */
};

/* Rates of a test's samples, in the order they ran. */
static int sample_rates(const struct test_result *t, double *out)
{
	int n = 0;
	for (int i = 0; i < t->nsamples; i++) {
		double c = sample_count(&t->samples[i]);
		double r = score_rate(c, sample_time(&t->samples[i]), t->timebase);
		if (r > 0 && isfinite(r))
			out[n++] = r;
	}
	return n;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Variance of the log score from the kept samples (UnixBench keeps the
 * best two thirds), as the variance of a mean: s^2 / kept. */
static double within_var(const double *rates, int n)
{
	if (n < 2)
		return 0;
	double *v = malloc((size_t)n * sizeof *v);
	if (!v)
		abort();
	memcpy(v, rates, (size_t)n * sizeof *v);
	qsort(v, (size_t)n, sizeof *v, by_value);
	int drop = n / 3, kept = n - drop;
	for (int i = 0; i < kept; i++)
		v[i] = log(v[drop + i]);
	double sd = stats_stddev(v, kept);
	free(v);
	return kept > 1 ? sd * sd / kept : 0;
}

/* A trend from first to last sample, significant and larger than the floor. */
static double drift_of(const double *rates, int n, double sigma, bool *flag)
{
	*flag = false;
	if (n < 3)
		return 0;
	double *v = malloc((size_t)n * sizeof *v);
	if (!v)
		abort();
	for (int i = 0; i < n; i++)
		v[i] = log(rates[i]);
	struct stats_fit f = stats_linfit(v, n);
	free(v);
	if (!f.ok)
		return 0;
	double trend = f.slope * (n - 1);
	double q = stats_t_quantile(0.975, n - 2);
	if (fabs(trend) > sigma && (f.se == 0 || fabs(f.slope) > q * f.se))
		*flag = true;
	return trend;
}

static void side_free(struct side_vals *s)
{
	free(s->all);
	free(s->logs);
}

static bool summary_value(const struct test_result *t, const char *key, double *v)
{
	const struct kv *x = test_summary_get(t, key);
	if (!x || !x->has_value || !isfinite(x->value))
		return false;
	*v = x->value;
	return true;
}

static void fill_test_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
			   int n, int copies, const char *id, double sigma)
{
	memset(s, 0, sizeof *s);
	s->all = calloc((size_t)n + 1, sizeof *s->all);
	s->logs = calloc((size_t)n + 1, sizeof *s->logs);
	if (!s->all || !s->logs)
		abort();
	s->samples = true;
	s->freq = NAN;
	double lidx = 0, fsum = 0;
	int nidx = 0, nfreq = 0;
	cs->spread = -1;
	cs->others_cpu = NAN;
	cs->freq_mhz = NAN;
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, id) : NULL;
		if (!t || !(t->status == TEST_DONE || t->status == TEST_IMPORTED) || !(t->score > 0))
			continue;
		if (!cs->present) {
			cs->present = true;
			cs->nsamples = t->nsamples;
			cs->spread = t->spread;
		}
		s->all[s->nall++] = log(t->score);
		if (t->index > 0) {
			lidx += log(t->index);
			nidx++;
		}
		/* What the run saw besides its own work (src/telemetry): a test that
		 * shared the CPUs with other processes, or was throttled, measured
		 * them, not the kernel. Such a run is not judged; the row says why. */
		double v;
		bool busy = false, throttled = false;
		if (summary_value(t, "others.cpu", &v)) {
			cs->others_cpu = isnan(cs->others_cpu) || v > cs->others_cpu ? v : cs->others_cpu;
			busy = v >= OTHERS_BUSY_CPU;
		}
		if (summary_value(t, "throttled", &v))
			throttled = v >= 1;
		if (summary_value(t, "freq.mean", &v) && v > 0) {
			fsum += v;
			nfreq++;
		}
		double *rates = malloc(((size_t)t->nsamples + 1) * sizeof *rates);
		if (!rates)
			abort();
		int nr = sample_rates(t, rates);
		if (nr == 0)
			s->samples = false;
		bool fl;
		double tr = drift_of(rates, nr, sigma, &fl);
		if (fl && fabs(tr) > fabs(s->drift)) {
			s->drift = tr;
			s->drifted = true;
		}
		s->busy |= busy;
		s->throttled |= throttled;
		if (!busy && !throttled) {
			s->logs[s->k++] = log(t->score);
			s->within += within_var(rates, nr);
			/* A run whose samples trend did not measure one rate: where
			 * in that trend "the" score lies is uncertain by about half
			 * of it, so its interval widens by that much. */
			if (fl)
				s->extra += (tr / 2) * (tr / 2);
		}
		free(rates);
	}
	if (s->k) {
		s->within /= s->k;
		s->extra /= s->k;
	}
	if (nfreq)
		s->freq = fsum / nfreq;
	if (s->nall) {
		cs->nruns = s->nall;
		cs->score = exp(stats_mean(s->all, s->nall));
		cs->index = nidx ? exp(lidx / nidx) : 0;
		cs->drift = s->drifted;
		cs->drift_pct = s->drifted ? (exp(s->drift) - 1) * 100 : 0;
		cs->busy = s->busy;
		cs->throttled = s->throttled;
		cs->freq_mhz = s->freq;
	} else {
		s->samples = false;
	}
}

/* How sure a decided verdict is: 1 - the two-sided p value of the change
 * against the interval's own distribution. */
static double sureness(double d, double se, double dof)
{
	if (!(se > 0))
		return 1;
	double p = 2 * (1 - stats_t_cdf(fabs(d) / se, dof));
	return p < 0 ? 1 : 1 - p;
}

/* The interval and verdict from two sides' values and their floors. */
static void decide(struct compare_row *row, const struct side_vals *a, const struct side_vals *b,
		   const struct noise_floor *nfa, const struct noise_floor *nfb, double conf)
{
	row->change = row->change_lo = row->change_hi = row->change_pm = NAN;
	row->floor_pct = NAN;
	row->sure = NAN;
	row->verdict = VERDICT_NA;
	row->method = METHOD_NONE;
	if (!a->nall || !b->nall) {
		row->note = a->nall ? "only in A" : "only in B";
		return;
	}
	row->change = (exp(stats_mean(b->all, b->nall) - stats_mean(a->all, a->nall)) - 1) * 100;
	/* A single run without samples carries no error bar at all: a guess
	 * would be dishonest, so it is n/a. A group has its own spread. */
	bool ua = a->nall >= 2 || a->samples, ub = b->nall >= 2 || b->samples;
	if (!ua || !ub) {
		row->note = "no samples";
		return;
	}
	if (!a->k || !b->k) {
		bool busy = (!a->k && a->busy) || (!b->k && b->busy);
		row->note = busy ? "busy" : "throttled";
		return;
	}
	double d = stats_mean(b->logs, b->k) - stats_mean(a->logs, a->k);
	double sa = noise_sigma(nfa), sb = noise_sigma(nfb);
	double dofa = noise_dof(nfa), dofb = noise_dof(nfb);
	/* Two clocks that differ measure two machines: when both runs know
	 * their busy clock and it moved, the interval takes that in too. */
	double clock = 0;
	if (isfinite(a->freq) && isfinite(b->freq) && a->freq > 0 && b->freq > 0) {
		double r = log(b->freq / a->freq);
		if (fabs(r) > 0.02)
			clock = r * r;
	}
	row->widened = clock > 0 || a->extra > 0 || b->extra > 0;
	double half, q, se, dof;
	if (a->k == 1 && b->k == 1) {
		row->method = METHOD_FLOOR;
		double var = sa * sa + sb * sb + a->within + b->within + a->extra + b->extra + clock;
		/* A learned floor is an estimate: its t interval is wider the fewer runs it rests on. */
		dof = dofa < dofb ? dofa : dofb;
		se = sqrt(var);
		row->floor_pct = (sa > sb ? sa : sb) * 100;
		row->floor_learned = nfa->df > 0 || nfb->df > 0;
		row->floor_runs = nfa->runs > nfb->runs ? nfa->runs : nfb->runs;
	} else {
		row->method = METHOD_BETWEEN;
		/* Welch on per-run log scores; a lone run on one side borrows
		 * its floor as its variance, with the floor's degrees of freedom. */
		double va, vb, dfa, dfb;
		const struct side_vals *sv[2] = { a, b };
		const struct noise_floor *nfv[2] = { nfa, nfb };
		double *vv[2] = { &va, &vb }, *df[2] = { &dfa, &dfb };
		for (int i = 0; i < 2; i++) {
			const struct side_vals *s = sv[i];
			if (s->k >= 2) {
				double sd = stats_stddev(s->logs, s->k);
				/* Identical scores (a result imported twice) must not mean certainty. */
				double v = sd * sd > 1e-6 ? sd * sd : 1e-6;
				*vv[i] = v / s->k + s->extra / s->k;
				*df[i] = s->k - 1;
			} else {
				double sg = noise_sigma(nfv[i]);
				*vv[i] = sg * sg + s->within + s->extra;
				*df[i] = noise_dof(nfv[i]);
				row->floor_pct = sg * 100;
				row->floor_learned = row->floor_learned || nfv[i]->df > 0;
				if (nfv[i]->runs > row->floor_runs)
					row->floor_runs = nfv[i]->runs;
			}
		}
		double se2 = va + vb + clock;
		double den = (isinf(dfa) ? 0 : va * va / dfa) + (isinf(dfb) ? 0 : vb * vb / dfb);
		dof = den > 0 ? se2 * se2 / den : INFINITY;
		se = sqrt(se2);
	}
	q = stats_t_quantile(1 - (1 - conf) / 2, dof);
	half = q * se;
	row->change_lo = (exp(d - half) - 1) * 100;
	row->change_hi = (exp(d + half) - 1) * 100;
	row->change_pm = (row->change_hi - row->change_lo) / 2;
	if (d - half > 0)
		row->verdict = VERDICT_FASTER;
	else if (d + half < 0)
		row->verdict = VERDICT_SLOWER;
	else
		row->verdict = VERDICT_SAME;
	if (row->verdict != VERDICT_SAME) {
		row->sure = sureness(d, se, dof);
	} else {
		/* The interval narrows about as 1/sqrt(runs per side): how many
		 * runs would put the observed change outside it. */
		int now = a->k < b->k ? a->k : b->k;
		if (fabs(d) < 1e-9) {
			row->more_runs = -1;
		} else {
			double need = ceil(now * (half / fabs(d)) * (half / fabs(d)));
			row->more_runs = need - now > MAX_MORE_RUNS ? -1 : (int)(need - now);
			if (row->more_runs == 0)
				row->more_runs = 1;
		}
	}
}

static void push_footer(struct compare *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void push_footer(struct compare *c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **nf = realloc(c->footer, (size_t)(c->nfooter + 1) * sizeof *nf);
	if (!nf)
		abort();
	c->footer = nf;
	c->footer[c->nfooter++] = strdup(buf);
}

static void add_diff(struct compare *c, const char *what, const char *a, const char *b)
{
	if (!strcmp(a, b))
		return;
	struct compare_diff *nd = realloc(c->diffs, (size_t)(c->ndiffs + 1) * sizeof *nd);
	if (!nd)
		abort();
	c->diffs = nd;
	struct compare_diff *d = &c->diffs[c->ndiffs++];
	snprintf(d->what, sizeof d->what, "%s", what);
	snprintf(d->a, sizeof d->a, "%s", *a ? a : "?");
	snprintf(d->b, sizeof d->b, "%s", *b ? b : "?");
}

static void mode_text(const struct run *r, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s", r->meta.mode[0] ? r->meta.mode : "full");
	if (r->meta.duration_override > 0 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ", %g s samples", r->meta.duration_override);
	if (r->meta.iterations > 0 && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", -i %d", r->meta.iterations);
}

static void copies_text(const struct run *r, char *buf, size_t size)
{
	buf[0] = 0;
	for (int i = 0; i < r->nblocks; i++) {
		size_t u = strlen(buf);
		snprintf(buf + u, size - u, "%s%d", i ? ", " : "", r->blocks[i].copies);
	}
}

/* A fact a run recorded: not empty (a 1.0 file, a plain UnixBench log) and not "unknown". */
static bool known(const char *s)
{
	return s[0] && strcmp(s, "unknown") != 0;
}

static void swap_text(const struct run_meta *m, char *buf, size_t size)
{
	/* In MiB, as the report prints it, so an imported report matches its run. */
	unsigned long long mib = (m->swap_total_kib + 512) / 1024;
	if (!m->swap_total_kib)
		snprintf(buf, size, "none");
	else
		snprintf(buf, size, "%llu MiB", mib ? mib : 1);
}

static void env_diffs(struct compare *c, const struct run *a, const struct run *b)
{
	const struct run_meta *x = &a->meta, *y = &b->meta;
	bool imported = !strcmp(x->mode, "imported") || !strcmp(y->mode, "imported");
	char sa[160], sb[160];
	add_diff(c, "kernel", x->kernel_release, y->kernel_release);
	/* An import knows little of its machine: unknowns are not differences. */
#define D(what, f)                                              \
	if (!imported || (x->f[0] && y->f[0]))                  \
		add_diff(c, what, x->f, y->f)
	D("kernel build", kernel_version);
	D("cmdline", cmdline);
	D("governor", governor);
	D("boost", boost);
	D("mitigations", mitigations);
	D("microcode", microcode);
	D("cpu", cpu_model);
	D("host", hostname);
	D("kbench", kbench_version);
	D("build flags", build_flags);
	D("locale", lang);
#undef D
	/* Where the file tests wrote and the kernel settings (run file 1.1): a
	 * side that does not know one is no difference. Swap used is not
	 * compared: it changes from run to run on one machine. */
#define K(what, f)                             \
	if (known(x->f) && known(y->f))        \
		add_diff(c, what, x->f, y->f)
	K("filesystem", fs_type);
	K("mount options", fs_options);
	K("scheduler", io_scheduler);
	K("clocksource", clocksource);
#undef K
	if (known(x->thp_enabled) && known(y->thp_enabled)) {
		snprintf(sa, sizeof sa, "%s (defrag %s)", x->thp_enabled,
			 x->thp_defrag[0] ? x->thp_defrag : "unknown");
		snprintf(sb, sizeof sb, "%s (defrag %s)", y->thp_enabled,
			 y->thp_defrag[0] ? y->thp_defrag : "unknown");
		add_diff(c, "THP", sa, sb);
	}
	if (x->swap_known && y->swap_known) {
		swap_text(x, sa, sizeof sa);
		swap_text(y, sb, sizeof sb);
		add_diff(c, "swap", sa, sb);
	}
	snprintf(sa, sizeof sa, "%d", x->ncpus);
	snprintf(sb, sizeof sb, "%d", y->ncpus);
	if (x->ncpus && y->ncpus)
		add_diff(c, "cpus", sa, sb);
	copies_text(a, sa, sizeof sa);
	copies_text(b, sb, sizeof sb);
	add_diff(c, "copies", sa, sb);
	mode_text(a, sa, sizeof sa);
	mode_text(b, sb, sizeof sb);
	add_diff(c, "mode", sa, sb);
	snprintf(sa, sizeof sa, "%d", a->nnotes);
	snprintf(sb, sizeof sb, "%d", b->nnotes);
	if (!imported)
		add_diff(c, "warnings", sa, sb);
	snprintf(sa, sizeof sa, "%s", a->incomplete ? "incomplete" : "complete");
	snprintf(sb, sizeof sb, "%s", b->incomplete ? "incomplete" : "complete");
	add_diff(c, "run", sa, sb);
}

static void title(char *buf, size_t size, const struct run *const *r, int n)
{
	if (n == 1) {
		snprintf(buf, size, "%s (%s)", r[0]->meta.name[0] ? r[0]->meta.name : "?", r[0]->meta.id);
		return;
	}
	bool same = true;
	for (int i = 1; i < n; i++)
		same = same && !strcmp(r[i]->meta.name, r[0]->meta.name);
	snprintf(buf, size, "%s (%d runs)", same ? r[0]->meta.name : "group", n);
}

/* Tests of a block in row order: A's first run's order, then tests only later runs or B have. */
static int collect_ids(char (**ids)[32], const struct run *const *a, int na,
		       const struct run *const *b, int nb, int copies)
{
	int n = 0, cap = 0;
	*ids = NULL;
	for (int side = 0; side < 2; side++) {
		const struct run *const *runs = side ? b : a;
		int nr = side ? nb : na;
		for (int r = 0; r < nr; r++) {
			const struct run_block *bl = run_find_block(runs[r], copies);
			for (int i = 0; bl && i < bl->ntests; i++) {
				bool have = false;
				for (int k = 0; k < n && !have; k++)
					have = !strcmp((*ids)[k], bl->tests[i].id);
				if (have)
					continue;
				if (n == cap) {
					cap = cap ? cap * 2 : 16;
					char(*ni)[32] = realloc(*ids, (size_t)cap * sizeof *ni);
					if (!ni)
						abort();
					*ids = ni;
				}
				snprintf((*ids)[n++], 32, "%s", bl->tests[i].id);
			}
		}
	}
	return n;
}

static const struct test_result *find_any(const struct run *const *runs, int n, int copies,
					  const char *id)
{
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		const struct test_result *t = b ? run_block_find_test(b, id) : NULL;
		if (t)
			return t;
	}
	return NULL;
}

static void index_side(struct side_vals *s, struct compare_side *cs, const struct run *const *runs,
		       int n, int copies, const struct compare_block *cb, bool side_b)
{
	memset(s, 0, sizeof *s);
	s->all = calloc((size_t)n + 1, sizeof *s->all);
	s->logs = calloc((size_t)n + 1, sizeof *s->logs);
	if (!s->all || !s->logs)
		abort();
	s->freq = NAN;
	cs->others_cpu = cs->freq_mhz = NAN;
	for (int i = 0; i < n; i++) {
		const struct run_block *b = run_find_block(runs[i], copies);
		if (b && b->index_score > 0)
			s->all[s->nall++] = log(b->index_score);
	}
	s->samples = s->nall > 0;
	for (int i = 0; i < cb->nrows; i++) {
		const struct compare_row *row = &cb->rows[i];
		const struct compare_side *side = side_b ? &row->b : &row->a;
		if (!side->present || !(side->index > 0))
			continue;
		if (side->nsamples == 0)
			s->samples = false;
		/* The index is made of its tests: one measured on a busy or
		 * throttled machine makes it so too. */
		s->busy |= side->busy;
		s->throttled |= side->throttled;
	}
	if (!s->busy && !s->throttled) {
		memcpy(s->logs, s->all, (size_t)s->nall * sizeof *s->logs);
		s->k = s->nall;
	}
	if (s->nall) {
		cs->present = true;
		cs->nruns = s->nall;
		cs->score = cs->index = exp(stats_mean(s->all, s->nall));
		cs->busy = s->busy;
		cs->throttled = s->throttled;
	}
}

/* The command that calibrates for run r's settings: the same mode, sample
 * length and -i, and the tests beyond the index it ran. */
static void calibrate_cmd(char *buf, size_t size, const struct run *r)
{
	const struct run_meta *m = &r->meta;
	int n = snprintf(buf, size, "kbench calibrate");
	if (!strcmp(m->mode, "quick"))
		n += snprintf(buf + n, size - (size_t)n, " --quick");
	else if (!(m->duration_override > 0) && !(m->iterations > 0))
		n += snprintf(buf + n, size - (size_t)n, " --full");
	if (m->duration_override > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " --duration %g", m->duration_override);
	if (m->iterations > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " -i %d", m->iterations);
	/* The index is calibrate's default; any other set of tests is named. */
	const char *ids[64];
	int nids = 0, in_index = 0;
	const struct test_group *ix = test_group_find("index");
	for (int b = 0; b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests && nids < 64; i++) {
			const char *id = r->blocks[b].tests[i].id;
			bool seen = false;
			for (int k = 0; k < nids && !seen; k++)
				seen = !strcmp(ids[k], id);
			if (seen)
				continue;
			ids[nids++] = id;
			for (const char *const *x = ix && ix->ids ? ix->ids : NULL; x && *x; x++)
				in_index += !strcmp(*x, id);
		}
	int index_size = 0;
	for (const char *const *x = ix && ix->ids ? ix->ids : NULL; x && *x; x++)
		index_size++;
	if (nids == index_size && in_index == index_size)
		return;
	for (int k = 0; k < nids && n >= 0 && (size_t)n < size; k++)
		n += snprintf(buf + n, size - (size_t)n, " %s", ids[k]);
}

/* One line: whether the verdicts rest on floors learned here or on the defaults. */
static void basis(struct compare *c, const struct run *r)
{
	char setting[64];
	noise_setting(r, setting, sizeof setting);
	calibrate_cmd(c->calibrate_cmd, sizeof c->calibrate_cmd, r);
	/* Short enough for the console's 80 columns, with its key hint beside it. */
	if (!c->rows_learned && !c->rows_default)
		snprintf(c->basis, sizeof c->basis, "Verdicts: the spread between each side's runs (no floor needed).");
	else if (!c->rows_learned)
		snprintf(c->basis, sizeof c->basis, "Verdicts: default noise floors, not calibrated (%s).", setting);
	else if (!c->rows_default)
		snprintf(c->basis, sizeof c->basis, "Verdicts: noise floors learned from %d runs here (%s).",
			 c->calib_runs, setting);
	else
		snprintf(c->basis, sizeof c->basis,
			 "Verdicts: learned floors for %d rows, defaults for %d (not calibrated for all).",
			 c->rows_learned, c->rows_default);
}

/* Runs that shared the machine with other processes, or were throttled: what was withheld and why. */
static void busy_footer(struct compare *c, const struct run *const *a, int na, const struct run *const *b,
			int nb)
{
	char busy[1024] = "", thr[512] = "", early[256] = "", warm[256] = "";
	int nbusy = 0, nthr = 0;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < (s ? nb : na); i++) {
			const struct run *r = s ? b[i] : a[i];
			int nb_ = 0, nt_ = 0, tests = 0;
			size_t u;
			double most = 0;
			const char *most_id = "";
			for (int k = 0; k < r->nblocks; k++)
				for (int t = 0; t < r->blocks[k].ntests; t++) {
					const struct test_result *tr = &r->blocks[k].tests[t];
					double v;
					tests++;
					if (summary_value(tr, "others.cpu", &v) && v >= OTHERS_BUSY_CPU) {
						nb_++;
						if (v > most) {
							most = v;
							most_id = tr->id;
						}
					}
					if (summary_value(tr, "throttled", &v) && v >= 1)
						nt_++;
				}
			bool started_busy = false;
			for (int k = 0; k < r->nnotes; k++) {
				started_busy = started_busy || !strncmp(r->notes[k], "preflight: busy:", 16);
				if (strstr(r->notes[k], "still warm") && strlen(warm) < sizeof warm - 40) {
					u = strlen(warm);
					snprintf(warm + u, sizeof warm - u, "%s%s run %s", u ? ", " : "",
						 s ? "B" : "A", r->meta.id);
				}
			}
			if (nb_) {
				u = strlen(busy);
				snprintf(busy + u, sizeof busy - u, "%s%s run %s (%d of %d tests, up to %.2f CPU in %s%s)",
					 nbusy++ ? ", " : "", s ? "B" : "A", r->meta.id, nb_, tests, most, most_id,
					 started_busy ? "; busy before it started too" : "");
			} else if (started_busy) {
				u = strlen(early);
				snprintf(early + u, sizeof early - u, "%s%s run %s", early[0] ? ", " : "",
					 s ? "B" : "A", r->meta.id);
			}
			if (nt_) {
				u = strlen(thr);
				snprintf(thr + u, sizeof thr - u, "%s%s run %s (%d test%s)", nthr++ ? ", " : "",
					 s ? "B" : "A", r->meta.id, nt_, nt_ == 1 ? "" : "s");
			}
		}
	if (nbusy)
		push_footer(c, "Busy machine: %s: other processes used the CPUs while %s ran, so %s measured "
			       "that load too. Those rows are n/a (busy); stop what else runs ('top' shows it) "
			       "and run again.",
			    busy, nbusy == 1 ? "it" : "they", nbusy == 1 ? "its scores" : "their scores");
	if (early[0])
		push_footer(c, "%s started on a busy machine (the preflight says so), but the tests ran with "
			       "the CPUs to themselves.", early);
	if (nthr)
		push_footer(c, "Throttled: %s; those rows are n/a (throttled): they measured the cooling, "
			       "not the kernel ('kbench show' has the evidence).", thr);
	if (warm[0])
		push_footer(c, "%s started with the CPU still warm from an earlier run (the preflight says so) "
			       "and may throttle sooner: a test seen throttled is n/a, the others are judged.", warm);
}

/* Which floors a row's verdict rests on, for the basis line: a row of
 * single runs uses the floors even when its verdict is withheld. */
static void count_basis(struct compare *c, const struct compare_row *row, const struct noise_floor *fa,
			const struct noise_floor *fb, const struct run *ra, const struct run *rb, int na, int nb,
			const struct run **uncalibrated)
{
	if (!row->a.present || !row->b.present || (na >= 2 && nb >= 2))
		return;
	/* Learned only when both sides' settings are: a side on its default is not calibrated. */
	if (fa->df > 0 && fb->df > 0) {
		c->rows_learned++;
		c->floors_learned = true;
		int runs = fa->runs > fb->runs ? fa->runs : fb->runs;
		if (runs > c->calib_runs)
			c->calib_runs = runs;
	} else {
		c->rows_default++;
		if (fa->df > 0 || fb->df > 0)
			c->floors_learned = true;
		if (!*uncalibrated)
			*uncalibrated = fb->df > 0 ? ra : rb;
	}
}

struct compare *compare_runs(const struct run *const *a, int na, const struct run *const *b, int nb,
			     const struct compare_opts *o, char *err, size_t errlen)
{
	if (na < 1 || nb < 1 || !a || !b) {
		snprintf(err, errlen, "a comparison needs at least one run on each side");
		return NULL;
	}
	struct compare *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	c->conf = o && o->conf > 0 && o->conf < 1 ? o->conf : 0.95;
	const struct noise_table *nt = o ? o->noise : NULL;
	c->na = na;
	c->nb = nb;
	c->a_runs = calloc((size_t)na, sizeof *c->a_runs);
	c->b_runs = calloc((size_t)nb, sizeof *c->b_runs);
	if (!c->a_runs || !c->b_runs)
		abort();
	for (int s = 0; s < 2; s++) {
		const struct run *const *runs = s ? b : a;
		struct compare_ref *refs = s ? c->b_runs : c->a_runs;
		for (int i = 0; i < (s ? nb : na); i++) {
			snprintf(refs[i].id, sizeof refs[i].id, "%s", runs[i]->meta.id);
			snprintf(refs[i].name, sizeof refs[i].name, "%s", runs[i]->meta.name);
			snprintf(refs[i].kernel, sizeof refs[i].kernel, "%s", runs[i]->meta.kernel_release);
			snprintf(refs[i].mode, sizeof refs[i].mode, "%s", runs[i]->meta.mode);
			refs[i].date = (long long)runs[i]->meta.date;
		}
	}
	title(c->a_title, sizeof c->a_title, a, na);
	title(c->b_title, sizeof c->b_title, b, nb);
	c->noise_runs = nt ? nt->runs : 0;

	/* Copy counts: A's order, then B's extra ones. */
	int copies[128], ncopies = 0;
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < (s ? nb : na); r++) {
			const struct run *run = s ? b[r] : a[r];
			for (int i = 0; i < run->nblocks && ncopies < 128; i++) {
				bool have = false;
				for (int k = 0; k < ncopies; k++)
					have = have || copies[k] == run->blocks[i].copies;
				if (!have)
					copies[ncopies++] = run->blocks[i].copies;
			}
		}
	if (ncopies == 0) {
		snprintf(err, errlen, "neither side has any results to compare");
		compare_free(c);
		return NULL;
	}
	c->blocks = calloc((size_t)ncopies, sizeof *c->blocks);
	if (!c->blocks)
		abort();
	c->nblocks = ncopies;
	int undecided = 0, settle = 0, na_rows = 0, drifts = 0, shared = 0;
	const struct run *uncalibrated = NULL; /* a side whose setting has no learned floors */
	for (int k = 0; k < ncopies; k++) {
		struct compare_block *cb = &c->blocks[k];
		cb->copies = copies[k];
		for (int r = 0; r < na; r++)
			cb->in_a = cb->in_a || run_find_block(a[r], cb->copies);
		for (int r = 0; r < nb; r++)
			cb->in_b = cb->in_b || run_find_block(b[r], cb->copies);
		shared += cb->in_a && cb->in_b;
		char(*ids)[32];
		cb->nrows = collect_ids(&ids, a, na, b, nb, cb->copies);
		cb->rows = calloc((size_t)cb->nrows + 1, sizeof *cb->rows);
		if (!cb->rows)
			abort();
		double sum_change = 0, sum_log = 0;
		for (int i = 0; i < cb->nrows; i++) {
			struct compare_row *row = &cb->rows[i];
			const struct test_result *t = find_any(a, na, cb->copies, ids[i]);
			if (!t)
				t = find_any(b, nb, cb->copies, ids[i]);
			snprintf(row->id, sizeof row->id, "%s", t->id);
			snprintf(row->label, sizeof row->label, "%s", t->label[0] ? t->label : t->id);
			snprintf(row->unit, sizeof row->unit, "%s", t->unit);
			/* Each side's floor is its own setting's (a quick run moves more than a full one). */
			struct noise_floor fa = *noise_get(nt, row->id, a[0]), fb = *noise_get(nt, row->id, b[0]);
			struct side_vals sa, sb;
			fill_test_side(&sa, &row->a, a, na, cb->copies, row->id, noise_sigma(&fa));
			fill_test_side(&sb, &row->b, b, nb, cb->copies, row->id, noise_sigma(&fb));
			decide(row, &sa, &sb, &fa, &fb, c->conf);
			drifts += row->a.drift + row->b.drift;
			count_basis(c, row, &fa, &fb, a[0], b[0], na, nb, &uncalibrated);
			side_free(&sa);
			side_free(&sb);
			switch (row->verdict) {
			case VERDICT_FASTER: cb->nfaster++; break;
			case VERDICT_SLOWER: cb->nslower++; break;
			case VERDICT_SAME: cb->nsame++; break;
			case VERDICT_NA: cb->nna++; break;
			}
			if (row->verdict == VERDICT_NA && row->note &&
			    (!strcmp(row->note, "busy") || !strcmp(row->note, "throttled")))
				c->nbusy_rows++;
			else if (row->verdict == VERDICT_NA && row->a.present && row->b.present)
				na_rows++;
			if (row->verdict == VERDICT_SAME) {
				undecided++;
				if (row->more_runs > 0 && row->more_runs <= 2)
					settle++;
			}
			if (isfinite(row->change)) {
				cb->ncompared++;
				sum_change += row->change;
				sum_log += log1p(row->change / 100);
			}
		}
		free(ids);
		cb->mean_change = cb->ncompared ? sum_change / cb->ncompared : NAN;
		cb->geomean_change = cb->ncompared ? (exp(sum_log / cb->ncompared) - 1) * 100 : NAN;
		/* The index score, as one more row. */
		struct compare_row *ix = &cb->index;
		snprintf(ix->id, sizeof ix->id, NOISE_INDEX_ID);
		snprintf(ix->label, sizeof ix->label, "System Benchmarks Index Score");
		const struct run_block *ab = NULL, *bb = NULL;
		for (int r = 0; r < na && !ab; r++)
			ab = run_find_block(a[r], cb->copies);
		for (int r = 0; r < nb && !bb; r++)
			bb = run_find_block(b[r], cb->copies);
		cb->a_partial = ab && ab->index_partial;
		cb->b_partial = bb && bb->index_partial;
		struct noise_floor fa = *noise_get(nt, NOISE_INDEX_ID, a[0]);
		struct noise_floor fb = *noise_get(nt, NOISE_INDEX_ID, b[0]);
		struct side_vals sa, sb;
		index_side(&sa, &ix->a, a, na, cb->copies, cb, false);
		index_side(&sb, &ix->b, b, nb, cb->copies, cb, true);
		decide(ix, &sa, &sb, &fa, &fb, c->conf);
		/* An index over different test sets is not one number compared. */
		if (ab && bb && ab->index_tests != bb->index_tests && ix->verdict != VERDICT_NA) {
			ix->verdict = VERDICT_NA;
			ix->note = "index over different tests";
		}
		side_free(&sa);
		side_free(&sb);
	}
	if (!shared) {
		snprintf(err, errlen, "the two sides share no copy count (A: %s, B: %s)",
			 "see 'kbench show'", "see 'kbench show'");
		compare_free(c);
		return NULL;
	}
	env_diffs(c, a[0], b[0]);

	basis(c, uncalibrated ? uncalibrated : b[nb - 1]);

	/* The footer: what the verdicts rest on, and what would settle the rest. */
	if (na == 1 && nb == 1) {
		if (c->rows_learned)
			push_footer(c, "Verdicts: one run per side; each interval (%.0f%%) combines the runs' own "
				       "sample spread with this machine's run-to-run noise, learned from %d stored "
				       "same-kernel runs of the same settings (see 'kbench noise').",
				    c->conf * 100, c->calib_runs);
		else
			push_footer(c, "Verdicts: one run per side; each interval (%.0f%%) combines the runs' own "
				       "sample spread with a default run-to-run noise floor per test, wide on "
				       "purpose: a noisy VM moves a score by that much between identical runs.",
				    c->conf * 100);
	} else {
		push_footer(c, "Verdicts: %d run%s vs %d run%s; each interval (%.0f%%) is Welch's on the "
			       "per-run scores, so it rests on the spread between runs%s.",
			    na, na == 1 ? "" : "s", nb, nb == 1 ? "" : "s", c->conf * 100,
			    na == 1 || nb == 1 ? " (the single run borrows the noise floor)" : "");
	}
	if (c->rows_default)
		push_footer(c, "Calibrate to get this machine's own floors: %s (5 runs of this kernel, stored "
			       "as A/A runs; every later comparison with these settings uses them).",
			    c->calibrate_cmd);
	bool decided = false;
	for (int k = 0; k < c->nblocks; k++)
		decided = decided || c->blocks[k].nfaster || c->blocks[k].nslower;
	if (decided)
		push_footer(c, "The %% after faster or slower says how sure: at 99%%, noise alone would show a "
			       "change that large once in a hundred comparisons.");
	busy_footer(c, a, na, b, nb);
	/* The floors themselves, so the +- column can be checked by hand. */
	char floors[1024] = "";
	for (int k = 0; k < c->nblocks && !floors[0]; k++)
		for (int i = 0; i < c->blocks[k].nrows; i++) {
			const struct compare_row *row = &c->blocks[k].rows[i];
			if (!isfinite(row->floor_pct))
				continue;
			size_t u = strlen(floors);
			snprintf(floors + u, sizeof floors - u, "%s%s %.1f%%", u ? ", " : "", row->id,
				 row->floor_pct);
		}
	if (floors[0])
		push_footer(c, "Noise floor per run (sd%s): %s.",
			    c->rows_learned ? ", learned and default blended" : ", defaults for these settings",
			    floors);
	if (undecided) {
		if (c->rows_default)
			push_footer(c, "%d test%s show%s no significant change. To tell smaller changes from noise, "
				       "calibrate (above) and compare again; a second run per side (compare A,A2 "
				       "B,B2) narrows the intervals by about a third.",
				    undecided, undecided == 1 ? "" : "s", undecided == 1 ? "s" : "");
		else if (settle)
			push_footer(c, "%d test%s show%s no significant change; one or two more runs per side "
				       "(compare A,A2 B,B2) would likely settle %d of them if their changes hold.",
				    undecided, undecided == 1 ? "" : "s", undecided == 1 ? "s" : "", settle);
		else
			push_footer(c, "%d test%s show%s no significant change: within this machine's noise (the "
				       "+- column); a second run per side narrows it by about a third.",
				    undecided, undecided == 1 ? "" : "s", undecided == 1 ? "s" : "");
	}
	if (na_rows)
		push_footer(c, "n/a: %d test%s without samples on a side (an imported result has no error "
			       "bar; import or run several to compare as a group).",
			    na_rows, na_rows == 1 ? "" : "s");
	if (drifts)
		push_footer(c, "! marks a test whose samples drift within a run by more than the noise "
			       "(throttling or background load?); its interval is widened by half the drift.");
	return c;
}

struct compare *compare_stored(const struct run *const *a, int na, const struct run *const *b, int nb,
			       const struct compare_opts *o, char *err, size_t errlen)
{
	struct compare_opts opts = o ? *o : (struct compare_opts){ 0 };
	struct noise_table nt = { 0 };
	char why[400] = "";
	if (!opts.default_noise && na > 0 && nb > 0 && a && b) {
		/* The runs being compared must not teach the floor their own difference. */
		const char **ex = calloc((size_t)(na + nb), sizeof *ex);
		if (!ex)
			abort();
		for (int i = 0; i < na; i++)
			ex[i] = a[i]->meta.id;
		for (int i = 0; i < nb; i++)
			ex[na + i] = b[i]->meta.id;
		if (noise_learn_store(&nt, ex, na + nb, why, sizeof why) < 0)
			noise_free(&nt);
		free(ex);
	}
	opts.noise = opts.default_noise ? NULL : &nt;
	struct compare *c = compare_runs(a, na, b, nb, &opts, err, errlen);
	if (c && why[0])
		push_footer(c, "The store could not be read (%s): default noise floors were used.", why);
	noise_free(&nt);
	return c;
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nblocks; i++)
		free(c->blocks[i].rows);
	free(c->blocks);
	free(c->diffs);
	free(c->a_runs);
	free(c->b_runs);
	for (int i = 0; i < c->nfooter; i++)
		free(c->footer[i]);
	free(c->footer);
	free(c);
}

/* ---- text ---- */

void compare_fmt_score(char *buf, size_t size, double v, int width)
{
	if (!isfinite(v) || v <= 0) {
		snprintf(buf, size, "--");
		return;
	}
	static const char suffix[] = " kMGTP";
	for (int dec = 1; dec >= 0; dec--) {
		int n = snprintf(buf, size, "%.*f", dec, v);
		if (n <= width)
			return;
	}
	double x = v;
	int s = 0;
	while (x >= 999.5 && s < 5) {
		x /= 1000;
		s++;
	}
	for (int dec = 3; dec >= 0; dec--) {
		int n = snprintf(buf, size, "%.*f%c", dec, x, suffix[s]);
		if (n <= width)
			return;
	}
}

/* Short labels for the 80-column layout; anything else is cut. */
static const struct {
	const char *id, *label;
} short_labels[] = {
	{ "dhry2reg", "Dhrystone 2" },     { "whetstone-double", "Whetstone" },
	{ "execl", "Execl" },             { "fstime", "File Copy 1024" },
	{ "fsbuffer", "File Copy 256" },  { "fsdisk", "File Copy 4096" },
	{ "pipe", "Pipe" },               { "context1", "Context Switch" },
	{ "spawn", "Process Creation" },  { "syscall", "System Call" },
	{ "shell1", "Shell (1)" },        { "shell8", "Shell (8)" },
	{ "shell16", "Shell (16)" },      { "shell64", "Shell (64)" },
	{ "fstime-w", "File Write 1024" }, { "fstime-r", "File Read 1024" },
	{ "fsbuffer-w", "File Write 256" }, { "fsbuffer-r", "File Read 256" },
	{ "fsdisk-w", "File Write 4096" }, { "fsdisk-r", "File Read 4096" },
	{ "C", "C Compiler" },            { "index", "Index Score" },
};

static void label_for(char *buf, size_t size, const struct compare_row *r, int width, bool compact)
{
	const char *l = r->label;
	if (compact)
		for (size_t i = 0; i < sizeof short_labels / sizeof short_labels[0]; i++)
			if (!strcmp(short_labels[i].id, r->id))
				l = short_labels[i].label;
	snprintf(buf, size, "%.*s", width, l);
}

static void fmt_pct(char *buf, size_t size, double v, bool sign)
{
	if (!isfinite(v))
		snprintf(buf, size, "--");
	else if (fabs(v) >= 99.95)
		snprintf(buf, size, sign ? "%+.0f%%" : "%.0f", v);
	else
		snprintf(buf, size, sign ? "%+.1f%%" : "%.1f", v);
}

void compare_verdict_text(char *buf, size_t size, const struct compare_row *r)
{
	if (r->verdict == VERDICT_NA && r->note) {
		snprintf(buf, size, "n/a (%s)", r->note);
	} else if ((r->verdict == VERDICT_FASTER || r->verdict == VERDICT_SLOWER) && isfinite(r->sure)) {
		/* Rounded down, so "99%" never overstates; 99.9% is as sure as it says. */
		double p = floor(r->sure * 1000) / 10;
		if (p >= 99.9)
			snprintf(buf, size, "%s (>99.9%% sure)", compare_verdict_name(r->verdict));
		else if (p >= 99)
			snprintf(buf, size, "%s (%.1f%% sure)", compare_verdict_name(r->verdict), p);
		else
			snprintf(buf, size, "%s (%.0f%% sure)", compare_verdict_name(r->verdict), floor(p));
	} else {
		snprintf(buf, size, "%s", compare_verdict_name(r->verdict));
	}
}

static void print_row(FILE *f, const struct compare_row *r, bool compact)
{
	int lw = compact ? 16 : 40, sw = compact ? 6 : 12, iw = compact ? 6 : 8;
	char label[80], as[24], ai[24], bs[24], bi[24], ch[24], pm[24];
	label_for(label, sizeof label, r, lw, compact);
	compare_fmt_score(as, sizeof as, r->a.present ? r->a.score : NAN, sw);
	compare_fmt_score(bs, sizeof bs, r->b.present ? r->b.score : NAN, sw);
	compare_fmt_score(ai, sizeof ai, r->a.index, iw);
	compare_fmt_score(bi, sizeof bi, r->b.index, iw);
	fmt_pct(ch, sizeof ch, r->change, true);
	char pmv[20];
	fmt_pct(pmv, sizeof pmv, r->change_pm, false);
	/* Five columns in the compact layout: no decimals from 10 on, and a cap. */
	if (compact && isfinite(r->change_pm) && r->change_pm >= 9.95)
		snprintf(pmv, sizeof pmv, r->change_pm < 999.5 ? "%.0f" : "999", r->change_pm);
	snprintf(pm, sizeof pm, "%s%s", isfinite(r->change_pm) ? "+-" : "", pmv);
	char flag = r->a.drift || r->b.drift ? '!' : ' ';
	char verdict[64];
	compare_verdict_text(verdict, sizeof verdict, r);
	if (compact)
		fprintf(f, "%-16s %6s %6s %6s %6s %6s %5s%c %.21s\n", label, as, ai, bs, bi, ch, pm, flag,
			verdict);
	else
		fprintf(f, "%-40s %12s %8s %12s %8s %7s %6s%c %s\n", label, as, ai, bs, bi, ch, pm, flag,
			verdict);
}

static void print_when(FILE *f, const char *side, const char *title, const struct compare_ref *r,
		       int n)
{
	char date[32] = "";
	time_t t = (time_t)r[0].date;
	struct tm tm;
	if (t && localtime_r(&t, &tm))
		strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm);
	fprintf(f, "%s: %s", side, title);
	if (n == 1)
		fprintf(f, "  %s  %s\n", r[0].kernel, date);
	else {
		fprintf(f, " ");
		for (int i = 0; i < n && i < 6; i++)
			fprintf(f, " %s", r[i].id);
		fprintf(f, "%s\n", n > 6 ? " ..." : "");
	}
}

/* Words wrapped at width, continuation lines indented. */
static void wrap(FILE *f, const char *text, int width, int indent)
{
	int col = 0;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		int len = (int)(e - p);
		if (col > indent && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > 0 && col != indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		p = e;
	}
	fputc('\n', f);
}

void compare_print_text(FILE *f, const struct compare *c, int width)
{
	if (width < 80)
		width = 80;
	bool compact = width < 122;
	print_when(f, "A", c->a_title, c->a_runs, c->na);
	print_when(f, "B", c->b_title, c->b_runs, c->nb);
	if (c->ndiffs) {
		char buf[4096] = "Differs:";
		for (int i = 0; i < c->ndiffs; i++) {
			size_t u = strlen(buf);
			snprintf(buf + u, sizeof buf - u, " %s %.60s -> %.60s%s", c->diffs[i].what,
				 c->diffs[i].a, c->diffs[i].b, i + 1 < c->ndiffs ? ";" : "");
		}
		wrap(f, buf, width, 2);
	} else {
		fprintf(f, "Same environment: kernel, command line, settings and kbench build match.\n");
	}
	wrap(f, c->basis, width, 2);
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		fprintf(f, "\n%d cop%s%s\n", b->copies, b->copies == 1 ? "y" : "ies",
			!b->in_a ? " (only in B)" : !b->in_b ? " (only in A)" : "");
		if (compact) {
			fprintf(f, "%-16s %-13s %-13s\n", "", "------ A ----", "------ B ----");
			fprintf(f, "%-16s %6s %6s %6s %6s %6s %5s  %s\n", "Test", "score", "index", "score",
				"index", "change", "+-", "verdict");
		} else {
			fprintf(f, "%-40s %-21s %-21s\n", "", "--------------- A ---", "--------------- B ---");
			fprintf(f, "%-40s %12s %8s %12s %8s %7s %6s  %s\n", "Test", "score", "index", "score",
				"index", "change", "+-", "verdict");
		}
		for (int i = 0; i < b->nrows; i++)
			print_row(f, &b->rows[i], compact);
		fprintf(f, "%s\n", compact ? "--------------------------------------------------------------------------------"
					   : "------------------------------------------------------------------------------------------------------------------------");
		struct compare_row ix = b->index;
		ix.a.score = ix.b.score = NAN; /* the index score has no separate score */
		if (b->a_partial || b->b_partial)
			snprintf(ix.label, sizeof ix.label, "%s", "Index Score (partial)");
		print_row(f, &ix, compact);
		char m[24], g[24];
		fmt_pct(m, sizeof m, b->mean_change, true);
		fmt_pct(g, sizeof g, b->geomean_change, true);
		fprintf(f, "Mean of changes %s, geometric mean of ratios %s (%d tests)\n", m, g,
			b->ncompared);
		fprintf(f, "%d faster, %d slower, %d no significant change, %d n/a\n", b->nfaster,
			b->nslower, b->nsame, b->nna);
	}
	fputc('\n', f);
	for (int i = 0; i < c->nfooter; i++)
		wrap(f, c->footer[i], width, 0);
}

/* ---- JSON and CSV ---- */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const struct compare_side *s)
{
	if (!s->present)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "runs", json_integer(s->nruns));
	json_object_set_new(o, "score", jnum(s->score));
	json_object_set_new(o, "index", s->index > 0 ? json_real(s->index) : json_null());
	json_object_set_new(o, "samples", json_integer(s->nsamples));
	json_object_set_new(o, "spread", s->spread >= 0 ? json_real(s->spread) : json_null());
	json_object_set_new(o, "drift", json_boolean(s->drift));
	json_object_set_new(o, "drift_pct", jnum(s->drift ? s->drift_pct : NAN));
	json_object_set_new(o, "others_cpu", jnum(s->others_cpu));
	json_object_set_new(o, "busy", json_boolean(s->busy));
	json_object_set_new(o, "throttled", json_boolean(s->throttled));
	json_object_set_new(o, "freq_mhz", jnum(s->freq_mhz));
	return o;
}

static const char *method_name(enum compare_method m)
{
	return m == METHOD_FLOOR ? "noise-floor" : m == METHOD_BETWEEN ? "between-runs" : "none";
}

static json_t *row_json(const struct compare_row *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(r->id));
	json_object_set_new(o, "label", json_string(r->label));
	json_object_set_new(o, "unit", json_string(r->unit));
	json_object_set_new(o, "a", side_json(&r->a));
	json_object_set_new(o, "b", side_json(&r->b));
	json_object_set_new(o, "change_pct", jnum(r->change));
	json_object_set_new(o, "change_lo_pct", jnum(r->change_lo));
	json_object_set_new(o, "change_hi_pct", jnum(r->change_hi));
	json_object_set_new(o, "change_pm_pct", jnum(r->change_pm));
	json_object_set_new(o, "verdict", json_string(compare_verdict_name(r->verdict)));
	json_object_set_new(o, "sure_pct", jnum(r->sure * 100));
	json_object_set_new(o, "method", json_string(method_name(r->method)));
	json_object_set_new(o, "noise_floor_pct", jnum(r->floor_pct));
	json_object_set_new(o, "noise_floor_learned", json_boolean(r->floor_learned));
	json_object_set_new(o, "noise_floor_runs", json_integer(r->floor_runs));
	json_object_set_new(o, "widened", json_boolean(r->widened));
	json_object_set_new(o, "more_runs", r->more_runs ? json_integer(r->more_runs) : json_null());
	json_object_set_new(o, "note", r->note ? json_string(r->note) : json_null());
	return o;
}

static json_t *refs_json(const struct compare_ref *r, int n, const char *title)
{
	json_t *o = json_object();
	json_object_set_new(o, "title", json_string(title));
	json_t *a = json_array();
	for (int i = 0; i < n; i++) {
		json_t *x = json_object();
		json_object_set_new(x, "id", json_string(r[i].id));
		json_object_set_new(x, "name", json_string(r[i].name));
		json_object_set_new(x, "kernel", json_string(r[i].kernel));
		json_object_set_new(x, "date", json_integer(r[i].date));
		json_object_set_new(x, "mode", json_string(r[i].mode));
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "runs", a);
	return o;
}

int compare_print_json(FILE *f, const struct compare *c)
{
	json_t *root = json_object();
	json_object_set_new(root, "a", refs_json(c->a_runs, c->na, c->a_title));
	json_object_set_new(root, "b", refs_json(c->b_runs, c->nb, c->b_title));
	json_object_set_new(root, "confidence", json_real(c->conf));
	json_object_set_new(root, "floors", json_string(c->rows_learned && c->rows_default ? "mixed"
							: c->rows_learned ? "learned"
							: c->rows_default ? "default" : "none"));
	json_object_set_new(root, "basis", json_string(c->basis));
	json_object_set_new(root, "calibrate", json_string(c->calibrate_cmd));
	json_t *diffs = json_array();
	for (int i = 0; i < c->ndiffs; i++) {
		json_t *d = json_object();
		json_object_set_new(d, "what", json_string(c->diffs[i].what));
		json_object_set_new(d, "a", json_string(c->diffs[i].a));
		json_object_set_new(d, "b", json_string(c->diffs[i].b));
		json_array_append_new(diffs, d);
	}
	json_object_set_new(root, "differences", diffs);
	json_t *blocks = json_array();
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		json_t *bo = json_object();
		json_object_set_new(bo, "copies", json_integer(b->copies));
		json_t *rows = json_array();
		for (int i = 0; i < b->nrows; i++)
			json_array_append_new(rows, row_json(&b->rows[i]));
		json_object_set_new(bo, "tests", rows);
		json_object_set_new(bo, "index", row_json(&b->index));
		json_object_set_new(bo, "mean_change_pct", jnum(b->mean_change));
		json_object_set_new(bo, "geomean_change_pct", jnum(b->geomean_change));
		json_object_set_new(bo, "faster", json_integer(b->nfaster));
		json_object_set_new(bo, "slower", json_integer(b->nslower));
		json_object_set_new(bo, "no_significant_change", json_integer(b->nsame));
		json_object_set_new(bo, "na", json_integer(b->nna));
		json_array_append_new(blocks, bo);
	}
	json_object_set_new(root, "blocks", blocks);
	json_t *foot = json_array();
	for (int i = 0; i < c->nfooter; i++)
		json_array_append_new(foot, json_string(c->footer[i]));
	json_object_set_new(root, "footer", foot);
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return rc < 0 ? -EIO : 0;
}

static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.10g", v);
	else
		fputc(',', f);
}

static void csv_row(FILE *f, int copies, const struct compare_row *r)
{
	fprintf(f, "%d,", copies);
	csv_str(f, r->id);
	fputc(',', f);
	csv_str(f, r->label);
	csv_num(f, r->a.present ? r->a.score : NAN);
	csv_num(f, r->a.index > 0 ? r->a.index : NAN);
	csv_num(f, r->b.present ? r->b.score : NAN);
	csv_num(f, r->b.index > 0 ? r->b.index : NAN);
	csv_num(f, r->change);
	csv_num(f, r->change_lo);
	csv_num(f, r->change_hi);
	fprintf(f, ",%s,%d,%d", compare_verdict_name(r->verdict), r->a.drift, r->b.drift);
	csv_num(f, r->floor_pct);
	csv_num(f, r->sure * 100);
	fputc(',', f);
	csv_str(f, r->note ? r->note : "");
	fputc('\n', f);
}

void compare_print_csv(FILE *f, const struct compare *c)
{
	fprintf(f, "copies,test,label,a_score,a_index,b_score,b_index,change_pct,change_lo_pct,"
		   "change_hi_pct,verdict,a_drift,b_drift,noise_floor_pct,sure_pct,note\n");
	for (int k = 0; k < c->nblocks; k++) {
		for (int i = 0; i < c->blocks[k].nrows; i++)
			csv_row(f, c->blocks[k].copies, &c->blocks[k].rows[i]);
		csv_row(f, c->blocks[k].copies, &c->blocks[k].index);
	}
}
