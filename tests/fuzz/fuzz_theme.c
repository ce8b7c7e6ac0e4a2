/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the theme parser must refuse any text with "FILE:LINE: why", never crash, and leave a usable theme. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* theme_parse reads a C string, as theme_load hands it one. */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct theme t;
	char err[300] = "";
	int rc = theme_parse(&t, "fuzz", text, "fuzz.theme", err, sizeof err);
	free(text);
	/* A refusal says where; a theme, good or refused, holds only colours
	 * curses can take (-1 = the default, else 0..255) and known attributes. */
	if (rc != 0 && strncmp(err, "fuzz.theme:", 11) != 0)
		abort();
	for (int i = 0; i < ROLE_COUNT; i++) {
		const struct theme_style *s = &t.style[i];
		if (s->fg < -1 || s->fg > 255 || s->bg < -1 || s->bg > 255)
			abort();
		if (s->attrs & ~(unsigned)(THEME_BOLD | THEME_REVERSE | THEME_UNDERLINE | THEME_DIM))
			abort();
	}
	if (memchr(t.name, '\0', sizeof t.name) == NULL)
		abort();
	return 0;
}
