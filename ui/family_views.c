/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of the families' live views on the console: one line each. */
#include "family_view.h"

#include "family.h"
#include "tests.h"

/* Each view is one file (view_NAME.c) defining `const struct family_view
 * view_NAME`; a family without a live view of its own has no line. */
#define VIEWS(X)                                                           \
	X(view_memlat)    /* view_memlat.c: the latency curve so far */      \
	X(view_latency)   /* view_latency.c: percentile bars per phase */    \
	X(view_scaling)   /* view_scaling.c: jobs/min per task count */      \
	X(view_kbuild)    /* view_kbuild.c: the build's objects and times */ \
	X(view_buildload) /* view_buildload.c: the load and the build */     \
	/* a new view goes above this line */

#define DECLARE(v) extern const struct family_view v;
#define ENTRY(v) &v,
VIEWS(DECLARE)

static const struct family_view *const views[] = { VIEWS(ENTRY) NULL };

const struct family_view *family_view_of(const struct test_result *tr)
{
	const struct family *f = test_result_family(tr);
	for (int i = 0; views[i]; i++)
		if (views[i]->family == f)
			return views[i];
	return NULL;
}
