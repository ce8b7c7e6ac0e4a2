/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the option table (its rows in src/cli/options_table.c, its parser in options.c): its rows are whole and sane, and the parser made from it reads every command the GNU way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buildload.h"
#include "commands.h"
#include "family.h"
#include "kbuild.h"
#include "latency.h"
#include "memlat.h"
#include "noise.h"
#include "options.h"
#include "request.h"
#include "run.h"
#include "scaling.h"
#include "settings.h"
#include "tests.h"

/* Parses a command line given as words; returns opts_parse's code. */
/* The family's settings for params as a run on ncpus CPUs (quick or not) fills them. */
static int bl_fill(const char *params, int ncpus, bool quick, struct buildload_opts *o, char *err,
		   size_t errlen)
{
	struct settings_env env = { .quick = quick, .ncpus = ncpus };
	return settings_fill(&buildload_settings, params, &env, o, err, errlen);
}

/* The family's settings for params as a run on ncpus CPUs (quick or not) fills them. */
static int kb_fill(const char *params, int ncpus, bool quick, struct kbuild_opts *o, char *err,
		   size_t errlen)
{
	struct settings_env env = { .quick = quick, .ncpus = ncpus };
	return settings_fill(&kbuild_settings, params, &env, o, err, errlen);
}

static int parse(const char *cmd, struct opt_parsed *p, int argc, const char **argv)
{
	return opts_parse(opts_command(cmd), argc, (char **)argv, p);
}

/* The row a command takes by that long name. */
static const struct opt_def *row(unsigned cmd, const char *name)
{
	for (size_t i = 0; i < opt_count; i++)
		if ((opt_table[i].cmds & cmd) && !strcmp(opt_table[i].name, name))
			return &opt_table[i];
	fail_msg("no row --%s", name);
	return NULL;
}

/* A named row is its id's (an id once), the families' settings in O_SETTING's place. */
static void rows_found_by_id(void **state)
{
	(void)state;
	size_t nset = 0, named = 0;
	for (size_t i = 0; i < opt_count; i++) {
		if (opt_table[i].id == O_SETTING) {
			assert_non_null(opt_table[i].setting);
			assert_true(opt_table[i].param);
			nset++;
			continue;
		}
		assert_null(opt_table[i].setting);
		if (opt_table[i].id == O_NONE)
			continue;
		named++;
		assert_ptr_equal(opts_row(opt_table[i].id), &opt_table[i]);
	}
	/* every id names one row but O_NONE and the places of others' rows (O_SETTING, O_MODE_ROWS,
	 * O_COMMAND_ROWS) */
	assert_int_equal(named, O_COUNT - 4);
	/* every family's settings, kbuild's --tree once though buildload reads it too */
	assert_int_equal(nset, memlat_settings.n + scaling_settings.n + kbuild_settings.n + lat_settings.n +
				       buildload_settings.n + family_list[0]->settings->n - 2);
}

/* A family's setting is declared once, in its own file: the option's range, default and
 * help are its row's, and a stored run's bad value says what the command line says. */
