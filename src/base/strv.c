/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Growing lists of formatted strings. */
#include "strv.h"

#include <stdio.h>
#include <stdlib.h>

void strv_vpush(char ***v, int *n, size_t max, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int len = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	size_t size = len < 0 ? 1 : (size_t)len + 1 < max ? (size_t)len + 1 : max;
	char *s = malloc(size);
	char **nv = realloc(*v, (size_t)(*n + 1) * sizeof *nv);
	if (!s || !nv)
		abort();
	s[0] = '\0';
	vsnprintf(s, size, fmt, ap);
	*v = nv;
	(*v)[(*n)++] = s;
}
