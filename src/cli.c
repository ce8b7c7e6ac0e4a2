/* Helpers every command shares: the one-line error and strict number parsing. */
#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* One line on stderr, "kbench: <message>", and the exit code the caller asked for. */
static int say(int code, const char *fmt, va_list ap)
{
	fputs("kbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return code;
}

int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int code = say(2, fmt, ap);
	va_end(ap);
	return code;
}

int runtime_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int code = say(1, fmt, ap);
	va_end(ap);
	return code;
}

int parse_int(const char *s, long min, long max, long *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int terminal_width(bool *known)
{
	const char *cols = getenv("COLUMNS");
	long w;
	if (known)
		*known = true;
	if (cols && parse_int(cols, 20, 1000, &w) == 0)
		return (int)w;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	if (known)
		*known = false;
	return 80;
}

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

int help_width(void)
{
	bool known;
	int w = terminal_width(&known) - 1;
	if (!known)
		return 79;
	return w < 60 ? 60 : w > 120 ? 120 : w;
}
