/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kbench help`: the command list, a command's help, the man page and the docs' option tables, all made from the option table; and the guide's pages (docs/). */
#include "commands.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "options.h"
#include "run.h"
#include "runner.h"
#include "tests.h"

/* ---- the guide: docs/, one Markdown page per topic ---- */

/* Where the guide's pages are: beside the binary (./kbench in the source tree,
 * build/kbench), else an installed prefix's share directory. A directory counts
 * when it holds the first page of the guide, running.md (README.md would match the
 * source tree's top too). */
static const char *docs_dir(void)
{
	static char found[PATH_MAX];
	char exe[PATH_MAX], p[PATH_MAX + 16];
	snprintf(exe, sizeof exe, "%s", runner_self_path());
	char *slash = strrchr(exe, '/');
	const char *rel[] = { "/docs", "/../docs", "/../share/kbench/docs" };
	for (size_t i = 0; slash && i < sizeof rel / sizeof rel[0]; i++) {
		*slash = '\0';
		snprintf(found, sizeof found, "%s%s", exe, rel[i]);
		snprintf(p, sizeof p, "%s/running.md", found);
		if (access(p, R_OK) == 0)
			return found;
	}
	snprintf(found, sizeof found, "%s/docs", KBENCH_DATADIR);
	snprintf(p, sizeof p, "%s/running.md", found);
	return access(p, R_OK) == 0 ? found : NULL;
}

static int topic_cmp(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* The guide's topics (its pages' names, README.md aside), sorted; NULL-terminated, or NULL. */
static char **topics_list(const char *dir)
{
	DIR *d = dir ? opendir(dir) : NULL;
	if (!d)
		return NULL;
	size_t n = 0, cap = 32;
	char **v = malloc(cap * sizeof *v);
	struct dirent *e;
	while (v && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 3, ".md") || !strcmp(e->d_name, "README.md"))
			continue;
		if (n + 2 > cap) {
			char **w = realloc(v, (cap *= 2) * sizeof *v);
			if (!w)
				break;
			v = w;
		}
		v[n] = strndup(e->d_name, len - 3);
		if (v[n])
			n++;
	}
	closedir(d);
	if (!v)
		return NULL;
	v[n] = NULL;
	qsort(v, n, sizeof *v, topic_cmp);
	return v;
}

static void topics_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* A page's title: its first line, "# Title". */
static void topic_title(const char *dir, const char *topic, char *buf, size_t len)
{
	char p[PATH_MAX + 300];
	snprintf(p, sizeof p, "%s/%s.md", dir, topic);
	buf[0] = '\0';
	FILE *f = fopen(p, "r");
	if (!f)
		return;
	char line[300];
	if (fgets(line, sizeof line, f) && !strncmp(line, "# ", 2)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "%s", line + 2);
	}
	fclose(f);
}

/* Prints the page TOPIC as it is written (Markdown reads as text); 0, or 1 when unreadable. */
static int print_topic(const char *dir, const char *topic)
{
	char p[PATH_MAX + 300];
	snprintf(p, sizeof p, "%s/%s.md", dir, topic);
	FILE *f = fopen(p, "r");
	if (!f)
		return runtime_error("help: cannot read %s", p);
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

/* Is name one of the guide's topics? (A name is a page's, never a path.) */
static bool is_topic(const char *dir, const char *name)
{
	char **v = topics_list(dir);
	bool yes = false;
	for (size_t i = 0; v && v[i] && !yes; i++)
		yes = !strcmp(v[i], name);
	topics_free(v);
	return yes;
}

void help_print_main(FILE *f)
{
	/* Wrapped: a checkout's version (0.2.0-12-gabc1234-dirty) makes it wider than 79. */
	char head[200];
	snprintf(head, sizeof head,
		 "kbench %s - a benchmark console for Linux kernels (UnixBench's index tests)",
		 KBENCH_VERSION);
	print_wrapped(f, head, 0, 2, help_width());
	fputc('\n', f);
	fprintf(f, "usage: kbench COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < opt_command_count; i++) {
		int used = fprintf(f, "  %-10s %-28s ", opt_commands[i].name, opt_commands[i].args);
		print_wrapped(f, opt_commands[i].about, used, 42, help_width());
	}
	fprintf(f, "\nenvironment:\n");
	for (size_t i = 0; i < opt_env_count; i++) {
		if (opt_env[i].tests)
			continue;
		char text[400];
		snprintf(text, sizeof text, "%s", opt_env[i].help);
		for (char *nl = strchr(text, '\n'); nl; nl = strchr(nl, '\n'))
			*nl = ' ';
		int used = fprintf(f, "  %-18s ", opt_env[i].name);
		print_wrapped(f, text, used, 21, help_width());
	}
	const char *dir = docs_dir();
	char **topics = topics_list(dir);
	if (topics && topics[0]) {
		fprintf(f, "\nthe guide (kbench help TOPIC):\n");
		for (size_t i = 0; topics[i]; i++) {
			char title[200];
			topic_title(dir, topics[i], title, sizeof title);
			int used = fprintf(f, "  %-18s ", topics[i]);
			print_wrapped(f, title, used, 21, help_width());
		}
	}
	topics_free(topics);
	fprintf(f, "\n  kbench COMMAND --help  a command's options (kbench help --man: all of them)\n"
		   "  kbench --version       the version\n");
}

/* "run, calibrate" or "every command". */
static void command_names(char *buf, size_t len, unsigned cmds)
{
	buf[0] = '\0';
	if (cmds == OC_ALL) {
		snprintf(buf, len, "every command");
		return;
	}
	for (size_t i = 0; i < opt_command_count; i++)
		if (cmds & opt_commands[i].bit) {
			size_t u = strlen(buf);
			snprintf(buf + u, len - u, "%s%s", u ? ", " : "", opt_commands[i].name);
		}
}

/* ---- the man page ---- */

/* Text for roff: backslashes and hyphens escaped, no line read as a request. */
static void roff(FILE *f, const char *s)
{
	bool bol = true;
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static void man_command(FILE *f, const struct opt_command *c)
{
	fprintf(f, ".SS \"kbench %s", c->name);
	if (*c->args) {
		fputc(' ', f);
		roff(f, c->args);
	}
	fprintf(f, "\"\n");
	roff(f, c->about);
	fprintf(f, ".\n");
	if (c->text) {
		fprintf(f, ".PP\n");
		roff(f, c->text);
		fputc('\n', f);
	}
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *d = &opt_table[i];
		if (!(d->cmds & c->bit) || d->cmds == OC_ALL)
			continue;
		char left[64];
		opts_left(d, left, sizeof left);
		fprintf(f, ".TP\n.B ");
		roff(f, left);
		fputc('\n', f);
		roff(f, d->help);
		fputc('\n', f);
	}
	if (c->after) {
		fprintf(f, ".PP\n");
		roff(f, c->after);
		fputc('\n', f);
	}
}

static void print_man(FILE *f)
{
	fprintf(f, ".\\\" kbench(1), generated by 'kbench help --man' from src/cli/options_table.c: edit that.\n");
	fprintf(f, ".TH KBENCH 1 \"\" \"kbench %s\" \"User Commands\"\n", KBENCH_VERSION);
	fprintf(f, ".SH NAME\nkbench \\- a benchmark console for Linux kernels (UnixBench's index tests)\n");
	fprintf(f, ".SH SYNOPSIS\n.B kbench\n.br\n.B kbench\n.I COMMAND\n.RI [ OPTIONS ]\n"
		   ".RI [ OPERANDS ]\n");
	fprintf(f, ".SH DESCRIPTION\n");
	roff(f, "kbench runs the UnixBench index tests (and more) in worker processes, with 1 and N\n"
		"parallel copies, scores them the way UnixBench does, watches the machine while they\n"
		"run (frequency, temperature, throttling, counters), stores every run, and compares\n"
		"two runs with verdicts that say whether a difference is larger than the noise.\n"
		"On a terminal, kbench alone opens the console.\n");
	fprintf(f, ".PP\n");
	roff(f, "Every command takes its options before or after its operands; -- ends the options;\n"
		"a value follows its option as --opt=value or --opt value. -h or --help prints a\n"
		"command's options.\n");
	fprintf(f, ".SH COMMANDS\n");
	for (size_t i = 0; i < opt_command_count; i++)
		man_command(f, &opt_commands[i]);
	fprintf(f, ".SH EXIT STATUS\n");
	roff(f, "0 success, 1 a test, the run or a file failed, 2 a usage error, 128+N when stopped\n"
		"by signal N (130 after Ctrl-C).\n");
	fprintf(f, ".SH TESTS\n");
	roff(f, "The tests and groups a run takes as operands (kbench list says more):\n");
	for (size_t i = 0; i < test_count; i++) {
		fprintf(f, ".TP\n.B %s\n", test_table[i].id);
		roff(f, test_table[i].label);
		fputc('\n', f);
	}
	for (size_t g = 0; g < test_group_count; g++) {
		fprintf(f, ".TP\n.B %s\n", test_groups[g].name);
		roff(f, test_groups[g].about);
		fputc('\n', f);
	}
	fprintf(f, ".SH ENVIRONMENT\n");
	for (size_t i = 0; i < opt_env_count; i++) {
		fprintf(f, ".TP\n.B %s\n", opt_env[i].name);
		roff(f, opt_env[i].help);
		fputc('\n', f);
	}
	fprintf(f, ".SH SEE ALSO\n");
	roff(f, "The guide, one page per topic: kbench help lists them, kbench help TOPIC prints\n"
		"one (installed in the share directory's docs/; docs/ in the source tree).\n");
}

/* ---- the docs' option tables ---- */

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputc(' ', f);
		else if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s, f);
	}
}

/* Every option and the environment (cmds 0), or the options the commands in cmds
 * take, for the guide's page about them (-h, which every command takes, left out). */
static void print_markdown(FILE *f, unsigned cmds)
{
	fprintf(f, "| option | commands | meaning |\n|---|---|---|\n");
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *d = &opt_table[i];
		if (cmds && (!(d->cmds & cmds) || d->cmds == OC_ALL))
			continue;
		char left[64], cmds[200];
		opts_left(d, left, sizeof left);
		command_names(cmds, sizeof cmds, d->cmds);
		fprintf(f, "| `%s` | %s | ", left, cmds);
		md_cell(f, d->help);
		fprintf(f, " |\n");
	}
	if (cmds)
		return;
	fprintf(f, "\n| environment | meaning |\n|---|---|\n");
	for (size_t i = 0; i < opt_env_count; i++) {
		fprintf(f, "| `%s` | ", opt_env[i].name);
		md_cell(f, opt_env[i].help);
		fprintf(f, " |\n");
	}
}

extern const struct opt_command cmd_help_entry;

/* What kbench help prints: the last of --man and --markdown given, else the list, a command's
 * help or a page of the guide. */
enum help_what { HELP_TEXT, HELP_MAN, HELP_MARKDOWN };

static int as_man(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	*(enum help_what *)base = HELP_MAN;
	return 0;
}

static int as_markdown(void *base, const struct opt_item *it, char *err, size_t errlen)
{
	*(enum help_what *)base = HELP_MARKDOWN;
	return 0;
}

static const struct opt_def help_rows[] = {
	{ .name = "man", .kind = OK_FLAG,
	  .help = "the manual page kbench(1) in roff",
	  .lands = OL_OWN, .store = as_man },
	{ .name = "markdown", .kind = OK_FLAG,
	  .help = "the option table in Markdown, of the commands named (the guide's pages hold them)",
	  .lands = OL_OWN, .store = as_markdown },
	{ .name = NULL },
};

static int help_exec(int argc, char **argv)
{
	struct opt_parsed p;
	enum help_what what = HELP_TEXT;
	int rc = opts_take(&cmd_help_entry, argc, argv, &p, NULL, &what);
	if (rc >= 0)
		return rc;
	const struct opt_command *c = p.noperands == 1 ? opts_command(p.operand[0]) : NULL;
	const char *dir = docs_dir();
	if (what == HELP_MARKDOWN) {
		unsigned cmds = 0;
		for (int i = 0; i < p.noperands && rc < 0; i++) {
			const struct opt_command *oc = opts_command(p.operand[i]);
			if (oc)
				cmds |= oc->bit;
			else
				rc = usage_error("help --markdown: '%s' is not a command (try 'kbench help')",
						 p.operand[i]);
		}
		if (rc < 0)
			print_markdown(stdout, cmds);
	} else if (p.noperands > 1)
		rc = usage_error("help: one command or topic at a time, not '%s' too (try 'kbench help')",
				 p.operand[1]);
	else if (p.noperands == 1 && !c && !is_topic(dir, p.operand[0]))
		rc = usage_error(dir ? "help: '%s' is not a command or a topic (try 'kbench help')"
				     : "help: '%s' is not a command, and the guide's pages are not installed "
				       "here (docs/ beside kbench or in its share directory)",
				 p.operand[0]);
	else if (what == HELP_MAN)
		print_man(stdout);
	else if (c)
		opts_print_help(stdout, c);
	else if (p.noperands == 1)
		rc = print_topic(dir, p.operand[0]);
	else
		help_print_main(stdout);
	opts_free(&p);
	return rc > 0 ? rc : 0;
}

const struct opt_command cmd_help_entry = {
	.name = "help", .args = "[COMMAND|TOPIC] [--man|--markdown]",
	.about = "this list, a command's options, a page of the guide, or the manual",
	.operand = "commands", .options = help_rows, .exec = help_exec,
};
