/* kbench's command line: dispatches to a command, or opens the console on a terminal. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/workloads.h"
#include "ui.h"

struct command {
	const char *name;
	const char *args;
	const char *about;
	int (*fn)(int argc, char **argv);
	int hidden;
};

static const struct command commands[] = {
	{ "run", "[options] [TEST|GROUP ...]", "run benchmarks headless and print the report", cmd_run, 0 },
	{ "list", "", "the tests and groups, with units, baselines and lengths", cmd_list, 0 },
	{ "console", "[options] [TEST|GROUP ...]", "the interactive console (kbench alone on a terminal)", ui_main, 0 },
	{ "replay", "RUN [--speed N]", "play a stored run back on the console (a demo)", ui_replay, 0 },
	{ "sensors", "[--sensor CHIP:LABEL]", "temperatures, frequencies, throttle and power sources here", cmd_sensors, 0 },
	{ "events", "[PATTERN]", "the counter events libpfm4 knows here, and which can be opened", cmd_events, 0 },
	{ "runs", "", "the stored runs, newest first", cmd_runs, 0 },
	{ "show", "RUN", "a stored run's report (UnixBench's text format)", cmd_show, 0 },
	{ "compare", "A B [--json|--csv]", "side-by-side table with honest verdicts", cmd_compare, 0 },
	{ "import", "FILE... [--name NAME]", "store published UnixBench results", cmd_import, 0 },
	{ "export", "RUN --format FMT", "write a stored run out (json, csv, unixbench)", cmd_export, 0 },
	{ "noise", "", "this machine's run-to-run noise floor per test", cmd_noise, 0 },
	{ "delete", "RUN", "remove a stored run", cmd_delete, 0 },
	{ "__execl", "", "one link of the execl chain (internal)", execl_chain_main, 1 },
	{ "__spawn", "", "spawn's loop in a fresh process (internal)", spawn_main, 1 },
};

static void print_help(FILE *f)
{
	fprintf(f, "kbench %s - a benchmark console for Linux kernels (UnixBench's index tests)\n\n",
		KBENCH_VERSION);
	fprintf(f, "usage: kbench COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!commands[i].hidden)
			fprintf(f, "  %-8s %-28s %s\n", commands[i].name, commands[i].args,
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
