/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every command shares: the one-line error, strict number parsing, widths and dates. */
#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "request.h"

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

int help_width(void)
{
	bool known;
	int w = terminal_width(&known) - 1;
	if (!known)
		return 79;
	return w < 60 ? 60 : w > 120 ? 120 : w;
}

void cli_date_text(char *buf, size_t size, time_t t)
{
	struct tm tm;
	if (!t || !localtime_r(&t, &tm))
		snprintf(buf, size, "?");
	else
		strftime(buf, size, "%Y-%m-%d %H:%M", &tm);
}

int cli_add_tests(struct run_request *rq, char **operands, int n)
{
	for (int i = 0; i < n; i++)
		if (run_request_add(rq, operands[i]) != 0)
			return usage_error("unknown test or group '%s' (try 'kbench list')", operands[i]);
	return -1;
}
