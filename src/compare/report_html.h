/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report: one self-contained file (inline CSS and SVG, no script) of a run, or of a comparison. */
#ifndef KBENCH_REPORT_HTML_H
#define KBENCH_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

struct run;
struct compare;
struct compare_opts;

/* Writes the report of run r; with c (r is its B side, base its A side: nbase
 * runs) the comparison too. home: a directory no path in the file may show
 * (normally $HOME; NULL none). Every text from a run goes through html_text.
 * Returns 0, or -1 with errno set when writing failed. */
int report_html_write(FILE *f, const struct run *r, const struct run *const *base, int nbase,
		      const struct compare *c, const char *home);

/* The report of r against base (nbase runs, 0 = r alone) as `kbench
 * compare` judges it (compare_stored with o), written atomically to path
 * with $HOME hidden. Returns 0, or -1 with one sentence in err. */
int report_html_save(const char *path, const struct run *r, const struct run *const *base, int nbase,
		     const struct compare_opts *o, char *err, size_t errlen);

#endif
