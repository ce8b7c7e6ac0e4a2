/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's side of a plan: the kernel's own files for this boot, a settle wait, the boot loader's one-shot entry, reboot, and the systemd unit. */
#include "plan_machine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bootcfg.h"
#include "command.h"
#include "fileio.h"
#include "plan.h"
#include "store.h"
#include "telemetry/others.h"
#include "telemetry/sysroot.h"

/* Where plan install writes its unit: the administrator's units. */
#define UNIT_DIR "/etc/systemd/system"

static int first_line(const char *path, char *buf, size_t size, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (!fgets(buf, (int)size, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int plan_this_boot(struct plan_this_boot *b, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	if (first_line("/proc/sys/kernel/osrelease", b->release, sizeof b->release, err, errlen) < 0 ||
	    first_line("/proc/sys/kernel/random/boot_id", b->boot_id, sizeof b->boot_id, err, errlen) < 0 ||
	    first_line("/proc/cmdline", b->cmdline, sizeof b->cmdline, err, errlen) < 0)
		return -1;
	if (!b->release[0] || !b->boot_id[0]) {
		snprintf(err, errlen, "the kernel names no release or boot id (/proc/sys/kernel/osrelease, random/boot_id)");
		return -1;
	}
	return 0;
}

int plan_settle(double cap, double quiet, FILE *out, char *why, size_t whylen)
{
	if (!(cap > 0))
		return 0;
	struct timespec one = { 1, 0 };
	struct others_snap a, b;
	if (others_snap(&a) < 0) {
		snprintf(why, whylen, "/proc/stat cannot be read: the machine's load is not known");
		return 1;
	}
	double waited = 0, calm = 0, last = NAN;
	while (waited < cap) {
		nanosleep(&one, NULL);
		others_snap(&b);
		last = others_cpu(&a, &b);
		a = b;
		waited += 1;
		calm = last < OTHERS_BUSY_CPU ? calm + 1 : 0;
		if (calm >= quiet)
			return 0;
		if (out && (int)waited % 10 == 0)
			fprintf(out, "kbench: waiting for the machine to settle after boot: other processes used %.2f CPUs in the last second (%.0f of at most %.0f s)\n",
				last, waited, cap);
	}
	snprintf(why, whylen, "still busy after %.0f s: other processes used %.2f CPUs in the last second", cap, last);
	return 1;
}

static bool systemd_is_init(void)
{
	char comm[64] = "";
	sysroot_read_line("/proc/1/comm", comm, sizeof comm);
	return !strcmp(comm, "systemd");
}

int plan_choose_next(const struct plan *p, char side, char *what, size_t wsize, char *err, size_t errlen)
{
	int s = side == 'B';
	struct boot_menu m;
	char why[512];
	if (bootcfg_read(&m, sysroot(), why, sizeof why) < 0) {
		snprintf(err, errlen, "%s: boot %s by hand", why, p->kernel[s]);
		return -1;
	}
	const struct boot_entry *e = bootcfg_find(&m, p->entry[s][0] ? p->entry[s] : p->kernel[s], why, sizeof why);
	if (!e && p->release[s][0])
		e = bootcfg_find(&m, p->release[s], why, sizeof why);
	if (!e) {
		snprintf(err, errlen, "%s", why);
		bootcfg_free(&m);
		return -1;
	}
	const char *argv[4];
	bootcfg_oneshot_argv(&m, e, argv);
	snprintf(what, wsize, "%s %s%s%s", argv[0], argv[1], argv[2] ? " " : "", argv[2] ? argv[2] : "");
	char *out = NULL;
	int rc = command_run(argv, &out, 60, why, sizeof why);
	if (rc != 0) {
		if (rc > 0)
			snprintf(why, sizeof why, "exited %d: %.300s", rc, out ? out : "");
		snprintf(err, errlen, "%s: %s", what, why);
	}
	free(out);
	bootcfg_free(&m);
	return rc == 0 ? 0 : -1;
}

int plan_reboot(char *err, size_t errlen)
{
	const char *sd[] = { "systemctl", "reboot", NULL }, *plain[] = { "reboot", NULL };
	char why[300];
	char *out = NULL;
	int rc = command_run(systemd_is_init() ? sd : plain, &out, 60, why, sizeof why);
	if (rc != 0)
		snprintf(err, errlen, "%s: %s", systemd_is_init() ? "systemctl reboot" : "reboot",
			 rc > 0 ? (out && *out ? out : "it failed") : why);
	free(out);
	return rc == 0 ? 0 : -1;
}

void plan_unit_name(const char *plan, char *buf, size_t size)
{
	snprintf(buf, size, "kbench-plan-%s.service", plan);
}

void plan_unit_text(const struct plan *p, const char *kbench, const char *store, char *buf, size_t size)
{
	char path[4200];
	plan_path(p->name, path, sizeof path);
	/* Type=exec: the unit's job ends when the step starts, so the boot can
	 * finish (systemd-analyze time then has its answer) while the step
	 * waits for the machine to settle and makes its runs. */
	snprintf(buf, size,
		 "# Made by kbench plan install: at each boot, the next step of plan %s\n"
		 "# (measure this boot, choose the next kernel once, reboot). The step that\n"
		 "# ends the plan removes this unit; so does 'kbench plan uninstall %s'.\n"
		 "[Unit]\n"
		 "Description=kbench plan %s: measure this boot, then boot the next kernel\n"
		 "After=multi-user.target graphical.target\n"
		 "ConditionPathExists=%s\n"
		 "\n"
		 "[Service]\n"
		 "Type=exec\n"
		 "Environment=KBENCH_HOME=%s\n"
		 "ExecStart=%s plan step %s --reboot\n"
		 "TimeoutStartSec=infinity\n"
		 "\n"
		 "[Install]\n"
		 "WantedBy=multi-user.target\n",
		 p->name, p->name, p->name, path, store, kbench, p->name);
}

static int write_unit(FILE *f, void *arg)
{
	return fputs(arg, f) < 0 ? -1 : 0;
}

/* systemctl with one argument after the verb; its output in err when it fails. */
static int systemctl(const char *verb, const char *unit, char *err, size_t errlen)
{
	const char *argv[] = { "systemctl", verb, unit, NULL };
	char *out = NULL, why[300];
	int rc = command_run(argv, &out, 60, why, sizeof why);
	if (rc != 0)
		snprintf(err, errlen, "systemctl %s%s%s: %.300s", verb, unit ? " " : "", unit ? unit : "",
			 rc > 0 ? (out ? out : "") : why);
	free(out);
	return rc == 0 ? 0 : -1;
}

int plan_unit_install(const struct plan *p, char *err, size_t errlen)
{
	char comm[64] = "";
	sysroot_read_line("/proc/1/comm", comm, sizeof comm);
	if (strcmp(comm, "systemd")) {
		snprintf(err, errlen, "plan install adds a systemd unit, and systemd is not this system's init (%s is): "
			 "run 'kbench plan step %s' after each boot instead", comm[0] ? comm : "unknown", p->name);
		return -1;
	}
	if (geteuid() != 0) {
		snprintf(err, errlen, "plan install writes a unit to %s and reboots the machine: run it as root (sudo)", UNIT_DIR);
		return -1;
	}
	char exe[4096], name[128], path[4300], text[16384];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		snprintf(err, errlen, "cannot find kbench's own path (/proc/self/exe): %s", strerror(errno));
		return -1;
	}
	exe[n] = 0;
	plan_unit_name(p->name, name, sizeof name);
	snprintf(path, sizeof path, "%s/%s", UNIT_DIR, name);
	plan_unit_text(p, exe, store_dir(), text, sizeof text);
	if (file_write_atomic(path, write_unit, text, err, errlen) < 0)
		return -1;
	/* systemd's own reading of it, where its analyzer is installed: a unit
	 * it would only half understand is not left behind */
	const char *verify[] = { "systemd-analyze", "verify", path, NULL };
	char *out = NULL, why[300];
	int rc = command_run(verify, &out, 60, why, sizeof why);
	if (rc > 0 || (rc == 0 && out && *out)) {
		snprintf(err, errlen, "systemd-analyze verify %s: %.400s", path, out && *out ? out : "failed");
		free(out);
		unlink(path);
		return -1;
	}
	free(out);
	if (systemctl("daemon-reload", NULL, err, errlen) < 0 || systemctl("enable", name, err, errlen) < 0) {
		unlink(path);
		return -1;
	}
	return 0;
}

int plan_unit_remove(const char *plan, char *err, size_t errlen)
{
	char name[128], path[4300];
	plan_unit_name(plan, name, sizeof name);
	snprintf(path, sizeof path, "%s/%s", UNIT_DIR, name);
	if (access(path, F_OK) < 0)
		return 0;
	char why[512];
	/* disabled first: a unit removed while enabled leaves a dangling link */
	systemctl("disable", name, why, sizeof why);
	if (unlink(path) < 0) {
		snprintf(err, errlen, "cannot remove %s: %s", path, strerror(errno));
		return -1;
	}
	systemctl("daemon-reload", NULL, why, sizeof why);
	return 0;
}
