/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the boot loader parsers (grub.cfg, BLS entries) take any bytes, never crash, and fill only terminated strings. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootcfg.h"

static void check(const struct boot_menu *m)
{
	for (int i = 0; i < m->n; i++) {
		const struct boot_entry *e = &m->e[i];
		if (!memchr(e->id, 0, sizeof e->id) || !memchr(e->title, 0, sizeof e->title) ||
		    !memchr(e->kernel, 0, sizeof e->kernel) || !memchr(e->release, 0, sizeof e->release))
			abort();
		/* every entry can be found again by its id or title */
		char why[256];
		if (!bootcfg_find(m, e->id, why, sizeof why))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The same bytes as a grub.cfg and as a loader/entries file: neither
	 * needs a NUL at the end (the readers hand them a length). */
	struct boot_menu m = { 0 };
	bootcfg_parse_grub(&m, (const char *)data, size);
	check(&m);
	bootcfg_free(&m);
	bootcfg_parse_bls(&m, "fuzz.conf", (const char *)data, size, size & 1);
	check(&m);
	bootcfg_free(&m);
	return 0;
}
