/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a comparison says beside its rows: the environment differences between
 * the sides, the basis of its verdicts, and the footer sentences. */
#include "compare.h"
#include "compare_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "meta_fields.h"
#include "noise.h"
#include "run.h"
#include "strv.h"
#include "telemetry/others.h"
#include "tests.h"

bool compare_summary_value(const struct test_result *t, const char *key, double *v)
{
	const struct kv *x = test_summary_get(t, key);
	if (!x || !x->has_value || !isfinite(x->value))
		return false;
	*v = x->value;
	return true;
}

void compare_push_footer(struct compare *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strv_vpush(&c->footer, &c->nfooter, 1024, fmt, ap);
	va_end(ap);
}

void compare_add_diff(struct compare *c, const char *what, const char *a, const char *b)
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
	const char *mode = run_mode_info(r->meta.mode)->name;
	int n = snprintf(buf, size, "%s", mode[0] ? mode : "full");
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

/* The method of meter `name` in a run's "name: method; ..." record, into buf; false when not recorded. */
static bool meter_of(const char *meters, const char *name, char *buf, size_t size)
{
	size_t l = strlen(name);
	for (const char *p = meters; p && *p; p = strstr(p, "; "), p = p ? p + 2 : NULL) {
		if (strncmp(p, name, l) || strncmp(p + l, ": ", 2))
			continue;
		p += l + 2;
		const char *end = strstr(p, "; ");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
		return true;
	}
	return false;
}

/* Each meter both runs recorded that measured differently (an estimated clock
 * against a measured one, RAPL against a battery, user-only counters against
 * full ones): a difference of meters, not of kernels. Said beside the other
 * differences; the verdicts are neither widened nor withheld for it. */
static void meter_diffs(struct compare *c, const struct run *a, const struct run *b)
{
	const char *x = a->meta.meters, *y = b->meta.meters;
	if (!x[0] || !y[0])
		return;
	int n = 0;
	char names[600] = "";
	for (const char *p = x; p && *p; p = strstr(p, "; "), p = p ? p + 2 : NULL) {
		const char *colon = strstr(p, ": ");
		if (!colon)
			break;
		char name[40], ma[160], mb[160], what[64];
		snprintf(name, sizeof name, "%.*s", (int)(colon - p < 39 ? colon - p : 39), p);
		if (!meter_of(x, name, ma, sizeof ma) || !meter_of(y, name, mb, sizeof mb) || !strcmp(ma, mb))
			continue;
		snprintf(what, sizeof what, "%s meter", name);
		compare_add_diff(c, what, ma, mb);
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", n ? ", " : "", name);
		n++;
	}
	if (n)
		compare_push_footer(c,
				    "Meters measured differently in the two runs (%s; see the differences above): "
				    "what those meters show differs by method, not by kernel; the verdicts "
				    "are the scores' and are not widened or withheld for it.",
				    names);
}

