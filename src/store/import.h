/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Import of published UnixBench results: log files, their collapsed web-page form, and pasted tables. */
#ifndef KBENCH_IMPORT_H
#define KBENCH_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "import_scan.h" /* struct import_result */

struct run;

/* The largest input read, and the longest line looked at in a table. */
#define IMPORT_MAX_BYTES (16u << 20)


/* Parses text (len bytes, NUL not needed) that came from `source` (named in
 * messages). A kbench run file (JSON, as export --format json writes it on
 * any machine) becomes that one run, samples, metadata and hostname kept,
 * its source and a note saying which file it came from; a file that starts
 * like one but is not one is an error naming what is wrong. Otherwise each
 * UnixBench log (a "BYTE UNIX Benchmarks" header with its
 * "Benchmark Run:" blocks) or each set of result tables becomes one run;
 * `name` (may be NULL) names them, else the kernel release found, else
 * "imported". Returns 0, or -EINVAL with one sentence in err when nothing
 * recognisable is there. Warnings do not fail the import. */
int import_text(const char *text, size_t len, const char *source, const char *name,
		struct import_result *out, char *err, size_t errlen);
int import_file(const char *path, const char *name, struct import_result *out, char *err,
		size_t errlen);
void import_result_free(struct import_result *res);

#endif
