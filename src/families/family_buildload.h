/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds under load: what its family's two files (family_buildload.c, family_buildload_html.c) share. */
#ifndef KBENCH_FAMILY_BUILDLOAD_H
#define KBENCH_FAMILY_BUILDLOAD_H

#include "family.h"

struct compare;
struct html;
struct run;

/* contest's tables' style, after the report's own */
extern const char family_buildload_css[];
/* family.h's html_rows and html_section */
void family_buildload_html_rows(struct html *h, const struct family_html_rows *w);
void family_buildload_html_section(struct html *h, const struct run *r, const struct compare *c);

#endif
