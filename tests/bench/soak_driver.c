/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The soak test's coordinator: one process doing many `kbench run`s back to back (the real
 * kbench run: options, runner, telemetry, report, save), checking after each that its open
 * file descriptors, memory and child processes do not grow. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "workloads/workloads.h"

static int count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

static long rss_kib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Processes whose parent is this one, zombies included: a worker not reaped counts. */
static int count_children(void)
{
	int n = 0;
	pid_t self = getpid();
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[300], buf[512];
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[len] = '\0';
		/* pid (comm) state ppid: comm may hold spaces, so read after the last ')'. */
		char *close = strrchr(buf, ')');
		char state;
		int ppid;
		if (close && sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == self)
			n++;
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: soak_driver RUNS run [kbench run options and tests]\n");
		return 2;
	}
	int runs = atoi(argv[1]);
	int warmup = runs > 10 ? 5 : 1;
	/* The reports go nowhere; this driver's numbers go to stderr. */
	int null = open("/dev/null", O_WRONLY);
	dup2(null, STDOUT_FILENO);
	close(null);

	int fd0 = 0, child_max = 0, failed = 0;
	long rss0 = 0, rss_max = 0;
	for (int i = 1; i <= runs; i++) {
		char *args[64];
		int n = 0;
		for (int k = 2; k < argc && n < 63; k++)
			args[n++] = argv[k];
		args[n] = NULL;
		int rc = opts_command("run")->exec(n, args);
		int fds = count_fds(), kids = count_children();
		long rss = rss_kib();
		if (rc != 0) {
			fprintf(stderr, "soak: run %d exited %d\n", i, rc);
			failed++;
		}
		if (i == warmup) {
			fd0 = fds;
			rss0 = rss;
		}
		if (kids > child_max)
			child_max = kids;
		if (rss > rss_max)
			rss_max = rss;
		if (i == 1 || i == warmup || i % 20 == 0 || i == runs)
			fprintf(stderr, "soak: run %3d: %d fds, %ld KiB resident, %d children\n", i, fds,
				rss, kids);
		if (i > warmup && fds > fd0) {
			fprintf(stderr, "soak: run %d: %d fds open, %d after run %d: a leak\n", i, fds,
				fd0, warmup);
			failed++;
		}
		if (kids > 0) {
			fprintf(stderr, "soak: run %d: %d child processes left\n", i, kids);
			failed++;
		}
	}
	long growth = rss_max - rss0;
	fprintf(stderr, "soak: %d runs in one process: fds %d after run %d, %d at the end; "
		"resident %ld KiB after run %d, at most %ld KiB (+%ld KiB); children at most %d\n",
		runs, fd0, warmup, count_fds(), rss0, warmup, rss_max, growth, child_max);
	/* The heap may settle a little; a leak of even 1 KiB per run would show as more. */
	if (growth > 1024) {
		fprintf(stderr, "soak: resident memory grew by %ld KiB over %d runs\n", growth,
			runs - warmup);
		failed++;
	}
	return failed ? 1 : 0;
}
