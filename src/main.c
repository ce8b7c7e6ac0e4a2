/* kbench's command line: dispatches to a command, or opens the console on a terminal. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui.h"

struct command {
	const char *name;
	const char *args;
	const char *about;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "run", "[options] [TEST|GROUP ...]", "run benchmarks headless and print the report", cmd_run },
	{ "calibrate", "[--quick|--full] [-n N]", "learn this machine's run-to-run noise (A/A runs)", cmd_calibrate },
	{ "list", "", "the tests and groups, with units, baselines and lengths", cmd_list },
	{ "console", "[options] [TEST|GROUP ...]", "the interactive console (kbench alone on a terminal)", ui_main },
	{ "replay", "RUN [--speed N]", "play a stored run back on the console (a demo)", ui_replay },
	{ "sensors", "[--sensor CHIP:LABEL]", "temperatures, frequencies, throttle and power sources here", cmd_sensors },
	{ "events", "[PATTERN]", "the counter events libpfm4 knows here, and which can be opened", cmd_events },
	{ "runs", "", "the stored runs, newest first", cmd_runs },
	{ "show", "RUN", "a stored run's report (UnixBench's text format)", cmd_show },
	{ "compare", "A B [--json|--csv]", "side-by-side table with honest verdicts", cmd_compare },
	{ "import", "FILE... [--name NAME]", "store published UnixBench results", cmd_import },
	{ "export", "RUN --format FMT", "write a stored run out (json, csv, unixbench)", cmd_export },
	{ "noise", "", "this machine's run-to-run noise floor per test", cmd_noise },
	{ "delete", "RUN", "remove a stored run", cmd_delete },
};

static void print_help(FILE *f)
{
	fprintf(f, "kbench %s - a benchmark console for Linux kernels (UnixBench's index tests)\n\n",
		KBENCH_VERSION);
	fprintf(f, "usage: kbench COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-9s %-28s %s\n", commands[i].name, commands[i].args,
			commands[i].about);
	fprintf(f, "\n  kbench run --help     options of a headless run\n"
		   "  kbench --version      the version\n");
}

int main(int argc, char **argv)
{
	if ((argc < 2 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) ||
	    (argc >= 2 && ui_is_option(argv[1])))
		return ui_main(argc, argv);
	if (argc < 2) {
		print_help(stdout);
		return 0;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("kbench %s\n", KBENCH_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, cmd))
			return commands[i].fn(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (try 'kbench --help')", cmd);
}
