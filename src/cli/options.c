/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The GNU-style parser, the value checks and --help made from the option table (src/cli/options_table.c). */
#include "options.h"

#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "settings.h"

int opts_param_append(char *buf, size_t len, const struct opt_item *it)
{
	if (!it->def->param)
		return 0;
	size_t u = strlen(buf);
	if (it->def->setting && it->def->setting->append) { /* a path: absolute, its spaces escaped */
		if (it->def->setting->append(buf, len, it->arg) < 0) {
			buf[u] = 0;
			return -1;
		}
		if (u == 0)
			memmove(buf, buf + 1, strlen(buf)); /* its word's leading space */
		return 1;
	}
	int w = !it->arg ? snprintf(buf + u, len - u, "%s%s", u ? " " : "", it->def->name)
		: it->def->kind == OK_INT ? snprintf(buf + u, len - u, "%s%s=%ld", u ? " " : "", it->def->name, it->i)
					  : snprintf(buf + u, len - u, "%s%s=%s", u ? " " : "", it->def->name, it->arg);
	if (w < 0 || (size_t)w >= len - u) {
		buf[u] = 0;
		return -1;
	}
	return 1;
}

/* ---- where values land ---- */

void *opts_field(const struct opt_def *d, struct run_request *rq, void *own)
{
	char *base = d->lands == OL_REQUEST ? (char *)rq : d->lands == OL_OWN ? own : NULL;
	return base && !d->store ? base + d->off : NULL;
}

/* One value into its field, by the row's kind (fio's options by their type). */
static int land(const struct opt_item *it, struct run_request *rq, void *own, char *err, size_t errlen)
{
	const struct opt_def *d = it->def;
	void *base = d->lands == OL_REQUEST ? (void *)rq : d->lands == OL_OWN ? own : NULL;
	if (!base)
		return 0;
	if (d->store)
		return d->store(base, it, err, errlen);
	void *f = (char *)base + d->off;
	if (d->kind == OK_FLAG)
		*(bool *)f = true;
	else if (d->kind == OK_INT)
		*(int *)f = (int)it->i;
	else if (d->kind == OK_DOUBLE)
		*(double *)f = it->d * (d->scale != 0 ? d->scale : 1);
	else if (d->size)
		snprintf(f, d->size, "%s", it->arg);
	else
		*(const char **)f = it->arg;
	return 0;
}

int opts_apply(const struct opt_parsed *p, struct run_request *rq, void *own, char *err, size_t errlen)
{
	for (int k = 0; k < p->n; k++)
		if (land(&p->item[k], rq, own, err, errlen) < 0)
			return -1;
	return 0;
}

int opts_take(const struct opt_command *c, int argc, char **argv, struct opt_parsed *p, struct run_request *rq,
	      void *own)
{
	int rc = opts_parse(c, argc, argv, p);
	if (rc >= 0)
		return rc;
	char err[400];
	if (opts_apply(p, rq, own, err, sizeof err) < 0) {
		opts_free(p);
		return usage_error("%s", err);
	}
	return -1;
}

/* The command as the list made it, with its bit: a command's file passes its own entry. */
static const struct opt_command *listed(const struct opt_command *c)
{
	const struct opt_command *l = c->bit ? NULL : opts_command(c->name);
	return l ? l : c;
}

void opts_defaults(const struct opt_command *c, void *own)
{
	char err[300];
	c = listed(c);
	for (size_t i = 0; i < opt_count; i++)
		if ((opt_table[i].cmds & c->bit) && opt_table[i].lands == OL_OWN && opt_table[i].def)
			opts_set(&opt_table[i], opt_table[i].def, NULL, own, err, sizeof err);
}

int opts_set(const struct opt_def *d, const char *text, struct run_request *rq, void *own, char *err,
	     size_t errlen)
{
	struct opt_item it = { .def = d, .arg = text };
	if (d->kind != OK_FLAG && opts_value(d, NULL, text, &it.d, err, errlen) < 0)
		return -1;
	it.i = (long)it.d;
	return land(&it, rq, own, err, errlen);
}

/* ---- values ---- */

void opts_range_text(const struct opt_def *d, char *buf, size_t len)
{
	if (d->kind == OK_INT || d->kind == OK_DOUBLE)
		snprintf(buf, len, "%s from %g to %g", d->what, d->min, d->max);
	else
		snprintf(buf, len, "%s", d->what ? d->what : "no value");
}

