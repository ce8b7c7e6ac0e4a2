/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one parser of a family's setting rows: a run's params words, or one command-line value, into the family's struct. */
#include "settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int settings_value(const struct setting *r, const char *spelled, const char *text, void *s, char *err,
		   size_t errlen)
{
	char name[80];
	if (!spelled) {
		snprintf(name, sizeof name, "--%s", r->name);
		spelled = name;
	}
	char *field = s ? (char *)s + r->offset : NULL;
	if (r->kind == SET_FLAG) {
		if (field)
			*(bool *)field = true;
		return 0;
	}
	if (r->kind == SET_INT) {
		char *end;
		errno = 0;
		long v = strtol(text, &end, 10);
		if (end == text || *end || errno || v < r->min || v > r->max) {
			snprintf(err, errlen, "%s wants %s from %ld to %ld, not '%s'", spelled, r->what, r->min,
				 r->max, text);
			return -1;
		}
		if (field)
			*(int *)field = (int)v;
		return 0;
	}
	/* checked into a scratch struct when the caller keeps nothing */
	_Alignas(max_align_t) char scratch[SETTINGS_MAX_SIZE] = { 0 };
	char why[400];
	if (r->parse(text, field ? field : scratch + r->offset, why, sizeof why) < 0) {
		snprintf(err, errlen, "%s: %s", spelled, why);
		return -1;
	}
	return 0;
}

int settings_parse(const struct settings *f, const char *params, void *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct setting *r = &f->rows[i];
		if (r->def && settings_value(r, NULL, r->def, s, err, errlen) < 0)
			return -1;
	}
	for (const char *p = params; p && *p;) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, " ");
		const char *word = p;
		p += len;
		size_t nlen = strcspn(word, "= ");
		for (size_t i = 0; i < f->n; i++) {
			const struct setting *r = &f->rows[i];
			if (strlen(r->name) != nlen || strncmp(r->name, word, nlen))
				continue;
			if ((r->kind == SET_FLAG) != (word[nlen] != '=')) {
				snprintf(err, errlen, "the setting '%.*s' %s", (int)len, word,
					 r->kind == SET_FLAG ? "takes no value" : "needs a value");
				return -1;
			}
			char *text = strndup(word + nlen + 1, len > nlen ? len - nlen - 1 : 0);
			if (!text) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			int rc = settings_value(r, NULL, text, s, err, errlen);
			free(text);
			if (rc < 0)
				return -1;
		}
		/* other words belong to other families */
	}
	return 0;
}

int settings_fill(const struct settings *f, const char *params, const struct settings_env *env, void *s,
		  char *err, size_t errlen)
{
	memset(s, 0, f->size);
	if (f->defaults) {
		struct settings_env e = *env;
		if (e.ncpus < 1)
			e.ncpus = 1;
		f->defaults(s, &e);
	}
	return settings_parse(f, params, s, err, errlen);
}

bool settings_given(const char *params, const char *name)
{
	size_t k = strlen(name);
	for (const char *p = params; p && *p; p++)
		if ((p == params || p[-1] == ' ') && !strncmp(p, name, k) && (p[k] == '=' || p[k] == ' ' || !p[k]))
			return true;
	return false;
}

double settings_env_seconds(const char *name, double def, double lo, double hi)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return def;
	char *end;
	double v = strtod(s, &end);
	return *end || !(v >= lo && v <= hi) ? def : v;
}