static void settings_are_the_families_rows(void **state)
{
	(void)state;
	const struct opt_def *d = NULL;
	for (size_t i = 0; i < opt_count; i++)
		if (!strcmp(opt_table[i].name, "period-us"))
			d = &opt_table[i];
	assert_non_null(d);
	assert_ptr_equal(d->setting, &lat_settings.rows[0]);
	assert_true(d->min == 50 && d->max == 100000);
	assert_string_equal(d->def, "1000");
	assert_int_equal(d->kind, OK_INT);
	char cli[200], stored[200];
	assert_int_equal(opts_value(d, NULL, "10", NULL, cli, sizeof cli), -1);
	struct lat_params lp;
	assert_int_equal(
		test_settings_fill(&lat_settings, "period-us=10", false, &lp, stored, sizeof stored), -1);
	assert_string_equal(cli, stored);
	assert_string_equal(cli, "--period-us wants microseconds from 50 to 100000, not '10'");
	/* the defaults the families get are the rows' */
	assert_int_equal(test_settings_fill(&lat_settings, NULL, false, &lp, stored, sizeof stored), 0);
	assert_int_equal(lp.period_us, 1000);
	assert_int_equal(lp.work_us, 20);
	struct scaling_params sp;
	assert_int_equal(test_settings_fill(&scaling_settings, "jobs=7 tasks=1,3", false, &sp, stored,
					    sizeof stored),
			 0);
	assert_int_equal(sp.jobs, 7);
	assert_int_equal(sp.ntasks, 2);
	assert_int_equal(sp.tasks[1], 3);
	/* text settings: the family's parse, the same line both ways */
	for (size_t i = 0; i < opt_count; i++)
		if (!strcmp(opt_table[i].name, "make-jobs"))
			d = &opt_table[i];
	assert_int_equal(opts_value(d, NULL, "0", NULL, cli, sizeof cli), -1);
	struct kbuild_opts ko;
	assert_int_equal(kb_fill("make-jobs=0", 2, false, &ko, stored, sizeof stored), -1);
	assert_string_equal(cli, stored);
	/* the words of two families: each reads its own; buildload reads kbuild's --make-jobs */
	struct buildload_opts bo;
	assert_int_equal(
		bl_fill("make-jobs=3,1 hog=10 period-us=500", 2, false, &bo, stored, sizeof stored), 0);
	assert_int_equal(bo.jobs, 3);
	assert_int_equal(bo.hog_pct, 10);
	/* settings that do not go together */
	static struct run_request rq;
	snprintf(rq.params, sizeof rq.params, "config=defconfig");
	assert_int_equal(run_request_conflicts(&rq, stored, sizeof stored), -1);
	assert_string_equal(stored, "--config goes with --source (a Linux tree or tarball to build)");
	snprintf(rq.params, sizeof rq.params, "tree=1 make-jobs=1");
	assert_int_equal(run_request_conflicts(&rq, stored, sizeof stored), 0);
}

/* Within one command no two rows share a long or a short name. */
static void names_unique_per_command(void **state)
{
	(void)state;
	for (size_t c = 0; c < opt_command_count; c++) {
		unsigned bit = opt_commands[c].bit;
		for (size_t i = 0; i < opt_count; i++) {
			const struct opt_def *a = &opt_table[i];
			if (!(a->cmds & bit))
				continue;
			for (size_t k = i + 1; k < opt_count; k++) {
				const struct opt_def *b = &opt_table[k];
				if (!(b->cmds & bit))
					continue;
				if (!strcmp(a->name, b->name) || (a->short_name && a->short_name == b->short_name))
					fail_msg("%s: --%s and --%s clash", opt_commands[c].name, a->name, b->name);
			}
		}
	}
}

static void commands_are_whole(void **state)
{
	(void)state;
	unsigned seen = 0;
	for (size_t c = 0; c < opt_command_count; c++) {
		const struct opt_command *oc = &opt_commands[c];
		assert_non_null(oc->name);
		assert_non_null(oc->args);
		assert_true(oc->about && *oc->about);
		assert_non_null(oc->exec);
		assert_true(oc->bit != 0);
		assert_int_equal(oc->bit & (oc->bit - 1), 0); /* one bit */
		assert_int_equal(seen & oc->bit, 0);
		seen |= oc->bit;
		assert_ptr_equal(opts_command(oc->name), oc);
		/* its own rows are its, and the commands they name beside it take them too */
		for (const struct opt_def *d = oc->options; d && d->name; d++) {
			const struct opt_def *r = row(oc->bit, d->name);
			assert_ptr_equal(r->help, d->help);
			assert_int_equal(r->cmds, d->cmds | oc->bit);
		}
	}
	/* the list's commands, each once, the modes' own among them */
	size_t listed = 0;
	for (size_t i = 0; i < command_list_count; i++)
		if (command_list[i]) {
			listed++;
			assert_non_null(opts_command(command_list[i]->name));
			if (command_list[i]->bit)
				assert_int_equal(opts_command(command_list[i]->name)->bit, command_list[i]->bit);
		}
	assert_true(listed < opt_command_count);
	/* the commands rows of other files name have their bits */
	static const unsigned named[] = { OC_RUN, OC_CALIBRATE, OC_CONSOLE, OC_REPLAY, OC_SENSORS, OC_REPORT, OC_DELETE };
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		assert_true(seen & named[i]);
	assert_true(seen & OC_MODE);
	assert_int_equal(seen & OC_MODES & ((seen & OC_MODES) + OC_MODE), 0); /* from OC_MODE, no gap */
	assert_null(opts_command("nosuchcommand"));
	/* a row of one command's file that another takes: compare's verdict rows, report's too */
	assert_true(row(OC_REPORT, "confidence")->cmds & opts_command("compare")->bit);
	assert_false(row(opts_command("compare")->bit, "json")->cmds & OC_REPORT);
}