int opts_value(const struct opt_def *d, const char *spelled, const char *text, double *d_out,
	       char *err, size_t errlen)
{
	char opt[80];
	if (spelled)
		snprintf(opt, sizeof opt, "%s", spelled);
	else
		snprintf(opt, sizeof opt, "--%s", d->name);
	long l;
	double v = 0;
	int bad = 0;
	if (d->kind == OK_INT) {
		bad = parse_int(text, (long)d->min, (long)d->max, &l);
		v = (double)l;
	} else if (d->kind == OK_DOUBLE) {
		bad = parse_double(text, d->min, d->max, &v);
	}
	if (bad) {
		char range[96];
		opts_range_text(d, range, sizeof range);
		snprintf(err, errlen, "%s wants %s, not '%s'", opt, range, text);
		return -1;
	}
	if (d->check && d->check(opt, text, err, errlen) < 0)
		return -1;
	/* a family's setting: its own parse, then what this machine allows */
	const struct setting *r = d->setting;
	if (r && r->kind == SET_TEXT && settings_value(r, opt, text, NULL, err, errlen) < 0)
		return -1;
	char why[400];
	if (r && r->check && r->check(text, why, sizeof why) < 0) {
		snprintf(err, errlen, "%s: %s", opt, why);
		return -1;
	}
	if (d_out)
		*d_out = v;
	return 0;
}

/* ---- parsing ---- */

static bool takes(const struct opt_def *d, unsigned cmd)
{
	return (d->cmds & cmd) != 0;
}

/* A long name or an unambiguous prefix of one, as getopt_long allows. */
static const struct opt_def *find_long(unsigned cmd, const char *name, size_t len, bool *ambiguous)
{
	const struct opt_def *hit = NULL;
	int hits = 0;
	*ambiguous = false;
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *d = &opt_table[i];
		if (!takes(d, cmd) || strncmp(d->name, name, len))
			continue;
		if (strlen(d->name) == len)
			return d;
		hit = d;
		hits++;
	}
	*ambiguous = hits > 1;
	return hits == 1 ? hit : NULL;
}

static const struct opt_def *find_short(unsigned cmd, char c)
{
	for (size_t i = 0; c && i < opt_count; i++)
		if (opt_table[i].short_name == c && takes(&opt_table[i], cmd))
			return &opt_table[i];
	return NULL;
}

/* Takes one option's value; returns 0, or 2 after the error line. */
static int add_item(struct opt_parsed *p, const struct opt_def *d, const char *spelled,
		    const char *arg)
{
	char err[400];
	struct opt_item *it = &p->item[p->n];
	*it = (struct opt_item){ .def = d, .arg = arg };
	if (d->kind != OK_FLAG && opts_value(d, spelled, arg, &it->d, err, sizeof err) < 0)
		return usage_error("%s", err);
	it->i = (long)it->d;
	p->n++;
	return 0;
}

void opts_free(struct opt_parsed *p)
{
	free(p->item);
	free(p->operand);
	*p = (struct opt_parsed){ 0 };
}

/* One long option at argv[*i]; returns -1 to go on, else the exit code. */
static int parse_long(const struct opt_command *c, int argc, char **argv, int *i,
		      struct opt_parsed *p)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	char spelled[80];
	snprintf(spelled, sizeof spelled, "--%.*s", (int)(len < 70 ? len : 70), a);
	bool ambiguous;
	const struct opt_def *d = find_long(c->bit, a, len, &ambiguous);
	if (ambiguous)
		return usage_error("option '%s' is ambiguous (try 'kbench %s --help')", spelled, c->name);
	if (!d)
		return usage_error("unknown option '%s' (try 'kbench %s --help')", argv[*i], c->name);
	if (d->id == O_HELP) {
		opts_print_help(stdout, c);
		return 0;
	}
	const char *arg = NULL;
	if (d->kind == OK_FLAG && eq)
		return usage_error("option '--%s' takes no value", d->name);
	if (d->kind != OK_FLAG) {
		if (eq)
			arg = eq + 1;
		else if (*i + 1 < argc)
			arg = argv[++*i];
		else
			return usage_error("option '%s' needs a value", argv[*i]);
	}
	return add_item(p, d, spelled, arg) ? 2 : -1;
}

