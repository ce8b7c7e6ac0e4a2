/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: a plan's file, any bytes: refused with a sentence or read into a plan that is whole (its schedule one side a slot, its boots in it), and written back the same. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan p, q;
	char err[512] = "";
	if (plan_parse((const char *)data, size, &p, err, sizeof err) < 0) {
		if (!err[0] || !memchr(err, 0, sizeof err))
			abort();
		return 0;
	}
	if (!plan_name_valid(p.name) || strlen(p.schedule) != (size_t)(2 * p.boots) || p.nargs > PLAN_MAX_ARGS)
		abort();
	for (int i = 0; i < p.nboots; i++)
		if (p.boot[i].slot < 0 || p.boot[i].slot >= 2 * p.boots || p.boot[i].nruns > PLAN_MAX_RUNS ||
		    (p.boot[i].side != 'A' && p.boot[i].side != 'B'))
			abort();
	/* what it writes, it reads back to the same text */
	char *text = plan_dump(&p);
	if (plan_parse(text, strlen(text), &q, err, sizeof err) < 0)
		abort();
	char *again = plan_dump(&q);
	if (strcmp(text, again))
		abort();
	free(text);
	free(again);
	plan_free(&p);
	plan_free(&q);
	return 0;
}