static void mode_commands_come_from_their_rows(void **state)
{
	(void)state;
	int commands = 0;
	for (const struct run_mode_info *const *m = run_mode_list; *m; m++) {
		const struct run_mode_info *mi = *m;
		if (!mi->command)
			continue;
		assert_non_null(mi->cmd);
		const struct opt_command *c = opts_command(mi->command);
		assert_non_null(c);
		assert_string_equal(c->args, mi->cmd->args);
		assert_string_equal(c->about, mi->cmd->about);
		assert_true(c->bit & OC_MODES);
		assert_ptr_equal(run_mode_of_command(c->name), mi);
		commands++;
		int n = 0;
		for (const struct run_mode_option *r = mi->cmd->options; r->name; r++, n++) {
			const struct opt_def *d = NULL;
			for (size_t i = 0; i < opt_count && !d; i++)
				if (!strcmp(opt_table[i].name, r->name) && (opt_table[i].cmds & c->bit))
					d = &opt_table[i];
			assert_non_null(d);
			assert_ptr_equal(d->help, r->help);
			assert_ptr_equal(d->def, r->def);
			assert_int_equal(!!(d->cmds & OC_CONSOLE), r->console);
			/* it lands where the mode's row says: a number in the runner's options */
			assert_int_equal(d->lands, OL_REQUEST);
			if (r->value == RMV_NUMBER)
				assert_int_equal(d->off, offsetof(struct run_request, run) + r->off);
			else
				assert_non_null(d->store);
		}
		assert_true(n > 0);
	}
	assert_true(commands > 0);
	/* the rows after the modes' rows are still found */
	assert_string_equal(row(OC_CONSOLE, "theme")->name, "theme");
	assert_string_equal(opts_row(O_HELP)->name, "help");
	assert_true(row(OC_CALIBRATE, "minutes")->cmds & OC_CALIBRATE);
}

/* Every row has a name, help and commands; values have a name in help and in errors. */
static void every_row_has_help(void **state)
{
	(void)state;
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *d = &opt_table[i];
		assert_true(d->name && *d->name && d->name[0] != '-');
		assert_true(d->help && *d->help);
		assert_int_not_equal(d->help[strlen(d->help) - 1], '\n');
		assert_int_not_equal(d->cmds, 0);
		assert_int_equal(d->cmds & ~(unsigned)OC_ALL, 0);
		if (d->kind == OK_FLAG) {
			assert_null(d->arg);
			assert_null(d->def);
		} else {
			assert_true(d->arg && *d->arg);
			assert_true(d->what && *d->what);
		}
	}
}

static void ranges_sane(void **state)
{
	(void)state;
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *d = &opt_table[i];
		if (d->kind != OK_INT && d->kind != OK_DOUBLE) {
			assert_true(d->min == 0 && d->max == 0);
			continue;
		}
		if (!(d->min < d->max))
			fail_msg("--%s: range %g to %g", d->name, d->min, d->max);
		if (d->kind == OK_INT)
			assert_true(d->min == (double)(long)d->min && d->max == (double)(long)d->max);
		/* both ends are values, just past them are not */
		char lo[32], hi[32], err[300];
		snprintf(lo, sizeof lo, "%g", d->min);
		snprintf(hi, sizeof hi, "%g", d->max);
		assert_int_equal(opts_value(d, NULL, lo, NULL, err, sizeof err), 0);
		/* The top may be more than this machine allows (--max-tasks 4096 needs a process
		 * limit over 8224; a 2 GiB netbook's is about 7,800): then its check says so, not
		 * the range. */
		if (opts_value(d, NULL, hi, NULL, err, sizeof err) != 0 &&
		    (!(d->check || (d->setting && d->setting->check)) || strstr(err, " wants ")))
			fail_msg("--%s %s: %s", d->name, hi, err);
		snprintf(hi, sizeof hi, "%g", d->max + 1);
		assert_int_equal(opts_value(d, NULL, hi, NULL, err, sizeof err), -1);
		assert_int_equal(opts_value(d, NULL, "", NULL, err, sizeof err), -1);
	}
}

