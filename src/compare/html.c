/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML writer: escaped text, kbench's markup, numbers and verdicts as the report's cells show them. */
#include "html.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "numfmt.h"
#include "run.h"
#include "svg.h"

/* Machine or user text, escaped. */
void html_esc(struct html *h, const char *s)
{
	html_text(h->f, s, h->home);
}

/* kbench's own markup and numbers; never a string from a run (html_esc is for those). */
void html_out(struct html *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(h->f, fmt, ap);
	va_end(ap);
}

void html_fmt_score(char *buf, size_t size, double v)
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
	if (!isfinite(v)) /* NUM_PCT_UNKNOWN as type sets it */
		snprintf(buf, size, "&ndash;");
	else
		num_pct(buf, size, v, (sign ? NUM_PCT_SIGN : 0) | NUM_PCT_TENTHS);
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

/* A block with a test that has a UnixBench baseline: one with an index to state. */
bool html_block_indexed(const struct run_block *bl)
{
	for (int i = 0; i < bl->ntests; i++)
		if (bl->tests[i].baseline > 0)
			return true;
	return false;
}