/* A cluster of short options at argv[*i] ("-qv", "-c2", "-c 2"). */
static int parse_short(const struct opt_command *c, int argc, char **argv, int *i,
		       struct opt_parsed *p)
{
	for (const char *s = argv[*i] + 1; *s; s++) {
		const struct opt_def *d = find_short(c->bit, *s);
		char spelled[3] = { '-', *s, '\0' };
		if (!d)
			return usage_error("unknown option '%s' (try 'kbench %s --help')", spelled, c->name);
		if (d->id == O_HELP) {
			opts_print_help(stdout, c);
			return 0;
		}
		if (d->kind == OK_FLAG) {
			if (add_item(p, d, spelled, NULL))
				return 2;
			continue;
		}
		const char *arg = s[1] ? s + 1 : *i + 1 < argc ? argv[++*i] : NULL;
		if (!arg)
			return usage_error("option '%s' needs a value", spelled);
		return add_item(p, d, spelled, arg) ? 2 : -1;
	}
	return -1;
}

/* A row's refused option given beside it: true after the one error line. */
static bool refused_pair(const struct opt_parsed *p)
{
	for (int i = 0; i < p->n; i++) {
		const struct opt_def *d = p->item[i].def;
		if (!d->refuses)
			continue;
		for (int k = 0; k < p->n; k++)
			if (!strcmp(p->item[k].def->name, d->refuses)) {
				usage_error("--%s does not go with --%s: %s", d->name, d->refuses, d->refuses_why);
				return true;
			}
	}
	return false;
}

int opts_parse(const struct opt_command *c, int argc, char **argv, struct opt_parsed *p)
{
	*p = (struct opt_parsed){ 0 };
	c = listed(c);
	size_t n = argc > 0 ? (size_t)argc : 1;
	/* a cluster of flags ("-qvqv") is an item per letter: room for every letter */
	size_t nitems = n;
	for (int i = 1; i < argc; i++)
		nitems += strlen(argv[i]);
	p->item = calloc(nitems, sizeof *p->item);
	p->operand = calloc(n, sizeof *p->operand);
	if (!p->item || !p->operand) {
		opts_free(p);
		return runtime_error("out of memory");
	}
	bool options = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc = -1;
		if (!options || a[0] != '-' || !a[1])
			p->operand[p->noperands++] = argv[i];
		else if (!strcmp(a, "--"))
			options = false;
		else if (a[1] == '-')
			rc = parse_long(c, argc, argv, &i, p);
		else
			rc = parse_short(c, argc, argv, &i, p);
		if (rc >= 0) {
			opts_free(p);
			return rc;
		}
	}
	return refused_pair(p) ? (opts_free(p), 2) : -1;
}

bool opts_takes(unsigned cmd, const char *arg)
{
	if (arg[0] != '-' || !arg[1])
		return false;
	const struct opt_def *d = NULL;
	if (arg[1] == '-') {
		size_t len = strcspn(arg + 2, "=");
		for (size_t i = 0; i < opt_count && !d; i++)
			if (takes(&opt_table[i], cmd) && strlen(opt_table[i].name) == len &&
			    !strncmp(opt_table[i].name, arg + 2, len))
				d = &opt_table[i];
	} else {
		d = find_short(cmd, arg[1]);
	}
	return d && d->id != O_HELP;
}

/* ---- help ---- */

void opts_left(const struct opt_def *d, char *buf, size_t len)
{
	const char *arg = d->arg ? d->arg : "";
	if (d->short_name)
		snprintf(buf, len, "-%c, --%s%s%s", d->short_name, d->name, *arg ? " " : "", arg);
	else
		snprintf(buf, len, "--%s%s%s", d->name, *arg ? " " : "", arg);
}

void opts_print_help(FILE *f, const struct opt_command *c)
{
	c = listed(c);
	fprintf(f, "usage: kbench %s%s%s\n", c->name, *c->args ? " " : "", c->args);
	if (c->text) {
		fputc('\n', f);
		print_reflowed(f, c->text, help_width());
	}
	fputc('\n', f);
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *d = &opt_table[i];
		if (!takes(d, c->bit))
			continue;
		char left[64];
		opts_left(d, left, sizeof left);
		int used = fprintf(f, strlen(left) > 16 ? "  %s  " : "  %-16s ", left);
		/* wrapped to 80 columns under its first line */
		print_wrapped(f, d->help, used, 19, help_width());
	}
	if (c->after) {
		fputc('\n', f);
		print_reflowed(f, c->after, help_width());
	}
}
