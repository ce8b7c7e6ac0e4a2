/* The HTML report: one self-contained file (inline CSS and SVG, no script) of a run, or of a comparison. */
#include "report_html.h"
#include "report_html_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare.h"
#include "family.h"
#include "fileio.h"
#include "report.h"
#include "run.h"
#include "svg.h"
#include "thermal.h"

/* Machine or user text, escaped. */
void html_esc(struct html *h, const char *s)
{
	html_text(h->f, s, h->home);
}

/* kbench's own markup and numbers; never a string from a run (esc is for those). */
void html_out(struct html *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(h->f, fmt, ap);
	va_end(ap);
}

/* A cell of machine text: <td>text</td>, "unknown" when empty. */
static void td(struct html *h, const char *s)
{
	html_out(h, "<td>");
	if (s && *s)
		html_esc(h, s);
	else
		html_out(h, "<span class=\"dim\">unknown</span>");
	html_out(h, "</td>");
}

/* Colour-blind safe (Okabe-Ito blue and vermillion) and told apart in greyscale
 * by fill: faster solid, slower hatched, no change hollow; the word says it too. */
static const char css[] =
	"*{box-sizing:border-box}"
	"body{font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"color:#1a1a1a;background:#fff;margin:0 auto;padding:18px 24px 40px;max-width:1400px}"
	"h1{font-size:26px;margin:0 0 2px;overflow-wrap:anywhere}"
	"h2{font-size:20px;margin:28px 0 8px;border-bottom:2px solid #1a1a1a;padding-bottom:2px}"
	"h3{font-size:15px;margin:14px 0 2px;font-weight:600}"
	".sub{color:#444;margin:0 0 12px;overflow-wrap:anywhere}.dim{color:#666}"
	"table{border-collapse:collapse;width:100%;table-layout:fixed}"
	"td,th{padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere;"
	"border-bottom:1px solid #ddd}"
	"th{font-weight:600;background:#f2f2f2}"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
	"table.facts th{font-size:14px}table.facts th.k{width:7.5em}table.facts td,table.facts "
	"th{padding:2px 8px}"
	"table.facts td{font-size:14px}"
	".top{display:flex;flex-wrap:wrap;gap:10px 32px;align-items:flex-start}"
	".top>.big{flex:0 1 auto;margin:0}.top>table{flex:1 1 560px;width:auto}"
	".big{display:flex;flex-direction:column;gap:14px;margin:8px 0}.idx{min-width:250px}"
	".idx .what{font-size:15px;color:#444}"
	".idx .num{font-size:64px;font-weight:700;line-height:1.05;"
	"font-variant-numeric:tabular-nums}"
	".idx .chg{font-size:22px;font-weight:600}svg.bar{display:block;width:100%;height:20px}"
	"svg.chart{display:block;width:100%;height:auto;background:#fff}"
	"svg.defs{position:absolute;width:0;height:0}.faster{fill:#0072b2}"
	".slower{fill:url(#hatch)}.same{fill:#fff;stroke:#555;stroke-width:1.2}.na{fill:#d9d9d9}"
	".val{fill:#555}.whisk{stroke:#000;stroke-width:1.6;fill:none}"
	".zero{stroke:#000;stroke-width:1}.v-faster{color:#00507d;font-weight:700}"
	".v-slower{color:#a13c00;font-weight:700}.v-same{color:#444}.v-na{color:#666}"
	".key{display:inline-block;width:26px;height:12px;vertical-align:middle;"
	"margin:0 4px 0 14px}"
	".key svg{width:26px;height:12px;display:block}.frame{fill:none;stroke:#999}"
	".grid{stroke:#e3e3e3;stroke-width:1}"
	".tick,.unit,.mlab,.empty{font:13px system-ui,'DejaVu Sans',sans-serif;fill:#333}"
	".mlab{font-size:11px;fill:#555}.empty{font-size:15px;fill:#666}"
	".mark{stroke:#888;stroke-width:1;stroke-dasharray:3 3}"
	".line{fill:none;stroke:#0072b2;stroke-width:1.8;stroke-linejoin:round}"
	".line.thin{stroke-width:1;stroke-opacity:.75}.dot{fill:#0072b2}"
	".line.second{stroke:#d55e00;stroke-dasharray:7 4}"
	".dist{fill:#0072b2}"
	".band{fill:#0072b2;fill-opacity:.55;stroke:#0072b2;stroke-width:.8}"
	".thr{fill:#d55e00;fill-opacity:.13}.thrtop{fill:url(#hatch)}"
	;
/* then each family's (family.h html_css), then the rest */
static const char css_tail[] =
	"pre{font:13px/1.35 'DejaVu Sans Mono',Menlo,Consolas,monospace;background:#f6f6f6;"
	"padding:10px;white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #ddd}"
	"ul.notes{padding-left:20px;font-size:14px}ul.notes li{overflow-wrap:anywhere}"
	"p.basis{font-size:15px;overflow-wrap:anywhere}"
	"p.foot{font-size:14px;color:#333;overflow-wrap:anywhere}"
	"footer{margin-top:30px;font-size:13px;color:#555}"
	"@media print{body{padding:0;font-size:11pt}h2{break-after:avoid}"
	"svg.chart,tr{break-inside:avoid}}";

/* ---- small formatting ---- */

static void fmt_date(char *buf, size_t size, time_t t)
{
	struct tm tm;
	if (!t || !localtime_r(&t, &tm))
		snprintf(buf, size, "unknown");
	else
		strftime(buf, size, "%Y-%m-%d %H:%M %Z", &tm);
}

static void fmt_score(char *buf, size_t size, double v)
{
	if (!isfinite(v) || v <= 0)
		snprintf(buf, size, "&ndash;");
	else if (v >= 1e6)
		snprintf(buf, size, "%.0f", v);
	else if (v >= 100)
		snprintf(buf, size, "%.1f", v);
	else /* a latency of 1.287 ns keeps its digits */
		snprintf(buf, size, "%.4g", v);
}

void html_fmt_pct(char *buf, size_t size, double v, bool sign)
{
	if (!isfinite(v))
		snprintf(buf, size, "&ndash;");
	else
		snprintf(buf, size, sign ? "%+.1f%%" : "%.1f%%", v);
}

const char *html_verdict_class(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_FASTER: return "faster";
	case VERDICT_SLOWER: return "slower";
	case VERDICT_SAME: return "same";
	default: return "na";
	}
}

