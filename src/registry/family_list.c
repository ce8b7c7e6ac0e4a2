/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of test families: one line each, in the order `kbench list` and the reports show them. */
#include "family.h"

/* Each family is its own files defining `const struct family family_NAME`
 * (family.h says what the hooks do) with its test rows and groups; adding
 * one is adding its line here (and, for a live view on the console, one in
 * ui/family_views.c). The Makefile builds every .c file in src/. The order
 * is the test table's and the reports': rate tests first. */
#define FAMILIES(X)                                                            \
	X(family_rate)      /* family_rate.c: UnixBench's rates (the default) */ \
	X(family_memlat)    /* family_memlat.c: memory latency curves */         \
	X(family_latency)   /* family_latency.c: latency histograms */           \
	X(family_scaling)   /* family_scaling.c: throughput as tasks grow */     \
	X(family_kbuild)    /* family_kbuild.c: build times */                   \
	X(family_buildload) /* family_buildload.c: builds under load */          \
	SKELETON(X)                                                            \
	/* a new family goes above this line */

/* The skeleton family (src/families/skeleton/, the recipe on the defaults) is
 * listed only in kbench-skeleton, the build tests/system/family_skeleton.sh takes
 * end to end: `make test` compiles this file again with KBENCH_SKELETON. */
#ifdef KBENCH_SKELETON
#define SKELETON(X) X(family_skeleton)
#else
#define SKELETON(X)
#endif

#define DECLARE(f) extern const struct family f;
#define ENTRY(f) &f,
FAMILIES(DECLARE)

static const struct family *const families[] = { FAMILIES(ENTRY) NULL };

/* Before every other constructor (the test table is gathered from the list in one): the
 * record, a floor below, holds the pointer and never names this file. */
__attribute__((constructor(101))) static void families_install(void)
{
	family_list = families;
}
