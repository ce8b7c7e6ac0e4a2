/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe corpus in one process (tests/system/telemetry_probes.sh): each converted tree bound over
 * /sys/class in turn, lm-sensors' `sensors` run on it, and kbench's own sensors report (what
 * `kbench sensors` prints) made as root and as an unprivileged user, without a kbench start each.
 *   probe_driver OUT TREES ID[=LOCALE]...   (as root, in a private mount namespace)
 * writes OUT/ID.lm, OUT/ID.root and OUT/ID.user; LOCALE is the one `sensors` runs in (the probe's). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "telemetry/source.h"

/* The user the report is made as the second time (nobody), as setpriv --reuid=65534 did. */
#define PROBE_USER 65534

/* Output of the child to OUT/ID.EXT; stderr beside it (a kbench error belongs in the report). */
static int probe_redirect(const char *out, const char *id, const char *ext, int keep_err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.%s", out, id, ext);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int err = keep_err ? fd : open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || err < 0 || dup2(fd, 1) < 0 || dup2(err, 2) < 0)
		return -1;
	return 0;
}

/* A child per report, so that each probe starts with libsensors as a fresh kbench has it (its
 * state is the process's) and the user's report runs with the user's credentials only. */
static int probe_report(const char *out, const char *id, const char *ext, int as_user)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (probe_redirect(out, id, ext, 1) < 0)
			_exit(3);
		if (as_user && (setgroups(0, NULL) < 0 || setresgid(PROBE_USER, PROBE_USER, PROBE_USER) < 0 ||
				setresuid(PROBE_USER, PROBE_USER, PROBE_USER) < 0)) {
			printf("probe_driver: cannot become user %d: %s\n", PROBE_USER, strerror(errno));
			_exit(3);
		}
		char err[240];
		if (telemetry_show_sources(stdout, NULL, err, sizeof err) < 0)
			printf("kbench: %s\n", err);
		fflush(stdout);
		_exit(0);
	}
	int st;
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* lm-sensors' own `sensors` on the tree, in the locale the probe was printed in. */
static int probe_lm(const char *out, const char *id, const char *locale)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (probe_redirect(out, id, "lm", 0) < 0)
			_exit(127);
		setenv("LC_ALL", locale, 1);
		execlp("sensors", "sensors", (char *)NULL);
		_exit(127);
	}
	int st;
	/* sensors exits 1 when a tree has no chips it knows: its output is what is judged */
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) != 127 ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: probe_driver OUT TREES ID[=LOCALE]...\n");
		return 2;
	}
	const char *out = argv[1], *trees = argv[2];
	int failed = 0;
	for (int i = 3; i < argc; i++) {
		char id[256], tree[4096];
		const char *eq = strchr(argv[i], '='), *locale = eq ? eq + 1 : "C";
		snprintf(id, sizeof id, "%.*s", eq ? (int)(eq - argv[i]) : (int)strlen(argv[i]), argv[i]);
		snprintf(tree, sizeof tree, "%s/%s/class", trees, id);
		if (mount(tree, "/sys/class", NULL, MS_BIND, NULL) < 0) {
			fprintf(stderr, "probe_driver: %s: cannot bind over /sys/class: %s\n", id, strerror(errno));
			return 1;
		}
		if (probe_lm(out, id, locale) < 0 || probe_report(out, id, "root", 0) < 0 ||
		    probe_report(out, id, "user", 1) < 0) {
			fprintf(stderr, "probe_driver: %s: a child failed\n", id);
			failed++;
		}
		if (umount2("/sys/class", 0) < 0) {
			fprintf(stderr, "probe_driver: %s: cannot unmount /sys/class: %s\n", id, strerror(errno));
			return 1;
		}
	}
	return failed ? 1 : 0;
}
