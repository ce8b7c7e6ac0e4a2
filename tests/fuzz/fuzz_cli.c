/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: every command's option parsing, from argv made of fuzz bytes, must end in
 * a result or one clear error, never a crash or a leak; no run ever starts and no file is
 * written (runner_new and telemetry_dump are wrapped at link time to refuse once the options
 * are parsed). */
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "runner.h"
#include "ui.h"

/* Linked with -Wl,--wrap=runner_new: the options were parsed and checked; stop here. */
struct runner *__wrap_runner_new(const struct runner_opts *opts, char *err, size_t errlen);
struct runner *__wrap_runner_new(const struct runner_opts *opts, char *err, size_t errlen)
{
	(void)opts;
	snprintf(err, errlen, "fuzz: parsed; no run");
	return NULL;
}

/* Linked with -Wl,--wrap=telemetry_dump: sensors --dump FILE writes a tar named by the fuzz
 * bytes in the working directory (a 10-million run left 1,600 of them in the tree); the
 * option is parsed and checked, nothing is written. */
int __wrap_telemetry_dump(const char *path, char *err, size_t errlen);
int __wrap_telemetry_dump(const char *path, char *err, size_t errlen)
{
	(void)path;
	snprintf(err, errlen, "fuzz: parsed; no dump written");
	return -1;
}

/* The commands that only read: the ones that write (import, export -o, delete) would
 * let fuzz bytes name files to write or delete on this machine. Run as the command line
 * runs them, through their entries (src/cli/command_list.c). */
static const char *const commands[] = {
	"run", "list", "console", "replay", "runs", "show", "compare", "noise", "sensors",
	"calibrate", /* stores runs only when one runs, and none does here */
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])
#define MAX_ARGS 32

static void put_file(const char *dir, const char *id, const char *src)
{
	char path[4200];
	FILE *in = fopen(src, "rb");
	if (!in)
		return;
	snprintf(path, sizeof path, "%s/%s.json", dir, id);
	FILE *out = fopen(path, "wb");
	char buf[4096];
	size_t n;
	while (out && (n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	if (out)
		fclose(out);
	fclose(in);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* A private store with two runs (from the run-file corpus, run from the tree's top). */
	static char dir[] = "/tmp/kbench-fuzz-cli.XXXXXX";
	if (!mkdtemp(dir))
		abort();
	setenv("KBENCH_HOME", dir, 1);
	setenv("XDG_CONFIG_HOME", dir, 1);
	put_file(dir, "aaaa1111", "tests/fuzz/corpus/runfile/run1.json");
	put_file(dir, "bbbb2222", "tests/fuzz/corpus/runfile/newer.json");
	/* No terminal (the console refuses), nothing to read on stdin, reports to
	 * /dev/null; libFuzzer keeps its own copy of the stderr stream. */
	int null = open("/dev/null", O_RDWR);
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	close(null);
	stderr = fopen("/dev/null", "w");
	return 0;
}

/* Input: one byte picks the command, the rest is its arguments, one per line. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return 0;
	char *buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = (char *)commands[data[0] % NCOMMANDS];
	for (char *p = buf, *nl; argc < MAX_ARGS + 1 && *p; p = nl + 1) {
		argv[argc++] = p;
		if (!(nl = strchr(p, '\n')))
			break;
		*nl = '\0';
	}
	argv[argc] = NULL;
	/* A fresh getopt, as a new process has: forget where the last input stopped. */
	char *dummy[] = { "fuzz", NULL };
	optind = 0;
	getopt(1, dummy, "");
	int rc = opts_command(commands[data[0] % NCOMMANDS])->exec(argc, argv);
	free(buf);
	if (rc < 0 || rc > 2)
		abort(); /* exit codes are 0, 1 or 2 */
	return 0;
}
