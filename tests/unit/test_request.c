/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run request: every run option's row lands its value in it (no command reads one itself), as the runner takes it; the defaults kbench run fills; the console's ticks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "commands.h"
#include "options.h"
#include "request.h"
#include "run.h"
#include "settings.h"
#include "sysinfo.h"
#include "tests.h"
#include "app.h"
#include "thermal.h"

/* Room for any command's own options (each command's file has its struct): the console's is
 * the one this test reads. */
union own {
	struct console_opts console;
	char bytes[256];
};

static int parse_apply(const char *cmd, const char *const *argv, struct run_request *rq, union own *own, char *err,
		       size_t errlen)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	struct opt_parsed p;
	int rc = opts_parse(opts_command(cmd), argc, (char **)argv, &p);
	if (rc >= 0)
		return rc;
	rc = opts_apply(&p, rq, own, err, errlen);
	opts_free(&p);
	return rc;
}

/* The commands that make runs take no option that does not land: none of them reads an
 * option itself, so a new run option is its row and its field. */
static void every_run_option_lands(void **state)
{
	(void)state;
	unsigned runlike = OC_RUN | OC_CALIBRATE | OC_CONSOLE | OC_MODES;
	int landing = 0;
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_def *d = &opt_table[i];
		if (!(d->cmds & runlike) || d->id == O_HELP)
			continue;
		if (d->lands == OL_NONE)
			fail_msg("--%s is a run option that lands nowhere", d->name);
		/* and it writes something: the request or the own struct after differs from before */
		static struct run_request rq, was;
		union own own, own_was;
		run_request_init(&rq);
		memset(&own, 0, sizeof own);
		was = rq;
		own_was = own;
		struct opt_item it = { .def = d, .arg = d->kind == OK_FLAG ? NULL : d->def ? d->def : "1", .i = 7, .d = 7 };
		if (d->setting && d->setting->kind == SET_TEXT)
			it.arg = d->def ? d->def : "x";
		struct opt_parsed p = { .n = 1, .item = &it };
		char err[200];
		assert_int_equal(opts_apply(&p, &rq, &own, err, sizeof err), 0);
		if (!memcmp(&rq, &was, sizeof rq) && !memcmp(&own, &own_was, sizeof own))
			fail_msg("--%s landed nothing", d->name);
		landing++;
	}
	assert_true(landing > 30);
}

/* Values land as the runner takes them: a percentage as a fraction, minutes as seconds,
 * --interval 0 as telemetry off, copies as blocks, a family's setting as a word. */
static void values_land_as_the_runner_takes_them(void **state)
{
	(void)state;
	static struct run_request rq;
	union own own = { 0 };
	char err[300];
	const char *run[] = { "run", "--quick", "--precision", "2", "--interval", "0", "-c", "1", "-c", "2,3",
			      "--sizes", "1K:2K", "--huge", "--no-save", "--name", "x", "-v", "--tmpdir", "/tmp",
			      NULL };
	run_request_init(&rq);
	assert_int_equal(parse_apply("run", run, &rq, &own, err, sizeof err), 0);
	assert_true(rq.run.quick);
	assert_true(rq.run.precision > 0.0199 && rq.run.precision < 0.0201);
	assert_true(rq.tele.off);
	assert_int_equal(rq.run.ncopies, 3);
	assert_int_equal(rq.run.copies[2], 3);
	assert_string_equal(rq.params, "sizes=1K:2K huge");
	assert_true(rq.no_save && rq.verbose && !rq.quiet);
	assert_string_equal(rq.name, "x");
	assert_string_equal(rq.run.tmpdir, "/tmp");
	assert_true(rq.run.pause < 0); /* not given: UnixBench's */

	const char *interval[] = { "run", "--interval", "2", NULL };
	run_request_init(&rq);
	assert_int_equal(parse_apply("run", interval, &rq, &own, err, sizeof err), 0);
	assert_false(rq.tele.off);
	assert_true(rq.run.interval == 2 && rq.tele.interval == 2);

	const char *thermal[] = { "thermal", "--minutes", "2", "-c", "3", "--test", "whetstone-double", "--idle",
				  "5", NULL };
	run_request_init(&rq);
	assert_int_equal(parse_apply("thermal", thermal, &rq, &own, err, sizeof err), 0);
	assert_true(rq.run.timed_seconds == 120);
	assert_int_equal(rq.run.ncopies, 1);
	assert_int_equal(rq.run.copies[0], 3);
	assert_int_equal(rq.run.ntests, 1);
	assert_string_equal(rq.run.tests[0]->id, "whetstone-double");
	assert_true(rq.run.idle == 5);

	/* the console: -c replaces the list; --compare is kept as text; --theme is its own */
	const char *console[] = { "console", "-c", "1,2", "-c", "4", "--compare", "last~1", "--theme", "mono",
				  "--minutes", "0.5", NULL };
	run_request_init(&rq);
	assert_int_equal(parse_apply("console", console, &rq, &own, err, sizeof err), 0);
	assert_int_equal(rq.run.ncopies, 1);
	assert_int_equal(rq.run.copies[0], 4);
	assert_string_equal(rq.compare, "last~1");
	assert_string_equal(own.console.theme, "mono");
	assert_true(rq.run.timed_seconds == 30);

	/* calibrate's own options land in its own struct, the run options in the request */
	const char *calibrate[] = { "calibrate", "-n", "3", "--full", "--minutes", "9", "--duration", "2", NULL };
	run_request_init(&rq);
	memset(&own, 0, sizeof own);
	union own none = { 0 };
	assert_int_equal(parse_apply("calibrate", calibrate, &rq, &own, err, sizeof err), 0);
	assert_true(memcmp(&own, &none, sizeof own) != 0);
	assert_true(rq.run.duration == 2);

	/* more copy counts than blocks: the usage line */
	const char *many[] = { "run", "-c", "1,2,3,4,5", "-c", "6,7,8,9", NULL };
	run_request_init(&rq);
	assert_int_equal(parse_apply("run", many, &rq, &own, err, sizeof err), -1);
	assert_string_equal(err, "at most 8 copy counts in all");
}

