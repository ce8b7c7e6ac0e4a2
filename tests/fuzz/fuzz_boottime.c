/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: systemd-analyze's outputs (time, blame, critical-chain) as any text: no crash, only terminated strings, no negative times. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boottime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The outputs are read as C strings (command_run ends them with a NUL). */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct boot_time bt;
	int rc = boottime_parse_time(text, &bt);
	boottime_parse_blame(text, &bt);
	boottime_parse_chain(text, &bt);
	free(text);
	if (rc == 0 && !bt.ok)
		abort();
	for (int i = 0; i < BOOT_NPHASES; i++) {
		if (!isnan(bt.s[i]) && !(bt.s[i] >= 0))
			abort();
		if (!memchr(bt.why[i], 0, sizeof bt.why[i]))
			abort();
	}
	if (!memchr(bt.chain, 0, sizeof bt.chain) || !memchr(bt.target, 0, sizeof bt.target) || bt.nslow > BOOTTIME_SLOWEST)
		abort();
	for (int i = 0; i < bt.nslow; i++)
		if (!memchr(bt.slow[i].unit, 0, sizeof bt.slow[i].unit))
			abort();
	return 0;
}