const char *html_verdict_glyph(enum compare_verdict v)
{
	switch (v) {
	case VERDICT_FASTER: return "&#9650; ";
	case VERDICT_SLOWER: return "&#9660; ";
	case VERDICT_SAME: return "&#8776; ";
	default: return "";
	}
}

const struct test_result *html_find_test(const struct run *r, int copies, const char *id)
{
	const struct run_block *b = r ? run_find_block(r, copies) : NULL;
	return b ? run_block_find_test(b, id) : NULL;
}

/* ---- result kinds: how one test's result is drawn ----
 *
 * A rate, or a points result's headline points. A family that draws its
 * results in a section of its own says so through its hooks (family.h
 * html_claims), and the tables give it the row it draws. claims() sees the
 * run's result, or NULL for a comparison row the run lacks. */

struct html_kind {
	const char *name;
	bool (*claims)(const struct test_result *t);
	/* one run: the cells after the test's label and copies */
	void (*alone)(struct html *h, const struct test_result *t, double max_index);
	/* a comparison row: the cells after the label */
	void (*versus)(struct html *h, const struct compare_row *r, double range);
};

static bool rate_claims(const struct test_result *t)
{
	return true; /* a score per second (or per minute), with or without a baseline */
}

static void rate_cells(struct html *h, const struct test_result *t, double max_index);

static void rate_alone(struct html *h, const struct test_result *t, double max_index)
{
	html_out(h, "<tr><td>");
	html_esc(h, t->label);
	html_out(h, "</td>");
	rate_cells(h, t, max_index);
	html_out(h, "</tr>");
}

static void rate_cells(struct html *h, const struct test_result *t, double max_index)
{
	bool ok = t->status == TEST_DONE || t->status == TEST_IMPORTED;
	if (!ok) {
		html_out(h, "<td colspan=\"5\" class=\"dim\">%s", test_status_name(t->status));
		if (t->reason[0]) {
			html_out(h, ": ");
			html_esc(h, t->reason);
		}
		html_out(h, "</td>");
		return;
	}
	char s[64], ix[64];
	fmt_score(s, sizeof s, t->score);
	fmt_score(ix, sizeof ix, t->index > 0 ? t->index : NAN);
	html_out(h, "<td class=\"n\">%s</td><td>", s);
	html_esc(h, t->unit);
	html_out(h, "</td><td class=\"n\"><b>%s</b></td>", ix);
	if (t->spread >= 0)
		html_out(h, "<td class=\"n\">&plusmn;%.1f%% <span class=\"dim\">(%d)</span></td>",
		    t->spread * 100, t->nsamples);
	else
		html_out(h, "<td class=\"n dim\">&ndash;</td>");
	html_out(h, "<td>");
	svg_value_bar(h->f, t->index > 0 ? t->index : NAN, max_index);
	html_out(h, "</td>");
}

static void rate_versus(struct html *h, const struct compare_row *r, double range)
{
	char a[64], b[64], ch[32], pm[32], verdict[96];
	fmt_score(b, sizeof b, r->b.present ? r->b.score : NAN);
	fmt_score(a, sizeof a, r->a.present ? r->a.score : NAN);
	html_fmt_pct(ch, sizeof ch, r->change, true);
	html_fmt_pct(pm, sizeof pm, r->change_pm, false);
	compare_verdict_text(verdict, sizeof verdict, r);
	const char *cls = html_verdict_class(r->verdict);
	html_out(h, "<td class=\"n\">%s</td><td class=\"n dim\">%s</td><td class=\"n\">%s</td>", b, a, ch);
	html_out(h, "<td class=\"n dim\">%s%s</td><td>", isfinite(r->change_pm) ? "&plusmn;" : "", pm);
	svg_change_bar(h->f, r->change, r->change_lo, r->change_hi, range, cls);
	html_out(h, "</td><td class=\"v-%s\">%s", cls, html_verdict_glyph(r->verdict));
	html_esc(h, verdict);
	html_out(h, "</td>");
}

static bool points_claims(const struct test_result *t)
{
	return t && t->kind == RESULT_POINTS;
}

/* A points test alone: a row per headline point (its mean over the samples,
 * unit and spread; no index); the curve is drawn below the table. */
static void points_alone(struct html *h, const struct test_result *t, double max_index)
{
	int shown = 0;
	for (int p = 0; p < t->npoints; p++) {
		const struct point *pt = &t->points[p];
		if (!pt->summary)
			continue;
		char v[64];
		fmt_score(v, sizeof v, point_mean(pt));
		html_out(h, "<tr><td>");
		html_esc(h, t->id);
		html_out(h, " ");
		html_esc(h, pt->name);
		html_out(h, "</td><td class=\"n\">%s</td><td>", v);
		html_esc(h, pt->unit);
		html_out(h, "</td><td class=\"n dim\">&ndash;</td>");
		double sp = point_spread(pt);
		if (sp >= 0)
			html_out(h, "<td class=\"n\">&plusmn;%.1f%% <span class=\"dim\">(%d)</span></td>", sp * 100,
			    pt->n);
		else
			html_out(h, "<td class=\"n dim\">&ndash;</td>");
		html_out(h, "<td class=\"dim\">%s</td></tr>", pt->lower_better ? "lower is better" : "higher is better");
		shown++;
	}
	if (!shown) {
		html_out(h, "<tr><td>");
		html_esc(h, t->label);
		html_out(h, "</td>");
		rate_cells(h, t, max_index); /* its status and reason */
		html_out(h, "</tr>");
	}
}

static const struct html_kind kinds[] = {
	{ "points", points_claims, points_alone, rate_versus },
	{ "rate", rate_claims, rate_alone, rate_versus },
};

static const struct html_kind *kind_of(const struct test_result *t)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].claims(t))
			return &kinds[i];
	return &kinds[0];
}

/* ---- the header ---- */

static void copies_text(char *buf, size_t size, const struct run *r)
{
	buf[0] = '\0';
	for (int b = 0; b < r->nblocks; b++) {
		size_t u = strlen(buf);
		snprintf(buf + u, size - u, "%s%d", b ? ", " : "", r->blocks[b].copies);
	}
}

static void mode_text(char *buf, size_t size, const struct run *r)
{
	const struct run_meta *m = &r->meta;
	const char *mode = run_mode_info(m->mode)->name;
	size_t u = (size_t)snprintf(buf, size, "%s", mode[0] ? mode : "unknown");
	if (m->duration_override > 0 && u < size)
		u += (size_t)snprintf(buf + u, size - u, ", %g s samples", m->duration_override);
	if (m->iterations > 0 && u < size)
		u += (size_t)snprintf(buf + u, size - u, ", -i %d", m->iterations);
	if (r->incomplete && u < size)
		snprintf(buf + u, size - u, ", incomplete");
}

