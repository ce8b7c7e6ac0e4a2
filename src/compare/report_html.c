/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report: one self-contained file (inline CSS and SVG, no script) of a run, or of a comparison. */
#include "report_html.h"

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
#include "html.h"
#include "report.h"
#include "report_html_charts.h"
#include "report_html_tests.h"
#include "run.h"
#include "svg.h"

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


static void index_big(struct html *h, const struct run *r, const struct compare *c)
{
	html_out(h, "<div class=\"big\">");
	int shown = 0;
	for (int b = 0; b < r->nblocks; b++) {
		const struct run_block *bl = &r->blocks[b];
		if (!html_block_indexed(bl))
			continue;
		shown++;
		char num[64];
		html_fmt_score(num, sizeof num, bl->index_score);
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
			html_fmt_score(was, sizeof was,
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

/* What a run's mode prints after its report (a thermal check's verdict and
 * per-minute table, as kbench show prints them), under the mode's heading. */
static void mode_printed(struct html *h, const struct run *r, const char *of)
{
	const struct run_mode_info *m = run_mode_info(r->meta.mode);
	if (!m->print || !m->report_title || r->nblocks < 1 || r->blocks[0].ntests < 1)
		return;
	char title[96];
	snprintf(title, sizeof title, "%s%s", m->report_title, of);
	printed(h, title, m->print, r);
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
	mode_printed(h, r, "");
	if (c && b0)
		mode_printed(h, b0, " of the compared run");
	if (c)
		html_compare_tables(h, r, c);
	else
		html_alone_tables(h, r);
	for (int i = 0; family_list[i]; i++) /* the families' own sections */
		if (family_list[i]->html_section)
			family_list[i]->html_section(h, r, c);
	html_curves(h, r);
	html_out(h, "\n");
	html_telemetry(h, r);
	html_out(h, "\n");
	html_counters(h, r, c ? b0 : NULL);
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
