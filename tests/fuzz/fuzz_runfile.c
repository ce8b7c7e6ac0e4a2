/* libFuzzer target: the run-file reader must refuse any bytes with a sentence, never crash or leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "run.h"
#include "runfile.h"
#include "score.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct run *r = runfile_parse((const char *)data, size, "fuzz", err, sizeof err);
	if (r) {
		/* What was read must write back out. */
		char *text = runfile_dump(r, err, sizeof err);
		if (!text)
			abort();
		free(text);
		run_rescore(r);
		run_free(r);
	}
	return 0;
}