/* The facts a reader asks for, one row each; a column per side. */
static void facts(struct html *h, const struct run *r, const struct run *base, int nbase)
{
	const struct run *side[2] = { r, base };
	int ns = base ? 2 : 1;
	html_out(h, "<table class=\"facts\"><tr><th class=\"k\"></th><th>this run</th>");
	if (base && nbase > 1)
		html_out(h, "<th>compared with (the first of %d runs)</th>", nbase);
	else if (base)
		html_out(h, "<th>compared with</th>");
	html_out(h, "</tr>");
	static const char *const rows[] = { "run",	"kernel",     "machine", "CPU",	 "memory",
					    "governor", "filesystem", "copies",	 "mode", "date" };
	for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
		html_out(h, "<tr><th>%s</th>", rows[k]);
		for (int s = 0; s < ns; s++) {
			const struct run_meta *m = &side[s]->meta;
			char buf[600];
			switch (k) {
			case 0:
				snprintf(buf, sizeof buf, "%s%s%s%s", m->name, m->id[0] ? " (" : "", m->id,
					 m->id[0] ? ")" : "");
				break;
			case 1:
				snprintf(buf, sizeof buf, "%s %s", m->kernel_release, m->kernel_version);
				break;
			case 2:
				snprintf(buf, sizeof buf, "%s%s%s", m->hostname, m->machine[0] ? ", " : "",
					 m->machine);
				break;
			case 3:
				if (m->ncpus)
					snprintf(buf, sizeof buf, "%s, %d CPU%s", m->cpu_model, m->ncpus,
						 m->ncpus == 1 ? "" : "s");
				else
					snprintf(buf, sizeof buf, "%s", m->cpu_model);
				break;
			case 4:
				if (m->mem_kib)
					snprintf(buf, sizeof buf, "%.1f GiB",
						 (double)m->mem_kib / (1024.0 * 1024.0));
				else
					buf[0] = '\0';
				break;
			case 5:
				snprintf(buf, sizeof buf, "%s%s%s", m->governor,
					 m->boost[0] ? ", boost " : "", m->boost);
				break;
			case 6:
				if (m->fs_type[0] && strcmp(m->fs_type, "unknown"))
					snprintf(buf, sizeof buf, "%s (%s) on %s, scratch %s", m->fs_type,
						 m->fs_options, m->fs_source, m->scratch_dir);
				else if (m->scratch_dir[0])
					snprintf(buf, sizeof buf, "unknown, scratch %s", m->scratch_dir);
				else
					buf[0] = '\0';
				break;
			case 7: copies_text(buf, sizeof buf, side[s]); break;
			case 8: mode_text(buf, sizeof buf, side[s]); break;
			default: fmt_date(buf, sizeof buf, m->date); break;
			}
			td(h, buf);
		}
		html_out(h, "</tr>");
	}
	html_out(h, "</table>");
}

static void diffs(struct html *h, const struct compare *c)
{
	if (!c->ndiffs) {
		html_out(h, "<p class=\"basis\">Same environment: kernel, command line, settings and kbench "
		       "build match.</p>");
		return;
	}
	html_out(h, "<h2>What differs between the two environments</h2>");
	html_out(h, "<table><tr><th style=\"width:18%%\"></th><th>this run</th><th>compared with</th></tr>");
	for (int i = 0; i < c->ndiffs; i++) {
		html_out(h, "<tr><th>");
		html_esc(h, c->diffs[i].what);
		html_out(h, "</th>");
		td(h, c->diffs[i].b);
		td(h, c->diffs[i].a);
		html_out(h, "</tr>");
	}
	html_out(h, "</table>");
}

/* ---- the index ---- */

/* A block with a test that has a UnixBench baseline: one with an index to state. */
static bool block_indexed(const struct run_block *bl)
{
	for (int i = 0; i < bl->ntests; i++)
		if (bl->tests[i].baseline > 0)
			return true;
	return false;
}

static void index_big(struct html *h, const struct run *r, const struct compare *c)
{
	html_out(h, "<div class=\"big\">");
	int shown = 0;
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		if (!block_indexed(bl))
			continue;
		shown++;
		char num[64];
		fmt_score(num, sizeof num, bl->index_score);
		html_out(h, "<div class=\"idx\"><div class=\"what\">System Benchmarks Index, %d cop%s%s</div>",
		    bl->copies, bl->copies == 1 ? "y" : "ies", bl->index_partial ? " (partial)" : "");
		html_out(h, "<div class=\"num\">%s</div>", num);
		const struct compare_block *cb = NULL;
		for (int i = 0; c && i < c->nblocks; i++)
			if (c->blocks[i].copies == bl->copies && c->blocks[i].in_a && c->blocks[i].in_b)
				cb = &c->blocks[i];
		if (cb && isfinite(cb->index.change)) {
			char ch[32], was[64], verdict[96];
			html_fmt_pct(ch, sizeof ch, cb->index.change, true);
			fmt_score(was, sizeof was,
				  cb->index.a.index > 0 ? cb->index.a.index : cb->index.a.score);
			compare_verdict_text(verdict, sizeof verdict, &cb->index);
			html_out(h,
			    "<div class=\"chg\"><span class=\"v-%s\">%s%s</span> <span class=\"dim\">(was "
			    "%s)</span></div>",
			    html_verdict_class(cb->index.verdict), html_verdict_glyph(cb->index.verdict), ch, was);
			html_out(h, "<div>");
			html_esc(h, verdict);
			html_out(h, "</div>");
		}
		html_out(h, "</div>");
	}
	if (!shown)
		html_out(h, "<div class=\"idx\"><div class=\"what\">No index: no test of this run has a UnixBench "
		       "baseline; its results are in the tables below.</div></div>");
	html_out(h, "</div>");
}

/* ---- per test ---- */

static void legend(struct html *h)
{
	static const char *const cls[] = { "faster", "slower", "same" };
	static const char *const word[] = { "faster", "slower", "no significant change" };
	html_out(h, "<p class=\"foot\">Bar: change of this run against the compared one; whisker: its 95%% "
	       "interval.");
	for (int i = 0; i < 3; i++)
		html_out(h,
		    "<span class=\"key\"><svg viewBox=\"0 0 26 12\" aria-hidden=\"true\"><rect "
		    "class=\"%s\" x=\"1\" y=\"1\" "
		    "width=\"24\" height=\"10\"/></svg></span>%s",
		    cls[i], word[i]);
	html_out(h, "</p>");
}