static void env_diffs(struct compare *c, const struct run *a, const struct run *b)
{
	const struct run_meta *x = &a->meta, *y = &b->meta;
	bool imported = !run_mode_info(x->mode)->measured || !run_mode_info(y->mode)->measured;
	char sa[160], sb[160];
	/* The fields whose rows name a note (src/record/meta_fields.c), in their notes' order. An
	 * import knows little of its machine: its unknowns are not differences; where the file
	 * tests wrote and the kernel settings (run file 1.1) are none when a side does not know
	 * them. Swap used is not compared: it changes from run to run on one machine. */
	for (int rank = 1;; rank++) {
		const struct meta_field *f = NULL;
		for (size_t i = 0; i < meta_field_count && !f; i++)
			if (meta_fields[i].note && meta_fields[i].note_rank == rank)
				f = &meta_fields[i];
		if (!f)
			break;
		const char *fx = meta_at_c(f, x), *fy = meta_at_c(f, y);
		if (f->note_when == MN_ALWAYS || (f->note_when == MN_UNLESS_IMPORTED && (!imported || (fx[0] && fy[0]))) ||
		    (f->note_when == MN_KNOWN && known(fx) && known(fy)))
			compare_add_diff(c, f->note, fx, fy);
	}
	if (known(x->thp_enabled) && known(y->thp_enabled)) {
		snprintf(sa, sizeof sa, "%s (defrag %s)", x->thp_enabled,
			 x->thp_defrag[0] ? x->thp_defrag : "unknown");
		snprintf(sb, sizeof sb, "%s (defrag %s)", y->thp_enabled,
			 y->thp_defrag[0] ? y->thp_defrag : "unknown");
		compare_add_diff(c, "THP", sa, sb);
	}
	if (x->swap_known && y->swap_known) {
		swap_text(x, sa, sizeof sa);
		swap_text(y, sb, sizeof sb);
		compare_add_diff(c, "swap", sa, sb);
	}
	snprintf(sa, sizeof sa, "%d", x->ncpus);
	snprintf(sb, sizeof sb, "%d", y->ncpus);
	if (x->ncpus && y->ncpus)
		compare_add_diff(c, "cpus", sa, sb);
	copies_text(a, sa, sizeof sa);
	copies_text(b, sb, sizeof sb);
	compare_add_diff(c, "copies", sa, sb);
	mode_text(a, sa, sizeof sa);
	mode_text(b, sb, sizeof sb);
	compare_add_diff(c, "mode", sa, sb);
	snprintf(sa, sizeof sa, "%d", a->nnotes);
	snprintf(sb, sizeof sb, "%d", b->nnotes);
	if (!imported)
		compare_add_diff(c, "warnings", sa, sb);
	snprintf(sa, sizeof sa, "%s", a->incomplete ? "incomplete" : "complete");
	snprintf(sb, sizeof sb, "%s", b->incomplete ? "incomplete" : "complete");
	compare_add_diff(c, "run", sa, sb);
	meter_diffs(c, a, b);
}

void compare_title(char *buf, size_t size, const struct run *const *r, int n)
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

/* A word as the shell reads it back: itself when plain, else in single quotes. */
static int shell_word(char *buf, size_t size, const char *w)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,._/:+=@-") == strlen(w))
		return snprintf(buf, size, "%s", w);
	int n = snprintf(buf, size, "'");
	for (const char *c = w; *c && n >= 0 && (size_t)n < size; c++)
		n += *c == '\'' ? snprintf(buf + n, size - (size_t)n, "'\\''")
				: snprintf(buf + n, size - (size_t)n, "%c", *c);
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "'");
	return n;
}

/* The run's workload parameters as the options that give them again:
 * "period-us=500 fifo=off huge" is " --period-us 500 --fifo off --huge";
 * source's escapes (kbuild_param_source) undone. Returns the characters
 * added (at most size - 1). */
static int params_options(char *buf, size_t size, const char *params)
{
	int n = 0;
	buf[0] = '\0';
	for (const char *p = params; *p && n >= 0 && (size_t)n < size;) {
		size_t len = strcspn(p, " ");
		if (!len) {
			p++;
			continue;
		}
		const char *eq = memchr(p, '=', len);
		size_t nl = eq ? (size_t)(eq - p) : len;
		/* an option's name is lower case, digits and dashes: a run file
		 * that says otherwise gets no word of it into a command to paste */
		bool name_ok = nl > 0;
		for (size_t k = 0; k < nl; k++)
			name_ok = name_ok && (islower((unsigned char)p[k]) || isdigit((unsigned char)p[k]) || p[k] == '-');
		if (!name_ok) {
			p += len;
			continue;
		}
		n += snprintf(buf + n, size - (size_t)n, " --%.*s", (int)nl, p);
		if (eq && n >= 0 && (size_t)n < size) {
			char v[4608];
			size_t u = 0;
			for (const char *c = eq + 1; c < p + len && u + 1 < sizeof v; c++) {
				unsigned x;
				if (*c == '%' && p + len - c >= 3 && sscanf(c + 1, "%2x", &x) == 1) {
					v[u++] = (char)x;
					c += 2;
				} else {
					v[u++] = *c;
				}
			}
			v[u] = '\0';
			n += snprintf(buf + n, size - (size_t)n, " ");
			if (n >= 0 && (size_t)n < size)
				n += shell_word(buf + n, size - (size_t)n, v);
		}
		p += len;
	}
	if (n < 0)
		n = 0;
	return (size_t)n < size ? n : (int)size - 1;
}

