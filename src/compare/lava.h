/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run as LAVA test results: one `lava-test-case` call per test and copy count, and the index. */
#ifndef KBENCH_LAVA_H
#define KBENCH_LAVA_H

#include <stddef.h>
#include <stdio.h>

struct run;

/* A test case name LAVA takes: "dhry2reg-1copy", "index-4copies". The
 * dispatcher drops a name with whitespace and turns '/' into '_' (its
 * lava_dispatcher/actions/test/shell.py); its test definition names match
 * ^[-_a-zA-Z0-9.]+$, so anything else becomes '_' here too. */
void lava_case_name(char *buf, size_t size, const char *id, const char *suffix, int copies);

/* One shell line per test and copy count:
 *   lava-test-case dhry2reg-1copy --result pass --measurement 38040918.700 --units lps
 * a failed test --result fail, a skipped or unfinished one --result skip,
 * both without a measurement; then the index score of each block
 * (index-Ncop..., or index-partial-Ncop... when not every index test ran).
 * Meant to be piped to sh inside a LAVA test shell. */
void lava_print(FILE *f, const struct run *r);

#endif