static void compare_tables(struct html *h, const struct run *r, const struct compare *c)
{
	html_out(h, "<h2>Per test: this run against ");
	html_esc(h, c->a_title);
	html_out(h, "</h2><p class=\"basis\">");
	html_esc(h, c->basis);
	html_out(h, "</p>");
	legend(h);
	for (int k = 0; k < c->nblocks; k++) {
		const struct compare_block *b = &c->blocks[k];
		double range = 5;
		for (int i = 0; i < b->nrows; i++) {
			const struct compare_row *row = &b->rows[i];
			double v[3] = { row->change, row->change_lo, row->change_hi };
			for (int j = 0; j < 3; j++)
				if (isfinite(v[j]) && fabs(v[j]) > range)
					range = fabs(v[j]);
		}
		range = range > 200 ? 200 : range * 1.05;
		html_out(h, "<h3>%d cop%s%s</h3>", b->copies, b->copies == 1 ? "y" : "ies",
		    !b->in_a   ? " (only in this run)"
		    : !b->in_b ? " (only in the compared run)"
			       : "");
		html_out(h, "<table class=\"cmp\"><tr><th style=\"width:22%%\">Test</th><th class=\"n\" "
		       "style=\"width:10%%\">this run</th>"
		       "<th class=\"n\" style=\"width:10%%\">compared</th><th class=\"n\" "
		       "style=\"width:8%%\">change</th>"
		       "<th class=\"n\" style=\"width:8%%\">95%%</th><th style=\"width:20%%\">change &amp; "
		       "interval</th>"
		       "<th style=\"width:22%%\">verdict</th></tr>");
		const struct family *summed[16]; /* families whose rows this block summed up */
		int nsummed = 0;
		for (int i = 0; i < b->nrows; i++) {
			const struct compare_row *row = &b->rows[i];
			if (row->detail) /* a curve point: counted below, drawn in the curve */
				continue;
			const struct family *fam = family_of_id(row->id);
			if (fam->html_claims_row && fam->html_claims_row(row)) { /* its own section, below */
				bool said = false;
				for (int k = 0; k < nsummed; k++)
					said = said || summed[k] == fam;
				if (!said && nsummed < 16) {
					fam->html_versus(h, r, b);
					summed[nsummed++] = fam;
				}
				continue;
			}
			html_out(h, "<tr><td>");
			html_esc(h, row->label);
			html_out(h, "</td>");
			kind_of(html_find_test(r, b->copies, row->id))->versus(h, row, range);
			html_out(h, "</tr>");
		}
		if (b->has_index) {
			struct compare_row ix = b->index;
			ix.a.score = ix.a.index;
			ix.b.score = ix.b.index;
			html_out(h, "<tr><td><b>Index score%s</b></td>",
			    b->a_partial || b->b_partial ? " (partial)" : "");
			rate_versus(h, &ix, range);
			html_out(h, "</tr>");
		}
		html_out(h, "</table>");
		char m[32], g[32];
		html_fmt_pct(m, sizeof m, b->mean_change, true);
		html_fmt_pct(g, sizeof g, b->geomean_change, true);
		html_out(h, "<p class=\"foot\">");
		if (b->ncompared)
			html_out(h, "Mean of changes %s, geometric mean of ratios %s (%d tests): ", m, g,
			    b->ncompared);
		html_out(h, "%d faster, %d slower, %d no significant change, %d n/a.", b->nfaster, b->nslower,
		    b->nsame, b->nna);
		if (b->ndetail)
			html_out(h, " Curve points (in the run file, not listed): %d, %d faster, %d slower, %d no "
			       "significant change, %d n/a.",
			    b->ndetail, b->dfaster, b->dslower, b->dsame, b->dna);
		html_out(h, "</p>");
	}
	for (int i = 0; i < c->nfooter; i++) {
		html_out(h, "<p class=\"foot\">");
		html_esc(h, c->footer[i]);
		html_out(h, "</p>");
	}
}

static void alone_tables(struct html *h, const struct run *r)
{
	html_out(h, "<h2>Per test</h2>");
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		double max_index = 0;
		for (int i = 0; i < bl->ntests; i++)
			if (bl->tests[i].index > max_index)
				max_index = bl->tests[i].index;
		html_out(h, "<h3>%d cop%s</h3>", bl->copies, bl->copies == 1 ? "y" : "ies");
		html_out(h, "<table><tr><th style=\"width:30%%\">Test</th><th class=\"n\" "
		       "style=\"width:14%%\">score</th>"
		       "<th style=\"width:8%%\">unit</th><th class=\"n\" style=\"width:10%%\">index</th>"
		       "<th class=\"n\" style=\"width:12%%\">spread (samples)</th><th>index</th></tr>");
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			const struct family *fam = family_of_result(t);
			if (fam->html_claims && fam->html_claims(t)) /* its own section's row */
				fam->html_alone(h, t);
			else
				kind_of(t)->alone(h, t, max_index);
		}
		if (block_indexed(bl)) {
			char ix[64];
			fmt_score(ix, sizeof ix, bl->index_score);
			html_out(h,
			    "<tr><td><b>Index score%s</b></td><td></td><td></td><td "
			    "class=\"n\"><b>%s</b></td><td></td><td></td></tr>",
			    bl->index_partial ? " (partial)" : "", ix);
		}
		html_out(h, "</table>");
	}
}

/* ---- points tests' curves ---- */

/* The line a curve point belongs to: its name without the digits that say
 * where it lies ("fwd 4096" and "rnd 4096": "fwd" and "rnd"; "-j2 user":
 * "-j user"), trimmed. */
