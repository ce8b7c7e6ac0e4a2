/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers fitted to a column. */
#include "numfmt.h"

#include <stdio.h>

int num_fit(char *buf, size_t size, double v, int width)
{
	for (int dec = 1; dec >= 0; dec--)
		if (snprintf(buf, size, "%.*f", dec, v) <= width)
			return 0;
	static const char suffix[] = "kMGTPE";
	double x = v / 1000;
	int s = 0;
	while (x >= 999.5 && suffix[s + 1]) {
		x /= 1000;
		s++;
	}
	for (int dec = 3; dec >= 0; dec--)
		if (snprintf(buf, size, "%.*f%c", dec, x, suffix[s]) <= width)
			return 0;
	return -1;
}
