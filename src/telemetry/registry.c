/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of telemetry sources: one line each, in the order reports and kbench sensors show them. */
#include "telemetry/source.h"

/* Each source is one file defining `const struct telemetry_source NAME`
 * (source.h says what the hooks do); adding one is adding its line here,
 * and the Makefile builds every .c file in src/telemetry. */
#define SOURCES(X)                                                             \
	X(freq_source)     /* freq.c: CPU frequency (cpufreq.c reads it) */   \
	X(temp_source)     /* sensors.c: CPU temperature (libsensors) */       \
	X(throttle_source) /* throttle.c: thermal_throttle counters */         \
	X(energy_source)   /* energy.c: RAPL energy, else battery power */     \
	X(others_source)   /* others.c: other processes' CPU use per sample */ \
	X(pace_source)     /* pace.c: the machine's pace (a timed chain) */   \
	/* a new source goes above this line */

#define DECLARE(s) extern const struct telemetry_source s;
#define ENTRY(s) &s,
SOURCES(DECLARE)

const struct telemetry_source *const telemetry_sources[] = { SOURCES(ENTRY) NULL };