static void line_key(char *buf, size_t size, const char *name)
{
	size_t n = 0;
	for (const char *p = name; *p && n + 1 < size; p++)
		if ((*p < '0' || *p > '9') && !(*p == ' ' && (n == 0 || buf[n - 1] == ' ')))
			buf[n++] = *p;
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

/* A chart needs a curve: a line over fewer sizes or counts than this is the table's business. */
#define CURVE_MIN_POINTS 4

/* One chart of a points test: its points of one unit, placed on their x
 * (positive). Curve points make the lines, one per line_key (two at most);
 * a unit with headline points alone (jobs/min per task count) is one line
 * named by its unit. */
static void curve_chart(struct html *h, const struct test_result *t, int copies, const char *unit,
			bool *titled)
{
	bool curve = false;
	for (int p = 0; p < t->npoints; p++)
		curve |= !t->points[p].summary && t->points[p].x > 0 && !strcmp(t->points[p].unit, unit);
	char names[2][32] = { "", "" };
	double *xs[2] = { NULL, NULL }, *ys[2] = { NULL, NULL };
	int n[2] = { 0, 0 }, nl = 0;
	const char *xunit = "";
	for (int p = 0; p < t->npoints; p++) {
		const struct point *pt = &t->points[p];
		double v = point_mean(pt);
		if (pt->summary == curve || !(pt->x > 0) || strcmp(pt->unit, unit) || !isfinite(v))
			continue;
		char key[32];
		if (curve)
			line_key(key, sizeof key, pt->name);
		else
			snprintf(key, sizeof key, "%s", unit);
		int l = 0;
		while (l < nl && strcmp(names[l], key))
			l++;
		if (l == nl) {
			if (nl == 2)
				continue; /* two lines at most */
			snprintf(names[l], sizeof names[l], "%s", key);
			xs[l] = calloc((size_t)t->npoints, sizeof *xs[l]);
			ys[l] = calloc((size_t)t->npoints, sizeof *ys[l]);
			if (!xs[l] || !ys[l])
				break;
			nl++;
		}
		xs[l][n[l]] = pt->x;
		ys[l][n[l]++] = v;
		xunit = pt->xunit;
	}
	if (nl && n[0] >= CURVE_MIN_POINTS) {
		if (!*titled)
			html_out(h, "<h2>Curves</h2>");
		*titled = true;
		double mx[8];
		char labs[8][24];
		const char *ml[8];
		int nm = 0;
		for (int k = 0; k < t->nsummary && nm < 8; k++) {
			int lvl;
			if (sscanf(t->summary[k].key, "cache.L%d", &lvl) != 1 || !t->summary[k].has_value)
				continue;
			snprintf(labs[nm], sizeof labs[nm], "L%d", lvl);
			ml[nm] = labs[nm];
			mx[nm++] = t->summary[k].value;
		}
		char ttl[160];
		snprintf(ttl, sizeof ttl, "%s, %d cop%s: %s against %s", t->label, copies, copies == 1 ? "y" : "ies",
			 unit, !strcmp(xunit, "B") ? "the working set" : xunit);
		html_out(h, "<h3>");
		html_esc(h, ttl);
		html_out(h, "</h3>");
		const char *nm2[2] = { names[0], names[1] };
		const double *cx[2] = { xs[0], xs[1] }, *cy[2] = { ys[0], ys[1] };
		svg_curve_chart(h->f, &(struct svg_curve){ .title = ttl, .xunit = xunit, .yunit = unit,
							   .home = h->home, .nlines = nl, .names = nm2, .x = cx,
							   .y = cy, .n = n, .nmarks = nm, .mark_x = mx,
							   .mark_label = ml });
	}
	for (int l = 0; l < 2; l++) {
		free(xs[l]);
		free(ys[l]);
	}
}

/* A latency test's percentiles (points at x in "%": "audio+burn p99") as
 * one distribution row per phase; false when the test has none. */
static bool percentile_chart(struct html *h, const struct test_result *t, int copies, bool *titled)
{
	struct svg_dist_row rows[24];
	char names[24][32];
	const char *unit = "";
	int n = 0;
	for (int p = 0; p < t->npoints; p++) {
		const struct point *pt = &t->points[p];
		const char *last = strrchr(pt->name, ' ');
		double v = point_mean(pt);
		if (!last || !isfinite(v))
			continue;
		bool pct = !strcmp(pt->xunit, "%"), mean = !strcmp(last + 1, "mean");
		if (!pct && !mean)
			continue;
		int w = (int)(last - pt->name), r = 0;
		while (r < n && (strlen(names[r]) != (size_t)w || strncmp(names[r], pt->name, (size_t)w)))
			r++;
		if (r == n) {
			if (n == 24)
				continue;
			snprintf(names[n], sizeof names[n], "%.*s", w, pt->name);
			rows[n] = (struct svg_dist_row){ names[n], NAN, NAN, NAN, NAN, NAN };
			n++;
		}
		const char *q = last + 1;
		double *slot = !strcmp(q, "p50")     ? &rows[r].p50
			       : !strcmp(q, "p99")   ? &rows[r].p99
			       : !strcmp(q, "p99.9") ? &rows[r].p999
			       : !strcmp(q, "max")   ? &rows[r].max
			       : mean		     ? &rows[r].mean
						     : NULL;
		if (slot)
			*slot = v;
		if (pct)
			unit = pt->unit;
	}
	bool any = false;
	for (int r = 0; r < n; r++)
		any |= isfinite(rows[r].p50);
	if (!any)
		return false;
	if (!*titled)
		html_out(h, "<h2>Curves</h2>");
	*titled = true;
	char ttl[160];
	snprintf(ttl, sizeof ttl, "%s, %d cop%s: %s, bar p50 to p99, whisker to the maximum, tick p99.9, dot the mean",
		 t->label, copies, copies == 1 ? "y" : "ies", unit);
	html_out(h, "<h3>");
	html_esc(h, ttl);
	html_out(h, "</h3>");
	svg_dist_chart(h->f, ttl, unit, h->home, rows, n);
	return true;
}

/* Each points test's charts, per copy count: one per unit of its points
 * that lie on a curve (x > 0), headline units first, in the order measured;
 * percentiles as distributions. */
static void curves(struct html *h, const struct run *r)
{
	bool title = false; /* the section's title comes with its first chart */
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			const struct family *fam = family_of_result(t);
			if (t->kind != RESULT_POINTS || (fam->html_claims && fam->html_claims(t)))
				continue; /* drawn in its family's section (its x may be no place on a curve) */
			percentile_chart(h, t, bl->copies, &title);
			const char *units[8];
			int nu = 0;
			for (int pass = 0; pass < 2; pass++)
				for (int p = 0; p < t->npoints && nu < 8; p++) {
					const struct point *pt = &t->points[p];
					/* a percentile is no place on a curve: drawn above */
					if (pt->summary != !pass || !(pt->x > 0) || !strcmp(pt->xunit, "%"))
						continue;
					bool seen = false;
					for (int u = 0; u < nu && !seen; u++)
						seen = !strcmp(units[u], pt->unit);
					if (!seen)
						units[nu++] = pt->unit;
				}
			for (int u = 0; u < nu; u++)
				curve_chart(h, t, bl->copies, units[u], &title);
		}
	}
}