/* The command that calibrates for run r's settings: the same mode, sample
 * length and -i, the workload settings, and the tests beyond the index it ran. */
static void calibrate_cmd(char *buf, size_t size, const struct run *r)
{
	const struct run_meta *m = &r->meta;
	int n = snprintf(buf, size, "kbench calibrate");
	if (m->mode == &run_mode_quick)
		n += snprintf(buf + n, size - (size_t)n, " --quick");
	else if (!(m->duration_override > 0) && !(m->iterations > 0))
		n += snprintf(buf + n, size - (size_t)n, " --full");
	if (m->duration_override > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " --duration %g", m->duration_override);
	if (m->iterations > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " -i %d", m->iterations);
	/* the settings the run's tests ran with (--period-us, --tasks, ...):
	 * floors learned for others would not apply to its points */
	if ((size_t)n < size)
		n += params_options(buf + n, size - (size_t)n, m->params);
	/* The index is calibrate's default; any other set of tests is named. */
	const char *ids[64];
	int nids = run_test_ids(r, ids, 64), in_index = 0;
	const struct test_group *ix = test_group_find("index");
	for (int k = 0; k < nids; k++)
		for (const char *const *x = ix && ix->ids ? ix->ids : NULL; x && *x; x++)
			in_index += !strcmp(*x, ids[k]);
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
					if (compare_summary_value(tr, "others.cpu", &v) && v >= OTHERS_BUSY_CPU) {
						nb_++;
						if (v > most) {
							most = v;
							most_id = tr->id;
						}
					}
					if (compare_summary_value(tr, "throttled", &v) && v >= 1)
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
		compare_push_footer(c, "Busy machine: %s: other processes used the CPUs while %s ran, so %s measured "
			       "that load too. Those rows are n/a (busy); stop what else runs ('top' shows it) "
			       "and run again.",
			    busy, nbusy == 1 ? "it" : "they", nbusy == 1 ? "its scores" : "their scores");
	if (early[0])
		compare_push_footer(c, "%s started on a busy machine (the preflight says so), but the tests ran with "
			       "the CPUs to themselves.", early);
	if (nthr)
		compare_push_footer(c, "Throttled: %s; those rows are n/a (throttled): they measured the cooling, "
			       "not the kernel ('kbench show' has the evidence).", thr);
	if (warm[0])
		compare_push_footer(c, "%s started with the CPU still warm from an earlier run (the preflight says so) "
			       "and may throttle sooner: a test seen throttled is n/a, the others are judged.", warm);
}

/* A side's mean log pace over its runs (run_pace); false when any run has none. */
static bool side_pace(const struct run *const *r, int n, double *x)
{
	if (n <= 0)
		return false;
	double sum = 0;
	for (int i = 0; i < n; i++) {
		double v = run_pace(r[i]);
		if (!(v > 0))
			return false;
		sum += log(v);
	}
	*x = sum / n;
	return true;
}

/* The machine's own pace beside the tests: how far apart the sides ran it,
 * and what that alone would do to the index. A VM's host or the heat moves
 * every score, the index 2 to 8 times the pace between runs of one kernel on
 * a 2-CPU VM (make bench-host-pace): so a small pace difference is no proof
 * of a small effect. Where the store's A/A runs learned the index's slope on
 * the pace (noise_pace_slope), the footer says what the difference predicts;
 * where not, it says so. One run a side cannot tell the machine from the
 * kernel; a plan across boots takes the pace out (plan_pace.h). */