/* A value typed at a console prompt goes through the same row to the same field. */
static void typed_values_land_through_the_row(void **state)
{
	(void)state;
	static struct run_request rq;
	char err[300];
	run_request_init(&rq);
	assert_int_equal(opts_set(opts_find(OC_CONSOLE, "minutes"), "2", &rq, NULL, err, sizeof err), 0);
	assert_true(rq.run.timed_seconds == 120);
	assert_int_equal(opts_set(opts_row(O_SAMPLES), "4", &rq, NULL, err, sizeof err), 0);
	assert_int_equal(rq.run.samples, 4);
	assert_int_equal(opts_set(opts_row(O_SAMPLES), "0", &rq, NULL, err, sizeof err), -1);
	assert_string_equal(err, "--samples wants a number from 1 to 1000, not '0'");
	assert_int_equal(rq.run.samples, 4);
	assert_ptr_equal(opts_field(opts_row(O_PAUSE), &rq, NULL), &rq.run.pause);
}

/* What kbench run leaves to defaults: the index, 1 and the CPUs, a mode's own. */
static void complete_fills_what_run_leaves(void **state)
{
	(void)state;
	static struct run_request rq;
	char err[300];
	run_request_init(&rq);
	assert_int_equal(run_request_complete(&rq, NULL, err, sizeof err), 0);
	assert_int_equal(rq.run.ntests, 12);
	assert_string_equal(rq.run.tests[0]->id, "dhry2reg");
	assert_int_equal(rq.run.copies[0], 1);
	assert_int_equal(rq.run.ncopies, sysinfo_ncpus() > 1 ? 2 : 1);
	/* tests that run their own tasks need one block */
	run_request_init(&rq);
	assert_int_equal(run_request_add(&rq, "scaling"), 0);
	assert_int_equal(run_request_complete(&rq, NULL, err, sizeof err), 0);
	assert_int_equal(rq.run.ncopies, 1);
	/* precision without quick */
	run_request_init(&rq);
	rq.run.precision = 0.02;
	assert_int_equal(run_request_complete(&rq, NULL, err, sizeof err), -1);
	assert_string_equal(err, "--precision and --max-test-seconds go with --quick");
	/* a mode's own command: its test and defaults */
	run_request_init(&rq);
	const struct run_mode_info *thermal = run_mode_of_command("thermal");
	assert_non_null(thermal);
	assert_int_equal(run_request_complete(&rq, thermal, err, sizeof err), 0);
	assert_int_equal(rq.run.ntests, 1);
	assert_string_equal(rq.run.tests[0]->id, thermal->test);
	assert_ptr_equal(rq.run.mode, &thermal_mode);
	assert_true(rq.run.timed_seconds > 0);
	assert_int_equal(rq.run.copies[0], sysinfo_ncpus());
	/* the params pointer follows the request it is asked of */
	snprintf(rq.params, sizeof rq.params, "huge");
	assert_ptr_equal(run_request_opts(&rq)->params, rq.params);
	rq.params[0] = 0;
	assert_null(run_request_opts(&rq)->params);
}

/* How a run spends its samples, from its command line: --quick alone keeps the precision rule
 * (rounds are asked for: they are not yet shown to narrow the index per minute); --allocate
 * index or the minutes of --budget take rounds; a full run each test's own count. */