/* ---- telemetry ---- */

/* The charts in a reading order: the score per sample (a thermal check's),
 * clock, heat, power, then the rest as stored. */
static int family_rank(const char *name)
{
	static const char *const order[] = { "score",	  "freq.",   "temp.",	"power",
					     "energy",	  "throttle.", "others.", "counter." };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (!strncmp(name, order[i], strlen(order[i])))
			return (int)i;
	return (int)(sizeof order / sizeof order[0]);
}

/* "freq.cpu3" -> length of "freq.cpu" (a per-CPU member), else 0. */
static size_t per_cpu_prefix(const char *name)
{
	const char *p = strstr(name, ".cpu");
	if (!p || !p[4])
		return 0;
	for (const char *d = p + 4; *d; d++)
		if (*d < '0' || *d > '9')
			return 0;
	return (size_t)(p + 4 - name);
}

/* The temperature sources store "C"; a reader expects the degree sign. */
static const char *c_unit(const char *unit)
{
	return strcmp(unit, "C") ? unit : "\u00b0C";
}

static const char *series_title(const char *name)
{
	static const struct {
		const char *name, *title;
	} titles[] = {
		{ "score", "Score of each sample" },
		{ "freq.mean", "CPU clock, mean over the CPUs" },
		{ "freq.busy", "CPU clock of the busy CPUs" },
		{ "temp.cpu", "CPU temperature" },
		{ "power", "Power" },
		{ "energy", "Energy used since the start" },
		{ "throttle.events", "Thermal throttle events since the start" },
		{ "throttle.ms", "Time throttled since the start" },
		{ "others.cpu", "CPUs used by other processes" },
	};
	for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
		if (!strcmp(titles[i].name, name))
			return titles[i].title;
	return NULL;
}

static int by_start(const void *x, const void *y)
{
	const struct svg_span *a = x, *b = y;
	return a->t0 < b->t0 ? -1 : a->t0 > b->t0;
}

/* Spans of time the run was throttled: where the throttle counters rose,
 * and the whole of each test the telemetry judged throttled. */
static int throttle_spans(const struct run *r, double t1, struct svg_span **out)
{
	int n = 0, cap = 16;
	struct svg_span *s = malloc((size_t)cap * sizeof *s);
	for (int i = 0; s && i < r->nseries; i++) {
		const struct series *se = &r->series[i];
		if (strcmp(se->name, "throttle.events") != 0)
			continue;
		for (int k = 1; k < se->n; k++) {
			if (!(se->v[k] > se->v[k - 1]))
				continue;
			if (n && s[n - 1].t1 >= se->t[k - 1]) {
				s[n - 1].t1 = se->t[k];
				continue;
			}
			if (n == cap) {
				struct svg_span *g = realloc(s, (size_t)(cap *= 2) * sizeof *s);
				if (!g)
					break;
				s = g;
			}
			s[n++] = (struct svg_span){ se->t[k - 1], se->t[k] };
		}
	}
	/* a test's markers: "test ID copies N" opens it, the next such marker closes it */
	for (int m = 0; s && m < r->nmarkers; m++) {
		char id[40];
		int copies;
		if (sscanf(r->markers[m].what, "test %39s copies %d", id, &copies) != 2)
			continue;
		const struct test_result *t = html_find_test(r, copies, id);
		const struct kv *kv = t ? test_summary_get(t, "throttled") : NULL;
		if (!kv || !kv->has_value || !kv->value)
			continue;
		double end = t1;
		for (int k = m + 1; k < r->nmarkers; k++)
			if (!strncmp(r->markers[k].what, "test ", 5)) {
				end = r->markers[k].t;
				break;
			}
		if (n == cap) {
			struct svg_span *g = realloc(s, (size_t)(cap *= 2) * sizeof *s);
			if (!g)
				break;
			s = g;
		}
		s[n++] = (struct svg_span){ r->markers[m].t, end };
	}
	if (s)
		qsort(s, (size_t)n, sizeof *s, by_start);
	*out = s;
	return s ? n : 0;
}

/* Per-CPU series drawn as lines up to this many; more are drawn as a band. */
#define PER_CPU_LINES 8

struct tv_point {
	double t, v;
};

static int by_time(const void *x, const void *y)
{
	const struct tv_point *a = x, *b = y;
	return a->t < b->t ? -1 : a->t > b->t;
}

/* The k series' points as one series in time order: times, then values, in
 * one malloc'd block; their count in ns[k]. NULL when out of memory. */
static double *merge_series(const double **ts, const double **vs, int *ns, int k)
{
	size_t n = 0;
	for (int i = 0; i < k; i++)
		n += (size_t)ns[i];
	struct tv_point *p = malloc((n + 1) * sizeof *p);
	double *out = malloc((2 * n + 1) * sizeof *out);
	if (!p || !out) {
		free(p);
		free(out);
		return NULL;
	}
	size_t m = 0;
	for (int i = 0; i < k; i++)
		for (int j = 0; j < ns[i]; j++)
			p[m++] = (struct tv_point){ ts[i][j], vs[i][j] };
	qsort(p, n, sizeof *p, by_time);
	for (size_t i = 0; i < n; i++) {
		out[i] = p[i].t;
		out[n + i] = p[i].v;
	}
	free(p);
	ns[k] = (int)n;
	return out;
}