#define PACE_SAY_PCT 2.0 /* unlearned: a pace difference above it is named as a cause */
#define PACE_MOVES_PCT 1.0 /* learned: an index change predicted above it is named as a cause */
#define PACE_FOLLOWS_R 0.3 /* learned: below this correlation the slope predicts nothing */
static void pace_footer(struct compare *c, const struct run *const *a, int na, const struct run *const *b, int nb,
			const struct compare_tally *t)
{
	double xa, xb;
	if (!side_pace(a, na, &xa) || !side_pace(b, nb, &xb))
		return;
	double pct = (exp(xb - xa) - 1) * 100;
	char said[320], ix[48] = "", why[256] = "";
	bool cause;
	if (t->has_index && t->pace_learned && t->pace_r < PACE_FOLLOWS_R) {
		snprintf(said, sizeof said, ". Between A/A runs here the index hardly followed the pace (r %.2f, %d df).",
			 t->pace_r, t->pace_df);
		cause = false;
	} else if (t->has_index && t->pace_learned) {
		double moved = (exp(t->pace_slope * (xb - xa)) - 1) * 100;
		if (isfinite(t->index_change))
			snprintf(ix, sizeof ix, ", against the index's %+.1f%%", t->index_change);
		snprintf(said, sizeof said,
			 ". Between A/A runs here the index moved %.1f times the pace (r %.2f, %d df): this alone would "
			 "move it %+.1f%%%s.",
			 t->pace_slope, t->pace_r, t->pace_df, moved, ix);
		cause = fabs(moved) >= PACE_MOVES_PCT;
	} else {
		snprintf(said, sizeof said, "%s",
			 fabs(pct) < PACE_SAY_PCT ? "; how far the scores follow it here is not learned yet (five or "
						    "more A/A runs with the pace teach it)."
						  : ".");
		cause = fabs(pct) >= PACE_SAY_PCT;
	}
	if (cause)
		snprintf(why, sizeof why,
			 " Either the machine ran %s (a VM's host, the heat), which moves every score, or B's kernel "
			 "changed the clock; a plan across boots (kbench plan) reports both answers.",
			 pct > 0 ? "faster" : "slower");
	compare_push_footer(c, "The machine's pace (a fixed chain timed beside the tests): B's runs %+.1f%% against A's%s%s",
			    pct, said, why);
}

/* Which floors a row's verdict rests on, for the basis line: a row of
 * single runs uses the floors even when its verdict is withheld. */
void compare_count_basis(struct compare *c, const struct compare_row *row, const struct noise_floor *fa,
			 const struct noise_floor *fb, const struct run *ra, const struct run *rb, int na,
			 int nb, const struct run **uncalibrated)
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

/* The sentences under the table: what the verdicts rest on, what would
 * settle the rest, and what was withheld. */
