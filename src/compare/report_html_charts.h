/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's charts (report_html_charts.c): the points tests' curves and percentiles, and the telemetry through the run. */
#ifndef KBENCH_REPORT_HTML_CHARTS_H
#define KBENCH_REPORT_HTML_CHARTS_H

struct html;
struct run;

void html_curves(struct html *h, const struct run *r);
void html_telemetry(struct html *h, const struct run *r);

#endif