static void telemetry(struct html *h, const struct run *r)
{
	html_out(h, "<h2>The machine through the run</h2>");
	if (!r->nseries) {
		html_out(h, "<p class=\"dim\">No telemetry in this run (imported, or run with "
		       "--no-telemetry).</p>");
		return;
	}
	double t1 = 0;
	for (int i = 0; i < r->nseries; i++)
		if (r->series[i].n && r->series[i].t[r->series[i].n - 1] > t1)
			t1 = r->series[i].t[r->series[i].n - 1];
	for (int m = 0; m < r->nmarkers; m++)
		if (r->markers[m].t > t1)
			t1 = r->markers[m].t;
	if (t1 <= 0)
		t1 = 1;
	/* test boundaries, labelled with the test's id (and copies beyond 1) */
	struct svg_mark *marks = calloc((size_t)r->nmarkers + 1, sizeof *marks);
	char(*labels)[48] = calloc((size_t)r->nmarkers + 1, sizeof *labels);
	int nmarks = 0;
	for (int m = 0; marks && labels && m < r->nmarkers; m++) {
		char id[40];
		int copies;
		if (sscanf(r->markers[m].what, "test %39s copies %d", id, &copies) != 2)
			continue;
		if (copies > 1)
			snprintf(labels[nmarks], sizeof labels[0], "%s x%d", id, copies);
		else
			snprintf(labels[nmarks], sizeof labels[0], "%s", id);
		marks[nmarks] = (struct svg_mark){ r->markers[m].t, labels[nmarks] };
		nmarks++;
	}
	struct svg_span *spans = NULL;
	int nspans = throttle_spans(r, t1, &spans);
	html_out(h,
	    "<p class=\"foot\">One chart per series on one time axis (seconds from the start). Dashed "
	    "lines: "
	    "where each test began. Hatched: throttled%s. Drawn at most two points per pixel column "
	    "(each column's lowest and highest); every sample is in the run file.</p>",
	    nspans ? "" : " (nothing was, as far as the telemetry saw)");
	bool *done = calloc((size_t)r->nseries + 1, sizeof *done);
	const double **ts = calloc((size_t)r->nseries + 1, sizeof *ts);
	const double **vs = calloc((size_t)r->nseries + 1, sizeof *vs);
	int *ns = calloc((size_t)r->nseries + 1, sizeof *ns);
	bool shared = false;
	for (int rank = 0; done && ts && vs && ns && rank <= family_rank(""); rank++) {
		for (int i = 0; i < r->nseries; i++) {
			const struct series *se = &r->series[i];
			if (done[i] || family_rank(se->name) != rank)
				continue;
			/* the CPUs' own series of one kind share a chart */
			size_t pl = per_cpu_prefix(se->name);
			int k = 0;
			for (int j = i; j < r->nseries; j++) {
				const struct series *o = &r->series[j];
				if (done[j] || (j != i && (!pl || per_cpu_prefix(o->name) != pl ||
							   strncmp(o->name, se->name, pl))))
					continue;
				done[j] = true;
				ts[k] = o->t;
				vs[k] = o->v;
				ns[k] = o->n;
				k++;
			}
			/* many CPUs: one band from the lowest to the highest of them per column,
			 * not a line each (64 lines would not fit the file, nor the eye) */
			double *band = k > PER_CPU_LINES ? merge_series(ts, vs, ns, k) : NULL;
			int ncpus = k;
			if (band) {
				ts[0] = band;
				vs[0] = band + ns[k];
				ns[0] = ns[k];
				k = 1;
			}
			char title[160];
			const char *nice = series_title(se->name);
			if (band)
				snprintf(title, sizeof title, "%.*s0..%d, lowest to highest of the CPUs",
					 (int)pl, se->name, ncpus - 1);
			else if (pl && k > 1)
				snprintf(title, sizeof title, "%.*s0..%d, each CPU", (int)pl, se->name,
					 k - 1);
			else if (!nice && !strncmp(se->name, "counter.", 8))
				snprintf(title, sizeof title,
					 "%s counted per telemetry interval, all copies", se->name + 8);
			else
				snprintf(title, sizeof title, "%s", nice ? nice : se->name);
			html_out(h, "<h3>");
			html_esc(h, title);
			bool group = band || (pl && k > 1);
			if (nice || group || !strncmp(se->name, "counter.", 8)) {
				html_out(h, " <span class=\"dim\">(");
				html_esc(h, group ? c_unit(se->unit) : se->name);
				html_out(h, ")</span>");
			}
			html_out(h, "</h3>");
			struct svg_chart c = { .title = title,
					       .unit = c_unit(se->unit),
					       .home = h->home,
					       .t0 = 0,
					       .t1 = t1,
					       .nseries = k,
					       .t = ts,
					       .v = vs,
					       .n = ns,
					       .nmarks = nmarks,
					       .marks = marks,
					       .nspans = nspans,
					       .spans = spans,
					       .shared_id = "taxis",
					       .shared_defined = shared,
					       .band = band != NULL };
			svg_line_chart(h->f, &c);
			shared = true;
			free(band);
		}
	}
	free(done);
	free(ts);
	free(vs);
	free(ns);
	free(spans);
	free(marks);
	free(labels);
}

/* ---- counters ---- */

/* A counter's rate per second of the test's samples, or why there is none. */
static void counter_cell(struct html *h, const struct test_result *t, const char *key, double secs)
{
	const struct kv *kv = test_summary_get(t, key);
	if (!kv) {
		html_out(h, "<td class=\"n dim\">not counted</td>");
		return;
	}
	if (!kv->has_value) {
		html_out(h, "<td class=\"n dim\">");
		html_esc(h, kv->text);
		html_out(h, "</td>");
		return;
	}
	if (secs > 0)
		html_out(h, "<td class=\"n\">%.4g</td>", kv->value / secs);
	else
		html_out(h, "<td class=\"n dim\">no time</td>");
}

/* IPC, cache misses/s and context switches/s of one test, or why not. */
static void counter_cells(struct html *h, const struct test_result *t)
{
	if (!t) {
		html_out(h, "<td colspan=\"3\" class=\"dim\">not in this run</td>");
		return;
	}
	double secs = 0;
	for (int s = 0; s < t->nsamples; s++)
		secs += sample_time(&t->samples[s]);
	const struct kv *off = test_summary_get(t, "counters");
	if (off && !off->has_value) {
		html_out(h, "<td colspan=\"3\" class=\"dim\">");
		html_esc(h, off->text);
		html_out(h, "</td>");
		return;
	}
	const struct kv *ipc = test_summary_get(t, "ipc");
	const struct kv *cyc = test_summary_get(t, "counter.cycles");
	if (ipc && ipc->has_value)
		html_out(h, "<td class=\"n\">%.2f</td>", ipc->value);
	else if (cyc && !cyc->has_value)
		counter_cell(h, t, "counter.cycles", secs); /* "not supported", as perf says */
	else
		counter_cell(h, t, "ipc", secs);
	counter_cell(h, t, "counter.cache-misses", secs);
	counter_cell(h, t, "counter.context-switches", secs);
}

static bool counted(const struct run *r)
{
	for (int b = 0; r && b < r->nblocks; b++)
		for (int i = 0; i < r->blocks[b].ntests; i++)
			if (r->blocks[b].tests[i].nsummary > 0)
				return true;
	return false;
}

