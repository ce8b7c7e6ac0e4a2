/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Import of published UnixBench results: reads the text, cleans it, and hands it to the log
 * reader (import_log.c) or the table reader (import_table.c). */
#include "import.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "fileio.h"
#include "import_priv.h"
#include "run.h"
#include "runfile.h"

/* Warnings of a reading that found nothing would only confuse the one that follows. */
static void drop_warnings(struct import_result *res)
{
	for (int i = 0; i < res->nwarnings; i++)
		free(res->warnings[i]);
	free(res->warnings);
	res->warnings = NULL;
	res->nwarnings = 0;
}

static void normalize(struct src *s, const char *text, size_t len)
{
	s->text = malloc(len + 1);
	if (!s->text)
		abort();
	bool line_start = true; /* only blanks so far on this line */
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		/* Web pages bring CRs, NULs and no-break spaces (C2 A0): all become spaces.
		 * So do a Windows editor's byte order mark and the "> " that forum and mail
		 * quoting put before each line; the text keeps its offsets, so line numbers hold. */
		if (i == 0 && len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
			memset(s->text, ' ', 3);
			i += 2;
			continue;
		}
		if ((unsigned char)c == 0xc2 && i + 1 < len && (unsigned char)text[i + 1] == 0xa0) {
			s->text[i] = ' ';
			s->text[++i] = ' ';
			continue;
		}
		if (c == '\r' || c == '\0' || c == '\f' || c == '\v')
			c = ' ';
		if (c == '\n')
			line_start = true;
		else if (line_start && c == '>')
			c = ' ';
		else if (!import_is_sp(c))
			line_start = false;
		s->text[i] = c;
	}
	s->text[len] = 0;
	s->len = len;
	int cap = 64;
	s->lines = malloc((size_t)cap * sizeof *s->lines);
	if (!s->lines)
		abort();
	s->lines[s->nlines++] = 0;
	for (size_t i = 0; i < len; i++)
		if (s->text[i] == '\n' && i + 1 < len) {
			if (s->nlines == cap) {
				cap *= 2;
				size_t *nl = realloc(s->lines, (size_t)cap * sizeof *nl);
				if (!nl)
					abort();
				s->lines = nl;
			}
			s->lines[s->nlines++] = i + 1;
		}
}

/* A kbench run file (what export --format json writes, from this machine or
 * another): the run as it was measured, samples and metadata kept, marked
 * with where it came from. A UnixBench log never starts with '{'. */
static bool is_runfile(const char *text, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	return i < len && text[i] == '{';
}

static int import_runfile(const char *text, size_t len, const char *source, const char *name,
			  struct import_result *out, char *err, size_t errlen)
{
	char what[300], why[400];
	snprintf(what, sizeof what, "%s", source);
	struct run *r = runfile_parse(text, len, what, why, sizeof why);
	if (!r) {
		snprintf(err, errlen, "%s", why); /* "FILE: not a kbench run file (...)", "FILE: line 3: ..." */
		return -EINVAL;
	}
	if (name)
		snprintf(r->meta.name, sizeof r->meta.name, "%s", name);
	/* A run keeps the source of a result it was imported from; a measured one names the file. */
	if (!r->meta.source[0])
		snprintf(r->meta.source, sizeof r->meta.source, "%s", source);
	run_add_note(r, "imported from %s (measured on %s)", source,
		     r->meta.hostname[0] ? r->meta.hostname : "an unknown host");
	out->runs = malloc(sizeof *out->runs);
	if (!out->runs)
		abort();
	out->runs[0] = r;
	out->nruns = 1;
	out->runfile = true;
	return 0;
}

/* The first family's format (kernbench's, contest's, ...) that says the text is its own, or NULL. */
static const struct family_import *family_format(const char *text, size_t len)
{
	for (int i = 0; family_list[i]; i++)
		for (size_t k = 0; k < family_list[i]->nimports; k++)
			if (family_list[i]->imports[k].is(text, len))
				return &family_list[i]->imports[k];
	return NULL;
}

int import_text(const char *text, size_t len, const char *source, const char *name,
		struct import_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct src s = { .name = source ? source : "input", .res = out };
	if (is_runfile(text, len) && len <= RUNFILE_MAX_BYTES)
		return import_runfile(text, len, s.name, name, out, err, errlen);
	if (len > IMPORT_MAX_BYTES) {
		snprintf(err, errlen, "%s: too large to be a result (%zu bytes)", s.name, len);
		return -EFBIG;
	}
	normalize(&s, text, len);
	const struct family_import *fi = family_format(s.text, s.len);
	if (fi) {
		fi->import(&s, name);
	} else if (import_find(s.text, s.text + s.len, "Benchmark Run:")) {
		import_logs(&s, name);
	} else {
		/* A pasted table, else a pasted report that lost its "Benchmark Run:"
		 * lines (a table header is never a report line, so the order is safe). */
		import_tables(&s, name);
		if (out->nruns == 0) {
			drop_warnings(out);
			import_logs(&s, name);
		}
	}
	int rc = 0;
	if (out->nruns == 0) {
		if (s.first_problem[0])
			snprintf(err, errlen, "%s: no usable UnixBench results (%s)", s.name, s.first_problem);
		else
			snprintf(err, errlen, "%s: no UnixBench results found (no 'running N parallel copies' "
					      "block, no index table and no table with Test and Score columns)", s.name);
		import_result_free(out);
		rc = -EINVAL;
	}
	free(s.text);
	free(s.lines);
	return rc;
}

int import_file(const char *path, const char *name, struct import_result *out, char *err,
		size_t errlen)
{
	memset(out, 0, sizeof *out);
	char *buf;
	size_t got;
	/* A run file with its telemetry series can be larger than any log. */
	int rd = file_read_all(path, path, RUNFILE_MAX_BYTES, &buf, &got, err, errlen);
	if (rd < 0)
		return rd;
	int rc = import_text(buf, got, path, name, out, err, errlen);
	free(buf);
	return rc;
}

void import_result_free(struct import_result *res)
{
	for (int i = 0; i < res->nruns; i++)
		run_free(res->runs[i]);
	free(res->runs);
	for (int i = 0; i < res->nwarnings; i++)
		free(res->warnings[i]);
	free(res->warnings);
	memset(res, 0, sizeof *res);
}