/* Each command parses each of its rows' defaults given as --name=DEFAULT and --name DEFAULT. */
static void every_command_parses_its_defaults(void **state)
{
	(void)state;
	for (size_t c = 0; c < opt_command_count; c++)
		for (size_t i = 0; i < opt_count; i++) {
			const struct opt_def *d = &opt_table[i];
			if (!(d->cmds & opt_commands[c].bit) || !d->def)
				continue;
			char joined[128], dashed[64];
			snprintf(joined, sizeof joined, "--%s=%s", d->name, d->def);
			snprintf(dashed, sizeof dashed, "--%s", d->name);
			const char *a1[] = { opt_commands[c].name, joined, NULL };
			const char *a2[] = { opt_commands[c].name, dashed, d->def, NULL };
			struct opt_parsed p;
			for (int k = 0; k < 2; k++) {
				int rc = k ? parse(opt_commands[c].name, &p, 3, a2)
					   : parse(opt_commands[c].name, &p, 2, a1);
				if (rc != -1)
					fail_msg("%s: --%s's default '%s' does not parse", opt_commands[c].name,
						 d->name, d->def);
				assert_int_equal(p.n, 1);
				assert_int_equal(p.noperands, 0);
				assert_ptr_equal(p.item[0].def, d);
				assert_string_equal(p.item[0].arg, d->def);
				if (d->kind == OK_DOUBLE || d->kind == OK_INT)
					assert_true(p.item[0].d == strtod(d->def, NULL));
				opts_free(&p);
			}
		}
}

/* The defaults the code uses are the rows' (where the code reads a number). */
static void defaults_agree_with_the_code(void **state)
{
	(void)state;
	assert_int_equal(atoi(row(OC_CALIBRATE, "runs")->def), CALIBRATE_RUNS);
}

/* Options before and after operands, "--", attached values, clusters, prefixes. */
static void parses_the_gnu_way(void **state)
{
	(void)state;
	struct opt_parsed p;
	const char *a[] = { "run", "pipe", "--duration", "2", "-qc2", "dhry2reg", "--samples=3",
			    "-i", "4", "--", "--quick", "-", NULL };
	assert_int_equal(parse("run", &p, 12, a), -1);
	assert_int_equal(p.noperands, 4);
	assert_string_equal(p.operand[0], "pipe");
	assert_string_equal(p.operand[1], "dhry2reg");
	assert_string_equal(p.operand[2], "--quick");
	assert_string_equal(p.operand[3], "-");
	assert_int_equal(p.n, 5);
	assert_int_equal(p.item[0].def->id, O_DURATION);
	assert_true(p.item[0].d == 2);
	assert_ptr_equal(p.item[1].def, row(OC_RUN, "quiet"));
	assert_ptr_equal(p.item[2].def, row(OC_RUN, "copies"));
	assert_string_equal(p.item[2].arg, "2");
	assert_int_equal(p.item[3].def->id, O_SAMPLES);
	assert_int_equal(p.item[3].i, 3);
	assert_ptr_equal(p.item[4].def, row(OC_RUN, "iterations"));
	assert_int_equal(p.item[4].i, 4);
	opts_free(&p);

	const char *b[] = { "compare", "A", "B", "--json", "--dur", NULL };
	assert_int_equal(parse("compare", &p, 4, b), -1);
	assert_int_equal(p.noperands, 2);
	assert_string_equal(p.item[0].def->name, "json");
	opts_free(&p);
	/* an option of another command is unknown here */
	assert_int_equal(parse("compare", &p, 5, b), 2);

	const char *c[] = { "run", "--dur", "1", "--max-test=3", NULL };
	assert_int_equal(parse("run", &p, 4, c), -1);
	assert_int_equal(p.item[0].def->id, O_DURATION);
	assert_ptr_equal(p.item[1].def, row(OC_RUN, "max-test-seconds"));
	opts_free(&p);
	/* the console and the replay each take their own rows: -c is a list there */
	const char *d[] = { "console", "-c", "1,all", "--speed", "2", NULL };
	assert_int_equal(parse("console", &p, 3, d), -1);
	assert_ptr_equal(p.item[0].def, row(OC_CONSOLE, "copies"));
	opts_free(&p);
	assert_int_equal(parse("console", &p, 5, d), 2);
}