/* The run's counters per test; with base, the compared run's under each. */
static void counters(struct html *h, const struct run *r, const struct run *base)
{
	html_out(h, "<h2>Counters per test</h2>");
	if (!counted(r) && !counted(base)) {
		html_out(h, "<p class=\"dim\">Not counted in this run (imported, or run without "
		       "telemetry).</p>");
		return;
	}
	html_out(h, "<p class=\"foot\">Per second of the test's samples, all copies together. IPC: "
	       "instructions per cycle of the workers.</p>");
	html_out(h,
	    "<table><tr><th style=\"width:30%%\">Test</th>"
	    "<th class=\"n\" style=\"width:8%%\">copies</th>%s"
	    "<th class=\"n\">IPC</th><th class=\"n\">cache misses/s</th>"
	    "<th class=\"n\">context switches/s</th></tr>",
	    base ? "<th style=\"width:13%%\">run</th>" : "");
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		for (int i = 0; i < bl->ntests; i++) {
			const struct test_result *t = &bl->tests[i];
			html_out(h, "<tr><td%s>", base ? " rowspan=\"2\"" : "");
			html_esc(h, t->label);
			html_out(h, "</td><td class=\"n\"%s>%d</td>", base ? " rowspan=\"2\"" : "", bl->copies);
			if (base)
				html_out(h, "<td>this run</td>");
			counter_cells(h, t);
			html_out(h, "</tr>");
			if (base) {
				html_out(h, "<tr><td class=\"dim\">compared</td>");
				counter_cells(h, html_find_test(base, bl->copies, t->id));
				html_out(h, "</tr>");
			}
		}
	}
	html_out(h, "</table>");
}

/* ---- the rest ---- */

static void notes(struct html *h, const struct run *r)
{
	if (!r->nnotes)
		return;
	html_out(h, "<h2>Notes from the run</h2><ul class=\"notes\">");
	for (int i = 0; i < r->nnotes; i++) {
		html_out(h, "<li>");
		html_esc(h, r->notes[i]);
		html_out(h, "</li>");
	}
	html_out(h, "</ul>");
}

/* A text the engine prints (one rendering for terminal and page), escaped in a <pre>. */
static void printed(struct html *h, const char *title, void (*print)(FILE *, const struct run *),
		    const struct run *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	print(m, r);
	fclose(m);
	html_out(h, "<h2>");
	html_esc(h, title);
	html_out(h, "</h2><pre>");
	html_esc(h, buf);
	html_out(h, "</pre>");
	free(buf);
}

static void unixbench_text(struct html *h, const struct run *r, const char *title)
{
	printed(h, title, report_print, r);
}

int report_html_write(FILE *f, const struct run *r, const struct run *const *base, int nbase,
		      const struct compare *c, const char *home)
{
	struct html hh = { f, home }, *h = &hh;
	const struct run *b0 = nbase > 0 ? base[0] : NULL;
	html_out(h,
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
	    "<meta name=\"generator\" content=\"kbench %s\"><title>kbench: ",
	    KBENCH_VERSION);
	html_esc(h, r->meta.name);
	if (c) {
		html_out(h, " vs ");
		html_esc(h, c->a_title);
	}
	html_out(h, "</title><style>%s", css);
	for (int i = 0; family_list[i]; i++)
		if (family_list[i]->html_css)
			html_out(h, "%s", family_list[i]->html_css);
	html_out(h, "%s</style></head><body>\n", css_tail);
	/* the hatch that marks "slower" and throttled stretches, for every SVG below */
	html_out(h, "<svg class=\"defs\" aria-hidden=\"true\" focusable=\"false\"><defs><pattern id=\"hatch\" "
	       "width=\"6\" "
	       "height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect "
	       "width=\"6\" height=\"6\" "
	       "fill=\"#f7d5c0\"/><rect width=\"3.2\" height=\"6\" "
	       "fill=\"#d55e00\"/></pattern></defs></svg>\n");
	html_out(h, "<header><h1>kbench: ");
	html_esc(h, r->meta.name);
	html_out(h, "</h1><p class=\"sub\">");
	if (c) {
		html_out(h, "compared with ");
		html_esc(h, c->a_title); /* a group's title says how many runs */
		html_out(h, " &middot; ");
	}
	html_esc(h, r->meta.kernel_release);
	html_out(h, " &middot; ");
	html_esc(h, r->meta.cpu_model);
	html_out(h, "</p></header>\n");
	html_out(h, "<div class=\"top\">");
	index_big(h, r, c);
	facts(h, r, c ? b0 : NULL, nbase);
	html_out(h, "</div>\n");
	if (c)
		diffs(h, c);
	/* a thermal check's verdict and per-minute table, as kbench show prints them */
	if (thermal_is(r))
		printed(h, "Thermal check", thermal_print, r);
	if (c && b0 && thermal_is(b0))
		printed(h, "Thermal check of the compared run", thermal_print, b0);
	if (c)
		compare_tables(h, r, c);
	else
		alone_tables(h, r);
	for (int i = 0; family_list[i]; i++) /* the families' own sections */
		if (family_list[i]->html_section)
			family_list[i]->html_section(h, r, c);
	curves(h, r);
	html_out(h, "\n");
	telemetry(h, r);
	html_out(h, "\n");
	counters(h, r, c ? b0 : NULL);
	notes(h, r);
	unixbench_text(h, r, "UnixBench report of this run");
	if (c && b0)
		unixbench_text(h, b0,
			       nbase > 1 ? "UnixBench report of the first compared run"
					 : "UnixBench report of the compared run");
	html_out(h,
	    "<footer>Made by kbench %s. The scores are UnixBench's; verdicts are kbench compare's.</footer>"
	    "</body></html>\n",
	    KBENCH_VERSION);
	return ferror(f) ? -1 : 0;
}

struct save_args {
	const struct run *r;
	const struct run *const *base;
	int nbase;
	const struct compare *c;
	const char *home;
};

static int save_fn(FILE *f, void *arg)
{
	const struct save_args *s = arg;
	return report_html_write(f, s->r, s->base, s->nbase, s->c, s->home);
}

int report_html_save(const char *path, const struct run *r, const struct run *const *base, int nbase,
		     const struct compare_opts *o, char *err, size_t errlen)
{
	struct compare *c = NULL;
	if (nbase > 0) {
		const struct run *rb[1] = { r };
		struct compare_opts dflt = { 0 };
		c = compare_stored(base, nbase, rb, 1, o ? o : &dflt, err, errlen);
		if (!c)
			return -1;
	}
	struct save_args a = { r, base, nbase, c, getenv("HOME") };
	int rc = file_write_atomic(path, save_fn, &a, err, errlen);
	compare_free(c);
	return rc < 0 ? -1 : 0;
}
