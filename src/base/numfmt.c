/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers fitted to a column. */
#include "numfmt.h"

#include <math.h>
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

void num_pct(char *buf, size_t size, double v, unsigned how)
{
	if (!isfinite(v)) {
		snprintf(buf, size, "%s", NUM_PCT_UNKNOWN);
		return;
	}
	int dec = !(how & NUM_PCT_TENTHS) && fabs(v) >= 99.95 ? 0 : 1;
	snprintf(buf, size, how & NUM_PCT_SIGN ? "%+.*f%s" : "%.*f%s", dec, v, how & NUM_PCT_BARE ? "" : "%");
}