/* Exit 2 for everything wrong: unknown, missing value, out of range, ambiguous, a flag with a value. */
static void refuses_with_exit_2(void **state)
{
	(void)state;
	static const char *const bad[][3] = {
		{ "--bogus" },	      { "--duration" },	   { "--duration", "abc" }, { "-c", "0" },
		{ "-c" },	      { "--samples=1x" },  { "--quick=yes" },	    { "--interval", "0.01" },
		{ "--no-such=1" },    { "-Z" },		   { "--precision", "51" },  { "--duration", "nan" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *argv[4] = { "run", bad[i][0], bad[i][1], NULL };
		struct opt_parsed p;
		int argc = bad[i][1] ? 3 : 2;
		if (parse("run", &p, argc, argv) != 2)
			fail_msg("run %s %s was taken", bad[i][0], bad[i][1] ? bad[i][1] : "");
	}
	const char *amb[] = { "console", "--co", "x", NULL }; /* --copies or --compare */
	struct opt_parsed p;
	assert_int_equal(parse("console", &p, 3, amb), 2);
}

/* --quick decides the samples: a count beside it is refused in both faces, not ignored;
 * each alone is taken. */
static void quick_refuses_a_sample_count(void **state)
{
	(void)state;
	static const char *const cmds[] = { "run", "console", "calibrate" };
	for (size_t c = 0; c < 3; c++) {
		struct opt_parsed p;
		const char *both[] = { cmds[c], "--samples", "2", "syscall", "--quick", NULL };
		assert_int_equal(parse(cmds[c], &p, 5, both), 2);
		const char *iter[] = { cmds[c], "--quick", "-i", "3", NULL };
		assert_int_equal(parse(cmds[c], &p, 4, iter), 2);
		const char *alone[] = { cmds[c], "--samples", "2", NULL };
		assert_int_equal(parse(cmds[c], &p, 3, alone), -1);
		opts_free(&p);
		const char *quick[] = { cmds[c], "--quick", "--duration", "2", NULL };
		assert_int_equal(parse(cmds[c], &p, 4, quick), -1);
		opts_free(&p);
	}
}

static void errors_keep_their_wording(void **state)
{
	(void)state;
	char err[300];
	assert_int_equal(opts_value(opts_row(O_DURATION), "--duration", "abc", NULL, err, sizeof err), -1);
	assert_string_equal(err, "--duration wants seconds from 0.01 to 86400, not 'abc'");
	assert_int_equal(opts_value(row(OC_RUN, "copies"), "-c", "0", NULL, err, sizeof err), -1);
	assert_string_equal(err, "-c wants a list of counts (1 to 256, or 'all'), at most 8, not '0'");
	assert_int_equal(opts_value(row(OC_RUN, "copies"), "-c", "1,2", NULL, err, sizeof err), 0);
	int list[8];
	assert_int_equal(opts_copy_list("1, all,N", 6, list, 8), 3);
	assert_true(list[0] == 1 && list[1] == 6 && list[2] == 6);
	assert_int_equal(opts_copy_list("1,2,3", 6, list, 2), -1); /* more than max */
	assert_int_equal(opts_copy_list(",", 6, list, 8), -1);
	assert_int_equal(opts_copy_list("257", 6, list, 8), -1);
	assert_int_equal(opts_value(row(opts_command("thermal")->bit, "copies"), "-c", "0", NULL, err, sizeof err), -1);
	assert_string_equal(err, "-c wants a number of copies from 1 to 256, not '0'");
	assert_int_equal(opts_value(row(OC_CALIBRATE, "runs"), "-n", "1", NULL, err, sizeof err), -1);
	assert_string_equal(err, "-n wants a number of runs from 2 to 50, not '1'");
	assert_int_equal(opts_value(row(opts_command("export")->bit, "format"), NULL, "xml", NULL, err, sizeof err), -1);
	assert_string_equal(err, "--format is json, csv, unixbench, markdown, text, bbcode or lava, not 'xml'");
	assert_int_equal(opts_value(row(OC_CONSOLE, "copies"), "--copies", "0", NULL, err, sizeof err), -1);
	assert_string_equal(err, "--copies wants a list of counts (1 to 256, or 'all'), at most 8, not '0'");
	assert_int_equal(opts_value(row(OC_CONSOLE, "copies"), "-c", "1,2,all", NULL, err, sizeof err), 0);
}

/* `kbench --theme X` opens the console: its options, -c too, but not --help or others'. */
static void console_options_open_the_console(void **state)
{
	(void)state;
	assert_true(opts_takes(OC_CONSOLE, "--theme"));
	assert_true(opts_takes(OC_CONSOLE, "--theme=mono"));
	assert_true(opts_takes(OC_CONSOLE, "-c"));
	assert_true(opts_takes(OC_CONSOLE, "--copies"));
	assert_false(opts_takes(OC_CONSOLE, "--help"));
	assert_false(opts_takes(OC_CONSOLE, "-h"));
	assert_false(opts_takes(OC_CONSOLE, "--speed"));
	assert_false(opts_takes(OC_CONSOLE, "--them"));
	assert_false(opts_takes(OC_CONSOLE, "run"));
	assert_false(opts_takes(OC_CONSOLE, "-"));
}

/* Help and list text wrapped to a width: words kept whole, continuation lines indented,
 * a too-long line's overflow carried into the next line, nothing lost. */
static void text_wraps(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int used = fprintf(f, "  --x      ");
	print_wrapped(f, "one two three\nfour five six seven", used, 11, 24);
	fclose(f);
	assert_string_equal(buf, "  --x      one two three\n           four five six\n           seven\n");
	free(buf);

	f = open_memstream(&buf, &len);
	print_reflowed(f, "aaa bbb ccc ddd eee\nfff ggg\nhhh iii jjj kkk lll", 12);
	fclose(f);
	assert_string_equal(buf, "aaa bbb ccc\nddd eee fff\nggg hhh iii\njjj kkk lll\n");
	free(buf);

	f = open_memstream(&buf, &len); /* a word wider than the line stays whole */
	print_reflowed(f, "abcdefghijklmnop qr", 8);
	fclose(f);
	assert_string_equal(buf, "abcdefghijklmnop\nqr\n");
	free(buf);
}

/* A cluster of flags is an item per letter: more items than words (found by make fuzz-long:
 * the items were counted by words and the 3rd letter of "-qvqvqv" wrote past them). */
static void flag_clusters_fit(void **state)
{
	(void)state;
	struct opt_parsed p;
	const char *argv[] = { "run", "-qvqvqvqvqvqvqvqv" };
	assert_int_equal(parse("run", &p, 2, argv), -1);
	assert_int_equal(p.n, 16);
	opts_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_found_by_id),
		cmocka_unit_test(settings_are_the_families_rows),
		cmocka_unit_test(names_unique_per_command),
		cmocka_unit_test(commands_are_whole),
		cmocka_unit_test(mode_commands_come_from_their_rows),
		cmocka_unit_test(every_row_has_help),
		cmocka_unit_test(ranges_sane),
		cmocka_unit_test(every_command_parses_its_defaults),
		cmocka_unit_test(defaults_agree_with_the_code),
		cmocka_unit_test(parses_the_gnu_way),
		cmocka_unit_test(refuses_with_exit_2),
		cmocka_unit_test(quick_refuses_a_sample_count),
		cmocka_unit_test(errors_keep_their_wording),
		cmocka_unit_test(console_options_open_the_console),
		cmocka_unit_test(text_wraps),
		cmocka_unit_test(flag_clusters_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
