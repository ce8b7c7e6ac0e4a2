/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text wrapped to a width, as help and the text reports print it. */
#ifndef KBENCH_WRAP_H
#define KBENCH_WRAP_H

#include <stdio.h>

/* text's words (its own line breaks are spaces), the first at column used,
 * wrapped before width with the lines after indented by indent; a newline
 * at the end. */
void print_wrapped(FILE *f, const char *text, int used, int indent, int width);
/* text as its lines are, but a line longer than width gives the words past
 * it to the start of the next line (the last line's to lines of their own). */
void print_reflowed(FILE *f, const char *text, int width);

#endif
