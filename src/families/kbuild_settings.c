/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kbuild's settings: the tree's size, the -j values, a kernel's source and config, as rows for the command line and the run's params. */
#include "kbuild.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"

int kbuild_parse_tree(const char *text, int *units, char *err, size_t errlen)
{
	if (!strcmp(text, "tiny"))
		*units = KBUILD_UNITS_TINY;
	else if (!strcmp(text, "small"))
		*units = KBUILD_UNITS_SMALL;
	else if (!strcmp(text, "full"))
		*units = KBUILD_UNITS_FULL;
	else {
		char *e;
		errno = 0;
		long v = strtol(text, &e, 10);
		if (!isdigit((unsigned char)*text) || *e || errno || v < 1 || v > KBUILD_MAX_UNITS) {
			snprintf(err, errlen, "tree '%.40s': want tiny, small, full or 1 to %d units", text,
				 KBUILD_MAX_UNITS);
			return -1;
		}
		*units = (int)v;
	}
	return 0;
}

int kbuild_parse_jobs(const char *text, int *jobs, int *njobs, char *err, size_t errlen)
{
	int n = 0;
	const char *p = text;
	for (;;) {
		char *e;
		errno = 0;
		long v = strtol(p, &e, 10);
		if (!isdigit((unsigned char)*p) || errno || v < 1 || v > 1024 || (*e && *e != ',')) {
			snprintf(err, errlen, "jobs '%.40s': want make -j values from 1 to 1024, e.g. 1,2,4",
				 text);
			return -1;
		}
		if (n >= KBUILD_MAX_JOBS) {
			snprintf(err, errlen, "jobs '%.40s': at most %d values", text, KBUILD_MAX_JOBS);
			return -1;
		}
		bool dup = false;
		for (int i = 0; i < n; i++)
			dup = dup || jobs[i] == v;
		if (!dup)
			jobs[n++] = (int)v;
		if (!*e)
			break;
		p = e + 1;
	}
	*njobs = n;
	return 0;
}

/* ---- the settings (src/base/settings.h) ---- */

static int parse_tree(const char *text, void *field, char *err, size_t errlen)
{
	return kbuild_parse_tree(text, field, err, errlen);
}

/* the list's count, then the list */
_Static_assert(offsetof(struct kbuild_opts, jobs) == offsetof(struct kbuild_opts, njobs) + sizeof(int),
	       "jobs follows njobs");

static int parse_jobs(const char *text, void *field, char *err, size_t errlen)
{
	int *f = field;
	return kbuild_parse_jobs(text, f + 1, f, err, errlen);
}

/* as kbuild_param_source wrote it: its escapes undone */
static int parse_source(const char *text, void *field, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	char *out = field;
	size_t n = 0;
	for (const char *c = text; *c && n + 1 < KBUILD_SOURCE_MAX; c++) {
		unsigned v;
		if (*c == '%' && c[1] && c[2] && sscanf(c + 1, "%2x", &v) == 1) {
			out[n++] = (char)v;
			c += 2;
		} else {
			out[n++] = *c;
		}
	}
	out[n] = '\0';
	return 0;
}

static int check_source(const char *text, char *err, size_t errlen)
{
	return kbuild_check_source(text, err, errlen);
}

static int parse_config(const char *text, void *field, char *err, size_t errlen)
{
	if (kbuild_check_config(text, err, errlen) < 0)
		return -1;
	snprintf(field, sizeof(((struct kbuild_opts *)0)->config), "%s", text);
	return 0;
}

/* kernel mode builds a kernel instead of the generated tree */
static int conflicts(const char *params, char *err, size_t errlen)
{
	if (settings_given(params, "config") && !settings_given(params, "source"))
		return snprintf(err, errlen, "--config goes with --source (a Linux tree or tarball to build)"), -1;
	if (settings_given(params, "tree") && settings_given(params, "source"))
		return snprintf(err, errlen, "--tree sizes the generated tree; --source builds a kernel instead: give one"),
		       -1;
	return 0;
}

#define AT(f) offsetof(struct kbuild_opts, f)
static const struct setting kbuild_rows[] = {
	{ .name = "tree", .kind = SET_TEXT, .arg = "SIZE", .what = "a tree size", .offset = AT(units),
	  .parse = parse_tree,
	  .help = "kbuild: the generated tree, tiny, small, full or a count of units\n"
		  "(default full, small with --quick)" },
	{ .name = "make-jobs", .kind = SET_TEXT, .arg = "N,N,...", .what = "a list of -j values",
	  .offset = AT(njobs), .parse = parse_jobs,
	  .help = "kbuild: the make -j values (default CPUs/2, CPUs, 2xCPUs)" },
	{ .name = "source", .kind = SET_TEXT, .arg = "PATH", .what = "a Linux source", .offset = AT(source),
	  .parse = parse_source, .check = check_source, .append = kbuild_param_source,
	  .help = "kbuild: build this Linux tree (a directory) or tarball (.tar.xz, .tar.gz,\n"
		  ".tar.bz2, .tar) out of tree in the scratch, not the generated tree" },
	{ .name = "config", .kind = SET_TEXT, .arg = "TARGET", .what = "a config target", .def = "tinyconfig",
	  .offset = AT(config), .parse = parse_config,
	  .help = "kbuild --source: the kernel's config, tinyconfig, defconfig or allnoconfig\n"
		  "(default tinyconfig)" },
};
#undef AT

/* the tree follows quick (the small one), the -j list the CPUs */
static void defaults(void *s, const struct settings_env *env)
{
	struct kbuild_opts *o = s;
	o->units = env->quick ? KBUILD_UNITS_SMALL : KBUILD_UNITS_FULL;
	int ncpus = env->ncpus;
	int def[3] = { ncpus / 2 > 0 ? ncpus / 2 : 1, ncpus, 2 * ncpus };
	for (int i = 0; i < 3; i++) {
		bool dup = false;
		for (int k = 0; k < o->njobs; k++)
			dup = dup || o->jobs[k] == def[i];
		if (!dup)
			o->jobs[o->njobs++] = def[i];
	}
}

const struct settings kbuild_settings = {
	.rows = kbuild_rows,
	.n = sizeof kbuild_rows / sizeof kbuild_rows[0],
	.size = sizeof(struct kbuild_opts),
	.conflicts = conflicts,
	.defaults = defaults,
};