static void quick_keeps_the_precision_rule(void **state)
{
	(void)state;
	static const struct {
		const char *argv[6];
		enum runner_alloc want;
	} rows[] = {
		{ { "run", "--quick", NULL }, ALLOC_PRECISION },
		{ { "run", "--quick", "--allocate", "index", NULL }, ALLOC_INDEX },
		{ { "run", "--quick", "--budget", "2", NULL }, ALLOC_INDEX },
		{ { "run", "--budget", "2", NULL }, ALLOC_INDEX },
		{ { "run", "--quick", "--allocate", "precision", NULL }, ALLOC_PRECISION },
		{ { "run", NULL }, ALLOC_OWN },
		{ { "plan", "--quick", NULL }, ALLOC_PRECISION },
		{ { "calibrate", "--quick", NULL }, ALLOC_PRECISION },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		static struct run_request rq;
		union own own;
		char err[300];
		run_request_init(&rq);
		memset(&own, 0, sizeof own);
		assert_int_equal(parse_apply(rows[i].argv[0], rows[i].argv, &rq, &own, err, sizeof err), 0);
		assert_int_equal(run_request_complete(&rq, NULL, err, sizeof err), 0);
		if (runner_allocation(&rq.run) != rows[i].want)
			fail_msg("%s %s: allocation %d, not %d", rows[i].argv[0], rows[i].argv[1] ? rows[i].argv[1] : "",
				 runner_allocation(&rq.run), rows[i].want);
		/* the run it makes says so */
		struct run *r = runner_new_run(&rq.run);
		assert_string_equal(r->meta.allocation, rows[i].want == ALLOC_INDEX	   ? "index"
							: rows[i].want == ALLOC_PRECISION ? "precision"
											  : "");
		run_free(r);
	}
}

/* The console's ticks keep the table's order; the command line's operands theirs. */
static void ticks_keep_the_table_order(void **state)
{
	(void)state;
	static struct run_request rq;
	run_request_init(&rq);
	const struct test_def *pipe = test_find("pipe"), *dhry = test_find("dhry2reg"), *execl = test_find("execl");
	run_request_set(&rq, pipe, true);
	run_request_set(&rq, dhry, true);
	run_request_set(&rq, execl, true);
	run_request_set(&rq, dhry, true); /* once */
	assert_int_equal(rq.run.ntests, 3);
	assert_ptr_equal(rq.run.tests[0], dhry);
	assert_ptr_equal(rq.run.tests[1], execl);
	assert_ptr_equal(rq.run.tests[2], pipe);
	run_request_set(&rq, execl, false);
	assert_int_equal(rq.run.ntests, 2);
	assert_false(run_request_has(&rq, execl));
	assert_ptr_equal(rq.run.tests[1], pipe);
	run_request_init(&rq);
	assert_int_equal(run_request_add(&rq, "pipe"), 0);
	assert_int_equal(run_request_add(&rq, "dhry2reg"), 0);
	assert_int_equal(run_request_add(&rq, "nosuch"), -1);
	assert_ptr_equal(rq.run.tests[0], pipe);
	run_request_only(&rq, "dhry");
	assert_int_equal(rq.run.ntests, 1);
	assert_ptr_equal(rq.run.tests[0], dhry);
	run_request_only(&rq, NULL);
	assert_int_equal(rq.run.ntests, 0);
}

/* A calibration of a run: its tests, one copy, its kind of samples. */
static void like_a_run(void **state)
{
	(void)state;
	static struct run_request rq;
	struct run *r = run_new();
	struct run_block *b = run_add_block(r, 4);
	run_block_add_test(b, "pipe", "Pipe", "lps", 10, 12440, "system");
	run_block_add_test(b, "dhry2reg", "Dhry", "lps", 10, 116700, "system");
	r->meta.mode = &run_mode_quick;
	r->meta.duration_override = 2;
	run_request_init(&rq);
	rq.run.samples = 5;
	run_request_like(&rq, r);
	assert_int_equal(rq.run.ntests, 2);
	assert_string_equal(rq.run.tests[0]->id, "dhry2reg"); /* the table's order */
	assert_int_equal(rq.run.ncopies, 1);
	assert_int_equal(rq.run.copies[0], 4); /* no 1-copy block: its own */
	assert_true(rq.run.quick);
	assert_true(rq.run.duration == 2);
	assert_int_equal(rq.run.samples, 0);
	run_add_block(r, 1);
	run_request_like(&rq, r);
	assert_int_equal(rq.run.copies[0], 1);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_run_option_lands),
		cmocka_unit_test(values_land_as_the_runner_takes_them),
		cmocka_unit_test(typed_values_land_through_the_row),
		cmocka_unit_test(complete_fills_what_run_leaves),
		cmocka_unit_test(quick_keeps_the_precision_rule),
		cmocka_unit_test(ticks_keep_the_table_order),
		cmocka_unit_test(like_a_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
