/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the importer takes any pasted text and either imports runs or says why not. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "import.h"
#include "run.h"
#include "runfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct import_result res;
	if (import_text((const char *)data, size, "fuzz", NULL, &res, err, sizeof err) == 0) {
		for (int i = 0; i < res.nruns; i++) {
			/* An imported run must be storable as a run file. */
			char *text = runfile_dump(res.runs[i], err, sizeof err);
			if (!text)
				abort();
			free(text);
		}
		import_result_free(&res);
	}
	return 0;
}
