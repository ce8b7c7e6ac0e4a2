/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a plan asks of the machine: which kernel and boot this is, a quiet machine, the next boot chosen once, a reboot, a unit that steps at boot. */
#ifndef KBENCH_PLAN_MACHINE_H
#define KBENCH_PLAN_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct plan;

/* This boot as the kernel says it: /proc/sys/kernel/osrelease (uname -r's),
 * /proc/sys/kernel/random/boot_id, /proc/cmdline. A private mount namespace
 * with files bound over them stands in for another kernel and another boot.
 * 0, or -1 with err filled. */
struct plan_this_boot {
	char release[96];
	char boot_id[40];
	char cmdline[512];
};
int plan_this_boot(struct plan_this_boot *b, char *err, size_t errlen);

/* Waits for the machine to settle after boot: other processes under
 * OTHERS_BUSY_CPU for quiet seconds in a row, at most cap seconds (0: no
 * wait). Progress lines to out (NULL: none). 0 settled, 1 not, with why
 * ("still busy after 300 s: other processes used 1.6 CPUs"). */
int plan_settle(double cap, double quiet, FILE *out, char *why, size_t whylen);

/* Asks the boot loader to start side's kernel at the next boot only (its
 * entry from the boot menu read now, or the one plan new found; grub-reboot
 * or bootctl set-oneshot from PATH), leaving its default as it is. what:
 * the command run, for the user. 0, or -1 with err filled. */
int plan_choose_next(const struct plan *p, char side, char *what, size_t wsize, char *err, size_t errlen);

/* Reboots: systemctl reboot where systemd is init, else reboot, from PATH. 0 (it was asked), or -1. */
int plan_reboot(char *err, size_t errlen);

/* The unit that runs "kbench plan step NAME --reboot" at each boot until the
 * plan ends: its name, and its text (kbench: the program's absolute path;
 * store: the run store it writes to). */
void plan_unit_name(const char *plan, char *buf, size_t size);
void plan_unit_text(const struct plan *p, const char *kbench, const char *store, char *buf, size_t size);
/* Writes the unit into /etc/systemd/system, checks it with systemd-analyze
 * verify when that is there, and enables it (systemctl). 0, or -1 with err
 * filled: no systemd, not root, a unit that does not verify. */
int plan_unit_install(const struct plan *p, char *err, size_t errlen);
/* Disables and removes it (nothing to do when it is not there: 0). */
int plan_unit_remove(const char *plan, char *err, size_t errlen);

#endif