void compare_footer(struct compare *c, const struct run *const *a, int na, const struct run *const *b,
		    int nb, const struct compare_tally *t)
{
	int undecided = t->undecided, settle = t->settle, na_rows = t->na_rows, drifts = t->drifts;
	const struct run *uncalibrated = t->uncalibrated;
	env_diffs(c, a[0], b[0]);

	basis(c, uncalibrated ? uncalibrated : b[nb - 1]);

	/* The footer: what the verdicts rest on, and what would settle the rest. */
	if (na == 1 && nb == 1) {
		if (c->rows_learned)
			compare_push_footer(c, "Verdicts: one run per side; each interval (%.0f%%) combines the runs' own "
				       "sample spread with this machine's run-to-run noise, learned from %d stored "
				       "same-kernel runs of the same settings (see 'kbench noise').",
				    c->conf * 100, c->calib_runs);
		else
			compare_push_footer(c, "Verdicts: one run per side; each interval (%.0f%%) combines the runs' own "
				       "sample spread with a default run-to-run noise floor per test, wide on "
				       "purpose: a noisy VM moves a score by that much between identical runs.",
				    c->conf * 100);
	} else {
		compare_push_footer(c, "Verdicts: %d run%s vs %d run%s; each interval (%.0f%%) is Welch's on the "
			       "per-run scores, so it rests on the spread between runs%s.",
			    na, na == 1 ? "" : "s", nb, nb == 1 ? "" : "s", c->conf * 100,
			    na == 1 || nb == 1 ? " (the single run borrows the noise floor)" : "");
	}
	if (c->rows_default)
		compare_push_footer(c, "Calibrate to get this machine's own floors: %s (5 runs of this kernel, stored "
			       "as A/A runs; every later comparison with these settings uses them).",
			    c->calibrate_cmd);
	bool decided = false;
	for (int k = 0; k < c->nblocks; k++)
		decided = decided || c->blocks[k].nfaster || c->blocks[k].nslower;
	if (decided)
		compare_push_footer(c, "The %% after faster or slower says how sure: at 99%%, noise alone would show a "
			       "change that large once in a hundred comparisons.");
	busy_footer(c, a, na, b, nb);
	pace_footer(c, a, na, b, nb, t);
	for (int i = 0; family_list[i]; i++) /* what differs in its own terms, its sentences */
		if (family_list[i]->compare)
			family_list[i]->compare(c, a, na, b, nb);
	/* The floors themselves, so the +- column can be checked by hand. */
	char floors[1024] = "";
	for (int k = 0; k < c->nblocks && !floors[0]; k++)
		for (int i = 0; i < c->blocks[k].nrows; i++) {
			const struct compare_row *row = &c->blocks[k].rows[i];
			if (!isfinite(row->floor_pct) || row->detail)
				continue;
			size_t u = strlen(floors);
			snprintf(floors + u, sizeof floors - u, "%s%s %.1f%%", u ? ", " : "", row->id,
				 row->floor_pct);
		}
	if (floors[0])
		compare_push_footer(c, "Noise floor per run (sd%s): %s.",
			    c->rows_learned ? ", learned and default blended" : ", defaults for these settings",
			    floors);
	if (undecided) {
		if (c->rows_default)
			compare_push_footer(c, "%d test%s show%s no significant change. To tell smaller changes from noise, "
				       "calibrate (above) and compare again; a second run per side (compare A,A2 "
				       "B,B2) narrows the intervals by about a third.",
				    undecided, undecided == 1 ? "" : "s", undecided == 1 ? "s" : "");
		else if (settle)
			compare_push_footer(c, "%d test%s show%s no significant change; one or two more runs per side "
				       "(compare A,A2 B,B2) would likely settle %d of them if their changes hold.",
				    undecided, undecided == 1 ? "" : "s", undecided == 1 ? "s" : "", settle);
		else
			compare_push_footer(c, "%d test%s show%s no significant change: within this machine's noise (the "
				       "+- column); a second run per side narrows it by about a third.",
				    undecided, undecided == 1 ? "" : "s", undecided == 1 ? "s" : "");
	}
	if (na_rows)
		compare_push_footer(c, "n/a: %d test%s without samples on a side (an imported result has no error "
			       "bar; import or run several to compare as a group).",
			    na_rows, na_rows == 1 ? "" : "s");
	if (drifts)
		compare_push_footer(c, "! marks a test whose samples drift within a run by more than the noise "
			       "(throttling or background load?); its interval is widened by half the drift.");
}

/* The footer sentence of a pair test compared on one placement (compare_place.c), or withheld for it. */
void compare_place_footer(struct compare *c, const struct compare_row *row, const struct place_pick *p)
{
	if (!p->only && !p->differs)
		return;
	char side[2][80], mixed[2][24] = { "", "" };
	for (int s = 0; s < 2; s++) {
		if (p->n[s][PLACE_MIXED])
			snprintf(mixed[s], sizeof mixed[s], ", %d mixed", p->n[s][PLACE_MIXED]);
		snprintf(side[s], sizeof side[s], "%d on one CPU, %d on two%s", p->n[s][PLACE_ONE], p->n[s][PLACE_TWO],
			 mixed[s]);
	}
	if (p->differs)
		compare_push_footer(c, "%s placed its pairs of processes differently: A's samples %s; B's %s. "
				       "A placement is not a kernel's difference: the row is n/a "
				       "(--pair-cpus one or two measures one case).",
				    row->id, side[0], side[1]);
	else {
		const char *how = p->by_time ? (p->only == PLACE_ONE ? "by each pair's time on one CPU"
								      : "by each pair's time on two CPUs")
				  : p->only == PLACE_ONE ? "with each pair on one CPU alone" : "with each pair on two CPUs alone";
		char runs[120] = "";
		if (p->runs[0] < p->of[0] || p->runs[1] < p->of[1])
			snprintf(runs, sizeof runs, ", in the runs that have them (A: %d of %d runs, B: %d of %d), "
						    "and the index on those runs",
				 p->runs[0], p->of[0], p->runs[1], p->of[1]);
		compare_push_footer(c, "%s compared on its samples %s%s (%sA's samples %s; B's %s): "
				       "a placement is not a kernel's difference.",
				    row->id, how, runs, p->by_time ? "a sample's round trips there over its time there; " : "",
				    side[0], side[1]);
	}
}
