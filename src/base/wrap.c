/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text wrapped to a width: the command line's help and the families' text reports share it. */
#include "wrap.h"

#include <stdbool.h>
#include <string.h>

void print_wrapped(FILE *f, const char *text, int used, int indent, int width)
{
	int col = used;
	const char *p = text + strspn(text, " \n");
	bool first = true;
	while (*p) {
		size_t n = strcspn(p, " \n");
		if (!first && col + 1 + (int)n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, p);
		col += (int)n;
		first = false;
		p += n;
		p += strspn(p, " \n");
	}
	fputc('\n', f);
}

void print_reflowed(FILE *f, const char *text, int width)
{
	char carry[1024] = "", line[2048];
	const char *p = text;
	while (*p || carry[0]) {
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof line, "%s%s%.*s", carry, carry[0] && n ? " " : "", (int)n, p);
		p += n;
		if (*p == '\n')
			p++;
		carry[0] = '\0';
		/* too long: the words past the width go to the front of the next line */
		while ((int)strlen(line) > width) {
			char *cut = line + width;
			while (cut > line && *cut != ' ')
				cut--;
			if (cut == line) { /* a word wider than the line: whole, on a line of its own */
				cut = strchr(line, ' ');
				if (!cut)
					break;
			}
			*cut = '\0';
			snprintf(carry, sizeof carry, "%s", cut + 1);
			if (!*p) { /* the text's last line: no next line to take them */
				fprintf(f, "%s\n", line);
				snprintf(line, sizeof line, "%s", carry);
				carry[0] = '\0';
			}
		}
		fprintf(f, "%s\n", line);
	}
}
