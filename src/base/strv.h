/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Growing lists of formatted strings: a run's notes, a comparison's footer. */
#ifndef KBENCH_STRV_H
#define KBENCH_STRV_H

#include <stdarg.h>
#include <stddef.h>

/* Appends the text fmt makes (cut at max - 1 characters) to *v, one more
 * of *n strings; out of memory aborts, as every growth in kbench does. */
void strv_vpush(char ***v, int *n, size_t max, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

#endif
