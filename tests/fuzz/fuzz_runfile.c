/* SPDX-License-Identifier: GPL-2.0-or-later */
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
		/* What was read is harmless text: no control byte but tab and newline, no DEL. */
		const char *texts[] = { r->meta.name, r->meta.hostname, r->meta.kernel_release, r->meta.id };
		for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
			for (const unsigned char *p = (const unsigned char *)texts[i]; *p; p++)
				if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
					abort();
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
