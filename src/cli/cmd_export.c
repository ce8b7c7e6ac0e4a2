/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench export`: a stored run or a comparison in one of the export formats (src/compare/export_list.c): a file, a table to paste, LAVA results. */
#include "commands.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "export.h"
#include "options.h"
#include "run.h"
#include "store.h"

extern const struct opt_command cmd_export_entry;

struct export_opts {
	const char *format, *output;
};

/* --format's choices and help, made from the formats' rows (the help as a paragraph wrapped
 * at HELP_COLUMNS, the way the option table's rows are written). */
static char choices[256], format_help[512];
#define HELP_COLUMNS 72

__attribute__((constructor)) static void describe_formats(void)
{
	export_format_names(choices, sizeof choices, false);
	char text[512] = "";
	for (size_t i = 0; i < export_format_count; i++) {
		const struct export_format *x = &export_formats[i];
		size_t u = strlen(text);
		snprintf(text + u, sizeof text - u, "%s%s%s%s%s", i == 0 ? "" : i + 1 == export_format_count ? " or " : ", ",
			 x->name, x->note ? " (" : "", x->note ? x->note : "", x->note ? ")" : "");
	}
	size_t u = strlen(text);
	snprintf(text + u, sizeof text - u, "; default %s", export_formats[0].name);
	/* greedy, word by word: a line breaks before the word that would pass the columns */
	size_t line = 0;
	for (char *w = strtok(text, " "); w; w = strtok(NULL, " ")) {
		size_t len = strlen(format_help);
		bool first = len == 0;
		if (!first && line + 1 + strlen(w) > HELP_COLUMNS) {
			snprintf(format_help + len, sizeof format_help - len, "\n%s", w);
			line = strlen(w);
		} else {
			snprintf(format_help + len, sizeof format_help - len, "%s%s", first ? "" : " ", w);
			line += (first ? 0 : 1) + strlen(w);
		}
	}
}

static int check_format(const char *opt, const char *arg, char *err, size_t errlen)
{
	return opts_one_of(choices, opt, arg, err, errlen);
}

static const struct opt_def export_rows[] = {
	{ .name = "format", .short_name = 'f', .kind = OK_STRING,
	  .arg = "FMT", .what = "a format",
	  .def = "json", .help = format_help,
	  .check = check_format, .choices = choices,
	  OPT_OWN(struct export_opts, format) },
	{ .name = "output", .short_name = 'o', .kind = OK_STRING,
	  .arg = "FILE", .what = "a file",
	  .help = "write to FILE instead of stdout",
	  OPT_OWN(struct export_opts, output) },
	{ .name = NULL },
};

static int export_exec(int argc, char **argv)
{
	struct opt_parsed p;
	struct export_opts o = { 0 };
	opts_defaults(&cmd_export_entry, &o);
	int rc = opts_take(&cmd_export_entry, argc, argv, &p, NULL, &o);
	if (rc >= 0)
		return rc;
	char err[512];
	const char *spec = p.operand[0], *spec_b = p.noperands > 1 ? p.operand[1] : NULL;
	int nops = p.noperands;
	opts_free(&p);
	if (nops != 1 && nops != 2)
		return usage_error("usage: kbench export RUN|A B --format FMT (see 'kbench export --help')");
	const struct export_format *x = export_format_find(o.format);
	if (nops == 2 && !x->pair) {
		char pairs[256];
		export_format_names(pairs, sizeof pairs, true);
		return usage_error("--format %s writes one run; A B takes %s", x->name, pairs);
	}
	struct run *r = NULL;
	struct compare *c = NULL;
	struct compare_opts co = { 0 };
	if (nops == 2 ? !(c = cli_compare(spec, spec_b, &co, err, sizeof err))
		      : !(r = store_load(spec, err, sizeof err)))
		return runtime_error("%s", err);
	FILE *f = stdout;
	if (o.output && !(f = fopen(o.output, "w"))) {
		int e = errno;
		run_free(r);
		compare_free(c);
		return runtime_error("cannot write %s: %s", o.output, strerror(e));
	}
	rc = c ? x->pair(f, c, x->arg, err, sizeof err) : x->run(f, r, x->arg, err, sizeof err);
	if (fflush(f) != 0 || ferror(f))
		rc = -1, snprintf(err, sizeof err, "cannot write the export: %s", strerror(errno));
	if (f != stdout)
		fclose(f);
	run_free(r);
	compare_free(c);
	return rc < 0 ? runtime_error("%s", err) : 0;
}

const struct opt_command cmd_export_entry = {
	.name = "export", .args = "RUN|A B --format FMT", .about = "a run or comparison: file, table to paste, LAVA results",
	.text = "One run: the run file (json), one line per sample (csv), UnixBench's report\n"
		"(unixbench), its index table to paste (markdown, text, bbcode), or one\n"
		"lava-test-case line per test and copy count for a LAVA test shell (lava).\n"
		"A B: the comparison 'kbench compare A B' shows, as json, csv or a table to\n"
		"paste with its verdicts (markdown for GitHub, text for mail, bbcode for forums).",
	.after = "RUN, A, B: as for compare (id, id prefix, name, file, last, last~N, host:HOST, groups)",
	.operand = "runs", .options = export_rows, .exec = export_exec,
};
